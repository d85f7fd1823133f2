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


BAND_HEIGHT = 4096.0  # scene pixels of rows whose dots are one set of paths: a paint draws the bands it exposes

Band = list[tuple[QColor, QPainterPath]]  # a band of rows' dots, one path per colour


class OverviewItem(QGraphicsItem):
    """Every node as a dot in its kind's colour, for far zoom: per band of rows, one filled path per colour.

    Thousands of Python paint calls per frame would stall the view; a handful of path fills cost
    little. But a path of 100,000 dots still takes a tenth of a second to stroke however little of
    it shows, and at far zoom a tall tree's fitted view shows a small part (a selection scrolls, a drag
    exposes a strip). So the dots are cut in bands of rows and a paint draws only the bands in the
    exposed rectangle; Qt keeps what it drew in a pixmap for repaints. The marks (selection, hits),
    which change with every click, are a child item drawn on top.
    """

    def __init__(self, bands: dict[int, Band], bounds: QRectF) -> None:
        super().__init__()
        self._bands = bands
        self._bounds = bounds
        self.marks = OverviewMarks(bounds, self)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(1)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)  # an exact exposedRect
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    @guarded(fallback=QRectF())
    def boundingRect(self) -> QRectF:
        return self._bounds

    @guarded_paint
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        exposed = option.exposedRect
        if exposed.isEmpty():
            exposed = self._bounds
        reach = 18.0  # a dot's half size plus its stroke, in scene pixels at the least
        first = int((exposed.top() - reach) // BAND_HEIGHT)
        last = int((exposed.bottom() + reach) // BAND_HEIGHT)
        pens: dict[int, QPen] = {}
        for band in range(first, last + 1):
            for color, path in self._bands.get(band, ()):
                painter.fillPath(path, color)
                pen = pens.get(color.rgba())
                if pen is None:
                    pen = pens[color.rgba()] = QPen(color, 3.0)
                    pen.setCosmetic(True)  # a dot keeps a few pixels however far out
                painter.strokePath(path, pen)


class OverviewMarks(QGraphicsItem):
    """The dot map's marks: the search hits, then the selection, a few pixels wide at any zoom."""

    def __init__(self, bounds: QRectF, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self._bounds = bounds
        self.marks: list[tuple[QPointF, QColor]] = []
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_marks(self, marks: list[tuple[QPointF, QColor]]) -> None:
        self.marks = marks
        self.update()

    @guarded(fallback=QRectF())
    def boundingRect(self) -> QRectF:
        return self._bounds

    @guarded_paint
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        radius = 5.0 / max(lod, 1e-3)
        for point, color in self.marks:
            painter.setBrush(color)
            painter.drawEllipse(point, radius, radius)


def overview(items: list, style: Style) -> OverviewItem:
    """The dot map of `items` (nodes in their kind's colour, folds muted), in bands of rows."""
    bands: dict[int, dict[int, tuple[QColor, QPainterPath]]] = {}
    muted = style.muted
    bounds = QRectF()
    for item in items:
        color = style.kind_color[item.kind] if isinstance(item, NodeItem) else muted
        x, y = item.placed[0], item.placed[1]  # where make_items put it: no call into Qt
        paths = bands.setdefault(int(y // BAND_HEIGHT), {})
        entry = paths.get(color.rgba())
        if entry is None:
            entry = paths[color.rgba()] = (color, QPainterPath())
        entry[1].addRect(QRectF(x - 9, y - 9, 18, 18))
    for paths in bands.values():
        for _, path in paths.values():
            bounds = bounds.united(path.boundingRect())
    return OverviewItem({band: list(paths.values()) for band, paths in bands.items()}, bounds.adjusted(-40, -40, 40, 40))


def overview_marks(items: list, hit_units: set[int], selected: int | None, style: Style) -> list[tuple[QPointF, QColor]]:
    """What the dot map marks on top: the search hits, then the selection."""
    marks = [(items[unit].pos(), style.current_hit) for unit in hit_units]
    if selected is not None:
        marks.append((items[selected].pos(), style.highlight))
    return marks
