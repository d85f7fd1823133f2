"""The far-out view of a big tree: every node as a dot, painted in a few calls; and the layer of items it stands in for."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from .node_item import NodeItem
from .style import Style
from ..guard import guarded, guarded_paint


class NodeLayer(QGraphicsItem):
    """An empty parent for all node and fold items, so they hide and show in one call."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    @guarded(fallback=QRectF())
    def boundingRect(self) -> QRectF:
        return QRectF()

    @guarded_paint
    def paint(self, painter, option, widget=None) -> None:
        pass


class OverviewItem(QGraphicsItem):
    """Every node as a dot in its kind's colour, one filled path per colour, for far zoom.

    Thousands of Python paint calls per frame would stall the view; a handful of
    path fills cost almost nothing. Marks (selection, hits) are drawn on top.
    """

    def __init__(self, dots: list[tuple[QColor, QPainterPath]], bounds: QRectF) -> None:
        super().__init__()
        self._dots = dots
        self._bounds = bounds
        self.marks: list[tuple[QPointF, QColor]] = []
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(1)

    @guarded(fallback=QRectF())
    def boundingRect(self) -> QRectF:
        return self._bounds

    @guarded_paint
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        for color, path in self._dots:
            painter.fillPath(path, color)
            pen = QPen(color, 3.0)
            pen.setCosmetic(True)  # a dot keeps a few pixels however far out
            painter.strokePath(path, pen)
        painter.setPen(Qt.PenStyle.NoPen)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        radius = 5.0 / max(lod, 1e-3)
        for point, color in self.marks:
            painter.setBrush(color)
            painter.drawEllipse(point, radius, radius)


def overview(items: list, style: Style) -> OverviewItem:
    """The dot map of `items` (nodes in their kind's colour, folds muted)."""
    paths: dict[int, tuple[QColor, QPainterPath]] = {}
    muted = style.muted
    for item in items:
        color = style.kind_color[item.kind] if isinstance(item, NodeItem) else muted
        entry = paths.get(color.rgba())
        if entry is None:
            entry = paths[color.rgba()] = (color, QPainterPath())
        pos = item.pos()
        entry[1].addRect(QRectF(pos.x() - 9, pos.y() - 9, 18, 18))
    bounds = QRectF()
    for _, path in paths.values():
        bounds = bounds.united(path.boundingRect())
    return OverviewItem(list(paths.values()), bounds.adjusted(-40, -40, 40, 40))


def overview_marks(items: list, hit_units: set[int], selected: int | None, style: Style) -> list[tuple[QPointF, QColor]]:
    """What the dot map marks on top: the search hits, then the selection."""
    marks = [(items[unit].pos(), style.current_hit) for unit in hit_units]
    if selected is not None:
        marks.append((items[selected].pos(), style.highlight))
    return marks
