"""Whether text on screen reads: whole, wrapped at words, or ending in an ellipsis — never cut mid-word.

Measured with each widget's own font (QFontMetrics), from the widgets' state, not from pixels.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtGui import Qt as GuiQt  # mightBeRichText is QtGui's
from PySide6.QtWidgets import QLabel, QWidget


def shown_text(label: QLabel) -> str:
    """What a label draws: an eliding label's shortened text, else its text (rich text as plain)."""
    shown = getattr(label, "shown", None)
    if callable(shown):
        return shown()
    if label.textFormat() == Qt.TextFormat.RichText or (
        label.textFormat() == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(label.text())
    ):
        document = QTextDocument()
        document.setHtml(label.text())
        return document.toPlainText()
    return label.text()


def label_reads(label: QLabel) -> bool:
    """The label's text fits its room: on one line whole or ending in "…"; wrapped, each word fits the
    width and every line the height."""
    text = shown_text(label)
    if not text.strip():
        return True
    room = label.contentsRect()
    metrics = QFontMetrics(label.font())
    if label.wordWrap():
        words_fit = all(metrics.horizontalAdvance(word) <= room.width() + 1 for word in text.split())
        return words_fit and label.heightForWidth(label.width()) <= label.height() + 1
    lines = text.splitlines() or [text]
    fits = all(metrics.horizontalAdvance(line) <= room.width() + 1 for line in lines)
    return fits or text.endswith("…")


def unread_labels(root: QWidget) -> list[str]:
    """The labels under `root` that show and do not read, with their text and room."""
    found = []
    for label in root.findChildren(QLabel):
        if label.isVisibleTo(root) and not label_reads(label):
            found.append(f"{shown_text(label)!r} in {label.contentsRect().width()}×{label.height()} px")
    return found
