"""Preferences: the terminal that "Continue in pi" opens (kept in QSettings)."""

from __future__ import annotations

import os

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from ...model.library.launch import FALLBACK_TERMINALS, find_terminal

TERMINAL_SETTING = "continue/terminal"  # the terminal Continue in pi opens, when the user named one


class PreferencesDialog(QDialog):
    """Non-modal; `terminal_edit` holds the command, saved on OK (empty: choose automatically)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.terminal_edit = QLineEdit(QSettings().value(TERMINAL_SETTING) or "")
        detected = find_terminal(None, os.environ)
        self.terminal_edit.setPlaceholderText(" ".join(detected) if detected else "none found")
        self.terminal_edit.setClearButtonEnabled(True)
        note = QLabel(
            "The terminal “Continue in pi” starts pi in. Empty: $TERMINAL, then "
            + ", ".join(FALLBACK_TERMINALS)
            + " (on macOS, Terminal.app). A bare name gets the arguments that terminal is known to take; "
            "with arguments of your own (e.g. “alacritty -e”), pi's command follows them."
        )
        note.setTextFormat(Qt.TextFormat.PlainText)
        note.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Terminal:", self.terminal_edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.resize(520, self.sizeHint().height())

    def accept(self) -> None:
        text = self.terminal_edit.text().strip()
        if text:
            QSettings().setValue(TERMINAL_SETTING, text)
        else:
            QSettings().remove(TERMINAL_SETTING)
        super().accept()
