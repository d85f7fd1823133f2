"""Rounded frames (cards, tool-call boxes) drawn for less, to the same pixels.

An antialiased rounded rectangle as tall as a card costs its whole area in
rasterising, though only its four corners need antialiasing: with a one-pixel
solid pen on a pixel-aligned rectangle, the straight edges cover whole pixels
and the inside is one colour. `paint_rounded` fills those with plain rectangles
and draws only the corners antialiased; anything else (a thicker or dashed pen,
see-through colours, a transformed painter, a rectangle too small to have a
middle) is drawn as Qt would, at once.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen


def paint_rounded(painter: QPainter, rect: QRect, radius: float, fill: QColor, pen: QPen) -> None:
    """What an antialiased `drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)`
    with this pen and brush draws, pixel for pixel."""
    corner = math.ceil(radius) + 2  # the square at each corner that the arc (and its pen) stays inside
    if not _plain(painter, rect, corner, fill, pen):
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(pen)
        painter.setBrush(fill)
        painter.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
        painter.restore()
        return
    left, top, width, height = rect.x(), rect.y(), rect.width(), rect.height()
    painter.fillRect(QRect(left + 1, top + corner, width - 2, height - 2 * corner), fill)
    painter.fillRect(QRect(left + corner, top + 1, width - 2 * corner, corner - 1), fill)
    painter.fillRect(QRect(left + corner, top + height - corner, width - 2 * corner, corner - 1), fill)
    edge = pen.color()
    painter.fillRect(QRect(left + corner, top, width - 2 * corner, 1), edge)
    painter.fillRect(QRect(left + corner, top + height - 1, width - 2 * corner, 1), edge)
    painter.fillRect(QRect(left, top + corner, 1, height - 2 * corner), edge)
    painter.fillRect(QRect(left + width - 1, top + corner, 1, height - 2 * corner), edge)
    # Each corner: a small rounded rectangle with the same corner, drawn inside that corner's square only.
    side = 2 * corner + 2
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(pen)
    painter.setBrush(fill)
    for right in (False, True):
        for bottom in (False, True):
            x = left + width - corner if right else left
            y = top + height - corner if bottom else top
            painter.setClipRect(QRect(x, y, corner, corner))
            small_x = left + width - 0.5 - side if right else left + 0.5
            small_y = top + height - 0.5 - side if bottom else top + 0.5
            painter.drawRoundedRect(QRectF(small_x, small_y, side, side), radius, radius)
    painter.restore()


def _plain(painter: QPainter, rect: QRect, corner: int, fill: QColor, pen: QPen) -> bool:
    """Whether the cheap way draws exactly what Qt would."""
    return (
        pen.style() == Qt.PenStyle.SolidLine
        and pen.widthF() == 1.0
        and pen.color().alpha() == 255
        and fill.alpha() == 255
        and pen.brush().style() == Qt.BrushStyle.SolidPattern
        and painter.transform().isIdentity()
        and not painter.hasClipping()
        and rect.width() >= 2 * corner + 2
        and rect.height() >= 2 * corner + 2
    )
