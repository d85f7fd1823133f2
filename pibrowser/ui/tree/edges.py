"""The edges of the tree as a few path items: all edges in bands of rows, and the selected path's thick edges.

Thousands of edges as items would cost thousands of paint calls; one path per
band (or per colour) costs a few, and the scene still culls each band as a whole.
An edge runs straight down to a child below its parent, else it turns along an
elbow half a row down.
"""

from __future__ import annotations

from itertools import islice

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem

from .style import Style
from ..guard import guarded


def edge_bands(lay, x_of, y_of, style: Style, band_rows: int = 24) -> list[QGraphicsPathItem]:
    """All edges as a few path items, one per band of rows (each culled by the scene as a whole).

    `x_of` and `y_of` are linear (a margin and a step per column and row): they are asked for
    those two figures once, and the places worked out inline, not with two calls per edge."""
    bands: dict[int, QPainterPath] = {}
    # Per band, the straight line drawn last, not yet added: (x, top, bottom). Units are numbered
    # depth first, so a chain's edges come one after the other and make one line, a path element
    # or two instead of two per edge (this runs at every selection that opens a fold).
    lines: dict[int, tuple[float, float, float]] = {}
    row, col, children = lay.row, lay.col, lay.children
    x0, y0 = x_of(0), y_of(0)
    dx, dy = x_of(1) - x0, y_of(1) - y0
    half = dy / 2
    corner = min(8.0, half * 0.6)
    for unit, kids in enumerate(children):
        if not kids:
            continue
        band = row[unit] // band_rows
        path = bands.get(band)
        if path is None:
            path = bands[band] = QPainterPath()
        px, py = x0 + col[unit] * dx, y0 + row[unit] * dy
        for kid in kids:
            cx, cy = x0 + col[kid] * dx, y0 + row[kid] * dy
            if cx == px:  # most edges: straight down
                line = lines.get(band)
                if line is not None and line[0] == px and line[2] == py:
                    lines[band] = (px, line[1], cy)  # the chain goes on
                    continue
                if line is not None:
                    path.moveTo(line[0], line[1])
                    path.lineTo(line[0], line[2])
                lines[band] = (px, py, cy)
            else:
                path.moveTo(px, py)
                _elbow(path, px, py + half, cx, cy, corner)
    for band, (x, top, bottom) in lines.items():
        bands[band].moveTo(x, top)
        bands[band].lineTo(x, bottom)
    return [_path_item(path, style.edge_pen, -2) for path in bands.values()]


EdgeGroups = dict[tuple[int, bool, int], tuple[QPen, list[tuple[float, float, float, float]]]]  # (colour, dotted, band)


def path_edge_groups(
    segments: list[tuple[float, float, float, float, QColor, bool]],
    band_height: float,
    before: EdgeGroups | None = None,
    unchanged: int = 0,
) -> EdgeGroups:
    """The selected path's edges, thick, grouped by colour and band of rows (each group one item, so a
    step along the path replaces the items of the bands it changes); segments are (px, py, cx, cy, colour, dotted).

    `before`, `unchanged`: the groups made last time, and how many leading segments are the same now.
    The groups of the bands above the first changed segment are taken over as they were (a path's
    segments run down its rows, so those bands hold none of the others): a path 100,000 entries
    deep is grouped again from where it changed, not from its top.
    """
    groups: EdgeGroups = {}
    begin, band = 0, -1
    if before and 0 < unchanged < len(segments):
        band = int(segments[unchanged][1] // band_height)
        begin = unchanged
        while begin and int(segments[begin - 1][1] // band_height) >= band:  # the changed band's first segment
            begin -= 1
        groups = {key: group for key, group in before.items() if key[2] < band}
    for px, py, cx, cy, color, dotted in islice(segments, begin, None):
        key = (color.rgba(), dotted, int(py // band_height))
        if key[2] < band:  # a path that climbs back up a band (no layout makes one): grouped afresh
            return path_edge_groups(segments, band_height)
        group = groups.get(key)
        if group is None:
            pen = QPen(color, 3.2, Qt.PenStyle.DotLine if dotted else Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
            group = groups[key] = (pen, [])
        group[1].append((px, py, cx, cy))
    return groups


def pen_edges(groups: list[tuple[QPen, list[tuple[float, float, float, float]]]], half: float, z: float = -1) -> list[QGraphicsPathItem]:
    """Edges drawn with a pen per group (the compared paths); segments are (px, py, cx, cy)."""
    corner = min(8.0, half * 0.6)
    items = []
    for pen, segments in groups:
        if not segments:
            continue
        path = QPainterPath()
        for px, py, cx, cy in segments:
            path.moveTo(px, py)
            if cx == px:
                path.lineTo(cx, cy)
            else:
                _elbow(path, px, py + half, cx, cy, corner)
        items.append(_path_item(path, pen, z))
    return items


def _elbow(path: QPainterPath, px: float, mid: float, cx: float, cy: float, corner: float) -> None:
    """From the parent at column px down to `mid`, across to column cx with rounded corners, down to the child."""
    path.lineTo(px, mid - corner)
    path.quadTo(px, mid, px + corner, mid)
    path.lineTo(cx - corner, mid)
    path.quadTo(cx, mid, cx, mid + corner)
    path.lineTo(cx, cy)


class EdgeItem(QGraphicsPathItem):
    """A path of edges whose bounds are its control points widened by its pen's width.

    QGraphicsPathItem finds the bounds of a path drawn with a wide pen by stroking the whole
    path: for the tree's bands, made afresh at every layout (every selection that opens a
    fold), that took 5-6 ms of the scene's next update. The edges' caps are round and their
    joins bevelled, so nothing they paint reaches past half the pen's width beyond the control
    points; the margin here is the whole width.
    """

    def __init__(self, path: QPainterPath) -> None:
        super().__init__(path)
        self._controls = path.controlPointRect()
        self._width = -1.0
        self._bounds = QRectF()

    @guarded(fallback=QRectF())
    def boundingRect(self) -> QRectF:
        width = self.pen().widthF()  # changes when the tree is zoomed far out (MapItems.thicken)
        if width != self._width:
            self._width = width
            self._bounds = self._controls.adjusted(-width, -width, width, width)
        return self._bounds


def _path_item(path: QPainterPath, pen: QPen, z: float) -> QGraphicsPathItem:
    item = EdgeItem(path)
    item.setPen(pen)
    item.setZValue(z)
    item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
    return item
