"""The graphics items of the branch tree: lean nodes, folds and banded edges.

Nodes paint themselves from a few flags (selected, on the selected path and its
provenance, search hit, leaf, current leaf, label); they take no mouse events —
the view does hit-testing and interaction — and skip their text and details
when zoomed out. Edges are a handful of path items, one per band of rows, so
thousands of edges cost a few C++ paint calls.
"""

from __future__ import annotations

import html
import math
from collections import Counter
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPalette, QPen, QPolygonF, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QStyleOptionGraphicsItem

from ...model.describe import entry_kind, entry_title
from ...model.jsdate import js_time
from ...model.provenance import Edit, Part, Provenance
from ...model.timefmt import format_millis
from ...model.tree_filter import SETTINGS_TYPES
from ..colors import mix

if TYPE_CHECKING:
    from ...model.entry import Entry

TEXT_LOD = 0.55  # below this zoom, no text
DETAIL_LOD = 0.3  # below this, no rings, badges or markers: just the shape
MAX_TEXT = 380.0  # the widest a node's text may grow when nothing is to its right
MIN_TEXT = 44.0  # narrower than this, a node shows no text at all
_ROLE_PREFIXES = {"user": "user: ", "assistant": "assistant: ", "toolResult": "toolResult: "}

NODE_TYPE = QGraphicsItem.UserType + 1
FOLD_TYPE = QGraphicsItem.UserType + 2


# ---- colours and shapes ---------------------------------------------------------

# kind → (light palette colour, dark palette colour, shape, radius)
KINDS: dict[str, tuple[str, str, str, float]] = {
    "user": ("#2563eb", "#60a5fa", "circle", 8.0),
    "assistant": ("#059669", "#34d399", "circle", 8.0),
    "toolResult": ("#a16207", "#d6a23a", "square", 5.5),
    "bashExecution": ("#ea580c", "#fb923c", "square", 6.5),
    "custom": ("#7c3aed", "#a78bfa", "diamond", 7.0),  # a message with role custom
    "custom_message": ("#7c3aed", "#a78bfa", "diamond", 7.0),
    "system": ("#475569", "#94a3b8", "hexagon", 8.0),
    "compaction": ("#dc2626", "#f87171", "compaction", 9.0),
    "branch_summary": ("#db2777", "#f472b6", "summary", 8.0),
    "model_change": ("#0891b2", "#22d3ee", "triangle", 6.0),
    "thinking_level_change": ("#4f46e5", "#818cf8", "triangle_down", 6.0),
    "label": ("#ca8a04", "#facc15", "tag", 6.0),
    "session_info": ("#0d9488", "#2dd4bf", "square", 5.0),
    "context_edit": ("#be123c", "#fb7185", "cross", 6.0),
    "custom_state": ("#7c3aed", "#a78bfa", "diamond_hollow", 5.5),
    "usage": ("#6b7280", "#9ca3af", "dot", 4.0),
    "message": ("#6b7280", "#9ca3af", "circle_dashed", 7.0),  # a message of a role we do not know
    "unknown": ("#6b7280", "#9ca3af", "unknown", 6.0),
}

KIND_NAMES = {
    "user": "user message",
    "assistant": "assistant message",
    "toolResult": "tool result",
    "bashExecution": "bash execution",
    "custom": "custom message",
    "custom_message": "custom message",
    "system": "system message",
    "compaction": "compaction",
    "branch_summary": "branch summary",
    "model_change": "model change",
    "thinking_level_change": "thinking level change",
    "label": "label",
    "session_info": "session info",
    "context_edit": "context edit",
    "custom_state": "extension state (custom)",
    "usage": "usage record",
    "message": "message (unknown role)",
    "unknown": "unknown entry type",
}

_KNOWN_TYPES = {"compaction", "branch_summary", "model_change", "thinking_level_change", "label", "session_info", "context_edit", "custom_message", "usage"}
_KNOWN_ROLES = {"user", "assistant", "toolResult", "bashExecution", "custom", "system"}


def style_kind(entry: Entry) -> str:
    """The key into KINDS for an entry: its message role or type, 'unknown' for anything else."""
    if entry.type == "message":
        kind = entry_kind(entry)
        return kind if kind in _KNOWN_ROLES else "message"
    if entry.type == "custom":
        return "custom_state"
    return entry.type if entry.type in _KNOWN_TYPES else "unknown"


# (light, dark) colours of the parts an entry plays in the selected node's context
PARTS: dict[Part, tuple[str, str]] = {
    Part.IN_CONTEXT: ("#2563eb", "#60a5fa"),
    Part.AFTER_COMPACTION: ("#2563eb", "#60a5fa"),
    Part.KEPT: ("#16a34a", "#4ade80"),
    Part.CHECKPOINT: ("#ea580c", "#fb923c"),
    Part.SUMMARIZED: ("#9333ea", "#c084fc"),
    Part.SYSTEM_FOLDED: ("#0d9488", "#2dd4bf"),
    Part.SUPERSEDED: ("#a8a29e", "#78716c"),
    Part.NOT_CONTEXT: ("#b6bcc6", "#5b6472"),
}
EDITS: dict[Edit, tuple[str, str]] = {
    Edit.DROPPED: ("#dc2626", "#f87171"),
    Edit.REPLACED: ("#d97706", "#fbbf24"),
}

LEGEND: list[tuple[Part | Edit, str]] = [
    (Part.IN_CONTEXT, "in context / after the compaction"),
    (Part.KEPT, "kept by the compaction"),
    (Part.CHECKPOINT, "compaction checkpoint"),
    (Part.SUMMARIZED, "summarized by the compaction"),
    (Part.SYSTEM_FOLDED, "system message folded into the checkpoint"),
    (Part.SUPERSEDED, "older compaction, superseded"),
    (Part.NOT_CONTEXT, "sends no message"),
    (Edit.DROPPED, "dropped by a context edit"),
    (Edit.REPLACED, "content replaced by a context edit"),
]


def _shape(name: str, r: float) -> QPainterPath:
    path = QPainterPath()
    if name in ("circle", "circle_dashed", "dot"):
        path.addEllipse(QPointF(0, 0), r, r)
    elif name == "square":
        path.addRoundedRect(QRectF(-r, -r, 2 * r, 2 * r), 1.5, 1.5)
    elif name in ("diamond", "diamond_hollow"):
        path.addPolygon(QPolygonF([QPointF(0, -r * 1.2), QPointF(r * 1.2, 0), QPointF(0, r * 1.2), QPointF(-r * 1.2, 0)]))
        path.closeSubpath()
    elif name == "hexagon":
        path.addPolygon(QPolygonF([QPointF(r * math.cos(a), r * math.sin(a)) for a in (math.pi / 3 * i + math.pi / 6 for i in range(6))]))
        path.closeSubpath()
    elif name == "compaction":
        path.addRoundedRect(QRectF(-r * 1.35, -r * 0.75, r * 2.7, r * 1.5), 3, 3)
    elif name == "summary":
        path.addRoundedRect(QRectF(-r * 1.2, -r * 0.8, r * 2.4, r * 1.6), r * 0.8, r * 0.8)
    elif name == "triangle":
        path.addPolygon(QPolygonF([QPointF(0, -r * 1.15), QPointF(r * 1.15, r * 0.85), QPointF(-r * 1.15, r * 0.85)]))
        path.closeSubpath()
    elif name == "triangle_down":
        path.addPolygon(QPolygonF([QPointF(0, r * 1.15), QPointF(r * 1.15, -r * 0.85), QPointF(-r * 1.15, -r * 0.85)]))
        path.closeSubpath()
    elif name == "tag":
        path.addPolygon(QPolygonF([QPointF(-r, -r * 0.8), QPointF(r * 0.4, -r * 0.8), QPointF(r * 1.2, 0), QPointF(r * 0.4, r * 0.8), QPointF(-r, r * 0.8)]))
        path.closeSubpath()
    elif name == "cross":
        w = r * 0.45
        for angle in (45, -45):
            bar = QPainterPath()
            bar.addRect(QRectF(-r * 1.1, -w, r * 2.2, 2 * w))
            path = path.united(QTransform().rotate(angle).map(bar))
    else:  # unknown
        path.addRect(QRectF(-r, -r, 2 * r, 2 * r))
    return path


class Style:
    """Colours, fonts and shapes for one palette; items share one instance."""

    def __init__(self, palette: QPalette, font: QFont) -> None:
        base = palette.color(QPalette.ColorRole.Base)
        self.dark = base.lightness() < 128
        self.base = base
        self.text = palette.color(QPalette.ColorRole.Text)
        self.muted = mix(self.text, base, 0.45)
        self.edge = mix(self.text, base, 0.62)
        self.highlight = palette.color(QPalette.ColorRole.Highlight)
        self.highlighted_text = palette.color(QPalette.ColorRole.HighlightedText)
        self.accent = QColor("#f59e0b") if not self.dark else QColor("#fbbf24")
        self.hit = QColor(250, 204, 21, 120) if not self.dark else QColor(250, 204, 21, 90)
        self.current_hit = QColor(249, 115, 22, 190)
        self.outline = mix(self.text, base, 0.25)
        pick = 1 if self.dark else 0
        self.kind_color = {kind: QColor(spec[pick]) for kind, spec in KINDS.items()}
        self.kind_shape = {kind: _shape(spec[2], spec[3]) for kind, spec in KINDS.items()}
        self.kind_radius = {kind: spec[3] for kind, spec in KINDS.items()}
        self.kind_shape_name = {kind: spec[2] for kind, spec in KINDS.items()}
        self.part_color = {part: QColor(spec[pick]) for part, spec in PARTS.items()}
        self.edit_color = {edit: QColor(spec[pick]) for edit, spec in EDITS.items()}
        self.label_bg = QColor("#fde68a") if not self.dark else QColor("#854d0e")
        self.label_fg = QColor("#713f12") if not self.dark else QColor("#fef3c7")
        self.current_bg = self.accent
        self.current_fg = QColor("#1f2937")
        self.font = QFont(font)
        self.font.setPointSizeF(max(7.0, font.pointSizeF() * 0.92))
        self.bold = QFont(self.font)
        self.bold.setBold(True)
        self.badge_font = QFont(self.font)
        self.badge_font.setPointSizeF(max(6.5, self.font.pointSizeF() * 0.86))
        self.badge_font.setBold(True)
        self.metrics = QFontMetricsF(self.font)
        self.bold_metrics = QFontMetricsF(self.bold)
        self.badge_metrics = QFontMetricsF(self.badge_font)
        self.edge_pen = QPen(self.edge, 1.3)
        self.edge_pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        self.edge_pen.setCosmetic(False)

    def path_color(self, provenance: Provenance | None) -> QColor:
        if provenance is None:
            return self.highlight
        return self.part_color.get(provenance.part, self.highlight)

    def color_for(self, role: Part | Edit) -> QColor:
        return self.part_color[role] if isinstance(role, Part) else self.edit_color[role]


def _pill(painter: QPainter, x: float, text: str, font: QFont, metrics: QFontMetricsF, bg: QColor, fg: QColor) -> float:
    """Draw a badge starting at x, centred on y=0; return its width."""
    width = metrics.horizontalAdvance(text) + 8
    height = metrics.height() + 1
    rect = QRectF(x, -height / 2, width, height)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(bg)
    painter.drawRoundedRect(rect, height / 2, height / 2)
    painter.setPen(fg)
    painter.setFont(font)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
    return width


# ---- nodes --------------------------------------------------------------------------


class NodeItem(QGraphicsItem):
    """One entry. State flags, read by tests and tooltips as well as paint:

    selected, proxy (stands in for a selected entry the filter hides), on_path,
    provenance (its Provenance on the selected path, or None), hit, current_hit,
    leaf (no displayed children), current_leaf, label, compare ("A", "B" or None).
    """

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
        self._room = room
        self._title: str | None = None
        self._text_plan: tuple | None = None
        r = style.kind_radius[self.kind]
        self._r = r
        self._bounds = QRectF(-r - 8, -r - 8, r + 8 + max(r + 8, room), 2 * r + 18)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def type(self) -> int:
        return NODE_TYPE

    # ---- geometry -----------------------------------------------------------

    def boundingRect(self) -> QRectF:
        return self._bounds

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

    def title(self) -> str:
        if self._title is None:
            self._title = entry_title(self.entry, 120)
        return self._title

    def short_title(self) -> str:
        """The title without the role the shape and colour already show."""
        title = self.title()
        prefix = _ROLE_PREFIXES.get(self.kind)
        return title[len(prefix):] if prefix and title.startswith(prefix) else title

    def text_width(self) -> float:
        """How wide the text beside the node is drawn (badges and title), at most the room there is."""
        badges, title_x, title_width = self._plan()
        return title_x + title_width if title_width else max(0.0, title_x - 4)

    def _plan(self) -> tuple[list[tuple[str, float, QColor, QColor]], float, float]:
        """What fits beside the node: whole badges first, then the title if a few characters fit.

        A stub like "us…" or half a badge only adds noise, so what does not fit is left out
        (a label then shows as a small flag, the current leaf by its ring).
        """
        if self._text_plan is None:
            style = self.style
            room = max(0.0, self._room - self.text_x() - 6)
            x = 0.0
            badges = []
            wanted = []
            if self.current_leaf:
                wanted.append(("current", style.current_bg, style.current_fg))
            if self.label:
                wanted.append((self.label[:40], style.label_bg, style.label_fg))
            for text, bg, fg in wanted:
                width = style.badge_metrics.horizontalAdvance(text) + 8
                if x + width <= room:
                    badges.append((text, width, bg, fg))
                    x += width + 4
            title_room = room - x
            title_width = 0.0
            if title_room >= MIN_TEXT:
                title_width = min(style.metrics.horizontalAdvance(self.short_title()) + 1, title_room)
            self._text_plan = (badges, x, title_width)
        return self._text_plan

    def label_shown(self) -> bool:
        """Whether the label badge fits beside the node (else a flag marks it)."""
        return bool(self.label) and any(text == self.label[:40] for text, *_ in self._plan()[0])

    def set_room(self, room: float) -> None:
        self.prepareGeometryChange()
        self._room = room
        self._text_plan = None
        r = self._r
        self._bounds = QRectF(-r - 8, -r - 8, r + 8 + max(r + 8, room), 2 * r + 18)

    def refresh_text(self) -> None:
        """Forget measured text after the label or current-leaf badge changed."""
        self._text_plan = None
        self.update()

    # ---- painting ---------------------------------------------------------------

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        style = self.style
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        color = style.kind_color[self.kind]
        shape = style.kind_shape[self.kind]
        r = self._r
        if lod < DETAIL_LOD:
            # Far out: a dot that keeps a few pixels on screen, and the marks as halos.
            painter.setPen(Qt.PenStyle.NoPen)
            dot = min(r + 6.0, max(r, 2.2 / max(lod, 1e-3)))
            if self.selected or self.proxy or self.on_path or self.hit or self.current_leaf:
                if self.selected or self.proxy:
                    ring = style.highlight
                elif self.hit:
                    ring = style.current_hit if self.current_hit else style.hit
                elif self.on_path:
                    ring = style.path_color(self.provenance)
                else:
                    ring = style.accent
                painter.setBrush(ring)
                painter.drawEllipse(QPointF(0, 0), dot + 3, dot + 3)
            painter.setBrush(color)
            if dot > r:
                painter.drawEllipse(QPointF(0, 0), dot, dot)
            else:
                painter.drawPath(shape)
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self.hit or self.current_hit:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.current_hit if self.current_hit else style.hit)
            painter.drawEllipse(QPointF(0, 0), r + 7, r + 7)
        if self.on_path:
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
        name = style.kind_shape_name[self.kind]
        if name in ("diamond_hollow", "circle_dashed", "unknown"):
            painter.setBrush(style.base)
            pen = QPen(color, 1.6, Qt.PenStyle.DashLine if name != "diamond_hollow" else Qt.PenStyle.SolidLine)
            painter.setPen(pen)
            painter.drawPath(shape)
            if name == "unknown":
                painter.setFont(style.badge_font)
                painter.drawText(QRectF(-r, -r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, "?")
        else:
            painter.setBrush(color)
            painter.setPen(QPen(color.darker(135) if not style.dark else color.lighter(125), 1.0))
            painter.drawPath(shape)
            if name == "compaction":
                painter.setPen(QPen(style.base, 1.2))
                for dy in (-2.5, 0.0, 2.5):
                    painter.drawLine(QPointF(-r * 0.8, dy), QPointF(r * 0.8, dy))
            elif name == "summary":
                painter.setPen(QPen(style.base, 1.3))
                painter.drawLine(QPointF(-r * 0.6, -1.5), QPointF(r * 0.6, -1.5))
                painter.drawLine(QPointF(-r * 0.6, 1.8), QPointF(r * 0.25, 1.8))
        if self.leaf:
            # the end of a branch: a short bar below the node
            painter.setPen(QPen(style.outline, 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            painter.drawLine(QPointF(-5, r + 4.5), QPointF(5, r + 4.5))
        if self.current_leaf:
            painter.setPen(QPen(style.accent, 2.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), r + 2.2, r + 2.2)
        if self.provenance is not None and self.provenance.edit is not None:
            edit_color = style.edit_color[self.provenance.edit]
            painter.setPen(QPen(style.base, 1.0))
            painter.setBrush(edit_color)
            painter.drawEllipse(QPointF(r * 0.8, -r * 0.8), 3.6, 3.6)
            if self.provenance.edit is Edit.DROPPED:
                painter.setPen(QPen(edit_color, 2.0))
                painter.drawLine(QPointF(-r - 2, r + 2), QPointF(r + 2, -r - 2))
        if self.compare:
            _pill(painter, -r - 20, self.compare, style.badge_font, style.badge_metrics, style.highlight, style.highlighted_text)
        if lod < TEXT_LOD:
            if self.label:
                self._paint_flag(painter)
            return
        if self.label and not self.label_shown():
            self._paint_flag(painter)
        self._paint_text(painter)

    def _paint_text(self, painter: QPainter) -> None:
        style = self.style
        badges, title_x, title_width = self._plan()
        x0 = self.text_x()
        x = x0
        for text, width, bg, fg in badges:
            _pill(painter, x, text, style.badge_font, style.badge_metrics, bg, fg)
            x += width + 4
        if title_width:
            metrics = style.metrics
            text = metrics.elidedText(self.short_title(), Qt.TextElideMode.ElideRight, title_width)
            h = metrics.height()
            rect = QRectF(x0 + title_x, -h / 2, metrics.horizontalAdvance(text) + 1, h)
            painter.setFont(style.font)
            if self.selected:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(style.highlight)
                painter.drawRoundedRect(rect.adjusted(-3, -1, 3, 1), 3, 3)
                painter.setPen(style.highlighted_text)
            else:
                painter.setPen(style.text if not self.entry_is_quiet() else style.muted)
            painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)

    def _paint_flag(self, painter: QPainter) -> None:
        """A small flag above the node: it has a label that is not spelled out beside it."""
        r = self._r
        painter.setPen(QPen(self.style.label_fg if self.style.dark else self.style.label_bg.darker(170), 1.0))
        painter.setBrush(self.style.label_bg.darker(108))
        painter.drawPolygon(QPolygonF([QPointF(r - 2, -r - 1), QPointF(r + 8, -r - 5), QPointF(r, -r - 10)]))

    def entry_is_quiet(self) -> bool:
        """Bookkeeping entries get muted text so the conversation stands out."""
        return self.entry.type in SETTINGS_TYPES or self.kind in ("usage", "toolResult")

    # ---- description -----------------------------------------------------------------

    def tooltip(self) -> str:
        entry = self.entry
        lines = [f"<b>{html.escape(KIND_NAMES.get(self.kind, self.kind))}</b> &nbsp;<code>{html.escape(entry.id)}</code>"]
        lines.append(html.escape(self.title()))
        lines.append(f"<span style='color:gray'>{html.escape(_when(entry.timestamp))} · line {entry.line}</span>")
        if self.label:
            lines.append(f"label: <b>{html.escape(self.label)}</b>")
        if self.current_leaf:
            extra = f" (through {self.current_leaf_hidden} hidden entries)" if self.current_leaf_hidden else ""
            lines.append(f"current leaf — where pi resumes{extra}")
        if self.provenance is not None:
            lines.append(f"in the selected context: {html.escape(self.provenance.describe())}")
        return "<br>".join(lines)


# ---- folds -----------------------------------------------------------------------------


class FoldItem(QGraphicsItem):
    """A run of single-child entries shown as one node: a capsule and "N entries".

    State: members (ids, top first), hits (search hits inside), path_parts (the
    provenance parts of its members on the selected path, top first, as
    (part, count) runs), contains_selection.
    """

    WIDTH = 14.0
    HEIGHT = 26.0

    def __init__(self, unit: int, members: list[str], entries: dict[str, Entry], style: Style, room: float) -> None:
        super().__init__()
        self.unit = unit
        self.key = members[0]
        self.members = members
        self._entries = entries
        self.style = style
        self.hits = 0
        self.current_hit = False
        self.on_path = False
        self.path_parts: list[tuple[Part, int]] = []
        self.contains_selection = False
        self.hovered = False
        self._room = room
        self._summary: str | None = None
        w, h = self.WIDTH, self.HEIGHT
        self._bounds = QRectF(-w / 2 - 6, -h / 2 - 6, w / 2 + 6 + max(w / 2 + 6, room), h + 12)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def type(self) -> int:
        return FOLD_TYPE

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        w, h = self.WIDTH, self.HEIGHT
        path.addRoundedRect(QRectF(-w / 2 - 3, -h / 2 - 3, w + 6, h + 6), 8, 8)
        text = min(self._room - w, self.style.bold_metrics.horizontalAdvance(self.count_text()) + 6)
        if text > 0:
            path.addRect(QRectF(w / 2 + 4, -9, text, 18))
        return path

    def set_room(self, room: float) -> None:
        self.prepareGeometryChange()
        self._room = room
        w, h = self.WIDTH, self.HEIGHT
        self._bounds = QRectF(-w / 2 - 6, -h / 2 - 6, w / 2 + 6 + max(w / 2 + 6, room), h + 12)

    def count_text(self) -> str:
        """What the fold says: how many entries it holds."""
        count = len(self.members)
        return f"{count:,} entries"

    def summary(self) -> str:
        """The kinds it holds, most common first: "12 assistant · 9 user · 8 toolResult"."""
        if self._summary is None:
            counts = Counter(entry_kind(self._entries[key]) for key in self.members)
            self._summary = " · ".join(f"{n} {kind}" for kind, n in counts.most_common(4))
        return self._summary

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        style = self.style
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        w, h = self.WIDTH, self.HEIGHT
        rect = QRectF(-w / 2, -h / 2, w, h)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self.hits:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.current_hit if self.current_hit else style.hit)
            painter.drawRoundedRect(rect.adjusted(-6, -6, 6, 6), 10, 10)
        if self.contains_selection:
            painter.setPen(QPen(style.highlight, 2.4, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(-5, -5, 5, 5), 9, 9)
        painter.setBrush(style.base)
        painter.setPen(QPen(style.muted if not self.hovered else style.text, 1.4, Qt.PenStyle.DashLine))
        painter.drawRoundedRect(rect, w / 2, w / 2)
        if self.on_path and self.path_parts:
            # the members' parts in the selected context, top to bottom, in proportion
            total = sum(n for _, n in self.path_parts)
            inner = rect.adjusted(3, 3, -3, -3)
            y = inner.top()
            painter.setPen(Qt.PenStyle.NoPen)
            clip = QPainterPath()
            clip.addRoundedRect(inner, inner.width() / 2, inner.width() / 2)
            painter.save()
            painter.setClipPath(clip)
            for part, n in self.path_parts:
                height = inner.height() * n / total
                painter.setBrush(style.part_color.get(part, style.highlight))
                painter.drawRect(QRectF(inner.left(), y, inner.width(), height + 0.5))
                y += height
            painter.restore()
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.muted)
            for dy in (-6.0, 0.0, 6.0):
                painter.drawEllipse(QPointF(0, dy), 1.7, 1.7)
        if lod < TEXT_LOD:
            return
        room = self._room - w / 2 - 8
        if room < 12:
            return
        x = w / 2 + 6
        metrics = style.bold_metrics
        count = self.count_text()
        if metrics.horizontalAdvance(count) > room:
            count = f"{len(self.members):,}"
            if metrics.horizontalAdvance(count) > room:
                return
        painter.save()
        painter.setClipRect(QRectF(x - 2, -20, room + 4, 40))
        ch = metrics.height()
        painter.setFont(style.bold)
        painter.setPen(style.text)
        painter.drawText(QRectF(x, -ch / 2, room, ch), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, count)
        x += metrics.horizontalAdvance(count) + 6
        hits = f"{self.hits} hit" + ("s" if self.hits != 1 else "")
        if self.hits and x + style.badge_metrics.horizontalAdvance(hits) + 8 <= w / 2 + 6 + room:
            x += _pill(painter, x, hits, style.badge_font, style.badge_metrics, style.accent, style.current_fg) + 4
        rest = room - (x - w / 2 - 6)
        if rest > 24:
            text = style.metrics.elidedText(self.summary(), Qt.TextElideMode.ElideRight, rest)
            painter.setFont(style.font)
            painter.setPen(style.muted)
            painter.drawText(QRectF(x, -ch / 2, rest, ch), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
        painter.restore()

    def tooltip(self) -> str:
        first, last = self._entries[self.members[0]], self._entries[self.members[-1]]
        lines = [
            f"<b>{len(self.members):,} entries folded</b> — click to expand",
            html.escape(self.summary()),
            f"first: <code>{html.escape(first.id)}</code> {html.escape(entry_title(first, 70))}",
            f"last: <code>{html.escape(last.id)}</code> {html.escape(entry_title(last, 70))}",
            f"<span style='color:gray'>{html.escape(_when(first.timestamp))} → {html.escape(_when(last.timestamp))}</span>",
        ]
        if self.hits:
            lines.append(f"{self.hits} search hit(s) inside")
        return "<br>".join(lines)


# ---- far out -------------------------------------------------------------------------


class NodeLayer(QGraphicsItem):
    """An empty parent for all node and fold items, so they hide and show in one call."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return QRectF()

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

    def boundingRect(self) -> QRectF:
        return self._bounds

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


# ---- edges --------------------------------------------------------------------------


def edge_bands(lay, x_of, y_of, style: Style, band_rows: int = 24) -> list[QGraphicsPathItem]:
    """All edges as a few path items, one per band of rows (each culled by the scene as a whole)."""
    bands: dict[int, QPainterPath] = {}
    row, col, children = lay.row, lay.col, lay.children
    half = (y_of(1) - y_of(0)) / 2
    corner = min(8.0, half * 0.6)
    for unit, kids in enumerate(children):
        if not kids:
            continue
        band = row[unit] // band_rows
        path = bands.get(band)
        if path is None:
            path = bands[band] = QPainterPath()
        px, py = x_of(col[unit]), y_of(row[unit])
        mid = py + half
        for kid in kids:
            cx, cy = x_of(col[kid]), y_of(row[kid])
            if cx == px:
                path.moveTo(px, py)
                path.lineTo(cx, cy)
            else:
                path.moveTo(px, py)
                path.lineTo(px, mid - corner)
                path.quadTo(px, mid, px + corner, mid)
                path.lineTo(cx - corner, mid)
                path.quadTo(cx, mid, cx, mid + corner)
                path.lineTo(cx, cy)
    items = []
    for path in bands.values():
        item = QGraphicsPathItem(path)
        item.setPen(style.edge_pen)
        item.setZValue(-2)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        items.append(item)
    return items


def path_edges(segments: list[tuple[float, float, float, float, QColor, bool]], half: float) -> list[QGraphicsPathItem]:
    """The selected path's edges, thick, one item per colour; segments are (px, py, cx, cy, colour, dotted)."""
    by_color: dict[tuple[int, bool], tuple[QColor, QPainterPath]] = {}
    corner = min(8.0, half * 0.6)
    for px, py, cx, cy, color, dotted in segments:
        key = (color.rgba(), dotted)
        entry = by_color.get(key)
        if entry is None:
            entry = by_color[key] = (color, QPainterPath())
        path = entry[1]
        path.moveTo(px, py)
        if cx == px:
            path.lineTo(cx, cy)
        else:
            mid = py + half
            path.lineTo(px, mid - corner)
            path.quadTo(px, mid, px + corner, mid)
            path.lineTo(cx - corner, mid)
            path.quadTo(cx, mid, cx, mid + corner)
            path.lineTo(cx, cy)
    items = []
    for (_, dotted), (color, path) in by_color.items():
        item = QGraphicsPathItem(path)
        pen = QPen(color, 3.2, Qt.PenStyle.DotLine if dotted else Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        item.setPen(pen)
        item.setZValue(-1)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        items.append(item)
    return items


def parts_runs(members: list[str], provenance: dict[str, Provenance]) -> list[tuple[Part, int]]:
    """Run-length of the members' parts along the path, top first."""
    runs: list[tuple[Part, int]] = []
    for key in members:
        found = provenance.get(key)
        if found is None:
            continue
        if runs and runs[-1][0] is found.part:
            runs[-1] = (found.part, runs[-1][1] + 1)
        else:
            runs.append((found.part, 1))
    return runs


# ---- helpers ---------------------------------------------------------------------------


def _when(timestamp: Any) -> str:
    # A time that does not parse is still worth showing as the file has it.
    return format_millis(js_time(timestamp)) or str(timestamp)
