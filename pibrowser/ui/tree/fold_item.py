"""A fold: a run of single-child entries drawn as one dashed capsule that says how many it holds."""

from __future__ import annotations

from collections import Counter
from operator import attrgetter
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from ...model.text.describe import entry_kind_of
from ...model.context.provenance import Part, Provenance, parts_runs
from .badge import pill
from .style import Style, text_scale
from .tooltips import fold_tooltip
from .unit_item import USER_TYPE, UnitItem
from ...model.text.plural import counted
from ..guard import guarded, guarded_paint

_TYPE, _ROLE = attrgetter("type"), attrgetter("role")

if TYPE_CHECKING:
    from ...model.session.entry import Entry

_LEFT = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft  # made once: a flag combined per paint costs
FOLD_TYPE = USER_TYPE + 2


class FoldItem(UnitItem):
    """A run of single-child entries shown as one node: a capsule and "N entries".

    State: members (ids, top first), hits (search hits inside), path_parts (the
    provenance parts of its members on the selected path, top first, as
    (part, count) runs; worked out when first painted or asked for, since a path's
    folds can hold 100,000 members and most are off screen), contains_selection.
    """

    ITEM_TYPE = FOLD_TYPE
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
        self._provenance: dict[str, Provenance] | None = None  # the selected path's, while on it
        self._parts: list[tuple[Part, int]] | None = None
        self.contains_selection = False
        self.compare_path: str | None = None  # "A", "B" or "trunk" when a compared path runs through it
        self.hovered = False
        self._room = room
        self._summary: str | None = None
        self._count_text: str | None = None
        w, h = self.WIDTH, self.HEIGHT
        self.start_bounds(QRectF(-w / 2 - 6, -h / 2 - 6, w / 2 + 6 + max(w / 2 + 6, room), h + 12))
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    @guarded(fallback=QPainterPath())
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
        self.set_bounds(QRectF(-w / 2 - 6, -h / 2 - 6, w / 2 + 6 + max(w / 2 + 6, room), h + 12))

    def set_path(self, provenance: dict[str, Provenance] | None) -> None:
        """On the selected path with this provenance, or (None) off it."""
        self._provenance, self._parts = provenance, None

    @property
    def path_parts(self) -> list[tuple[Part, int]]:
        if self._parts is None:
            self._parts = parts_runs(self.members, self._provenance) if self._provenance else []
        return self._parts

    def count(self) -> int:
        return len(self.members)

    def count_text(self) -> str:
        """What the fold says: how many entries it holds."""
        if self._count_text is None:
            self._count_text = counted(self.count(), "entry")
        return self._count_text

    def title_text(self) -> str:
        """What it stands for in one line (an exported picture's title)."""
        return f"{self.count_text()} folded"

    def summary(self) -> str:
        """The kinds it holds, most common first: "12 assistant · 9 user · 8 toolResult"."""
        if self._summary is None:
            # Counted by (type, role) in C first: a fold can hold a million entries, and it is painted.
            entries = list(map(self._entries.__getitem__, self.members))
            pairs = Counter(zip(map(_TYPE, entries), map(_ROLE, entries)))
            counts: Counter[str] = Counter()
            for (kind, role), n in pairs.items():
                counts[entry_kind_of(kind, role)] += n
            self._summary = " · ".join(f"{n} {kind}" for kind, n in counts.most_common(4))
        return self._summary

    # ---- painting ---------------------------------------------------------------

    @guarded_paint
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        self.paint_glyph(painter, lod)
        shown = text_scale(lod, self.style.bold_metrics.height())
        if not shown:
            return
        half, grow = self.WIDTH / 2, shown / lod
        painter.save()
        painter.translate(half + 6, 0)
        painter.scale(grow, grow)  # zoomed out, the count keeps a size that reads
        self.paint_line(painter, 0.0, (self._room - half - 8) / grow)
        painter.restore()

    def paint_glyph(self, painter: QPainter, lod: float = 1.0) -> None:
        """The capsule, centred on the painter's origin: its members' parts on the path, else dots."""
        w, h = self.WIDTH, self.HEIGHT
        rect = QRectF(-w / 2, -h / 2, w, h)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self._paint_capsule(painter, rect)
        if self.on_path and self.path_parts:
            self._paint_parts(painter, rect)
        else:
            self._paint_dots(painter)

    def _paint_capsule(self, painter: QPainter, rect: QRectF) -> None:
        """The dashed capsule, with a halo for search hits and a ring when it hides the selection."""
        style = self.style
        if self.hits:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.current_hit if self.current_hit else style.hit)
            painter.drawRoundedRect(rect.adjusted(-6, -6, 6, 6), 10, 10)
        if self.compare_path:
            pen = style.compare_pen(self.compare_path)
            pen.setWidthF(min(pen.widthF(), 3.0))
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(-3, -3, 3, 3), 8, 8)
        if self.contains_selection:
            painter.setPen(QPen(style.highlight, 2.4, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(-5, -5, 5, 5), 9, 9)
        painter.setBrush(style.base)
        painter.setPen(QPen(style.muted if not self.hovered else style.text, 1.4, Qt.PenStyle.DashLine))
        painter.drawRoundedRect(rect, self.WIDTH / 2, self.WIDTH / 2)

    def _paint_parts(self, painter: QPainter, rect: QRectF) -> None:
        """The members' parts in the selected context, top to bottom, in proportion."""
        style = self.style
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

    def _paint_dots(self, painter: QPainter) -> None:
        """Off the selected path: three dots, as in an ellipsis."""
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.style.muted)
        for dy in (-6.0, 0.0, 6.0):
            painter.drawEllipse(QPointF(0, dy), 1.7, 1.7)

    def paint_line(self, painter: QPainter, x: float, room: float) -> None:
        """From `x` on, as `room` allows, centred on y=0: the count, a hits badge, the kinds it holds."""
        if room < 12:
            return
        count = self._fitting_count(room)
        if count is None:
            return
        start = x
        painter.save()
        painter.setClipRect(QRectF(x - 2, -20, room + 4, 40))
        x = self._paint_count(painter, x, room, count, start)
        rest = room - (x - start)
        if rest > 24:
            self._paint_summary(painter, x, rest)
        painter.restore()

    def _fitting_count(self, room: float) -> str | None:
        """The count as it fits: "1,234 entries", else just "1,234", else None."""
        metrics = self.style.bold_metrics
        count = self.count_text()
        if metrics.horizontalAdvance(count) > room:
            count = f"{self.count():,}"
            if metrics.horizontalAdvance(count) > room:
                return None
        return count

    def _paint_count(self, painter: QPainter, x: float, room: float, count: str, start: float) -> float:
        """Draw the count, and the hits badge if it fits; return where the text goes on."""
        style = self.style
        metrics = style.bold_metrics
        ch = metrics.height()
        painter.setFont(style.bold)
        painter.setPen(style.text)
        painter.drawText(QRectF(x, -ch / 2, room, ch), _LEFT, count)
        x += metrics.horizontalAdvance(count) + 6
        hits = counted(self.hits, "hit")
        if self.hits and x + style.badge_metrics.horizontalAdvance(hits) + 8 <= start + room:
            x += pill(painter, x, hits, style.badge_font, style.badge_metrics, style.accent, style.current_fg) + 4
        return x

    def _paint_summary(self, painter: QPainter, x: float, width: float) -> None:
        style = self.style
        ch = style.bold_metrics.height()  # one line height with the count beside it
        text = style.metrics.elidedText(self.summary(), Qt.TextElideMode.ElideRight, width)
        painter.setFont(style.font)
        painter.setPen(style.muted)
        painter.drawText(QRectF(x, -ch / 2, width, ch), _LEFT, text)

    def tooltip(self) -> str:
        return fold_tooltip(self, self._entries[self.members[0]], self._entries[self.members[-1]])
