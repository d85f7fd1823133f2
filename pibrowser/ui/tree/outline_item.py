"""The outline drawn: one item as tall as all the rows, that paints only the rows in sight.

Each row shows its unit as the map does (the unit item paints its shape, rings, badges
and title, so marks are the map's own), on rails drawn like a commit graph: an edge
runs down the parent's column and turns into the child's row. The selected path and
the compared paths are drawn over the rails in their colours, as on the map.

A hundred thousand rows cost what the screenful in sight costs: paint reads the few
rows the exposed rectangle covers, and the selected path's edges are bisected to those.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from ...model.context.provenance import Part
from .fold_item import FoldItem
from .node_item import NodeItem
from .style import Style

if TYPE_CHECKING:
    from .layout import TreeLayout
    from .outline_rows import OutlineRows

ROW = 26.0  # scene units from one row to the next
LEVEL = 18.0  # from one level of indentation to the next
LEFT = 16.0  # the first level's column
GLYPH = 0.72  # the map's shapes and rings, scaled to fit a row
TEXT_LOD = 0.45  # zoomed out past this, rows are too close for text: flags name what matters (flags.py)
TEXT_GAP = 12.0  # from a node's column to its text
CORNER = 6.0
_DOTTED = (Part.SUMMARIZED, Part.SUPERSEDED)

Edge = tuple[int, int, QPen]  # parent row, child row, pen


def column_x(level: int) -> float:
    return LEFT + level * LEVEL


def row_mid(row: int) -> float:
    return row * ROW + ROW / 2


class OutlineItem(QGraphicsItem):
    """Paints `outline`'s rows with the unit items `units` of layout `lay`; `edges` are the thick
    edges of the selected or compared paths (set by the view as marks change)."""

    def __init__(self, outline: OutlineRows, lay: TreeLayout, units: list, style: Style, width: float) -> None:
        super().__init__()
        self.outline = outline
        self.lay = lay
        self.units = units
        self.style = style
        self.width = width
        self.edges: list[Edge] = []
        self._edge_ends: list[int] = []  # each edge's lower row, for bisecting
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self.width, len(self.outline) * ROW)

    def set_width(self, width: float) -> None:
        if width != self.width:
            self.prepareGeometryChange()
            self.width = width

    def set_edges(self, edges: list[Edge]) -> None:
        self.edges = sorted(edges, key=lambda edge: edge[1])
        self._edge_ends = [edge[1] for edge in self.edges]
        self.update()

    def row_at(self, y: float) -> int | None:
        row = int(y // ROW)
        return row if 0 <= row < len(self.outline) else None

    def row_rect(self, row: int) -> QRectF:
        return QRectF(0, row * ROW, self.width, ROW)

    def node_point(self, row: int) -> QPointF:
        """Where the row's node sits."""
        return QPointF(column_x(self.outline.rows.indent[row]), row_mid(row))

    # ---- painting -----------------------------------------------------------------------

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        count = len(self.outline)
        if not count:
            return
        exposed = option.exposedRect
        first = max(0, int(exposed.top() // ROW))
        last = min(count - 1, int(exposed.bottom() // ROW))
        if first > last:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        for row in range(first, last + 1):
            self._paint_background(painter, row)
        self._paint_rails(painter, first, last)
        self._paint_edges(painter, first, last)
        for row in range(first, last + 1):
            self._paint_row(painter, row, lod)

    def _paint_background(self, painter: QPainter, row: int) -> None:
        """The selected row, a search hit or the row under the pointer, across the whole width."""
        item = self.units[self.outline.unit(row)]
        style = self.style
        color: QColor | None = None
        if getattr(item, "selected", False) or getattr(item, "proxy", False) or getattr(item, "contains_selection", False):
            color = QColor(style.highlight)
            color.setAlpha(60)
        elif item.current_hit:
            color = style.current_hit
        elif item.hits if isinstance(item, FoldItem) else item.hit:
            color = style.hit
        elif item.hovered:
            color = QColor(style.text)
            color.setAlpha(18)
        if color is not None:
            painter.fillRect(self.row_rect(row), color)

    def _paint_rails(self, painter: QPainter, first: int, last: int) -> None:
        """pi's rails: gutters, connectors, and each node's edge from its parent's column."""
        rows, parent_row, children, keys = self.outline.rows, self.outline.parent_row, self.lay.children, self.outline.rows.keys
        indent, gutters, connector = rows.indent, rows.gutters, rows.connector
        path = QPainterPath()
        for row in range(first, last + 1):
            top, mid, bottom = row * ROW, row_mid(row), (row + 1) * ROW
            for level, shown in gutters[row]:
                if shown:
                    path.moveTo(column_x(level), top)
                    path.lineTo(column_x(level), bottom)
            parent = parent_row[row]
            if parent >= 0:
                _edge_into(path, column_x(indent[parent]), top, column_x(indent[row]), mid)
                if connector[row] == 1:  # ├: the rail goes on to the next sibling
                    path.moveTo(column_x(indent[parent]), mid)
                    path.lineTo(column_x(indent[parent]), bottom)
            if children[keys[row]]:
                path.moveTo(column_x(indent[row]), mid)
                path.lineTo(column_x(indent[row]), bottom)
        painter.setPen(self.style.edge_pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)

    def _paint_edges(self, painter: QPainter, first: int, last: int) -> None:
        """The selected path's or the compared paths' edges that cross the rows in sight."""
        indent = self.outline.rows.indent
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for parent, child, pen in self.edges[bisect_left(self._edge_ends, first) :]:
            if parent > last:
                continue
            path = QPainterPath()
            path.moveTo(column_x(indent[parent]), row_mid(parent))
            _edge_into(path, column_x(indent[parent]), row_mid(parent), column_x(indent[child]), row_mid(child))
            painter.setPen(pen)
            painter.drawPath(path)

    def _paint_row(self, painter: QPainter, row: int, lod: float) -> None:
        item = self.units[self.outline.unit(row)]
        point = self.node_point(row)
        painter.save()
        painter.translate(point)
        painter.save()
        painter.scale(GLYPH, GLYPH)
        item.paint_glyph(painter, lod * GLYPH)
        painter.restore()
        if lod >= TEXT_LOD:
            item.paint_line(painter, TEXT_GAP, self.width - point.x() - TEXT_GAP - 8)
        painter.restore()


def _edge_into(path: QPainterPath, px: float, top: float, cx: float, mid: float) -> None:
    """Down the parent's column from `top`, then (for a child further in) along the child's row into it."""
    path.moveTo(px, top)
    if cx == px:
        path.lineTo(px, mid)
        return
    path.lineTo(px, mid - CORNER)
    path.quadTo(px, mid, px + CORNER, mid)
    path.lineTo(cx, mid)


def path_edges(outline: OutlineRows, units: list, chain: list[int], style: Style) -> list[Edge]:
    """The selected path's edges, each in the colour of the part its lower unit plays (dotted
    where that part is not sent as it is), as the map draws them."""
    edges: list[Edge] = []
    row_of = outline.row_of
    for parent, child in zip(chain, chain[1:]):
        item = units[child]
        if isinstance(item, NodeItem):
            part = item.provenance.part if item.provenance is not None else None
        else:
            parts = item.path_parts
            part = parts[-1][0] if parts else None
        color = style.part_color.get(part, style.highlight) if part is not None else style.highlight
        pen = QPen(color, 3.2, Qt.PenStyle.DotLine if part in _DOTTED else Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        edges.append((row_of[parent], row_of[child], pen))
    return edges


def compare_edges(outline: OutlineRows, chains: list[tuple[str, list[int]]], style: Style) -> list[Edge]:
    """The compared paths' edges: the trunk wide, A solid, B dashed."""
    row_of = outline.row_of
    return [(row_of[parent], row_of[child], style.compare_pen(side)) for side, chain in chains for parent, child in zip(chain, chain[1:])]
