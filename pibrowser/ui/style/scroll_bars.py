"""Flat scroll bars under Fusion.

Fusion, the style Qt uses on Linux when the desktop offers none, paints a scroll bar
with gradients: 1.5 to 3 ms for a tall one, and every selection repaints the card
list's and the tree's bars, often twice. Under Fusion the application's scroll bars
are painted flat instead, in the palette's colours at paint time (a theme switch
needs nothing more). Only the painting changes: the parts' places are Fusion's, so
clicks, drags and the arrows behave as before. Other styles (the desktop's own) are
left as they are.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPalette, QPolygonF
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleFactory,
    QStyleOptionComplex,
    QStyleOptionSlider,
    QWidget,
)

from .colors import mix
from ..guard import guarded_paint


def use_flat_scroll_bars(app: QApplication) -> None:
    """Paint every scroll bar flat when the application runs under Fusion."""
    if not isinstance(app.style(), FlatScrollBars) and app.style().name().lower() == "fusion":
        app.setStyle(FlatScrollBars(QStyleFactory.create("fusion")))  # the application owns it


class FlatScrollBars(QProxyStyle):
    @guarded_paint
    def drawComplexControl(
        self, control: QStyle.ComplexControl, option: QStyleOptionComplex, painter: QPainter, widget: QWidget | None = None
    ) -> None:
        if control != QStyle.ComplexControl.CC_ScrollBar or not isinstance(option, QStyleOptionSlider):
            super().drawComplexControl(control, option, painter, widget)
            return
        palette = option.palette
        base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.fillRect(option.rect, mix(base, palette.color(QPalette.ColorRole.Window), 0.6))
        active = option.activeSubControls
        sunken = bool(option.state & QStyle.StateFlag.State_Sunken)
        hovered = bool(option.state & QStyle.StateFlag.State_MouseOver)
        vertical = option.orientation == Qt.Orientation.Vertical
        slider = self._part_rect(option, QStyle.SubControl.SC_ScrollBarSlider, widget)
        if slider.isValid() and option.state & QStyle.StateFlag.State_Enabled:
            on_slider = bool(active & QStyle.SubControl.SC_ScrollBarSlider)
            weight = 0.45 if on_slider and sunken else 0.55 if on_slider and hovered else 0.68
            painter.setBrush(mix(text, base, weight))
            inset = slider.adjusted(3, 2, -3, -2) if vertical else slider.adjusted(2, 3, -2, -3)
            radius = min(inset.width(), inset.height()) / 2
            painter.drawRoundedRect(inset, radius, radius)
        arrow = mix(text, base, 0.45)
        for part, pointing in ((QStyle.SubControl.SC_ScrollBarSubLine, -1), (QStyle.SubControl.SC_ScrollBarAddLine, 1)):
            rect = self._part_rect(option, part, widget)
            if rect.isValid() and not rect.isEmpty():
                painter.setBrush(mix(text, base, 0.3) if active & part and sunken else arrow)
                painter.drawPolygon(_chevron(rect, pointing, vertical))
        painter.restore()

    def _part_rect(self, option: QStyleOptionSlider, part: QStyle.SubControl, widget: QWidget | None) -> QRectF:
        # PySide6's stub makes QProxyStyle.subControlRect's widget required; Qt's is a pointer that defaults to null.
        return QRectF(self.subControlRect(QStyle.ComplexControl.CC_ScrollBar, option, part, widget))  # type: ignore[arg-type]


def _chevron(rect: QRectF, pointing: int, vertical: bool) -> QPolygonF:
    """A small triangle in `rect`, pointing up/left (-1) or down/right (1)."""
    c, size = rect.center(), min(rect.width(), rect.height()) / 4
    if vertical:
        return QPolygonF(
            [
                QPointF(c.x() - size, c.y() - pointing * size / 2),
                QPointF(c.x() + size, c.y() - pointing * size / 2),
                QPointF(c.x(), c.y() + pointing * size / 2),
            ]
        )
    return QPolygonF(
        [
            QPointF(c.x() - pointing * size / 2, c.y() - size),
            QPointF(c.x() - pointing * size / 2, c.y() + size),
            QPointF(c.x() + pointing * size / 2, c.y()),
        ]
    )
