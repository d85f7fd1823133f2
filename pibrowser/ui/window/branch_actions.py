"""Acting on a branch: extract it as a new pi session, or continue it in pi in a terminal.

Both write the branch root…selected entry the way pi's createBranchedSession
does, into the original's folder, off the GUI thread (a long path is tens of
megabytes). Extracting then offers to open the new session; continuing starts
`pi --session NEWFILE` in the configured terminal. Every message is non-modal
and plain text (paths and ids come from the user's files).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, Qt, QThreadPool, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMessageBox

from ...model.writing.extract import ExtractError, branch_of, default_folder, write_branch
from ...model.library.launch import continue_in_pi, launch_problem
from ...model.workspace import Change
from ..control.job import Job
from .preferences_dialog import TERMINAL_SETTING

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ..control.controller import SessionController

log = logging.getLogger(__name__)


class NothingToWrite(Exception):
    """The branch holds no conversation yet; pi writes no file before one."""


class ExtractJob(Job):
    """Writes the branch to `key` as a new session: (the file written, the branch's cwd).
    Tagged with whether pi is to continue it."""

    expected = (ExtractError, NothingToWrite)
    failure_text = "The branch could not be written"

    def __init__(self, session: Session, key: str, continuing: bool) -> None:
        super().__init__(continuing)
        self.session, self.key = session, key

    def work(self) -> tuple[Path, str]:
        branch = branch_of(self.session, self.key)
        if not branch.has_conversation:
            raise NothingToWrite(
                f"Nothing written: the branch to {self.key} holds no user or assistant message yet, and pi writes no file before one."
            )
        return write_branch(branch, default_folder(self.session)), branch.header["cwd"]


class BranchActions(QObject):
    """The actions and what they do. Public for callers and tests: `extract_action`,
    `continue_action`, `continue_leaf_action`, `preferences_action`, `last_written`, `last_message`, `message_box`."""

    finished = Signal(str)  # one line saying what happened, once a run is over

    def __init__(self, window: QMainWindow, controller: SessionController) -> None:
        super().__init__(window)
        self.window, self.controller = window, controller
        self.last_written: Path | None = None
        self.last_message = ""
        self.message_box: QMessageBox | None = None
        self.extract_action = self._action(
            "E&xtract Branch as New Session…",
            lambda: self.start(continuing=False),
            "Write the path to the selected entry as a new pi session file, as pi's /fork does",
        )
        self.continue_action = self._action(
            "Continue in &pi…", lambda: self.start(continuing=True), "Write the branch as a new session and resume it with pi in a terminal"
        )
        self.continue_leaf_action = self._action(
            "Continue Current &Leaf in pi…",
            lambda: self.start(continuing=True, at_leaf=True),
            "Write the branch to the session's current leaf as a new session and resume it with pi",
        )
        self.preferences_action = self._action("&Preferences…", self.show_preferences, "The terminal that Continue in pi opens")
        self.preferences_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        controller.changed.connect(self._on_change)
        self._enable()

    def _action(self, text: str, slot, tip: str) -> QAction:
        action = QAction(text, self.window)
        action.setStatusTip(tip)
        action.triggered.connect(slot)
        return action

    def _on_change(self, change: Change) -> None:
        if change.replaced or change.selection or change.appended:
            self._enable()  # an append can move the leaf Continue Current Leaf writes

    def _enable(self) -> None:
        for action in (self.extract_action, self.continue_action):
            action.setEnabled(self.controller.selected is not None)
        self.continue_leaf_action.setEnabled(self.controller.session is not None and self.controller.session.leaf_id is not None)

    # ---- extracting --------------------------------------------------------------

    def start(self, continuing: bool, at_leaf: bool = False) -> None:
        session = self.controller.session
        key = (session.leaf_id if session is not None else None) if at_leaf else self.controller.selected
        if session is None or key is None:
            return
        problem = launch_problem(configured=QSettings().value(TERMINAL_SETTING) or None) if continuing else None
        if problem is not None:
            self.last_written = None  # checked first: no file is left behind for a pi that cannot start
            self._finish(f"{problem}: nothing written", QMessageBox.Icon.Warning, "Continue in pi")
            return
        job = ExtractJob(session, key, continuing)
        job.signals.done.connect(self._extracted)  # slots of this GUI-thread object: run on the GUI thread
        job.signals.failed.connect(self._not_extracted)
        self._say(f"Writing the branch to {key}…")
        QThreadPool.globalInstance().start(job)

    def _not_extracted(self, problem: str, continuing: bool) -> None:
        self.last_written = None
        self._finish(problem, QMessageBox.Icon.Warning, "Branch not written")

    def _extracted(self, result: tuple[Path, str], continuing: bool) -> None:
        written, cwd = result
        self.last_written = written
        log.info("branch written to %s", written)
        sessions = getattr(self.window, "sessions", None)
        if sessions is not None:
            sessions.populate()  # the new file shows under its original, as a fork
        if continuing:
            configured = QSettings().value(TERMINAL_SETTING) or None
            started = continue_in_pi(written, cwd, configured=configured)
            launch = started.launch
            if started.problem or launch is None:
                self._finish(started.problem or "pi was not started", QMessageBox.Icon.Warning, "Continue in pi")
            else:
                self._finish(f"Started pi on {written.name} in {Path(launch.argv[0]).name}", None, "")
            return
        self._offer_to_open(written)

    def _offer_to_open(self, written: Path) -> None:
        box = self._box(QMessageBox.Icon.Information, "Branch extracted", f"Wrote the new session\n{written}\n\nOpen it now?")
        box.setStandardButtons(QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Close)
        box.button(QMessageBox.StandardButton.Open).clicked.connect(lambda: self._open(written))
        box.open()
        self._say(f"Wrote {written}")
        self.finished.emit(self.last_message)

    def _open(self, written: Path) -> None:
        opener = getattr(self.window, "open_path", None)
        (opener or self.controller.open)(written)

    def _finish(self, text: str, icon, title: str) -> None:
        self._say(text)
        if icon is not None:
            self._box(icon, title, text).open()
        self.finished.emit(text)

    def _box(self, icon, title: str, text: str) -> QMessageBox:
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self.window)
        box.setTextFormat(Qt.TextFormat.PlainText)  # paths and ids come from files
        self.message_box = box
        return box

    def _say(self, text: str) -> None:
        self.last_message = text
        self.window.statusBar().showMessage(text, 15_000)

    # ---- preferences ------------------------------------------------------------------

    def show_preferences(self) -> None:
        from .preferences_dialog import PreferencesDialog

        self.preferences = PreferencesDialog(self.window)
        self.preferences.open()
