"""A word diff shown as plain text: removed words struck through on red, added ones on green.

The text is inserted through a cursor with character formats, never as HTML,
so nothing in a session is interpreted; escapes are made inert first.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QGuiApplication, QPalette, QTextCharFormat, QTextCursor

from ...model.compare.word_diff import ADDED, ELIDED, REMOVED, Segment, condensed
from ...model.text.terminal_text import strip_ansi
from ..context.text_piece import Text
from ..common.widgets import is_dark

# Characters shown at most; a diff of two huge tool results stays readable and cheap.
SHOWN_LIMIT = 12_000

REMOVED_COLORS = ("#fecaca", "#7f1d1d")  # light, dark
ADDED_COLORS = ("#bbf7d0", "#14532d")


def word_diff_text(segments: list[Segment]) -> Text:
    """The diff as a text piece (monospace, wrapped, the long unchanged stretches condensed)."""
    text = Text("", markdown=False, mono=True, title="Word diff")
    dark = is_dark()
    formats = {REMOVED: _format(REMOVED_COLORS[dark], strike=True), ADDED: _format(ADDED_COLORS[dark]), ELIDED: _elided_format()}
    cursor = QTextCursor(text.document)
    shown_segments = condensed(segments)
    shown = 0
    for op, part in shown_segments:
        room = SHOWN_LIMIT - shown
        if room <= 0:
            cursor.insertText(f"\n… ({sum(len(t) for _, t in shown_segments) - shown:,} more characters)", QTextCharFormat())
            break
        piece = strip_ansi(part[:room])
        cursor.insertText(piece, formats.get(op, QTextCharFormat()))
        shown += len(piece)
    return text


def _elided_format() -> QTextCharFormat:
    text_format = QTextCharFormat()
    text_format.setFontItalic(True)
    text_format.setForeground(QGuiApplication.palette().color(QPalette.ColorRole.PlaceholderText))
    return text_format


def _format(background: str, strike: bool = False) -> QTextCharFormat:
    text_format = QTextCharFormat()
    text_format.setBackground(QColor(background))
    text_format.setFontStrikeOut(strike)
    return text_format
