"""The warnings panel: every skipped or suspicious line, with file and line."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from ...model.session.problems import Problem
from ...model.workspace import Change
from ..common.safe_text import safe_tip
from ..control.controller import SessionController


MAX_LISTED = 5_000  # a badly broken file can have a problem per line; the first thousands say enough


def problem_text(problem: Problem, shown: Path) -> str:
    """A problem as the list shows it: line and reason, the path only when it is not the open file's."""
    where = f"line {problem.line}" if problem.line is not None else ""
    if problem.path != shown:
        where = f"{problem.path}:{problem.line}" if problem.line is not None else str(problem.path)
    return f"{where}: {problem.reason}" if where else problem.reason


def reason_first(message: str, path: Path | None) -> str:
    """ "PATH: reason" as "reason — PATH": a long path would push the reason out of sight."""
    prefix = f"{path}: " if path is not None else None
    if prefix is None or not message.startswith(prefix):
        return message
    return f"{message[len(prefix) :]} — {path}"


class ProblemsPanel(QListWidget):
    """Lists the open session's problems; activating one selects the entry on that line."""

    def __init__(self, controller: SessionController) -> None:
        super().__init__()
        self.controller = controller
        self.setObjectName("problemsPanel")
        self.setAlternatingRowColors(True)
        self.setUniformItemSizes(True)
        controller.changed.connect(self._on_change)
        controller.loadFailed.connect(self.show_failure)
        self.itemActivated.connect(self._activate)

    def _on_change(self, change: Change) -> None:
        # pi appends often; only a new session or new problems are worth rebuilding the list for.
        if change.replaced or change.problems or change.problems_appended:
            self.refresh()

    def refresh(self) -> None:
        """List the open session's problems afresh."""
        self.clear()
        session = self.controller.session
        if session is None:
            return
        for problem in session.problems[:MAX_LISTED]:
            # The reason first: the path is the open file's (the window's title and status say it), in the tip.
            item = QListWidgetItem(problem_text(problem, session.path))
            # The line, not the id: Qt gives an id that is not a string (a JsKey) back as plain text.
            item.setData(Qt.ItemDataRole.UserRole, problem.line)
            item.setToolTip(safe_tip(str(problem)))
            self.addItem(item)
        hidden = len(session.problems) - MAX_LISTED
        if hidden > 0:
            more = QListWidgetItem(f"… and {hidden:,} more problems in {session.path} (pibrowser context FILE lists them all on stderr)")
            more.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.addItem(more)

    def show_failure(self, message: str) -> None:
        # A failed reload leaves the shown session (and its warnings) in place.
        if not self.controller.failure_is_background():
            self.clear()
        item = QListWidgetItem(reason_first(message, self.controller.failed_path))
        item.setToolTip(safe_tip(message))
        self.insertItem(0, item)

    def _activate(self, item: QListWidgetItem) -> None:
        session = self.controller.session
        entry = session.entry_at_line(item.data(Qt.ItemDataRole.UserRole)) if session is not None else None
        if entry is not None:
            self.controller.select(entry.id)
