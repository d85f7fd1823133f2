"""The warnings panel: every skipped or suspicious line, with file and line."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from ..model import Session
from .context.safe_text import safe_tip
from .controller import SessionController


MAX_LISTED = 5_000  # a badly broken file can have a problem per line; the first thousands say enough


class ProblemsPanel(QListWidget):
    """Lists the open session's problems; activating one selects the entry on that line."""

    def __init__(self, controller: SessionController) -> None:
        super().__init__()
        self.controller = controller
        self.setObjectName("problemsPanel")
        self.setAlternatingRowColors(True)
        self.setUniformItemSizes(True)
        self._shown_for: tuple[Session, int] | None = None
        controller.sessionChanged.connect(self.show_session)
        controller.problemsChanged.connect(self.show_session)
        controller.entriesAppended.connect(self._appended)
        controller.loadFailed.connect(self.show_failure)
        self.itemActivated.connect(self._activate)

    def show_session(self, session: Session | None) -> None:
        self.clear()
        self._shown_for = (session, len(session.problems)) if session is not None else None
        if session is None:
            return
        by_line = {entry.line: entry.id for entry in session.file_order}
        for problem in session.problems[:MAX_LISTED]:
            item = QListWidgetItem(str(problem))
            item.setData(Qt.ItemDataRole.UserRole, by_line.get(problem.line))
            item.setToolTip(safe_tip(str(problem)))
            self.addItem(item)
        hidden = len(session.problems) - MAX_LISTED
        if hidden > 0:
            more = QListWidgetItem(f"… and {hidden:,} more problems in {session.path} (pibrowser context FILE lists them all on stderr)")
            more.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.addItem(more)

    def _appended(self, session: Session, ids: list) -> None:
        # pi appends often; only new problems are worth rebuilding the list for.
        if self._shown_for != (session, len(session.problems)):
            self.show_session(session)

    def show_failure(self, message: str) -> None:
        # A failed reload leaves the shown session (and its warnings) in place.
        if not self.controller.failure_is_background():
            self.clear()
            self._shown_for = None
        self.insertItem(0, QListWidgetItem(message))

    def _activate(self, item: QListWidgetItem) -> None:
        key = item.data(Qt.ItemDataRole.UserRole)
        if key:
            self.controller.select(key)
