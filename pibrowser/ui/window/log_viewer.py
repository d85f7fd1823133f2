"""Help ▸ Show Log: the log file's text, read-only, as plain text (it quotes paths and session text)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QTextCursor
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from ...log_file import read_log
from ..common.widgets import fit_dialog


class LogViewer(QDialog):
    """The last part of the log at `path`, scrolled to its end; Reload reads it again. Public: `text`
    (the QPlainTextEdit), `reload()`."""

    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.setWindowTitle("pibrowser Log")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        fit_dialog(self, 900, 520)
        where = QLabel(str(path))
        where.setTextFormat(Qt.TextFormat.PlainText)
        where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # A QPlainTextEdit holds plain text only: nothing in the log is ever read as markup.
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton("Reload", QDialogButtonBox.ButtonRole.ActionRole).clicked.connect(self.reload)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(where)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        self.reload()

    def reload(self) -> None:
        try:
            text = read_log(self.path)
        except FileNotFoundError:
            text = "Nothing is logged yet."
        except OSError as error:
            text = f"The log cannot be read: {error.strerror or error}"
        self.text.setPlainText(text)
        self.text.moveCursor(QTextCursor.MoveOperation.End)  # the newest lines
