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

from PySide6.QtCore import QPointF, QSize, Qt, QThreadPool, QTimer
from PySide6.QtGui import QFontMetrics, QMouseEvent, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QMenu, QSizePolicy, QWidget

from ...model.text.describe import entry_title
from ...model.text.plural import counted
from ...model.tokens.context_estimate import estimate_text
from ...model.tokens.timeline import Timeline, timeline_csv, timeline_json
from ..context.formatting import format_tokens
from ..context.widgets import menu_text
from .geometry import LEFT, RIGHT, PlotGeometry
from .plot import muted_color, paint_hover, paint_plot
from .series import Series, with_model
from .walk import TimelineJob, WalkToken
from .stacked import StackedAreas

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.workspace import Change
    from ..control.controller import SessionController

SETTLE_MS = 60  # a walk starts once the selection has rested this long
FIRST_WALK_DELAY_MS = 400


class TimelineStrip(QWidget):
    """The strip. Public for callers and tests: `series`, `hovered` (row index or None),
    `readout()` (the hover text), `index_at(x)`, `plot_geometry()` (where rows and figures are
    drawn), and `busy` while a walk runs. Painting is plot.py's, the walk walk.py's."""

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
        self._walk_token = WalkToken()
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
        self._walk_token = WalkToken()
        job = TimelineJob(self.session, self.timeline, self.controller.courtesy, self._pending, self._generation, self._walk_token)
        job.signals.done.connect(self._done)
        job.signals.failed.connect(self._failed)
        QThreadPool.globalInstance().start(job)

    def _prefix(self, leaf: str) -> Series | None:
        """A leaf on a path already drawn: its series is that one cut short (stepping along a path costs nothing)."""
        for series in self.series:
            index = series.index_of(leaf)
            if index is not None:
                return series if index == len(series.rows) - 1 else with_model(self.session, series.cut(index))
        return None

    def _failed(self, message: str, generation: int) -> None:
        self.controller.report(message)  # under Warnings; the strip stays empty
        self._done([], generation)

    def _done(self, series: list[Series] | None, generation: int) -> None:
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

    def plot_geometry(self) -> PlotGeometry:
        """Where the shown series (and the stacked areas, when shown) are drawn at the strip's present size."""
        return PlotGeometry.of(self.width(), self.height(), self.series, self.stacked.peak)

    def index_at(self, x: float) -> int | None:
        return self.plot_geometry().index_at(x)

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
        parts = [f"#{index + 1} {entry_title(entry, 48)}", f"pi's estimate {estimate_text(row.tokens_estimate)}"]
        if row.input_tokens is not None:
            parts.append(f"input {format_tokens(row.input_tokens)}")
        if row.id in self.session.labels:
            parts.append(f"label “{self.session.labels[row.id]}”")
        return " · ".join(parts)

    def _summary(self) -> str:
        series = self.series[0]
        rows = series.rows
        peak = series.peak_estimate
        text = f"{counted(len(rows), 'entry')} · now {estimate_text(rows[-1].tokens_estimate)} · peak {estimate_text(peak)} · {counted(len(series.compactions), 'compaction')}"
        if series.window:
            text += f" · window {series.window:,} ({series.model_name})"
        elif series.model_name:
            text += f" · window of {series.model_name} unknown"
        if len(self.series) > 1:
            text += f"   |   compare: {counted(len(self.series[1].rows), 'entry')}, now {estimate_text(self.series[1].rows[-1].tokens_estimate)}"
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
        geometry = self.plot_geometry()
        candidates = [series for series in self.series if index < len(series.rows)] or self.series[:1]
        return min(candidates, key=lambda series: abs(geometry.y(series.estimates[min(index, len(series.rows) - 1)]) - y))

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
        if self.series and self.hovered is not None:
            paint_hover(painter, self.plot_geometry(), self.hovered, muted_color(self.palette()))
        painter.setPen(self.palette().color(QPalette.ColorRole.Text))
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
            paint_plot(painter, self.series, self.plot_geometry(), self.palette(), self.stacked)
            painter.end()
            self._layer = (key, pixmap)
        return self._layer[1]
