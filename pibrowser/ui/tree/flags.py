"""Flags over a tree zoomed out too far for text: the compared pair, the fork, the current leaf, labels, fold counts.

When the rows come too close for text, the nodes draw none (style.text_scale on the
map, outline_item.TEXT_LOD in the outline); what the user looks for must still read. Each such node gets a flag at a fixed size on
screen, placed above (or below) it in the first lane where it overlaps no flag placed
before, with a thin line down to the node when it had to move up. What matters most
is placed first; what finds no room is left out (it reads once zoomed in). Flags
are placed when the view moves or the marks change, not at each paint.

Short of reading size the map's text keeps a size that reads while the room beside
each node shrinks with the zoom: a badge (the pair, the fork, the current leaf, a
label) that no longer fits there gets a flag as well, so a label reads at every zoom.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsView

from ...model.text.describe import short_label
from .fold_item import FoldItem
from .gap_item import GapItem
from .node_item import NodeItem
from .outline_item import TEXT_LOD as OUTLINE_TEXT_LOD
from .style import READABLE_LOD, text_scale

if TYPE_CHECKING:
    from .style import Style

LANES = 6  # how far up (and down) a flag may move to find room
MAX_FLAGS = 160
MAX_TEXT = 180.0  # a label's flag is elided past this many pixels (the node's tooltip has it whole)
GAP = 2.0
CELL = 64  # the grid the overlap check files flags in
SELECTED = 3  # the selection's flag's priority


@dataclass(frozen=True, slots=True)
class Flag:
    unit: int
    text: str
    rect: QRectF  # in viewport pixels
    anchor: QPointF
    background: QColor
    foreground: QColor


def wanted(item: NodeItem | FoldItem, style: Style) -> list[tuple[int, str, QColor, QColor]]:
    """The flags a unit asks for, as (priority, text, background, foreground): lower goes first."""
    if isinstance(item, FoldItem):
        if isinstance(item, GapItem):
            return [(5, f"+{item.count():,}", style.base, style.muted)]
        return [(5, f"{item.count():,}", style.base, style.muted)]
    flags = []
    if item.compare:
        flags.append((0, item.compare, style.compare_color[item.compare], style.base))
    if item.fork:
        flags.append((1, "fork", style.compare_color["trunk"], style.text))
    if item.current_leaf:
        flags.append((2, "current", style.current_bg, style.current_fg))
    if item.selected and not item.compare:
        flags.append((SELECTED, "selected", style.highlight, style.highlighted_text))
    if item.label:
        flags.append((4, short_label(item.label), style.label_bg, style.label_fg))
    return flags


def place(view: QGraphicsView, units: list, position: Callable[[int], QPointF | None], style: Style, far: bool = True) -> list[Flag]:
    """Flags for the units in sight (each at `position(unit)` in the scene), placed so that none overlaps
    another. `far`: no text shows; else only what a node cannot spell out beside it asks for a flag."""
    port = QRectF(view.viewport().rect())
    metrics = QFontMetricsF(style.badge_font)
    height = metrics.height() + 2
    lod = view.transform().m11()
    candidates = []
    for item in units if far else _badged(units):
        asks = _asks(item, style) if far else _unspelled(item, style, lod)
        if not asks:
            continue
        at = position(item.unit)
        if at is None:
            continue
        anchor = QPointF(view.mapFromScene(at))
        if not port.adjusted(-20, -20, 20, 20).contains(anchor):
            continue
        for priority, text, background, foreground in asks:
            candidates.append((priority, item.unit, text, background, foreground, anchor))
    candidates.sort(key=lambda candidate: candidate[0])
    taken = _Grid()
    flags: list[Flag] = []
    fitted = _fitted_texts(style.badge_font.key())
    for _priority, unit, text, background, foreground, anchor in candidates:
        if len(flags) >= MAX_FLAGS:
            break
        found = fitted.get(text)
        if found is None:
            elided = metrics.elidedText(text, Qt.TextElideMode.ElideRight, MAX_TEXT)
            found = fitted[text] = (elided, metrics.horizontalAdvance(elided) + 10)
        text, width = found
        rect = _free_spot(taken, port, anchor, width, height)
        if rect is not None:
            taken.add(rect)
            flags.append(Flag(unit, text, rect, anchor, background, foreground))
    return flags


_FITTED: dict[str, dict[str, tuple[str, float]]] = {}  # by font: a flag's text as it fits, and its width


def _fitted_texts(font: str) -> dict[str, tuple[str, float]]:
    """The texts flags of this font were given so far (a pan places the same few hundred again at
    every frame). Forgotten past a few thousand, so labels typed one after another do not pile up."""
    fitted = _FITTED.get(font)
    if fitted is None or len(fitted) > 4096:
        _FITTED.clear()
        fitted = _FITTED[font] = {}
    return fitted


def _badged(units: list) -> list:
    """The nodes with a badge (the only ones that may ask for a flag while text shows), in one
    comprehension: a call per unit of thousands, at every paint after a selection, cost more."""
    return [item for item in units if isinstance(item, NodeItem) and (item.compare or item.fork or item.current_leaf or item.label)]


def _asks(item, style: Style) -> list:
    if isinstance(item, NodeItem) and not (item.compare or item.fork or item.current_leaf or item.label or item.selected):
        return []  # most nodes: asked cheaply, no list built
    return wanted(item, style)


def _unspelled(item, style: Style, lod: float) -> list:
    """Text shows, but the room beside a node shrinks with the zoom while its text keeps a size that
    reads: the pair, the fork, the current leaf and the label it has no room for ask for flags."""
    if not isinstance(item, NodeItem):
        return []
    asks = [ask for ask in _asks(item, style) if ask[0] != SELECTED]  # the selection shows by its ring
    if not asks:
        return []
    shown = item.badges_shown(lod)
    return [ask for ask in asks if ask[1] not in shown]


def _free_spot(taken: _Grid, port: QRectF, anchor: QPointF, width: float, height: float) -> QRectF | None:
    """The first lane above the node (then below it) where the flag overlaps nothing and is in sight.

    In plain numbers, not QRectF: at a far zoom a frame tries a dozen lanes for each of hundreds of
    flags, and each call into Qt cost more than the comparison it made (a fitted drag frame of
    pi-written-100k spent most of its time here)."""
    left, top, right, bottom = port.left(), port.top(), port.right(), port.bottom()
    x = min(max(anchor.x() + 3, left + 2), right - width - 2)
    x_end = x + width
    if x < left or x_end > right:
        return None  # wider than the view: in sight in no lane
    ay = anchor.y()
    for lane in range(LANES):
        step = lane * (height + GAP)
        for y in (ay - 6 - height - step, ay + 6 + step):
            if y >= top and y + height <= bottom and not taken.overlaps(x, y, x_end, y + height):
                return QRectF(x, y, width, height)
    return None


class _Grid:
    """Placed flags filed by the cells of a coarse grid, so a check looks at the few nearby; each
    flag as its edges (left, top, right, bottom)."""

    def __init__(self) -> None:
        self._cells: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}

    def add(self, rect: QRectF) -> None:
        edges = (rect.left(), rect.top(), rect.right(), rect.bottom())
        cells = self._cells
        for cx in range(int(edges[0] // CELL), int(edges[2] // CELL) + 1):
            for cy in range(int(edges[1] // CELL), int(edges[3] // CELL) + 1):
                cells.setdefault((cx, cy), []).append(edges)

    def overlaps(self, left: float, top: float, right: float, bottom: float) -> bool:
        """Whether a flag with these edges comes within GAP of one placed (QRectF.intersects of the
        grown rect: an overlap of some area, so edges that only touch do not count)."""
        grown_left, grown_top, grown_right, grown_bottom = left - GAP, top - GAP, right + GAP, bottom + GAP
        cells = self._cells
        for cx in range(int(left // CELL), int(right // CELL) + 1):
            for cy in range(int(top // CELL), int(bottom // CELL) + 1):
                for other_left, other_top, other_right, other_bottom in cells.get((cx, cy), ()):
                    if other_left < grown_right and grown_left < other_right and other_top < grown_bottom and grown_top < other_bottom:
                        return True
        return False


def paint(painter: QPainter, flags: list[Flag], style: Style) -> None:
    """Draw the flags in viewport pixels: a line down to the node for each flag that moved away
    from it, then the pills over every line."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setPen(QPen(style.muted, 1.0))
    for flag in flags:
        rect = flag.rect
        near = QPointF(rect.left() + 4, rect.bottom() if rect.bottom() <= flag.anchor.y() else rect.top())
        if abs(near.y() - flag.anchor.y()) > 8:
            painter.drawLine(flag.anchor, near)
    painter.setFont(style.badge_font)
    for flag in flags:
        rect = flag.rect
        painter.setPen(QPen(flag.foreground if flag.background == style.base else flag.background.darker(130), 1.0))
        painter.setBrush(flag.background)
        painter.drawRoundedRect(rect, rect.height() / 2, rect.height() / 2)
        painter.setPen(flag.foreground)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, flag.text)


def flag_at(flags: list[Flag], point: QPointF) -> int | None:
    """The unit whose flag is under a viewport point."""
    for flag in reversed(flags):
        if flag.rect.contains(point):
            return flag.unit
    return None


class UnitRows:
    """The map's units by the height they were placed at, to find those in sight by bisection: of a
    100,000-unit tree (everything unfolded) a walk over all of them took a frame's budget at every
    selection. Made again for each new list of units: a layout's items come in a list of their own."""

    def __init__(self) -> None:
        self._units: list | None = None
        self._order: list[int] = []  # unit indices by height
        self._heights: list[float] = []

    def in_sight(self, view: QGraphicsView, units: list) -> list:
        """The units whose node is in sight (or within a flag's reach of it), in unit order, read from
        where the layout placed them: of thousands of units, place() then asks the few dozen on screen."""
        if units is not self._units:
            self._order = sorted(range(len(units)), key=lambda unit: units[unit].placed[1])
            self._heights = [units[unit].placed[1] for unit in self._order]
            self._units = units
        reach = 20 / max(view.transform().m11(), 1e-6)
        seen = view.mapToScene(view.viewport().rect()).boundingRect().adjusted(-reach, -reach, reach, reach)
        left, right = seen.left(), seen.right()
        rows = self._order[bisect_left(self._heights, seen.top()) : bisect_right(self._heights, seen.bottom())]
        return [units[unit] for unit in sorted(rows) if left <= units[unit].placed[0] <= right]


class TreeFlags:
    """The flags of the tree as the view now shows it. Input: the view (its zoom, scroll, items, style
    and where each unit shows, on the map or in the outline).

    `active` while the tree is zoomed out past text; `flags` are placed again when the view
    moved or `invalidate` was called (the marks or the items changed).
    """

    def __init__(self, view: QGraphicsView, position: Callable[[int], QPointF | None]) -> None:
        self._view = view
        self._position = position
        self.flags: list[Flag] = []
        self.active = False
        self.far = True  # no text shows: every mark asks for a flag
        self._outline = False  # the outline shows, not the map
        self._placed_for: tuple | None = None
        self._rows = UnitRows()

    def invalidate(self) -> None:
        self._placed_for = None

    def update(self, units: list, style: Style, outline: bool) -> None:
        """Whether flags show at this zoom (no text). While they do, the view must repaint whole at
        each scroll: scrolling moves them between lanes rather than with the nodes."""
        view = self._view
        zoom = view.transform().m11()
        far = zoom < OUTLINE_TEXT_LOD if outline else text_scale(zoom, style.metrics.height()) == 0.0
        # On the map short of reading size, the text keeps its size as the room beside a node shrinks:
        # a badge that no longer fits asks for a flag too.
        near = not outline and zoom < READABLE_LOD
        self.far, self._outline = far, outline
        active = bool(units) and (far or near)
        if active != self.active:
            self.active = active
            self.flags, self._placed_for = [], None
            view.viewport().update()
        self.invalidate()

    def paint(self, painter: QPainter, units: list, style: Style) -> None:
        """Called from the view's drawForeground: place the flags if the view moved, and draw them."""
        if not self.active:
            return
        view = self._view
        key = (
            view.transform().m11(),
            view.horizontalScrollBar().value(),
            view.verticalScrollBar().value(),
            view.viewport().size().toTuple(),
            len(units),
        )
        if key != self._placed_for:
            self.flags = place(view, units if self._outline else self._rows.in_sight(view, units), self._position, style, self.far)
            self._placed_for = key
        painter.save()
        painter.resetTransform()  # viewport pixels: flags keep their size at every zoom
        paint(painter, self.flags, style)
        painter.restore()

    def unit_at(self, point: QPointF) -> int | None:
        return flag_at(self.flags, point) if self.active else None
