"""One entry of the tree as a graphics item: its shape, the marks it carries and the text beside it.

A node paints itself from a few flags; it takes no mouse events — the view does
hit-testing and interaction — and skips its text and details when zoomed out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from ...model.text.describe import entry_title, short_label
from ...model.context.provenance import Edit, Part, Provenance
from ...model.session.tree_filter import SETTINGS_TYPES
from .badge import pill
from .kinds import style_kind
from .style import DETAIL_LOD, Style, text_scale
from .tooltips import node_tooltip
from .unit_item import USER_TYPE, UnitItem
from ..guard import guarded, guarded_paint

if TYPE_CHECKING:
    from ...model.session.entry import Entry

_LEFT = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft  # made once: a flag combined per paint costs
NODE_TYPE = USER_TYPE + 1
MAX_TEXT = 380.0  # the widest a node's text may grow when nothing is to its right
MIN_TEXT = 44.0  # narrower than this, a node shows no text at all
_ROLE_PREFIXES = {"user": "user: ", "assistant": "assistant: ", "toolResult": "toolResult: "}
_HOLLOW = ("diamond_hollow", "circle_dashed", "unknown")  # shapes drawn as an outline on the background


class NodeItem(UnitItem):
    """One entry. State flags, read by tests and tooltips as well as paint:

    selected, proxy (stands in for a selected entry the filter hides), on_path,
    provenance (its Provenance on the selected path, or None), hit, current_hit,
    leaf (no displayed children), current_leaf, label, compare ("A", "B" or None),
    compare_path ("A", "B", "trunk" or None: on a compared path), fork (the compared pair's common ancestor).
    """

    ITEM_TYPE = NODE_TYPE

    def __init__(self, unit: int, entry: Entry, style: Style, room: float, label: Any = None) -> None:
        super().__init__()
        self.unit = unit
        self.key = entry.id
        self.entry = entry
        self.style = style
        self.kind = style_kind(entry)
        self.label = None if label is None else str(label)
        self.leaf = False
        self.current_leaf = False
        self.current_leaf_hidden = 0  # entries between this node and a current leaf the filter hides
        self.selected = False
        self.proxy = False
        self.on_path = False
        self.provenance: Provenance | None = None
        self.hit = False
        self.current_hit = False
        self.hovered = False
        self.compare: str | None = None
        self.compare_path: str | None = None
        self.fork = False
        self._room = room
        self._title: str | None = None
        self._text_plan: tuple | None = None
        r = style.kind_radius[self.kind]
        self._r = r
        self.start_bounds(QRectF(-r - 8, -r - 8, r + 8 + max(r + 8, room), 2 * r + 18))
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    # ---- geometry -----------------------------------------------------------

    @guarded(fallback=QPainterPath())
    def shape(self) -> QPainterPath:
        path = QPainterPath()
        r = self._r + 4
        path.addEllipse(QPointF(0, 0), r, r)
        width = self.text_width()
        if width > 0:
            h = self.style.metrics.height()
            path.addRect(QRectF(self._r + 6, -h / 2 - 2, width, h + 4))
        return path

    def text_x(self) -> float:
        return self._r + 8

    def set_room(self, room: float) -> None:
        self.prepareGeometryChange()
        self._room = room
        self._text_plan = None
        r = self._r
        self.set_bounds(QRectF(-r - 8, -r - 8, r + 8 + max(r + 8, room), 2 * r + 18))

    # ---- text -----------------------------------------------------------------

    def title(self) -> str:
        if self._title is None:
            self._title = entry_title(self.entry, 120)
        return self._title

    def short_title(self) -> str:
        """The title without the role the shape and colour already show."""
        title = self.title()
        prefix = _ROLE_PREFIXES.get(self.kind)
        return title[len(prefix) :] if prefix and title.startswith(prefix) else title

    def text_width(self) -> float:
        """How wide the text beside the node is drawn (badges and title), at most the room there is."""
        _badges, title_x, title_width = self._plan()
        return title_x + title_width if title_width else max(0.0, title_x - 4)

    def _plan(self) -> tuple[list[tuple[str, float, QColor, QColor]], float, float]:
        """What fits beside the node: whole badges first, then the title if a few characters fit.

        A stub like "us…" or half a badge only adds noise, so what does not fit is left out
        (a label then shows as a small flag, the current leaf by its ring).
        """
        if self._text_plan is None:
            self._text_plan = self._plan_in(max(0.0, self._room - self.text_x() - 6))
        return self._text_plan

    def _plan_in(self, room: float) -> tuple[list[tuple[str, float, QColor, QColor]], float, float]:
        badges, x = self._fitting_badges(room)
        title_room = room - x
        title_width = 0.0
        if title_room >= MIN_TEXT:
            title_width = min(self.style.metrics.horizontalAdvance(self.short_title()) + 1, title_room)
        return badges, x, title_width

    def _fitting_badges(self, room: float) -> tuple[list[tuple[str, float, QColor, QColor]], float]:
        """The badges that fit whole in `room`, and where the text after them starts."""
        style = self.style
        wanted = []
        if self.compare:
            wanted.append((self.compare, style.compare_color[self.compare], style.base))
        if self.fork:
            wanted.append(("fork", style.compare_color["trunk"], style.base))
        if self.current_leaf:
            wanted.append(("current", style.current_bg, style.current_fg))
        if self.label:
            wanted.append((short_label(self.label), style.label_bg, style.label_fg))
        x = 0.0
        badges = []
        for text, bg, fg in wanted:
            width = style.badge_metrics.horizontalAdvance(text) + 8
            if x + width <= room:
                badges.append((text, width, bg, fg))
                x += width + 4
        return badges, x

    def badges_shown(self, lod: float) -> set[str]:
        """The badges (pair, fork, current, label) spelled out beside the node at zoom `lod`: what
        does not fit is left to a flag (flags.py)."""
        shown = text_scale(lod, self.style.metrics.height())
        if lod < DETAIL_LOD or not shown:
            return set()
        if shown > lod:
            small = self.small_text(lod)
            return {text for text, *_ in small[0][0]} if small is not None else set()
        return {text for text, *_ in self._plan()[0]}

    def label_shown(self) -> bool:
        """Whether the label badge fits beside the node (else a flag marks it)."""
        return bool(self.label) and any(text == short_label(self.label) for text, *_ in self._plan()[0])

    def refresh_text(self) -> None:
        """Forget measured text after the label or current-leaf badge changed."""
        self._text_plan = None
        self.update()

    def entry_is_quiet(self) -> bool:
        """Bookkeeping entries get muted text so the conversation stands out."""
        return self.entry.type in SETTINGS_TYPES or self.kind in ("usage", "toolResult")

    # ---- painting ---------------------------------------------------------------

    @guarded_paint
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        style = self.style
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        self.paint_glyph(painter, lod)
        if lod < DETAIL_LOD:
            return
        if text_scale(lod, style.metrics.height()) > lod:
            self._paint_small_text(painter, lod)
            return
        if self.label and not self.label_shown():
            self._paint_flag(painter)
        self._paint_text(painter)

    def paint_glyph(self, painter: QPainter, lod: float) -> None:
        """The shape with its rings and marks (far out, a dot with a halo), centred on the painter's
        origin: the outline draws it on its rail."""
        if lod < DETAIL_LOD:
            self._paint_dot(painter, lod)
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self._paint_rings(painter)
        self._paint_body(painter)
        self._paint_marks(painter)

    def _paint_dot(self, painter: QPainter, lod: float) -> None:
        """Far out: a dot that keeps a few pixels on screen, the marks as a halo around it."""
        style = self.style
        r = self._r
        painter.setPen(Qt.PenStyle.NoPen)
        dot = min(r + 6.0, max(r, 2.2 / max(lod, 1e-3)))
        if self.selected or self.proxy or self.on_path or self.hit or self.current_leaf:
            painter.setBrush(self._halo())
            painter.drawEllipse(QPointF(0, 0), dot + 3, dot + 3)
        painter.setBrush(style.kind_color[self.kind])
        if dot > r:
            painter.drawEllipse(QPointF(0, 0), dot, dot)
        else:
            painter.drawPath(style.kind_shape[self.kind])

    def paint_line(self, painter: QPainter, x: float, room: float) -> None:
        """The badges and the title from `x` on, in `room`, centred on y=0 (the outline's row)."""
        self._paint_text(painter, self._plan_in(room), x)

    def _halo(self) -> QColor:
        """Far out, the colour of the one mark that shows: selection, then hit, then path, then current leaf."""
        style = self.style
        if self.selected or self.proxy:
            return style.highlight
        if self.hit:
            return style.current_hit if self.current_hit else style.hit
        if self.compare_path:
            return style.compare_color[self.compare_path]
        if self.on_path:
            return style.path_color(self.provenance)
        return style.accent

    def _paint_rings(self, painter: QPainter) -> None:
        """The rings around the shape: a search hit's halo, the selected path, the selection or the hover."""
        style = self.style
        r = self._r
        if self.hit or self.current_hit:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.current_hit if self.current_hit else style.hit)
            painter.drawEllipse(QPointF(0, 0), r + 7, r + 7)
        if self.compare_path:
            self._paint_compare_ring(painter, self.compare_path)
        elif self.on_path:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            pen = QPen(style.path_color(self.provenance), 3.0)
            if self.provenance is not None and self.provenance.part in (Part.SUMMARIZED, Part.SUPERSEDED):
                pen.setStyle(Qt.PenStyle.DotLine)
            painter.setPen(pen)
            painter.drawEllipse(QPointF(0, 0), r + 3.5, r + 3.5)
        if self.selected or self.proxy:
            pen = QPen(style.highlight, 2.6)
            if self.proxy:
                pen.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), r + 6.5, r + 6.5)
        elif self.hovered:
            painter.setPen(QPen(style.muted, 1.2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), r + 5, r + 5)

    def _paint_compare_ring(self, painter: QPainter, path: str) -> None:
        """On a compared path: a ring in that path's colour and line; the fork point a double ring."""
        r = self._r
        pen = self.style.compare_pen(path)
        pen.setWidthF(min(pen.widthF(), 3.0))
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QPointF(0, 0), r + 3.5, r + 3.5)
        if self.fork:
            painter.drawEllipse(QPointF(0, 0), r + 7.5, r + 7.5)

    def _paint_body(self, painter: QPainter) -> None:
        """The kind's shape in the kind's colour."""
        style = self.style
        color = style.kind_color[self.kind]
        name = style.kind_shape_name[self.kind]
        if name in _HOLLOW:
            self._paint_hollow(painter, name, color)
            return
        painter.setBrush(color)
        painter.setPen(QPen(color.darker(135) if not style.dark else color.lighter(125), 1.0))
        painter.drawPath(style.kind_shape[self.kind])
        if name in ("compaction", "summary"):
            self._paint_lines(painter, name)

    def _paint_hollow(self, painter: QPainter, name: str, color: QColor) -> None:
        style = self.style
        r = self._r
        painter.setBrush(style.base)
        pen = QPen(color, 1.6, Qt.PenStyle.DashLine if name != "diamond_hollow" else Qt.PenStyle.SolidLine)
        painter.setPen(pen)
        painter.drawPath(style.kind_shape[self.kind])
        if name == "unknown":
            painter.setFont(style.badge_font)
            painter.drawText(QRectF(-r, -r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, "?")

    def _paint_lines(self, painter: QPainter, name: str) -> None:
        """The lines of text a compaction or a summary shows on its shape."""
        r = self._r
        if name == "compaction":
            painter.setPen(QPen(self.style.base, 1.2))
            for dy in (-2.5, 0.0, 2.5):
                painter.drawLine(QPointF(-r * 0.8, dy), QPointF(r * 0.8, dy))
        else:
            painter.setPen(QPen(self.style.base, 1.3))
            painter.drawLine(QPointF(-r * 0.6, -1.5), QPointF(r * 0.6, -1.5))
            painter.drawLine(QPointF(-r * 0.6, 1.8), QPointF(r * 0.25, 1.8))

    def _paint_marks(self, painter: QPainter) -> None:
        """What the node is besides its kind: a branch's end, the current leaf, edited, compared."""
        style = self.style
        r = self._r
        if self.leaf:
            # the end of a branch: a short bar below the node
            painter.setPen(QPen(style.outline, 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            painter.drawLine(QPointF(-5, r + 4.5), QPointF(5, r + 4.5))
        if self.current_leaf:
            painter.setPen(QPen(style.accent, 2.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), r + 2.2, r + 2.2)
        if self.provenance is not None and self.provenance.edit is not None:
            self._paint_edit(painter, self.provenance.edit)

    def _paint_edit(self, painter: QPainter, edit: Edit) -> None:
        """A context edit touched this entry: a dot in the edit's colour, struck through when dropped."""
        r = self._r
        edit_color = self.style.edit_color[edit]
        painter.setPen(QPen(self.style.base, 1.0))
        painter.setBrush(edit_color)
        painter.drawEllipse(QPointF(r * 0.8, -r * 0.8), 3.6, 3.6)
        if edit is Edit.DROPPED:
            painter.setPen(QPen(edit_color, 2.0))
            painter.drawLine(QPointF(-r - 2, r + 2), QPointF(r + 2, -r - 2))

    def small_text(self, lod: float) -> tuple[tuple, float] | None:
        """Zoomed out to `lod`: what text shows beside the node and how much it is scaled up; None for none.

        The text keeps the size style.text_scale gives (larger than the zoom alone would
        make it) while the room beside the node shrinks on screen with the zoom, so fewer
        words fit: labels and the current-leaf badge first, then the title.
        """
        shown = text_scale(lod, self.style.metrics.height())
        if not shown:
            return None
        grow = shown / lod
        plan = self._plan_in(max(0.0, self._room - self.text_x() - 6) / grow)
        return (plan, grow) if plan[0] or plan[2] else None

    def text_size(self, lod: float) -> float:
        """How large the node's text shows on screen at zoom `lod` (1: its own size; 0: no text)."""
        shown = text_scale(lod, self.style.metrics.height())
        if shown > lod:
            return shown if self.small_text(lod) is not None else 0.0
        return lod if shown and (self._plan()[0] or self._plan()[2]) else 0.0

    def _paint_small_text(self, painter: QPainter, lod: float) -> None:
        shown = self.small_text(lod)
        if self.label and (shown is None or not any(text == self.label[:40] for text, *_ in shown[0][0])):
            self._paint_flag(painter)
        if shown is None:
            return
        plan, grow = shown
        painter.save()
        painter.translate(self.text_x(), 0)
        painter.scale(grow, grow)
        self._paint_text(painter, plan, 0.0)
        painter.restore()

    def _paint_text(self, painter: QPainter, plan: tuple | None = None, x0: float | None = None) -> None:
        style = self.style
        badges, title_x, title_width = plan if plan is not None else self._plan()
        x0 = self.text_x() if x0 is None else x0
        x = x0
        for text, width, bg, fg in badges:
            pill(painter, x, text, style.badge_font, style.badge_metrics, bg, fg)
            x += width + 4
        if title_width:
            self._paint_title(painter, x0 + title_x, title_width)

    def _paint_title(self, painter: QPainter, x: float, width: float) -> None:
        """The title, elided to `width`; on the highlight colour when selected."""
        style = self.style
        metrics = style.metrics
        text = metrics.elidedText(self.short_title(), Qt.TextElideMode.ElideRight, width)
        h = metrics.height()
        rect = QRectF(x, -h / 2, metrics.horizontalAdvance(text) + 1, h)
        painter.setFont(style.font)
        if self.selected:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.highlight)
            painter.drawRoundedRect(rect.adjusted(-3, -1, 3, 1), 3, 3)
            painter.setPen(style.highlighted_text)
        else:
            painter.setPen(style.text if not self.entry_is_quiet() else style.muted)
        painter.drawText(rect, _LEFT, text)

    def _paint_flag(self, painter: QPainter) -> None:
        """A small flag above the node: it has a label that is not spelled out beside it."""
        r = self._r
        painter.setPen(QPen(self.style.label_fg if self.style.dark else self.style.label_bg.darker(170), 1.0))
        painter.setBrush(self.style.label_bg.darker(108))
        painter.drawPolygon(QPolygonF([QPointF(r - 2, -r - 1), QPointF(r + 8, -r - 5), QPointF(r, -r - 10)]))

    def tooltip(self) -> str:
        return node_tooltip(self)
