"""The outline drawn: one item as tall as all the rows, that paints only the rows in sight.

Each row shows its unit as the map does (the unit item paints its shape, rings, badges
and title, so marks are the map's own), on rails drawn like a commit graph: an edge
runs down the parent's column and turns into the child's row. The selected path and
the compared paths are drawn over the rails in their colours, as on the map.

A hundred thousand rows cost what the screenful in sight costs: paint reads the few
rows the exposed rectangle covers, and the selected path's edges are bisected to those.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from ...model.context.provenance import Part
from .fold_item import FoldItem
from .node_item import NodeItem
from .style import Style
from ..guard import guarded, guarded_paint

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


@dataclass(frozen=True, slots=True)
class EdgeChain:
    """A marked path's units top first (`units`), their rows (`rows`, growing: each lies below the
    one before), and the pen of the edge into each unit."""

    units: list[int]
    rows: list[int]
    pen: Callable[[int], QPen]


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
        self.chains: list[EdgeChain] = []
        self._selected = QColor(style.highlight)
        self._selected.setAlpha(60)
        self._hovered = QColor(style.text)
        self._hovered.setAlpha(18)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    @guarded(fallback=QRectF())
    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self.width, len(self.outline) * ROW)

    def deepest(self) -> float:
        """Where the deepest row's node sits: the rows must reach past it."""
        return column_x(max(self.outline.rows.indent, default=0))

    def set_width(self, width: float) -> None:
        if width != self.width:
            self.prepareGeometryChange()
            self.width = width

    def set_chains(self, chains: list[EdgeChain]) -> None:
        self.chains = chains
        self.update()

    def edges(self, first: int, last: int) -> Iterator[tuple[int, int, QPen]]:
        """The marked edges (parent row, child row, pen) that cross rows `first` to `last`."""
        for chain in self.chains:
            rows, units = chain.rows, chain.units
            for at in range(max(1, bisect_left(rows, first)), len(rows)):
                if rows[at - 1] > last:
                    break
                yield rows[at - 1], rows[at], chain.pen(units[at])

    def row_at(self, y: float) -> int | None:
        row = int(y // ROW)
        return row if 0 <= row < len(self.outline) else None

    def row_rect(self, row: int) -> QRectF:
        return QRectF(0, row * ROW, self.width, ROW)

    def node_point(self, row: int) -> QPointF:
        """Where the row's node sits."""
        return QPointF(column_x(self.outline.rows.indent[row]), row_mid(row))

    # ---- painting -----------------------------------------------------------------------

    @guarded_paint
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
        # Rows of a deep tree sit hundreds of levels in: only the levels in sight are drawn.
        levels = (int((exposed.left() - LEFT) // LEVEL) - 1, int((exposed.right() - LEFT) // LEVEL) + 1)
        self._paint_rails(painter, first, last, levels)
        self._paint_edges(painter, first, last)
        indent = self.outline.rows.indent
        # Text ends where the view does, elided there (the tooltip has it whole), not past its edge.
        seen = painter.worldTransform().inverted()[0].mapRect(QRectF(widget.rect())) if widget is not None else self.boundingRect()
        right = min(self.width, seen.right())
        for row in range(first, last + 1):
            if indent[row] <= levels[1]:  # a row further in starts right of what is in sight
                self._paint_row(painter, row, lod, right)

    def _paint_background(self, painter: QPainter, row: int) -> None:
        """The selected row, a search hit or the row under the pointer, across the whole width."""
        item = self.units[self.outline.unit(row)]
        style = self.style
        color: QColor | None = None
        fold = isinstance(item, FoldItem)
        if item.contains_selection if fold else (item.selected or item.proxy):
            color = self._selected
        elif item.current_hit:
            color = style.current_hit
        elif item.hits if fold else item.hit:
            color = style.hit
        elif item.hovered:
            color = self._hovered
        if color is not None:
            painter.fillRect(self.row_rect(row), color)

    def _paint_rails(self, painter: QPainter, first: int, last: int, levels: tuple[int, int]) -> None:
        """pi's rails: gutters, connectors, and each node's edge from its parent's column (the
        levels in sight, `levels`, only). Straight lines go to the painter as lines, not as one path:
        stroking a path of a thousand pieces costs many times more."""
        rows, parent_row, children, keys = self.outline.rows, self.outline.parent_row, self.lay.children, self.outline.rows.keys
        indent, gutters, connector = rows.indent, rows.gutters, rows.connector
        low, high = (levels[0], False), (levels[1], True)
        lines: list[QLineF] = []
        turns = QPainterPath()
        for row in range(first, last + 1):
            top, mid, bottom = row * ROW, row_mid(row), (row + 1) * ROW
            rails = gutters[row]
            for level, shown in rails[bisect_left(rails, low) : bisect_right(rails, high)]:  # rails go by level
                if shown:
                    lines.append(QLineF(column_x(level), top, column_x(level), bottom))
            if indent[row] - 1 > levels[1]:
                continue
            parent = parent_row[row]
            if parent >= 0:
                px, cx = column_x(indent[parent]), column_x(indent[row])
                if px == cx:
                    lines.append(QLineF(px, top, px, mid))
                else:
                    lines.append(QLineF(px, top, px, mid - CORNER))
                    turns.moveTo(px, mid - CORNER)
                    turns.quadTo(px, mid, px + CORNER, mid)
                    lines.append(QLineF(px + CORNER, mid, cx, mid))
                if connector[row] == 1:  # ├: the rail goes on to the next sibling
                    lines.append(QLineF(px, mid, px, bottom))
            if children[keys[row]]:
                lines.append(QLineF(column_x(indent[row]), mid, column_x(indent[row]), bottom))
        painter.setPen(self.style.edge_pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.drawLines(lines)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.drawPath(turns)

    def _paint_edges(self, painter: QPainter, first: int, last: int) -> None:
        """The selected path's or the compared paths' edges that cross the rows in sight."""
        indent = self.outline.rows.indent
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for parent, child, pen in self.edges(first, last):
            path = QPainterPath()
            _edge_into(path, column_x(indent[parent]), row_mid(parent), column_x(indent[child]), row_mid(child))
            painter.setPen(pen)
            painter.drawPath(path)

    def _paint_row(self, painter: QPainter, row: int, lod: float, right: float) -> None:
        item = self.units[self.outline.unit(row)]
        point = self.node_point(row)
        painter.save()
        painter.translate(point)
        painter.save()
        painter.scale(GLYPH, GLYPH)
        item.paint_glyph(painter, lod * GLYPH)
        painter.restore()
        if lod >= TEXT_LOD:
            item.paint_line(painter, TEXT_GAP, right - point.x() - TEXT_GAP - 8)
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


def path_chain(outline: OutlineRows, units: list, chain: list[int], style: Style) -> EdgeChain:
    """The selected path's edges, each in the colour of the part its lower unit plays (dotted where
    that part is not sent as it is), as the map draws them; pens are made for the edges in sight."""
    pens: dict[object, QPen] = {}

    def pen(unit: int) -> QPen:
        item = units[unit]
        if isinstance(item, NodeItem):
            part = item.provenance.part if item.provenance is not None else None
        else:
            parts = item.path_parts
            part = parts[-1][0] if parts else None
        made = pens.get(part)
        if made is None:
            color = style.part_color.get(part, style.highlight) if part is not None else style.highlight
            made = pens[part] = QPen(color, 3.2, Qt.PenStyle.DotLine if part in _DOTTED else Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        return made

    row_of = outline.row_of
    return EdgeChain(chain, [row_of[unit] for unit in chain], pen)


def compare_chains(outline: OutlineRows, chains: list[tuple[str, list[int]]], style: Style) -> list[EdgeChain]:
    """The compared paths' edges: the trunk wide, A solid, B dashed."""
    row_of = outline.row_of
    made = []
    for side, chain in chains:
        pen = style.compare_pen(side)
        made.append(EdgeChain(chain, [row_of[unit] for unit in chain], _always(pen)))
    return made


def _always(pen: QPen) -> Callable[[int], QPen]:
    """Every unit's pen: this one."""
    return lambda unit: pen
