"""A text too long for a card, in a window of its own a page at a time."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..common.safe_text import clean, plain
from ..common.widgets import fit_dialog, plain_label


class TextViewer(QDialog):
    """A huge text, shown a page at a time (plain, inert); Copy takes all of it."""

    PAGE = 200_000

    def __init__(self, title: str, text: str, parent: QWidget | None = None, monospace: bool = False) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(plain(title))
        fit_dialog(self, 900, 700)
        self.text = text
        self.page = 0
        self.pages = max(1, -(-len(text) // self.PAGE))
        layout = QVBoxLayout(self)
        layout.addLayout(self._build_bar())
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        if monospace:
            self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        layout.addWidget(self.view, 1)
        self.show_page(0)

    def _build_bar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        self.previous = QPushButton("◀ Previous")
        self.next = QPushButton("Next ▶")
        self.position = plain_label("", muted=True)
        self.wrap = QCheckBox("Wrap lines")
        self.wrap.setChecked(True)
        copy = QPushButton("Copy all")
        copy.setObjectName("copyAll")
        copy.setToolTip("Copy the complete text, not just this page")
        copy.clicked.connect(lambda: QApplication.clipboard().setText(self.text))
        self.previous.clicked.connect(lambda: self.show_page(self.page - 1))
        self.next.clicked.connect(lambda: self.show_page(self.page + 1))
        self.wrap.toggled.connect(self._wrap)
        for widget in (self.previous, self.next, self.position):
            bar.addWidget(widget)
        bar.addStretch(1)
        bar.addWidget(self.wrap)
        bar.addWidget(copy)
        return bar

    def show_page(self, page: int) -> None:
        self.page = max(0, min(page, self.pages - 1))
        start = self.page * self.PAGE
        chunk, _ = clean(self.text[start : start + self.PAGE], self.PAGE)
        self.view.setPlainText(chunk)
        end = min(len(self.text), start + self.PAGE)
        self.position.setText(f"characters {start + 1:,}–{end:,} of {len(self.text):,} · page {self.page + 1} of {self.pages}")
        self.previous.setEnabled(self.page > 0)
        self.next.setEnabled(self.page < self.pages - 1)

    def _wrap(self, on: bool) -> None:
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth if on else QPlainTextEdit.LineWrapMode.NoWrap)
