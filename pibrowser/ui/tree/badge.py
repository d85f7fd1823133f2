"""A badge: short text on a rounded pill, beside a node or a fold."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter


def pill(painter: QPainter, x: float, text: str, font: QFont, metrics: QFontMetricsF, bg: QColor, fg: QColor) -> float:
    """Draw a badge starting at x, centred on y=0; return its width."""
    width = metrics.horizontalAdvance(text) + 8
    height = metrics.height() + 1
    rect = QRectF(x, -height / 2, width, height)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(bg)
    painter.drawRoundedRect(rect, height / 2, height / 2)
    painter.setPen(fg)
    painter.setFont(font)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
    return width
