"""Rounded frames drawn the cheap way are the pixels Qt's antialiased rounded rectangle draws."""

import pytest
from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen

from pibrowser.ui.cards.frames import _plain, paint_rounded


def drawn(width: int, height: int, paint) -> QImage:
    image = QImage(width + 6, height + 6, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#fdfcfb"))
    painter = QPainter(image)
    paint(painter, QRect(3, 3, width, height))
    painter.end()
    return image


def by_qt(radius: float, fill: QColor, pen: QPen):
    def paint(painter: QPainter, rect: QRect) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(pen)
        painter.setBrush(fill)
        painter.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)

    return paint


@pytest.mark.parametrize("radius", [5, 7, 2.5])
@pytest.mark.parametrize(
    "pen", [QPen(QColor(200, 150, 100), 1), QPen(QColor(40, 90, 200), 2), QPen(QColor(90, 90, 90), 1, Qt.PenStyle.DashLine)]
)
def test_a_cheap_frame_is_qts_rounded_rectangle_pixel_for_pixel(qtbot, radius, pen):
    fill = QColor(250, 240, 230)
    for width in (3, 18, 19, 40, 121, 536):
        for height in (2, 17, 20, 33, 300, 401, 1335, 2000):
            ours = drawn(width, height, lambda painter, rect: paint_rounded(painter, rect, radius, fill, pen))
            assert ours == drawn(width, height, by_qt(radius, fill, pen)), (width, height)
    # The cheap way is the one taken for a solid one-pixel pen on a frame with a middle.
    image = QImage(600, 600, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    assert _plain(painter, QRect(0, 0, 536, 300), 9, fill, pen) == (pen.widthF() == 1.0 and pen.style() == Qt.PenStyle.SolidLine)
    painter.end()
