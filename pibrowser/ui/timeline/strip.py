"""The context over time: a strip under the tree plotting pi's estimate along the selected path.

For every entry from the root to the selected node: pi's context estimate were
that entry the leaf (a line), what the provider reported the assistant read
(dots), compactions (dashed drops), branch points (ticks below) and labels
(flags above), and the model's context window as a line when it is known.
Hovering reads out an entry and its figures; a click selects it in the tree.
In compare mode both leaves' paths are drawn.

The figures come from the model's Timeline, which remembers rows by entry:
a selection next to one seen before costs almost nothing; a long path not
seen yet is walked in the thread pool. Text from the session (ids, labels)
is only ever drawn as plain text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPointF, QRectF, QRunnable, QSize, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QColor, QFontMetrics, QMouseEvent, QPainter, QPalette, QPen, QPixmap, QPolygonF, QTransform
from PySide6.QtWidgets import QApplication, QMenu, QSizePolicy, QWidget

from ...model.text.describe import entry_title
from ...model.tokens.timeline import Timeline, WalkStopped, timeline_csv, timeline_json
from ..style.colors import mix
from ..context.formatting import format_tokens
from ..context.widgets import menu_text
from ..control.job_signals import tell
from .series import Series, build_series, with_model
from .stacked import StackedAreas

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.workspace import Change
    from ..control.controller import SessionController

LEFT, RIGHT, TOP, BOTTOM = 52, 10, 30, 28
SETTLE_MS = 60  # a walk starts once the selection has rested this long
FIRST_WALK_DELAY_MS = 400
SERIES_COLORS = (QColor("#2f7de1"), QColor("#d9822b"))
INPUT_COLORS = (QColor("#1f9d55"), QColor("#b0457a"))
COMPACTION = QColor("#c0392b")
LABEL = QColor("#8e44ad")


class _Signals(QObject):
    done = Signal(int, object)  # generation, list of Series (None: the walk was stopped)


class _Token:
    """Tells a walk in the thread pool that its answer is no longer wanted."""

    __slots__ = ("stopped",)

    def __init__(self) -> None:
        self.stopped = False


class _TimelineJob(QRunnable):
    """Walks paths not seen before in the thread pool (a long one takes a second or two)."""

    def __init__(self, strip: TimelineStrip, leaves: list[str], generation: int, token: _Token) -> None:
        super().__init__()
        self.timeline, self.session, self.courtesy = strip.timeline, strip.session, strip.controller.courtesy
        self.leaves, self.generation, self.token = leaves, generation, token
        self.signals = _Signals()
        self.setAutoDelete(True)

    def run(self) -> None:
        token, courtesy = self.token, self.courtesy

        def stop() -> bool:
            courtesy.step()  # while the user is busy, the walk waits
            return token.stopped

        try:
            series = [build_series(self.session, self.timeline, leaf, stop=stop) for leaf in self.leaves]
        except WalkStopped:
            series = None
        except Exception:  # a bug of ours must not take the window down; the strip stays empty
            series = []
        tell(self.signals.done, self.generation, series)


class TimelineStrip(QWidget):
    """The strip. Public for callers and tests: `series`, `hovered` (row index or None),
    `readout()` (the hover text), `index_at(x)`, and `busy` while a walk runs."""

    def __init__(self, controller: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.timeline: Timeline | None = None
        self.series: list[Series] = []
        self.hovered: int | None = None
        self.busy = False
        self._generation = 0
        self._pending: list[str] = []
        self._running = False
        self._walk_token = _Token()
        self._shown = 0
        self._layer: tuple[tuple, QPixmap] | None = None  # (what it shows, the plot drawn once)
        self.stacked = StackedAreas(controller.courtesy, self)  # an option: what the context is made of
        self.stacked.ready.connect(lambda: self._show(self.series))
        self._settle = QTimer(self, singleShot=True, interval=SETTLE_MS)
        self._settle.timeout.connect(self._start_walk)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)  # the plot's layer covers it: nothing under it is painted
        self.setAccessibleName("Context over time")
        self.setMinimumHeight(110)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        controller.changed.connect(self._on_change)

    def sizeHint(self) -> QSize:
        return QSize(600, 150)

    # ---- data -----------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        return self.controller.session

    def _on_change(self, change: Change) -> None:
        if change.replaced:
            self.timeline = Timeline(self.session)
            self.series = []
            # A new session's first walk reads the whole path (a second or two on 100,000 entries):
            # let the tree and the context panel paint first.
            self._settle.setInterval(FIRST_WALK_DELAY_MS)
        elif change.appended:
            # Rows already walked stay right (an entry's path never changes), but an appended
            # label or child can add marks to a drawn path: draw it afresh.
            self.series = []
        if change.replaced or change.appended or change.selection or change.compare:
            self.refresh()

    @property
    def walking(self) -> bool:
        """A walk of a path is due (waiting for the selection to settle) or running."""
        return self._settle.isActive() or self._running

    def leaves(self) -> list[str]:
        """The paths to draw: both compared leaves, else the selection."""
        if self.session is None:
            return []
        compared = self.controller.compared
        if compared:
            return [key for key in compared if key in self.session.entries]
        selected = self.controller.selected
        return [selected] if selected in self.session.entries else []

    def refresh(self) -> None:
        self._generation += 1
        self.busy = False  # whatever walk is pending or running now answers an older question
        self._walk_token.stopped = True  # and a running one stops (the rows it made are kept)
        self._settle.stop()
        leaves = self.leaves()
        if not leaves or not self.isVisibleTo(self.window()):
            self._show([])  # drawn again when shown
            return
        prefixes = [self._prefix(leaf) for leaf in leaves]
        if all(prefix is not None for prefix in prefixes):
            self._show(prefixes)
            return
        # Anything else is read and summed in the thread pool, once the selection settles
        # (holding ↓ must not queue a walk per step).
        self.busy = True
        self._pending = leaves
        self._settle.start()
        self.update()

    def _start_walk(self) -> None:
        # One walk at a time: a newer selection waits for the running one to stop, and reuses its rows.
        if not self.busy or self.session is None or self._running:
            return
        self._running = True
        self._settle.setInterval(SETTLE_MS)
        self._walk_token = _Token()
        job = _TimelineJob(self, self._pending, self._generation, self._walk_token)
        job.signals.done.connect(self._done)
        QThreadPool.globalInstance().start(job)

    def _prefix(self, leaf: str) -> Series | None:
        """A leaf on a path already drawn: its series is that one cut short (stepping along a path costs nothing)."""
        for series in self.series:
            index = series.index_of(leaf)
            if index is not None:
                return series if index == len(series.rows) - 1 else with_model(self.session, series.cut(index))
        return None

    def _done(self, generation: int, series: list[Series] | None) -> None:
        self._running = False
        if generation == self._generation and series is not None:
            self.busy = False
            self._show(series)
        elif not self._settle.isActive():
            self._start_walk()  # the selection moved while this walk ran

    def _show(self, series: list[Series]) -> None:
        self.series = series
        self.stacked.follow(self.session, series[0].leaf if series else None)
        self.hovered = None
        self._shown += 1  # the plot is drawn afresh
        self.update()

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        self.refresh()  # hidden: nothing is walked or kept until shown again

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.refresh()

    # ---- geometry -----------------------------------------------------------------

    def _length(self) -> int:
        return max((len(series.rows) for series in self.series), default=0)

    def _plot(self) -> QRectF:
        return QRectF(LEFT, TOP, max(1, self.width() - LEFT - RIGHT), max(1, self.height() - TOP - BOTTOM))

    def _top_value(self) -> float:
        values = [1.0, self.stacked.peak]
        for series in self.series:
            values.append(series.peak)
            if series.window:
                values.append(series.window)
        return max(values) * 1.08

    def _x(self, index: int, plot: QRectF) -> float:
        left, across = self._across(plot)
        return left + across * index

    def _across(self, plot: QRectF) -> tuple[float, float]:
        """Where row 0 falls and how far apart rows are: x = left + across × index (a lone row is centred)."""
        length = self._length()
        if length > 1:
            return plot.left(), plot.width() / (length - 1)
        return plot.left() + plot.width() / 2, 0.0

    def _y(self, value: float, plot: QRectF, top: float) -> float:
        return plot.bottom() - plot.height() * value / top

    def index_at(self, x: float) -> int | None:
        length = self._length()
        if not length:
            return None
        plot = self._plot()
        share = (x - plot.left()) / plot.width() if plot.width() else 0
        return min(length - 1, max(0, round(share * (length - 1))))

    # ---- reading out ----------------------------------------------------------------

    def readout(self) -> str:
        """The hovered entry and its figures (or a summary of the path), as plain text."""
        if self.busy and not self.series:
            return "Estimating the context along the path…"
        if not self.series:
            return "Select an entry to see pi's context estimate along its path" if self.session is not None else ""
        if self.hovered is None:
            return self._summary()
        return "   ·   ".join(self._row_text(series, self.hovered) for series in self.series if self.hovered < len(series.rows))

    def _row_text(self, series: Series, index: int) -> str:
        row = series.rows[index]
        entry = self.session.entries[row.id]
        parts = [f"#{index + 1} {entry_title(entry, 48)}", f"pi's estimate {row.tokens_estimate:,}"]
        if row.input_tokens is not None:
            parts.append(f"input {format_tokens(row.input_tokens)}")
        if row.id in self.session.labels:
            parts.append(f"label “{self.session.labels[row.id]}”")
        return " · ".join(parts)

    def _summary(self) -> str:
        series = self.series[0]
        rows = series.rows
        peak = series.peak_estimate
        text = f"{len(rows):,} entries · now {rows[-1].tokens_estimate:,} · peak {peak:,} · {_count(len(series.compactions), 'compaction')}"
        if series.window:
            text += f" · window {series.window:,} ({series.model_name})"
        elif series.model_name:
            text += f" · window of {series.model_name} unknown"
        if len(self.series) > 1:
            text += f"   |   compare: {len(self.series[1].rows):,} entries, now {self.series[1].rows[-1].tokens_estimate:,}"
        return text

    # ---- mouse ----------------------------------------------------------------------

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        index = self.index_at(event.position().x())
        if index != self.hovered:
            self.hovered = index
            self.update()

    def leaveEvent(self, event) -> None:
        self.hovered = None
        self.update()
        super().leaveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or not self.series:
            return
        index = self.index_at(event.position().x())
        series = self._nearest_series(index, event.position().y())
        if index is not None and series is not None:
            key = series.rows[min(index, len(series.rows) - 1)].id
            self.controller.select(key)

    def _nearest_series(self, index: int | None, y: float) -> Series | None:
        if index is None:
            return None
        plot, top = self._plot(), self._top_value()
        candidates = [series for series in self.series if index < len(series.rows)] or self.series[:1]
        return min(candidates, key=lambda series: abs(self._y(series.rows[min(index, len(series.rows) - 1)].tokens_estimate, plot, top) - y))

    def contextMenuEvent(self, event) -> None:
        if not self.series:
            return
        menu = QMenu(self)
        index = self.index_at(event.pos().x())
        series = self._nearest_series(index, event.pos().y())
        if series is not None and index is not None:
            key = series.rows[min(index, len(series.rows) - 1)].id
            menu.addAction(menu_text(f"Select {key}"), lambda: self.controller.select(key))
            menu.addSeparator()
        stacked = menu.addAction("Show What the Context Is Made Of (stacked, chars/4)", self.set_stacked)
        stacked.setCheckable(True)
        stacked.setChecked(self.stacked.enabled)
        menu.addSeparator()
        menu.addAction("Copy Path's Figures as CSV", lambda: self.copy_rows("csv"))
        menu.addAction("Copy Path's Figures as JSON", lambda: self.copy_rows("json"))
        menu.exec(event.globalPos())

    def set_stacked(self, on: bool) -> None:
        """Draw, under pi's estimate, what the context is made of at each entry (worked out in the background)."""
        self.stacked.enabled = on
        self._show(self.series)

    def copy_rows(self, kind: str) -> None:
        """The drawn path's rows, as `pibrowser timeline` prints them (the first series in compare mode)."""
        rows = self.series[0].rows if self.series else []
        text = timeline_csv(rows) if kind == "csv" else timeline_json(rows).decode("utf-8") + "\n"
        QApplication.clipboard().setText(text)

    # ---- painting -------------------------------------------------------------------

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self._plot_layer())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.Text)
        if self.series:
            self._paint_hover(painter, self._plot(), mix(text, palette.color(QPalette.ColorRole.Base), 0.55))
        painter.setPen(text)
        metrics = QFontMetrics(painter.font())
        line = metrics.elidedText(self.readout(), Qt.TextElideMode.ElideRight, max(10, self.width() - LEFT - RIGHT))
        painter.drawText(QPointF(LEFT, metrics.ascent() + 3), line)  # drawText never reads markup
        painter.end()

    def _plot_layer(self) -> QPixmap:
        """Everything but the hover line and the readout, drawn once per shown series, size and
        palette: moving the mouse over the strip repaints only those two."""
        ratio = self.devicePixelRatioF()
        key = (self._shown, self.width(), self.height(), ratio, self.palette().cacheKey())
        if self._layer is None or self._layer[0] != key:
            pixmap = QPixmap(QSize(max(1, round(self.width() * ratio)), max(1, round(self.height() * ratio))))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(self.palette().color(QPalette.ColorRole.Base))
            painter = QPainter(pixmap)
            painter.setFont(self.font())
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            self._paint_plot(painter)
            painter.end()
            self._layer = (key, pixmap)
        return self._layer[1]

    def _paint_plot(self, painter: QPainter) -> None:
        if not self.series:
            return
        palette = self.palette()
        muted = mix(palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base), 0.55)
        plot, top = self._plot(), self._top_value()
        self._paint_axis(painter, plot, top, muted)
        self._paint_window(painter, plot, top)
        self.stacked.paint(painter, plot, top, lambda index: self._x(index, plot))
        self.stacked.paint_key(painter, plot, muted)
        for number, series in enumerate(self.series):
            self._paint_marks(painter, series, plot, muted)
            self._paint_series(painter, series, plot, top, number)
        self._paint_legend(painter, muted)

    def _paint_legend(self, painter: QPainter, muted: QColor) -> None:
        """Samples under the plot, right-aligned: the estimate, the reported input, a compaction, a label, a fork."""
        metrics = QFontMetrics(painter.font())
        items = [("pi's estimate", "line"), ("input reported", "dot"), ("compaction", "dash"), ("label", "flag"), ("branch point", "tick")]
        widths = [20 + metrics.horizontalAdvance(name) + 12 for name, _ in items]
        while items and sum(widths) > self.width() - LEFT - RIGHT:  # a narrow strip keeps what fits
            items, widths = items[:-1], widths[:-1]
        x = self.width() - RIGHT - sum(widths)
        baseline = self.height() - 5
        y = baseline - metrics.ascent() / 2 + 1
        for (name, kind), width in zip(items, widths):
            if kind == "line":
                painter.setPen(QPen(SERIES_COLORS[0], 1.6))
                painter.drawLine(QPointF(x, y), QPointF(x + 16, y))
            elif kind == "dot":
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(INPUT_COLORS[0])
                painter.drawEllipse(QPointF(x + 8, y), 2.6, 2.6)
            elif kind == "dash":
                painter.setPen(QPen(COMPACTION, 1, Qt.PenStyle.DashLine))
                painter.drawLine(QPointF(x + 8, y - 6), QPointF(x + 8, y + 6))
            elif kind == "flag":
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(LABEL)
                painter.drawPolygon(QPolygonF([QPointF(x + 8, y + 4), QPointF(x + 4, y - 3), QPointF(x + 12, y - 3)]))
            else:
                painter.setPen(QPen(muted, 1))
                painter.drawLine(QPointF(x + 8, y - 4), QPointF(x + 8, y + 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(muted)
            painter.drawText(QPointF(x + 18, baseline), name)
            x += width

    def _paint_axis(self, painter: QPainter, plot: QRectF, top: float, muted: QColor) -> None:
        painter.setPen(QPen(mix(muted, self.palette().color(QPalette.ColorRole.Base), 0.6), 1))
        metrics = QFontMetrics(painter.font())
        for step in _ticks(top / 1.08):
            y = self._y(step, plot, top)
            painter.setPen(QPen(mix(muted, self.palette().color(QPalette.ColorRole.Base), 0.7), 1))
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.setPen(muted)
            label = _short(step)
            painter.drawText(QPointF(plot.left() - 6 - metrics.horizontalAdvance(label), y + metrics.ascent() / 2 - 1), label)

    def _paint_window(self, painter: QPainter, plot: QRectF, top: float) -> None:
        windows = {series.window for series in self.series if series.window}
        for window in windows:
            y = self._y(window, plot, top)
            painter.setPen(QPen(COMPACTION, 1.2, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.drawText(QPointF(plot.right() - QFontMetrics(painter.font()).horizontalAdvance(f"window {_short(window)}") - 4, y - 3), f"window {_short(window)}")

    def _paint_marks(self, painter: QPainter, series: Series, plot: QRectF, muted: QColor) -> None:
        left, across = self._across(plot)
        painter.setPen(QPen(COMPACTION, 1, Qt.PenStyle.DashLine))
        for index in series.compactions:
            x = left + across * index
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        painter.setPen(QPen(muted, 1))
        for index in series.branch_points:
            x = left + across * index
            painter.drawLine(QPointF(x, plot.bottom() + 2), QPointF(x, plot.bottom() + 7))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(LABEL)
        half = 4 if len(series.labels) * 10 < plot.width() else 2  # narrower flags where they crowd
        for index in series.labels:
            x = left + across * index
            painter.drawPolygon(QPolygonF([QPointF(x, plot.top()), QPointF(x - half, plot.top() - 6), QPointF(x + half, plot.top() - 6)]))
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _paint_series(self, painter: QPainter, series: Series, plot: QRectF, top: float, number: int) -> None:
        color = SERIES_COLORS[number % 2]
        width = max(1, int(plot.width()))
        drawing = series.drawing(width, self._length())
        left, across = self._across(plot)
        # The drawing's points are (row index, figure): this transform puts them on screen, and
        # cosmetic pens keep their widths in pixels whatever it scales.
        to_screen = QTransform(across or 1.0, 0, 0, -plot.height() / top, left, plot.bottom())
        painter.save()
        around = painter.transform()
        painter.setTransform(to_screen * around)
        # The reported inputs first, so the estimate's line stays on top where they agree;
        # smaller dots where they crowd.
        painter.setPen(_cosmetic(INPUT_COLORS[number % 2], 4.8 if len(drawing.dots) * 6 < width else 2.8))
        painter.drawPoints(drawing.dot_points)
        # A pen wider than one pixel goes through Qt's stroker, some fifty times slower on thousands
        # of points; two one-pixel lines half a pixel apart draw the same weight.
        painter.setPen(_cosmetic(color, 1))
        painter.drawPolyline(drawing.line)
        painter.setTransform(to_screen * QTransform.fromTranslate(0.5, 0.5) * around)
        painter.drawPolyline(drawing.line)
        painter.restore()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawEllipse(QPointF(left + across * (len(series.rows) - 1), self._y(series.rows[-1].tokens_estimate, plot, top)), 4, 4)
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _paint_hover(self, painter: QPainter, plot: QRectF, muted: QColor) -> None:
        if self.hovered is None:
            return
        x = self._x(self.hovered, plot)
        painter.setPen(QPen(muted, 1, Qt.PenStyle.DotLine))
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))


def _cosmetic(color: QColor, width: float) -> QPen:
    pen = QPen(color, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
    pen.setCosmetic(True)
    return pen


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def _ticks(top: float) -> list[float]:
    """Three or four round values up to `top`."""
    if top <= 0:
        return []
    step = 10 ** max(0, len(str(int(top))) - 1)
    while top / step < 3:
        step /= 2
    while top / step > 5:
        step *= 2
    return [step * count for count in range(1, int(top / step) + 1)]


def _short(value: float) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:.1f}M".replace(".0M", "M")
    if value >= 1000:
        return f"{value / 1000:.0f}k" if value >= 10_000 else f"{value / 1000:.1f}k".replace(".0k", "k")
    return f"{value:.0f}"
