"""The label editor: pi's /label for the selected entry, with the session's labels offered as you type."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCompleter, QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget


class LabelDialog(QDialog):
    """Asks for a label; emits `chosen(key, text)` with text None to clear it.

    An empty label clears, as in pi. The dialog is window-modal but opened with
    `open()`, so the window keeps painting (and pi may keep appending) meanwhile.
    """

    chosen = Signal(str, object)

    def __init__(self, key: str, title: str, current: str | None, known: Iterable[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        self.setWindowTitle("Label")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        target = QLabel(self)
        target.setTextFormat(Qt.TextFormat.PlainText)  # the title quotes the session's text
        target.setText(f"{key}  {title}")
        target.setWordWrap(True)
        self.edit = QLineEdit(current or "", self)
        self.edit.setPlaceholderText("label (empty clears it)")
        self.edit.selectAll()
        completer = QCompleter(sorted(set(known), key=str.casefold), self.edit)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.edit.setCompleter(completer)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.set_button = self.buttons.addButton("Set Label", QDialogButtonBox.ButtonRole.AcceptRole)
        self.set_button.setDefault(True)
        self.clear_button = self.buttons.addButton("Clear Label", QDialogButtonBox.ButtonRole.DestructiveRole)
        self.clear_button.setEnabled(bool(current))
        self.buttons.accepted.connect(self._set)
        self.buttons.rejected.connect(self.reject)
        self.clear_button.clicked.connect(self._clear)
        layout = QVBoxLayout(self)
        layout.addWidget(target)
        layout.addWidget(self.edit)
        layout.addWidget(self.buttons)
        self.resize(420, self.sizeHint().height())

    def _set(self) -> None:
        self.accept()
        self.chosen.emit(self.key, self.edit.text().strip() or None)

    def _clear(self) -> None:
        self.accept()
        self.chosen.emit(self.key, None)
