"""Edit ▸ Undo for labels: a label change is undone by appending the entry that restores the previous label.

pi's files are append-only, so undoing never removes the line written: it writes
another, exactly as pi's /label would for the old text (or a clearing entry).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

if TYPE_CHECKING:
    from ..control.controller import SessionController


class LabelChange(QUndoCommand):
    """`label` was set on `key` (None clears); undo puts `previous` back, redo sets `label` again.

    Pushed after the first write succeeded, so the push itself writes nothing.
    """

    def __init__(self, controller: SessionController, key: str, previous: str | None, label: str | None) -> None:
        what = f"Label “{label}”" if label else "Clear Label"
        super().__init__(what)
        self.controller, self.key, self.previous, self.label = controller, key, previous, label
        self.error: Exception | None = None
        self._written = True

    def redo(self) -> None:
        if self._written:
            self._written = False
            return
        self._write(self.label)

    def undo(self) -> None:
        self._write(self.previous)

    def _write(self, label: str | None) -> None:
        # QUndoStack calls these from push/undo/redo, where an exception cannot travel; keep it for the window.
        try:
            self.error = None
            self.controller.set_label(self.key, label)
        except Exception as error:  # the file may have gone or become read-only
            self.error = error
