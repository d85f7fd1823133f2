"""File ▸ Upgrade to pi's Current Format: rewriting an open version 1 or 2 session as pi's migration would.

Offered while such a file is open, and when a label is refused on one. The file
is rewritten with the ids the window shows (writing/upgrade.py), the original
kept beside it as FILE.v1.bak, and the session read again. Every message is
non-modal and plain text (paths come from the user's files).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMessageBox

from ...model.writing.upgrade import UpgradeError, upgrade

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ..control.controller import SessionController


class UpgradeAction(QObject):
    """Public for callers and tests: `action`, `message_box` (the question shown), `last_message`."""

    def __init__(self, window: QMainWindow, controller: SessionController, interactive: bool = True) -> None:
        super().__init__(window)
        self.window, self.controller, self.interactive = window, controller, interactive
        self.action = QAction("&Upgrade to pi's Current Format…", window)
        self.action.setStatusTip("Rewrite this old-format session as pi would when it next opens it, keeping the original beside it")
        self.action.triggered.connect(lambda: self.offer())
        self.action.setEnabled(False)
        self.message_box: QMessageBox | None = None
        self.last_message = ""

    def refresh(self, session: Session | None) -> None:
        self.action.setEnabled(session is not None and session.migrated_from is not None)

    def offer(self, reason: str = "") -> None:
        """Ask before rewriting the open file; `reason` says why it is asked now (a refused label)."""
        session = self.controller.session
        if session is None or session.migrated_from is None:
            return
        text = (
            f"{session.path.name} is in pi's version {session.migrated_from} format. pi rewrites such a file when it next "
            "opens it" + (", with new ids for its entries" if session.migrated_from == 1 else "") + ".\n\n"
            "Upgrade rewrites it now exactly as pi would, keeping the ids shown here, and keeps the original beside it as "
            f"{session.path.name}.v{session.migrated_from}.bak."
        )
        if reason:
            text = f"{reason}\n\n{text}"
        if not self.interactive:
            self.last_message = text
            return
        box = QMessageBox(QMessageBox.Icon.Question, "Upgrade to pi's current format", text, QMessageBox.StandardButton.Cancel, self.window)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.addButton("Upgrade", QMessageBox.ButtonRole.AcceptRole)
        box.buttonClicked.connect(lambda button: self.run() if box.buttonRole(button) == QMessageBox.ButtonRole.AcceptRole else None)
        box.finished.connect(box.deleteLater)
        self.message_box = box
        box.open()

    def run(self) -> bool:
        """Upgrade the open file now and read it again; False (and a message) when it was not."""
        session = self.controller.session
        if session is None:
            return False
        try:
            done = upgrade(session.path)
        except UpgradeError as error:
            self._tell(str(error), warning=True)
            return False
        self.controller.reload()
        self._tell(f"Upgraded to pi's current format; the original is kept as {done.backup.name}")
        return True

    def _tell(self, message: str, warning: bool = False) -> None:
        self.last_message = message
        status = self.window.statusBar()
        status.showMessage(message, 10_000)
        if warning and self.interactive:
            box = QMessageBox(QMessageBox.Icon.Warning, "Not upgraded", message, QMessageBox.StandardButton.Ok, self.window)
            box.setTextFormat(Qt.TextFormat.PlainText)
            box.finished.connect(box.deleteLater)
            box.open()
