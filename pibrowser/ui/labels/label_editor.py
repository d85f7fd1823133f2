"""Label edits from the window: set, clear, the wait for pi, failure, and Edit ▸ Undo for them.

A label is appended as pi's /label appends it (model.writing.label_writer),
through the controller, which links and announces the new line with whatever pi
appended first. When pi is in the middle of writing a line, the write waits for
it on a timer (the window stays live): `waiting` says so, and the write ends in
`written` or `failed`. pi's files are append-only, so an undo never removes the
line written: it appends another, exactly as /label would for the old text (or
a clearing entry).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import QWidget

from ...model.text.describe import entry_title
from ...model.writing.label_writer import PATIENCE, WAITING_FOR_PI, LabelWrite, OldFormat

if TYPE_CHECKING:
    from ..control.controller import SessionController
    from .label_dialog import LabelDialog

log = logging.getLogger(__name__)


class LabelEditor(QObject):
    """The window's label edits and their undo stack.

    Public: `set(key, text)` (the user's edit, undoable), `write(key, label)` (one
    write), `edit_selected()` (the label dialog, as `dialog`), `clear_selected()`,
    `undo_stack`, `undo_action`, `redo_action`, `patience` (how long to wait for pi),
    `cancel()` (give up the label that waits).

    Signals
      waiting(message)   a label waits for pi to finish the line it is writing
      written(id)        the label entry is in the file
      failed(message)    a label could not be written (the file is as it was)
      cancelled()        the user gave up the label that waited: nothing was written
      old_format(reason) a label was refused on a version 1 or 2 file (pi rewrites it on opening): an
                         upgrade can be offered
    """

    waiting = Signal(str)
    written = Signal(str)
    failed = Signal(str)
    cancelled = Signal()
    old_format = Signal(str)

    def __init__(self, controller: SessionController, parent: QWidget) -> None:
        super().__init__(parent)
        self._window = parent  # where the undo actions' shortcuts live and the dialog opens
        self.controller = controller
        self.patience = PATIENCE
        self.dialog: LabelDialog | None = None
        self._waiting: LabelWrite | None = None  # the write that waits for pi, retried on a timer
        self.undo_stack = QUndoStack(self)
        self._undo_path: Path | None = None
        self.undo_action = self._stack_action(self.undo_stack.createUndoAction(parent, "&Undo"), QKeySequence.StandardKey.Undo)
        self.redo_action = self._stack_action(self.undo_stack.createRedoAction(parent, "&Redo"), QKeySequence.StandardKey.Redo)
        controller.changed.connect(self._on_change)

    def _stack_action(self, action: QAction, key: QKeySequence.StandardKey) -> QAction:
        action.setShortcut(QKeySequence(key))
        self._window.addAction(action)
        return action

    def _on_change(self, change) -> None:
        session = self.controller.session
        path = session.path if session is not None else None
        if change.replaced and path != self._undo_path:
            self.undo_stack.clear()  # undoing writes to the file the change was made in, only
            self._undo_path = path

    # ---- the user's edits ---------------------------------------------------------

    def edit_selected(self) -> None:
        """Ask for the selected entry's label (non-modal: the dialog's choice is written when made)."""
        key, session = self.controller.selected, self.controller.session
        if key is None or session is None:
            return
        from .label_dialog import LabelDialog

        known = (str(label) for label in session.labels.values())
        self.dialog = dialog = LabelDialog(key, entry_title(session.entries[key], 90), session.labels.get(key), known, self._window)
        dialog.chosen.connect(self.set)
        dialog.open()

    def clear_selected(self) -> None:
        key, session = self.controller.selected, self.controller.session
        if key is not None and session is not None and key in session.labels:
            self.set(key, None)

    def set(self, key: str, text: str | None) -> None:
        """Label `key` with `text` (None or "" clears it); undoable once the label is in the file."""
        session = self.controller.session
        previous = session.labels.get(key) if session is not None else None
        previous = str(previous) if previous not in (None, "") else None
        label = text or None
        command = LabelChange(self, key, previous, label) if label != previous else None
        try:
            written = self.write(key, label, command)
        except OldFormat:
            log.info("label for %s not written: the file is in an old format", key)
            self.old_format.emit("The label was not written.")
            return
        except Exception as error:  # noqa: BLE001 (reported) the file may have gone or become read-only
            self.report_failure(key, error)
            return
        if written is not None and command is not None:
            self.undo_stack.push(command)

    # ---- writing ----------------------------------------------------------------------

    def write(self, key: str, label: str | None, command: LabelChange | None = None) -> str | None:
        """Append a label entry as pi does (None or "" clears); the new entry's id.

        None when pi is in the middle of writing a line: the write then waits for it
        on a timer and ends in `written` (pushing `command`, if any, on the undo
        stack) or `failed`. Raises SessionLoadError when the label cannot be written now.
        """
        write = self.controller.workspace.label_write(key, label, self.patience)
        return self._attempt(write, command)

    def _attempt(self, write: LabelWrite, command: LabelChange | None) -> str | None:
        was_waiting = write.waiting
        try:
            entry_id = self.controller.append(lambda session: write.attempt())
        except Exception as error:
            write.close()
            if not was_waiting:
                raise
            self.report_failure(write.target_id, error)  # nobody is left to catch it: the timer called
            return None
        if entry_id is None:
            if not was_waiting:
                self.waiting.emit(WAITING_FOR_PI)
            self._waiting = write
            QTimer.singleShot(round(write.patience.step * 1000), self, lambda: self._retry(write, command))
            return None
        if was_waiting and command is not None:
            self.undo_stack.push(command)
        log.info(
            "%s: label of %s %s (entry %s)", write.session.path, write.target_id, "cleared" if write.label is None else "set", entry_id
        )
        self.written.emit(entry_id)
        return entry_id

    def _retry(self, write: LabelWrite, command: LabelChange | None) -> None:
        if write is self._waiting:  # not cancelled meanwhile
            self._waiting = None
            self._attempt(write, command)

    def cancel(self) -> bool:
        """Give up the label that waits for pi: nothing is written. False when none waits."""
        write, self._waiting = self._waiting, None
        if write is None:
            return False
        write.close()
        log.info("%s: label of %s cancelled while pi was writing", write.session.path, write.target_id)
        self.cancelled.emit()
        return True

    def report_failure(self, key: str, error: Exception) -> None:
        """A label that could not be written: logged, and told by `failed`."""
        log.warning("label for %s not written: %s", key, error)
        self.failed.emit(str(error))


class LabelChange(QUndoCommand):
    """`label` was set on `key` (None clears); undo puts `previous` back, redo sets `label` again.

    Pushed after the first write succeeded, so the push itself writes nothing.
    """

    def __init__(self, editor: LabelEditor, key: str, previous: str | None, label: str | None) -> None:
        super().__init__(f"Label “{label}”" if label else "Clear Label")
        self.editor, self.key, self.previous, self.label = editor, key, previous, label
        self._written = True

    def redo(self) -> None:
        if self._written:
            self._written = False
            return
        self._write(self.label)

    def undo(self) -> None:
        self._write(self.previous)

    def _write(self, label: str | None) -> None:
        # QUndoStack calls these from push/undo/redo, where an exception cannot travel: report it.
        try:
            self.editor.write(self.key, label)
        except Exception as error:  # noqa: BLE001 (reported) the file may have gone or become read-only
            self.editor.report_failure(self.key, error)
