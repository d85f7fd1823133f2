"""The waterfall: a trace's lanes along a time axis, painted row by row, zoomed and panned.

Each lane is a row: on the left its name (a run opens with the arrow), on the
right its bar on the time axis (axis.py squeezes idle time between runs, and
says how long it was). A run's bar holds its turns' model time when closed; a
turn's bar is its whole span, the model's part darker; a tool call's bar is its
time (pale when only an upper bound is known); other entries are marks. Errors
are red.

Only the rows in view are painted, each frame from the lanes and the axis
alone, so panning a 90,000-lane trace costs what a screenful costs. Ctrl+wheel
or +/− zooms around the mouse, a drag or Shift+wheel pans, 0 fits the path.
The panel (trace_panel.py) owns the lanes and the selection; this view reads
them when told (`set_lanes`, `set_current`) and says what the user picked.

(Over 400 lines as one file: painting, zoom and pan share the view's time
transform on every frame.)
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QKeyEvent, QMouseEvent, QPainter, QPalette, QPen, QPolygonF, QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip, QWidget

from ...model.text.timefmt import format_duration
from ...model.trace.spans import Event, Run, Turn
from ..style.colors import mix
from .axis import TimeAxis, tick_label, tick_step, ticks_between
from .lanes import Node, TraceLanes, entry_of, is_error, span_of, turn_starts, turns_between
from ..guard import guarded, guarded_paint

RULER = 24
ROW = 20
INDENT = 14
ARROW = 14
MIN_BAR = 2.0
ZOOM_STEP = 1.5
MAX_SCALE = 20.0  # px per ms: a millisecond 20 px wide
SCROLL_STEPS = 1 << 30  # the most a scroll bar counts (its values are 32-bit)

COLORS = {
    "run": QColor("#64748b"),
    "model": QColor("#10b981"),
    "call": QColor("#f59e0b"),
    "error": QColor("#ef4444"),
    "user": QColor("#3b82f6"),
    "custom": QColor("#ec4899"),
    "compaction": QColor("#f97316"),
    "branch_summary": QColor("#06b6d4"),
    "bashExecution": QColor("#a855f7"),
}


def event_color(kind: str) -> QColor:
    if kind in ("custom_message", "custom"):
        return COLORS["custom"]
    return COLORS.get(kind, COLORS["run"])


class Waterfall(QAbstractScrollArea):
    """Signals: `activated(lane)` a click or Enter on a lane; `toggled(lane)` its run opened or closed;
    `errorStep(1 or -1)` F8 or Shift+F8, the next or previous error."""

    activated = Signal(int)
    toggled = Signal(int)
    errorStep = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lanes: TraceLanes | None = None
        self.axis: TimeAxis | None = None
        self.current: int | None = None
        self.hovered: int | None = None
        self.offset = 0.0  # axis ms at the left edge of the bars
        self.scale = 1.0  # px per axis ms
        self.label: Callable[[Node], str] = lambda node: ""
        self.tip: Callable[[Node], str] = lambda node: ""
        self.fitted = False  # showing the whole path: a resize fits it again
        self._press: QPointF | None = None
        self._bar_unit = 1.0  # pixels per step of the scroll bar across
        self._dragged = False
        self._turn_index: dict[int, tuple[list[float], list[Turn]]] = {}
        self._labels: dict[tuple[int, int], str] = {}  # (lane's node, room) → its name, elided: a pan draws the same
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName("Trace waterfall")
        self.horizontalScrollBar().valueChanged.connect(self._scrolled_across)
        self.verticalScrollBar().valueChanged.connect(lambda _: self.viewport().update())

    # ---- what is shown -----------------------------------------------------------------

    def set_lanes(self, lanes: TraceLanes | None, keep_view: bool = False) -> None:
        """Show `lanes`. `keep_view`: the view stays where it is; lanes of another trace of the
        same session (the whole path after a stretch of it) keep the times in view across their
        own axis, and the entry at the top of the view stays there."""
        trace = lanes.trace if lanes is not None else None
        shown = self.lanes
        other = keep_view and shown is not None and shown.trace is not trace and self.axis is not None
        times = self.shown_times() if other else None
        top = self._top_entry() if other else None
        self.lanes = lanes
        self._turn_index.clear()
        self._labels.clear()
        if trace is None or trace.start is None:
            self.axis = None
        elif not keep_view or self.axis is None or times is not None:
            self.axis = TimeAxis(trace.start, trace.end if trace.end is not None else trace.start, trace.gaps())
            self.fit()
            if times is not None:
                self.show_times(*times)
        self.hovered = None
        self._update_scroll_ranges()
        if top is not None and lanes is not None:
            entry, shift = top
            lane = lanes.lane_for_entry(entry)
            if lane is not None:
                self.verticalScrollBar().setValue(lane * ROW + shift)
        self.viewport().update()

    def _shown(self) -> TraceLanes:
        """The lanes shown, for what runs only while there are some (a lane found by lane_at, a paint of lanes)."""
        assert self.lanes is not None, "no lanes are shown"
        return self.lanes

    def _time_axis(self) -> TimeAxis:
        """The time axis of the trace shown, for what runs only while there is one."""
        assert self.axis is not None, "no trace with times is shown"
        return self.axis

    def shown_times(self) -> tuple[float, float]:
        """The real times at the left and the right edge of the bars."""
        return self._time_axis().to_time(self.offset), self._time_axis().to_time(self.offset + self.bars_width() / self.scale)

    def show_times(self, start: float, end: float) -> None:
        """Real times [start, end] exactly across the bars (within the zoom's limits)."""
        self.fitted = False
        left, right = self._time_axis().to_axis(start), self._time_axis().to_axis(end)
        self.scale = min(
            MAX_SCALE, max(self.bars_width() / max(self._time_axis().length, 1.0) / 2, self.bars_width() / max(right - left, 1e-3))
        )
        self.offset = left
        self._update_scroll_ranges()
        self.viewport().update()

    def _top_entry(self) -> tuple[str, int] | None:
        """The entry of the lane at the top of the view, and how far it is scrolled past."""
        value = self.verticalScrollBar().value()
        lane = value // ROW
        if self.lanes is None or not 0 <= lane < len(self.lanes):
            return None
        return entry_of(self.lanes.lanes[lane][0]), value % ROW

    def set_current(self, lane: int | None, reveal: bool = True) -> None:
        self.current = lane
        if lane is not None and reveal:
            self.ensure_visible(lane)
        self.viewport().update()

    # ---- geometry ----------------------------------------------------------------------

    def label_width(self) -> int:
        # A third of a narrow dock for the names (elided, whole in their tooltips): the bars need the room.
        return int(min(380, max(120, self.viewport().width() * 0.35)))

    def bars_left(self) -> float:
        return self.label_width() + 8

    def bars_width(self) -> float:
        return max(20.0, self.viewport().width() - self.bars_left() - 10)

    def x_of(self, time: float) -> float:
        return self.bars_left() + (self._time_axis().to_axis(time) - self.offset) * self.scale

    def lane_at(self, y: float) -> int | None:
        if self.lanes is None or y < RULER:
            return None
        lane = int((y - RULER + self.verticalScrollBar().value()) // ROW)
        return lane if 0 <= lane < len(self.lanes) else None

    def fit(self) -> None:
        """The whole path across the view."""
        if self.axis is None:
            return
        self.scale = self.bars_width() / max(self.axis.length, 1.0)
        self.offset = 0.0
        self.fitted = True
        self._update_scroll_ranges()
        self.viewport().update()

    def zoom(self, factor: float, at_x: float | None = None) -> None:
        """Zoom about `at_x` (the mouse), or about what is in view (keys and buttons, see zoom_anchor)."""
        if self.axis is None:
            return
        self.fitted = False
        at_x = self.zoom_anchor() if at_x is None else at_x
        anchor = self.offset + (at_x - self.bars_left()) / self.scale
        least = self.bars_width() / max(self.axis.length, 1.0) / 2
        self.scale = min(MAX_SCALE, max(least, self.scale * factor))
        self.offset = anchor - (at_x - self.bars_left()) / self.scale
        self._update_scroll_ranges()
        self.viewport().update()

    def zoom_anchor(self) -> float:
        """Where a zoom from the keys or buttons holds still: the selected lane's bar when it shows, else
        the middle of the bars of the lanes in view, else the middle of the view. Zooming about the middle
        of the path's time would soon leave the lanes in view with no bar in sight."""
        middle = self.bars_left() + self.bars_width() / 2
        if self.lanes is None:
            return middle
        first = self.verticalScrollBar().value() // ROW
        in_view = range(first, min(len(self.lanes), first + max(1, (self.viewport().height() - RULER) // ROW) + 1))
        if self.current is not None and self.current in in_view:
            shown = self._shown_bar(self.current)
            if shown is not None:
                return (shown[0] + shown[1]) / 2
        bars = [bar for bar in (self._shown_bar(lane) for lane in in_view) if bar is not None]
        if not bars:
            return middle
        return (min(left for left, _ in bars) + max(right for _, right in bars)) / 2

    def _shown_bar(self, lane: int) -> tuple[float, float] | None:
        """The part of a lane's bar across the view (x from, x to), or None when none of it shows."""
        start, end = span_of(self.lanes.lanes[lane][0]) if self.lanes is not None else (None, None)
        if start is None:
            return None
        low, high = self.bars_left(), self.bars_left() + self.bars_width()
        left, right = self.x_of(start), self.x_of(end if end is not None else start)
        if right < low or left > high:
            return None
        return max(left, low), min(right, high)

    def pan(self, dx: float) -> None:
        """Move the bars `dx` pixels (right: earlier times come into view)."""
        self.fitted = False
        self.offset -= dx / self.scale
        self._update_scroll_ranges()
        self.viewport().update()

    def show_span(self, start: float, end: float) -> None:
        """Zoom to real times [start, end], with a little room either side."""
        if self.axis is None:
            return
        self.fitted = False
        left, right = self.axis.to_axis(start), self.axis.to_axis(end)
        width = max(right - left, 1.0) * 1.1
        self.scale = min(MAX_SCALE, max(self.bars_width() / max(self.axis.length, 1.0), self.bars_width() / width))
        self.offset = left - (width - (right - left)) / 2
        self._update_scroll_ranges()
        self.viewport().update()

    def center_on(self, node: Node) -> None:
        """Bring a lane's bar into view across (zooming out if it is wider than the view)."""
        start, end = span_of(node)
        if self.axis is None or start is None:
            return
        left, right = self.axis.to_axis(start), self.axis.to_axis(end if end is not None else start)
        shown = self.bars_width() / self.scale
        if right - left > shown:
            self.fitted = False
            self.scale = max(self.bars_width() / max(self.axis.length, 1.0), self.bars_width() * 0.9 / max(right - left, 1.0))
            shown = self.bars_width() / self.scale
        if left < self.offset or right > self.offset + shown:  # out of view: bring it to the middle
            self.offset = (left + right) / 2 - shown / 2
        self._update_scroll_ranges()
        self.viewport().update()

    def ensure_visible(self, lane: int) -> None:
        bar = self.verticalScrollBar()
        top = lane * ROW
        height = self.viewport().height() - RULER
        if top < bar.value():
            bar.setValue(top)
        elif top + ROW > bar.value() + height:
            bar.setValue(top + ROW - height)

    def _update_scroll_ranges(self) -> None:
        count = len(self.lanes) if self.lanes is not None else 0
        vertical = self.verticalScrollBar()
        vertical.setRange(0, max(0, count * ROW - (self.viewport().height() - RULER)))
        vertical.setSingleStep(ROW)
        vertical.setPageStep(max(ROW, self.viewport().height() - RULER))
        across = self.horizontalScrollBar()
        width = self.axis.length * self.scale if self.axis is not None else 0
        # The view stays on the path: from its start to where its end is at the right edge.
        self.offset = min(max(self.offset, 0.0), max(0.0, (width - self.bars_width()) / self.scale))
        # A scroll bar counts in ints: a path of millennia zoomed to the millisecond is counted in coarser steps.
        self._bar_unit = max(1.0, (width - self.bars_width()) / SCROLL_STEPS)
        across.blockSignals(True)
        across.setRange(0, max(0, math.ceil((width - self.bars_width()) / self._bar_unit)))
        across.setPageStep(max(1, int(self.bars_width() / self._bar_unit)))
        across.setValue(round(self.offset * self.scale / self._bar_unit))
        across.blockSignals(False)

    def _scrolled_across(self, value: int) -> None:
        self.fitted = False
        self.offset = value * self._bar_unit / self.scale
        self.viewport().update()

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.fitted:
            self.fit()
        self._update_scroll_ranges()
        if self.current is not None:
            self.ensure_visible(self.current)  # a view that shrinks keeps the mark in sight

    # ---- painting ----------------------------------------------------------------------

    @guarded_paint
    def paintEvent(self, event) -> None:
        painter = QPainter(self.viewport())
        palette = self.palette()
        base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
        painter.fillRect(self.viewport().rect(), base)
        if self.lanes is None or self.axis is None:
            painter.end()
            return
        muted = mix(text, base, 0.45)
        metrics = QFontMetrics(painter.font())
        first = self.verticalScrollBar().value() // ROW
        shift = self.verticalScrollBar().value() % ROW
        visible = range(first, min(len(self.lanes), first + (self.viewport().height() - RULER) // ROW + 2))
        painter.setClipRect(QRectF(0, RULER, self.viewport().width(), self.viewport().height() - RULER))
        for lane in visible:
            y = RULER + (lane - first) * ROW - shift
            self._paint_lane(painter, lane, y, base, text, muted, metrics)
        self._paint_gaps(painter, base, text, muted, metrics, body=True)
        painter.setClipping(False)
        self._paint_ruler(painter, base, text, muted, metrics)
        painter.end()

    def _paint_lane(self, painter: QPainter, lane: int, y: float, base: QColor, text: QColor, muted: QColor, metrics: QFontMetrics) -> None:
        node, depth = self._shown().lanes[lane]
        width = self.viewport().width()
        highlight = self.palette().color(QPalette.ColorRole.Highlight)
        if lane == self.current:
            painter.fillRect(QRectF(0, y, width, ROW), mix(base, highlight, 0.28))
        elif lane == self.hovered:
            painter.fillRect(QRectF(0, y, width, ROW), mix(base, text, 0.06))
        elif lane % 2:
            painter.fillRect(QRectF(0, y, width, ROW), mix(base, text, 0.025))
        error = is_error(node)
        x = 6 + depth * INDENT
        if isinstance(node, Run):
            painter.setPen(muted)
            painter.drawText(QRectF(x, y, ARROW, ROW), Qt.AlignmentFlag.AlignCenter, "▾" if self._shown().is_open(node) else "▸")
            x += ARROW
        if error:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(COLORS["error"])
            painter.drawEllipse(QPointF(x + 4, y + ROW / 2), 3.5, 3.5)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            x += 11
        painter.setPen(text if depth == 0 or not isinstance(node, Event) else muted)
        room = int(self.label_width() - x - 4)
        label = self._labels.get((id(node), room))
        if label is None:
            label = self._labels[(id(node), room)] = metrics.elidedText(self.label(node), Qt.TextElideMode.ElideRight, room)
        painter.drawText(QRectF(x, y, self.label_width() - x, ROW), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, label)
        painter.save()
        painter.setClipRect(QRectF(self.bars_left(), y, self.bars_width() + 10, ROW))
        self._paint_bar(painter, node, y, base, muted, error)
        painter.restore()

    def _bar_rect(self, start: float, end: float, y: float, inset: float) -> QRectF:
        left, right = self.x_of(start), self.x_of(end)
        return QRectF(left, y + inset, max(MIN_BAR, right - left), ROW - 2 * inset)

    def _paint_bar(self, painter: QPainter, node: Node, y: float, base: QColor, muted: QColor, error: bool) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        if isinstance(node, Event):
            if node.time is not None:
                self._mark(painter, self.x_of(node.time), y + ROW / 2, COLORS["error"] if error else event_color(node.kind))
            return
        start, end = span_of(node)
        if start is None:
            return
        end = start if end is None else end
        if isinstance(node, Run):
            painter.setBrush(mix(COLORS["run"], base, 0.55))
            painter.drawRect(self._bar_rect(start, end, y, 5))
            if not self._shown().is_open(node):
                self._paint_turns(painter, node, y, base)
            if error:
                painter.setPen(QPen(COLORS["error"], 1.2))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(self._bar_rect(start, end, y, 5))
        elif isinstance(node, Turn):
            painter.setBrush(mix(COLORS["model"], base, 0.7))
            painter.drawRect(self._bar_rect(start, end, y, 4))
            if node.model_end is not None:
                painter.setBrush(COLORS["error"] if error else COLORS["model"])
                painter.drawRect(self._bar_rect(start, node.model_end, y, 4))
        else:
            color = COLORS["error"] if error else COLORS["call"]
            if node.end is None:  # no result: a mark where the call was made
                painter.setPen(QPen(color, 1.2, Qt.PenStyle.DashLine))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(self._bar_rect(start, start, y, 5).adjusted(0, 0, 10, 0))
                return
            painter.setBrush(color if node.measured or error else mix(color, base, 0.5))
            painter.drawRect(self._bar_rect(start, end, y, 5))

    def _paint_turns(self, painter: QPainter, run: Run, y: float, base: QColor) -> None:
        """A closed run's turns, as their model time, drawn only where they are in view."""
        found = self._turn_index.get(id(run))
        if found is None:
            found = self._turn_index[id(run)] = turn_starts(run)
        low = self._time_axis().to_time(self.offset)
        high = self._time_axis().to_time(self.offset + self.bars_width() / self.scale)
        for turn in turns_between(*found, low, high):
            if turn.start is not None and turn.model_end is not None:
                painter.setBrush(COLORS["error"] if turn.error_kind else COLORS["model"])
                painter.drawRect(self._bar_rect(turn.start, turn.model_end, y, 6))

    def _mark(self, painter: QPainter, x: float, y: float, color: QColor) -> None:
        painter.setBrush(color)
        painter.drawPolygon(QPolygonF([QPointF(x, y - 5), QPointF(x + 5, y), QPointF(x, y + 5), QPointF(x - 5, y)]))
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _paint_gaps(self, painter: QPainter, base: QColor, text: QColor, muted: QColor, metrics: QFontMetrics, body: bool) -> None:
        """The squeezed idle stretches: a pale band over the rows, and in the ruler how long each was."""
        left, right = self.bars_left(), self.bars_left() + self.bars_width()
        top = RULER if body else 0
        bottom = self.viewport().height() if body else RULER
        for gap in self._time_axis().gaps_between(self.offset, self.offset + self.bars_width() / self.scale):
            x0 = self.bars_left() + (gap.axis_start - self.offset) * self.scale
            x1 = x0 + gap.width * self.scale
            if x1 < left or x0 > right:
                continue
            band = QRectF(max(x0, left), top, min(x1, right) - max(x0, left), bottom - top)
            painter.fillRect(band, _alpha(mix(base, text, 0.5), 40 if body else 60))
            painter.setPen(QPen(muted, 1, Qt.PenStyle.DotLine))
            for x in (x0, x1):
                if left <= x <= right:
                    painter.drawLine(QPointF(x, top), QPointF(x, bottom))
            if not body:
                took = format_duration(gap.idle_ms)
                # As much as fits: "idle 6 min 49 s", "6 min 49 s", "⋯" (the tooltip of a lane says the rest).
                label = next((text for text in (f"idle {took}", took, "⋯") if metrics.horizontalAdvance(text) + 6 <= band.width()), "")
                painter.setPen(muted)
                painter.drawText(band, Qt.AlignmentFlag.AlignCenter, label)

    def _paint_ruler(self, painter: QPainter, base: QColor, text: QColor, muted: QColor, metrics: QFontMetrics) -> None:
        width = self.viewport().width()
        painter.fillRect(QRectF(0, 0, width, RULER), mix(base, text, 0.05))
        painter.setPen(QPen(mix(base, text, 0.25), 1))
        painter.drawLine(QPointF(0, RULER - 0.5), QPointF(width, RULER - 0.5))
        left, right = self.bars_left(), self.bars_left() + self.bars_width()
        step = tick_step(self.scale)
        painter.save()
        painter.setClipRect(QRectF(left - 40, 0, right - left + 50, RULER))
        painter.setPen(QPen(muted, 1))
        free_from = left  # where the next tick's time may be written without covering the last one
        for start, end in self._segments():
            for tick in ticks_between(start, end, step):
                x = self.x_of(tick)
                if x < left - 1 or x > right + 1:
                    continue
                painter.drawLine(QPointF(x, RULER - 6), QPointF(x, RULER - 1))
                label = tick_label(tick, step)
                if x + 3 >= free_from and x + 3 + metrics.horizontalAdvance(label) <= right + 8:
                    painter.drawText(QPointF(x + 3, RULER - 8), label)
                    free_from = x + 3 + metrics.horizontalAdvance(label) + 8
        painter.restore()
        painter.setClipRect(QRectF(left, 0, right - left, RULER))
        self._paint_gaps(painter, base, text, muted, metrics, body=False)
        painter.setClipping(False)
        painter.setPen(muted)
        heading = metrics.elidedText("Runs, turns, tool calls", Qt.TextElideMode.ElideRight, int(left - 10))
        painter.drawText(QRectF(6, 0, left - 10, RULER), Qt.AlignmentFlag.AlignVCenter, heading)

    def _segments(self) -> list[tuple[float, float]]:
        """The stretches of real time in view that are not squeezed, where ticks go."""
        low = self._time_axis().to_time(self.offset)
        high = self._time_axis().to_time(self.offset + self.bars_width() / self.scale)
        segments, start = [], low
        for gap in self._time_axis().gaps_between(self.offset, self.offset + self.bars_width() / self.scale):
            segments.append((start, min(gap.start, high)))
            start = max(gap.end, low)
        segments.append((start, high))
        return [(a, b) for a, b in segments if b >= a]

    # ---- the mouse and keys --------------------------------------------------------------

    @guarded
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press, self._dragged = event.position(), False
        super().mousePressEvent(event)

    @guarded
    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        position = event.position()
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            delta = position - self._press
            if self._dragged or abs(delta.x()) + abs(delta.y()) > 4:
                self._dragged = True
                self.pan(delta.x())
                bar = self.verticalScrollBar()
                bar.setValue(bar.value() - round(delta.y()))
                self._press = position
            return
        lane = self.lane_at(position.y())
        if lane != self.hovered:
            self.hovered = lane
            self.viewport().update()
            if lane is not None:
                QToolTip.showText(event.globalPosition().toPoint(), self.tip(self._shown().lanes[lane][0]), self.viewport())
            else:
                QToolTip.hideText()

    @guarded
    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self._press is not None and not self._dragged:
            lane = self.lane_at(event.position().y())
            if lane is not None:
                node, depth = self._shown().lanes[lane]
                arrow = 6 + depth * INDENT
                if isinstance(node, Run) and arrow <= event.position().x() <= arrow + ARROW:
                    self.toggled.emit(lane)
                else:
                    self.activated.emit(lane)
        self._press, self._dragged = None, False
        super().mouseReleaseEvent(event)

    @guarded
    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        lane = self.lane_at(event.position().y())
        if lane is not None and isinstance(self._shown().lanes[lane][0], Run):
            self.toggled.emit(lane)

    @guarded
    def leaveEvent(self, event) -> None:
        self.hovered = None
        self.viewport().update()
        super().leaveEvent(event)

    @guarded
    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta()
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.zoom(ZOOM_STEP ** (delta.y() / 120), event.position().x())
        elif event.modifiers() & Qt.KeyboardModifier.ShiftModifier or abs(delta.x()) > abs(delta.y()):
            self.pan((delta.x() or delta.y()) / 2)
        else:
            super().wheelEvent(event)
            return
        event.accept()

    @guarded
    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        count = len(self.lanes) if self.lanes is not None else 0
        page = max(1, (self.viewport().height() - RULER) // ROW - 1)
        moves: dict[int, int] = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1, Qt.Key.Key_PageUp: -page, Qt.Key.Key_PageDown: page}
        if key in moves and count:
            current = self.current if self.current is not None else -1
            self.activated.emit(min(count - 1, max(0, current + moves[key])))
        elif key in (Qt.Key.Key_Home, Qt.Key.Key_End) and count:
            self.activated.emit(0 if key == Qt.Key.Key_Home else count - 1)
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Right) and self.current is not None and count:
            node = self._shown().lanes[self.current][0]
            if isinstance(node, Run) and self._shown().is_open(node) != (key == Qt.Key.Key_Right):
                self.toggled.emit(self.current)
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(ZOOM_STEP)
        elif key == Qt.Key.Key_Minus:
            self.zoom(1 / ZOOM_STEP)
        elif key == Qt.Key.Key_0:
            self.fit()
        elif key == Qt.Key.Key_F8:
            self.errorStep.emit(-1 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1)
        else:
            super().keyPressEvent(event)


def _alpha(color: QColor, alpha: int) -> QColor:
    color = QColor(color)
    color.setAlpha(alpha)
    return color
