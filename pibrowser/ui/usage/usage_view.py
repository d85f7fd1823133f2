"""View ▸ Usage: where the tokens and the money went, over time, across every session in the folder.

Stacked bars of cost or tokens per day, week or month, by model or by project; the cache hit
ratio under them; the top sessions and projects by cost beside them. Hovering a bar reads out
its exact figures, a click lists its sessions, and a click on a session opens it. The usage is
read in the background by the SessionsController (cached, so once a folder has been read this
costs a stat per file); grouping it for a chart is cheap and happens here.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QToolTip,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...model.library.session_list import title_of
from ...model.text.amounts import format_cost, format_count
from ...model.text.plural import counted
from ...model.text.terminal_text import one_line
from ...model.usage.grouping import Stacks, group, number, stacks, total_of
from ..common.widgets import ElidedLabel, thin_progress
from ..control.controller import SessionController
from ..control.sessions_controller import SessionsChange, SessionsController
from .charts import HitRatioChart, StackedChart
from .lists import PATH_ROLE, figures_text, fill, ranked_list
from ..guard import guarded

SERIES = (("Model", "model"), ("Project", "project"))
PERIODS = (("Day", "day"), ("Week", "week"), ("Month", "month"))
METRICS = (("Cost", "cost"), ("Tokens", "tokens"))
TOP = 25
LIST_WIDTH = (260, 420)  # the lists' width: at least, and at most (a third of the view between)
AUTO_DAYS = 62  # a span of usage up to this long is drawn by day at first, up to a year by week, longer by month
HINT = "Hover a bar for its figures; click it for its sessions; click a session to open it."


def _combo(name: str, choices: tuple[tuple[str, str], ...]) -> QComboBox:
    box = QComboBox()
    box.setObjectName(name)
    for text, value in choices:
        box.addItem(text, value)
    return box


class UsageView(QWidget):
    """The folder's usage as charts and lists.

    Signals
      drawn()   the charts and lists show the usage and the grouping chosen
    """

    drawn = Signal()

    def __init__(self, controller: SessionController, sessions: SessionsController) -> None:
        super().__init__()
        self.controller, self.sessions = controller, sessions
        self.stacks: Stacks | None = None
        self.bar: tuple[int, int] | None = None  # the bar whose sessions are listed
        self._listed: object = None  # the usage the lists and the summary show
        self._stacked: dict[tuple[str, str], Stacks] = {}  # the usage grouped each way asked for so far (a way back is at hand)
        self.series_box = _combo("usageSeries", SERIES)
        self.period_box = _combo("usagePeriod", PERIODS)
        self.measure_box = _combo("usageMetric", METRICS)
        self.summary = ElidedLabel()
        self.summary.setObjectName("usageSummary")
        self.refresh = QToolButton(autoRaise=True)
        self.refresh.setText("⟳")
        self.refresh.setToolTip("Read the folder's usage again (only what changed is read)")
        self.progress = thin_progress(12, 160)
        self.progress.hide()
        self.stacked = StackedChart()
        self.hits = HitRatioChart()
        self.readout = ElidedLabel(HINT)
        self.readout.setObjectName("usageReadout")
        self.empty = QLabel(wordWrap=True, alignment=Qt.AlignmentFlag.AlignCenter)
        self.empty.setTextFormat(Qt.TextFormat.PlainText)
        self.sessions_title = ElidedLabel("Top sessions by cost")
        self.back = QToolButton(autoRaise=True)
        self.back.setText("← Top sessions")
        self.back.hide()
        self.session_list = ranked_list("usageSessions", "Session")
        self.project_list = ranked_list("usageProjects", "Project")
        self.pages = QStackedWidget()
        self._layout()
        self._redraw_soon = QTimer(self, singleShot=True, interval=120)  # a resize relabels the time axes once it stops
        self._redraw_soon.timeout.connect(self.redraw)
        self._period_chosen = False  # until the user chooses, the span of the usage decides
        self.period_box.currentIndexChanged.connect(self._user_chose_period)  # (the automatic choice blocks the signal)
        for box in (self.series_box, self.period_box, self.measure_box):
            box.currentIndexChanged.connect(self.redraw)
        self.refresh.clicked.connect(self.sessions.want_usage)
        self.back.clicked.connect(self.show_top_sessions)
        self.session_list.itemClicked.connect(self._open)
        self.session_list.itemActivated.connect(self._open)
        sessions.changed.connect(self._on_sessions)
        sessions.progress.connect(self._on_progress)
        self._show_state()

    def _layout(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 2, 4, 2)
        for label, box in (("Stack by", self.series_box), ("per", self.period_box), ("Show", self.measure_box)):
            bar.addWidget(QLabel(label))
            bar.addWidget(box)
        bar.addWidget(self.summary, 1)
        bar.addWidget(self.progress)
        bar.addWidget(self.refresh)
        charts = QSplitter(Qt.Orientation.Vertical)
        charts.addWidget(self.stacked)
        charts.addWidget(self.hits)
        charts.setStretchFactor(0, 3)
        charts.setStretchFactor(1, 1)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(charts, 1)
        left_layout.addWidget(self.readout)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        heading = QHBoxLayout()
        heading.addWidget(self.sessions_title, 1)
        heading.addWidget(self.back)
        right_layout.addLayout(heading)
        right_layout.addWidget(self.session_list, 3)
        right_layout.addWidget(QLabel("Top projects by cost"))
        right_layout.addWidget(self.project_list, 2)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.addWidget(left)
        self.split.addWidget(right)
        self.split.setStretchFactor(0, 1)
        self.split.setStretchFactor(1, 0)
        self.split.setChildrenCollapsible(False)
        right.setMinimumWidth(LIST_WIDTH[0])
        self.pages.addWidget(self.split)
        self.pages.addWidget(self.empty)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(bar)
        layout.addWidget(self.pages, 1)

    # ---- following the folder -----------------------------------------------------------

    @guarded
    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.sessions.want_usage()  # read it the first time; later, only what changed

    def _on_sessions(self, change: SessionsChange) -> None:
        if change.folder or change.usage:
            self.bar = None
            self._listed = None
            self.redraw()
        elif change.listed and self.stacks is not None:
            self._fill_lists()  # the list's titles are there now

    def _on_progress(self, what: str, done: int, total: int) -> None:
        if what == "usage" and self.sessions.reading_usage:
            self.progress.setRange(0, max(total, 1))
            self.progress.setValue(done)
            self.progress.show()

    def _show_state(self) -> bool:
        """The empty page while there is nothing to draw, saying why; True when there is usage to draw."""
        read = self.sessions.usage
        where = one_line(str(self.sessions.root))
        if read is None:
            text = f"Reading the usage of the sessions in\n{where}…"
        elif read.problem is not None:
            text = f"The usage in\n{where}\ncannot be read: {one_line(read.problem, 300)}"
        elif not read.cells.cells:
            text = f"No usage recorded in\n{where}"
        else:
            self.progress.hide()
            self.pages.setCurrentIndex(0)
            return True
        if read is not None:
            self.progress.hide()
        self.empty.setText(text)
        self.summary.setText("")
        self.pages.setCurrentIndex(1)
        return False

    # ---- drawing --------------------------------------------------------------------------

    def redraw(self) -> None:
        """Group the usage as the boxes say and draw it (the charts, the lists, the summary)."""
        self._redraw_soon.stop()
        if not self._show_state():
            self.stacks = None
            self.drawn.emit()
            return
        read = self.sessions.usage
        assert read is not None, "_show_state said there is usage"
        if not self._period_chosen:
            self._choose_period(read.cells.cells)
        grouping = (self.period_box.currentData(), self.series_box.currentData())
        known = self._stacked.get(grouping)
        if known is None or known.ledger is not read.ledger:
            self._stacked = {key: value for key, value in self._stacked.items() if value.ledger is read.ledger}  # the usage read anew
            known = self._stacked[grouping] = stacks(read.cells, read.ledger, read.calendar, *grouping)
        self.stacks = known
        palette = self.palette()
        self.stacked.draw(self.stacks, self.measure_box.currentData(), palette)
        self.hits.draw(self.stacks, palette)
        for index, bars in enumerate(self.stacked.sets):
            bars.hovered.connect(lambda status, period, series=index: self._hovered(series, period, status))
            bars.clicked.connect(lambda period, series=index: self.show_bar(series, period))
        if self._listed is not read:  # the lists and the summary change with the usage, not with the grouping
            self._listed = read
            self._fill_lists()
            self._summarize()
        elif self.bar is not None:
            self.show_top_sessions()  # the bar listed is not drawn any more
        self.drawn.emit()

    def _user_chose_period(self) -> None:
        self._period_chosen = True

    def _choose_period(self, cells: list) -> None:
        days = [cell.day for cell in cells if cell.day is not None]
        span = max(days) - min(days) if days else 0
        period = "day" if span <= AUTO_DAYS else "week" if span <= 366 else "month"
        self.period_box.blockSignals(True)  # the redraw under way draws it
        self.period_box.setCurrentIndex(self.period_box.findData(period))
        self.period_box.blockSignals(False)

    def _summarize(self) -> None:
        read = self.sessions.usage
        if read is None:
            return
        total = total_of(read.cells)  # (what every grouping's total is)
        copies = f" · {counted(read.ledger.copies, 'copied record')} counted once" if read.ledger.copies else ""
        self.summary.setText(
            f"{format_cost(number(total.cost))} · {format_count(number(total.tokens))} tokens · "
            f"{counted(total.replies, 'reply')} in {counted(len({cell.file for cell in read.cells.cells}), 'session')}{copies}"
        )
        self.summary.setToolTip(figures_text(total))

    def _titles(self) -> dict[str, str]:
        read = self.sessions.usage
        titles = {usage.file: usage.title for usage in read.ledger.files} if read is not None else {}
        titles.update({file: title_of(summary) for file, summary in self.sessions.summaries.items() if file in titles})
        return titles

    def _fill_lists(self) -> None:
        read = self.sessions.usage
        if read is None or self.stacks is None:
            return
        titles = self._titles()
        if self.bar is None:
            fill(self.session_list, group(read.cells, "session", read.ledger, read.calendar).rows, titles, TOP)
        else:
            fill(self.session_list, self.stacks.sessions(*self.bar), titles)
        fill(self.project_list, group(read.cells, "project", read.ledger, read.calendar).rows, {}, TOP)

    @guarded
    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange) and self.stacks is not None:
            self._redraw_soon.start()  # the charts take the new theme's colours

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        lists = max(LIST_WIDTH[0], min(LIST_WIDTH[1], self.width() // 3))
        self.split.setSizes([max(1, self.width() - lists), lists])
        if self.stacks is not None:
            self._redraw_soon.start()

    # ---- reading a bar ------------------------------------------------------------------------

    def bar_text(self, series: int, period: int) -> str:
        """A bar's exact figures, as hovering reads them out."""
        assert self.stacks is not None
        row = self.stacks.row(series, period)
        name = one_line(self.stacks.series[series], 80)
        when = self.stacks.periods[period]
        if row is None:
            return f"{when} · {name}: nothing recorded"
        ratio = self.stacks.hit_ratio(period)
        hits = f" · cache hits that {self.stacks.period} {ratio:.0%}" if ratio is not None else ""
        return f"{when} · {name}: {figures_text(row)}{hits}"

    def _hovered(self, series: int, period: int, status: bool) -> None:
        try:
            if not status or self.stacks is None:
                self.readout.setText(HINT)
                QToolTip.hideText()
                return
            text = self.bar_text(series, period)
            self.readout.setText(text)
            QToolTip.showText(QCursor.pos(), text.replace(": ", ":\n", 1), self.stacked)
        except (IndexError, KeyError) as error:  # a hover on bars being replaced: nothing to read out
            self.readout.setText(f"{HINT} ({type(error).__name__})")

    def show_bar(self, series: int, period: int) -> None:
        """List the sessions of one bar, largest cost first."""
        if self.stacks is None or not (0 <= series < len(self.stacks.series) and 0 <= period < len(self.stacks.periods)):
            return
        self.bar = (series, period)
        name = one_line(self.stacks.series[series], 60)
        self.sessions_title.setText(f"Sessions of {name}, {self.stacks.periods[period]}")
        self.back.show()
        self._fill_lists()

    def show_top_sessions(self) -> None:
        self.bar = None
        self.sessions_title.setText("Top sessions by cost")
        self.back.hide()
        self._fill_lists()

    def _open(self, item: QTreeWidgetItem) -> None:
        path = item.data(0, PATH_ROLE)
        if path:
            self.controller.open(path)
