"""A word diff shown as plain text: removed words struck through on red, added ones on green.

The text is inserted through a cursor with character formats, never as HTML,
so nothing in a session is interpreted; escapes are made inert first.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QFontDatabase, QPalette, QTextCharFormat, QTextCursor, QTextOption
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextEdit, QWidget

from ...model.text.terminal_text import strip_ansi
from ...model.compare.word_diff import ADDED, ELIDED, REMOVED, Segment, condensed
from ..context.widgets import is_dark

# Characters shown at most; a diff of two huge tool results stays readable and cheap.
SHOWN_LIMIT = 12_000
MAX_HEIGHT = 260

REMOVED_COLORS = ("#fecaca", "#7f1d1d")  # light, dark
ADDED_COLORS = ("#bbf7d0", "#14532d")


class WordDiffView(QTextEdit):
    def __init__(self, segments: list[Segment], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setAcceptRichText(False)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.segments = segments
        self._fill(condensed(segments))
        self.document().documentLayout().documentSizeChanged.connect(lambda size: self._fit())

    def _fill(self, segments: list[Segment]) -> None:
        dark = is_dark(self.palette())
        formats = {REMOVED: _format(REMOVED_COLORS[dark], strike=True), ADDED: _format(ADDED_COLORS[dark]), ELIDED: _elided_format(self)}
        cursor = QTextCursor(self.document())
        shown = 0
        for op, text in segments:
            room = SHOWN_LIMIT - shown
            if room <= 0:
                cursor.insertText(f"\n… ({sum(len(t) for _, t in segments) - shown:,} more characters)", QTextCharFormat())
                break
            piece = strip_ansi(text[:room])
            cursor.insertText(piece, formats.get(op, QTextCharFormat()))
            shown += len(piece)

    def shown_text(self) -> str:
        return self.toPlainText()

    def _fit(self) -> None:
        height = int(self.document().size().height()) + 2 * self.frameWidth() + 4
        self.setFixedHeight(min(MAX_HEIGHT, max(height, self.fontMetrics().height() + 10)))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()


def _elided_format(widget: QWidget) -> QTextCharFormat:
    text_format = QTextCharFormat()
    text_format.setFontItalic(True)
    text_format.setForeground(widget.palette().color(QPalette.ColorRole.PlaceholderText))
    return text_format


def _format(background: str, strike: bool = False) -> QTextCharFormat:
    text_format = QTextCharFormat()
    text_format.setBackground(QColor(background))
    text_format.setFontStrikeOut(strike)
    return text_format
