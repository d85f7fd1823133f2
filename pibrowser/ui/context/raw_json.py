"""The selected entry as it is in the file, as pretty JSON."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...model.session.entry import Entry
from ..common.formatting import display_json, pretty_json
from ..common.safe_text import plain
from ..common.widgets import plain_label
from ...model.text.plural import counted


class RawJsonView(QWidget):
    """The selected entry as pretty JSON: read-only, long values clipped, Copy takes it all."""

    DISPLAY_LIMIT = 2_000_000

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entry: Entry | None = None
        self._shown_for: Entry | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        bar = QHBoxLayout()
        self.info = plain_label("", muted=True, small=True)
        self.note = plain_label("", small=True)
        self.copy_button = QPushButton("Copy full JSON")
        self.copy_button.setToolTip("Copy the entry's complete JSON, nothing clipped")
        self.copy_button.clicked.connect(self.copy)
        bar.addWidget(self.info, 1)
        bar.addWidget(self.copy_button)
        layout.addLayout(bar)
        layout.addWidget(self.note)
        self.note.hide()
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        layout.addWidget(self.text, 1)

    def set_entry(self, entry: Entry | None) -> None:
        self.entry = entry
        if self.isVisible():
            self.refresh()

    def refresh(self) -> None:
        entry = self.entry
        if entry is self._shown_for:
            return
        self._shown_for = entry
        if entry is None:
            self.info.setText("No entry selected")
            self.text.setPlainText("")
            self.note.hide()
            return
        text, notes = self._display_text(entry)
        self.info.setText(f"Entry {entry.id} · {plain(entry.type)} · line {entry.line}")
        if notes:
            self.note.setText(" · ".join(notes) + " — “Copy full JSON” copies the complete text")
            self.note.show()
        else:
            self.note.hide()
        self.text.setPlainText(text)

    def _display_text(self, entry: Entry) -> tuple[str, list[str]]:
        """The JSON as shown, and a note for each way it falls short of the whole."""
        text, clipped = display_json(entry.data)
        notes = []
        if clipped:
            notes.append(f"{counted(clipped, 'long value')} clipped for display")
        if len(text) > self.DISPLAY_LIMIT:
            text = text[: self.DISPLAY_LIMIT] + "\n… [display stops here]"
            notes.append("display stops after 2,000,000 characters")
        return text, notes

    def full_text(self) -> str:
        return pretty_json(self.entry.data) if self.entry is not None else ""

    def copy(self) -> None:
        QApplication.clipboard().setText(self.full_text())

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.refresh()
