"""The Trace tab: the selected path as pi ran it, as a waterfall, with its totals and its errors.

The path is the one through the selected entry, down to the newest leaf below
it: selecting an entry on the path shown (a click in the waterfall, the tree or
the cards) only moves the mark; an entry off it shows its own path. The trace is
built in the facts thread (control/trace_facts.py) and shown when it lands; the panel
works only while it is visible.

A long path whose facts are not read yet (the tab raised right after a load)
is shown in two steps: first the runs around the selection (model/trace/stretch.py:
a few thousand entries, read in tens of milliseconds), said to be only those,
their runs unnumbered; then, read on in the same thread, the whole path, which
takes their place keeping the view, the open runs and the mark.
"""

from __future__ import annotations

from itertools import islice

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QVBoxLayout, QWidget

from ...model.session.entry import Entry
from ...model.trace.agent_loop import build_trace, lead_in
from ...model.trace.facts import entry_facts
from ...model.trace.rows import totals_text
from ...model.trace.spans import Run, Trace
from ...model.trace.stretch import STRETCH_ENTRIES, stretch_around
from ...model.trace.table import FactsTable
from ..common.ends_row import EndsRow
from ..common.safe_text import safe_tip
from ..common.widgets import plain_label, remute
from .lane_text import Describer
from ..control.trace_facts import Cancelled, TraceFacts
from .lanes import TraceLanes, entry_of, run_number
from .waterfall import ZOOM_STEP, Waterfall
from ..common.when_shown import WhenShown
from ..guard import guarded

NO_SESSION = "Open a session to see how pi ran it."
FEW_RUNS = 12  # a path of at most this many runs opens whole


class TracePanel(QWidget):
    """Public for callers and tests: `trace`, `lanes`, `waterfall`, `busy`, `partial`, `leaf`,
    `next_error(step)`. `leaf`: the leaf of the path asked for last; `partial`: the trace shown is
    a stretch of that path, and the whole path is being read (`busy` until it is shown)."""

    def __init__(self, controller, facts: TraceFacts, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.facts = facts
        self.trace: Trace | None = None
        self.lanes: TraceLanes | None = None
        self.describer: Describer | None = None
        self.busy = False
        self.partial = False
        self.failed: str | None = None
        self.leaf: str | None = None
        self._request = 0
        self._error_step = 0  # a next-error step that waits for the whole path (see next_error)
        self._path_length = 0  # entries on the path asked for last
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self._build_header())
        self.waterfall = Waterfall()
        self.waterfall.activated.connect(self._lane_activated)
        self.waterfall.toggled.connect(self._lane_toggled)
        self.waterfall.errorStep.connect(self.next_error)
        layout.addWidget(self.waterfall, 1)
        self.details = plain_label("", small=True, wrap=True)
        self.details.setContentsMargins(10, 4, 10, 6)
        self.details.setMinimumHeight(self.details.fontMetrics().lineSpacing() * 3 + 10)
        self.details.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.details)
        for keys, step in (("F8", 1), ("Shift+F8", -1)):
            shortcut = QShortcut(QKeySequence(keys), self, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda step=step: self.next_error(step))
        self.when_shown = WhenShown(self, self.refresh)  # the window tells it when its tab shows
        controller.changed.connect(self._on_change)
        self._show_message(NO_SESSION)

    def _build_header(self) -> QWidget:
        header = QWidget()
        box = QVBoxLayout(header)
        box.setContentsMargins(10, 6, 10, 4)
        box.setSpacing(2)
        self.title = plain_label("", wrap=True)  # it names an entry: a long id wraps rather than widening the dock
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.path_totals = plain_label("", small=True, wrap=True)
        self.run_totals = plain_label("", small=True, wrap=True, muted=True)
        box.addWidget(self.title)
        box.addWidget(self.path_totals)
        box.addWidget(self.run_totals)
        tools = QHBoxLayout()
        tools.setSpacing(4)
        self.fit_button = _button("Fit", "Show the whole path (0)", lambda: self.waterfall.fit())
        self.zoom_out = _button("−", "Zoom out (− or Ctrl+wheel)", lambda: self.waterfall.zoom(1 / ZOOM_STEP))
        self.zoom_in = _button("+", "Zoom in (+ or Ctrl+wheel)", lambda: self.waterfall.zoom(ZOOM_STEP))
        self.open_all = _button("Open all", "Show every run's turns and calls", lambda: self._set_all(True))
        self.close_all = _button("Close all", "Show the runs only", lambda: self._set_all(False))
        self.previous_error = _button("◂", "The error before (Shift+F8)", lambda: self.next_error(-1))
        self.next_error_button = _button(
            "Next error ▸",
            "Select the next error: a failed reply, a failed tool result, a call with no result (F8)",
            lambda: self.next_error(1),
        )
        self.errors_label = plain_label("", small=True)
        errors = QHBoxLayout()
        errors.setSpacing(4)
        for group, widgets in (
            (tools, (self.fit_button, self.zoom_out, self.zoom_in, self.open_all, self.close_all)),
            (errors, (self.errors_label, self.previous_error, self.next_error_button)),
        ):
            for widget in widgets:
                group.addWidget(widget)
        box.addLayout(EndsRow(tools, errors, spacing=4))  # in a narrow dock the errors' part goes under
        return header

    @guarded
    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.PaletteChange:
            remute(self)

    # ---- following the controller ------------------------------------------------------

    def _on_change(self, change) -> None:
        if change.replaced:
            self.trace = self.lanes = self.describer = None
            self.leaf, self.partial, self.busy = None, False, False
            self._request += 1  # what was asked for the session before is not wanted
        if change.replaced or change.appended or change.selection:
            self.when_shown.changed()

    def refresh(self) -> None:
        """Show the path through the selection: at once when it is the path shown, else built anew."""
        session, selected = self.controller.session, self.controller.selected
        if session is None:
            self._show_message(NO_SESSION)
            return
        if selected is None:
            self._show_message("Select an entry to see its path as pi ran it.")
            return
        if self.trace is not None and selected in self.trace.nodes:
            if not session.children(self.leaf):
                self._mark(selected)  # on the path shown: only the mark moves
                return
            self._build(session.newest_leaf_below(self.leaf))  # pi went on from the path's leaf
            return
        self._build(session.newest_leaf_below(selected))

    def _build(self, leaf: str) -> None:
        session = self.controller.session
        self._request += 1
        request = self._request
        self.leaf = leaf
        self._error_step = 0
        prebuilt = self.facts.prebuilt
        if prebuilt is not None and prebuilt.leaf == leaf:
            self._built(request, prebuilt, None)  # built ahead, once the session's facts were read
            return
        self.busy = True
        if self.trace is None:
            self._show_message("Reading the path…")
        stale = self.facts.stale(self.facts.generation)
        selected = self.controller.selected
        # The runs it shares with a trace built before are taken from that one (see build_trace).
        spine = self.trace if self.trace is not None and not self.partial else prebuilt
        listed: list[list[Entry]] = []  # the path, listed in the facts thread (tens of ms on a long one)

        def stop() -> bool:
            return request != self._request or stale()

        def whole(table: FactsTable) -> Trace:
            path = listed[0]
            if not table.ensure(path, stop=stop):  # the user waits for this one: it does not step aside
                raise Cancelled
            return build_trace(path, table, spine=spine)

        def first(table: FactsTable) -> tuple[Trace, bool]:
            """The whole path's trace, or when much of it is unread the trace of the runs around the
            selection: (trace, whether it is the whole path's)."""
            path = session.path_entries(leaf)
            listed.append(path)
            unread = (entry for entry in reversed(path) if not table.has(entry))  # counted only as far as needed
            if next(islice(unread, STRETCH_ENTRIES, None), None) is not None:
                place = next((at for at in range(len(path) - 1, -1, -1) if path[at].id == selected), len(path) - 1)
                begin, end = stretch_around(path, place, table, STRETCH_ENTRIES)
                if end - begin <= len(path) // 2:  # else the stretch saves too little: the whole path it is
                    before = lead_in(path, begin)
                    if not table.ensure([*before, *path[begin:end]], stop=stop):
                        raise Cancelled
                    return build_trace(path[begin:end], table, lead_in=before, goes_on=end < len(path)), False
            return whole(table), True

        def landed(answer: tuple[Trace, bool] | None, error: str | None) -> None:
            trace, complete = answer if answer is not None else (None, True)
            if listed and request == self._request:
                self._path_length = len(listed[0])
            self._built(request, trace, error, complete)
            if not complete and request == self._request:
                # Read on at once: the user waits for the whole path too (pacing this reading
                # behind the window's changes made it land a third of a second later).
                self.facts.run(whole, lambda trace, error: self._built(request, trace, error, replaces=True))

        self.facts.run(first, landed)

    def _built(self, request: int, trace: Trace | None, error: str | None, complete: bool = True, replaces: bool = False) -> None:
        """Show `trace` if it answers the request made last: the whole path's, or (`complete`
        False) a stretch of it; `replaces`: the whole path's after its stretch, keeping the view."""
        if request != self._request:
            return
        self.busy = not complete
        if trace is None:
            self.failed, self.partial = error, False
            self._show_message(f"The trace could not be built: {error}" if error else "")
            return
        self.failed = None
        session = self.controller.session
        replacing = replaces and self.lanes is not None
        self.partial = not complete
        opened = self._counterparts(trace) if replacing else None
        self.trace = trace
        self.describer = describer = Describer(trace, lambda key: entry_facts(session.entries[key]), numbered=complete)
        # A stretch opens with its runs closed, as the long path it is part of does.
        self.lanes = TraceLanes(trace, opened if opened is not None else (() if not complete else None))
        self.waterfall.label = describer.label
        self.waterfall.tip = lambda node: safe_tip(describer.details(node))
        self.waterfall.set_lanes(self.lanes, keep_view=replacing)
        self._show_totals()
        self._mark(self.controller.selected)
        if not replacing:
            self._first_view(self.controller.selected)
        if complete:
            self.facts.offer(trace)
            if self._error_step:
                self.next_error(self._error_step)

    def _shown(self) -> tuple[Trace, TraceLanes, Describer]:
        """The trace shown, its lanes and its words, for what runs only while one is: _show sets the
        three together and _show_message clears them together."""
        assert self.trace is not None and self.lanes is not None and self.describer is not None, "no trace is shown"
        return self.trace, self.lanes, self.describer

    def _counterparts(self, trace: Trace) -> set[int]:
        """The numbers in `trace` of the runs open in the trace shown."""
        shown, lanes, _ = self._shown()
        numbers = set()
        for number in lanes.opened:
            run = shown.run_of(number)
            node = trace.nodes.get(run.entry) if run is not None else None
            if node is not None:
                numbers.add(run_number(node))
        return numbers

    def _first_view(self, key: str | None) -> None:
        """A path of a few runs is shown whole; a longer one, and a stretch of one, opens on the run
        of the selection."""
        trace, lanes, _ = self._shown()
        node = trace.nodes.get(key) if key is not None else None
        run = lanes.run_of(node) if node is not None else None
        few = len(trace.runs) <= FEW_RUNS and not self.partial
        if few or run is None or run.start is None or run.end is None:
            self.waterfall.fit()
        else:
            self.waterfall.show_span(run.start, run.end)

    # ---- showing -----------------------------------------------------------------------

    def _show_message(self, text: str) -> None:
        self.trace = self.lanes = self.describer = None
        self.waterfall.set_lanes(None)
        self.title.setText(text)
        for label in (self.path_totals, self.run_totals, self.details, self.errors_label):
            label.setText("")
        for button in (self.previous_error, self.next_error_button):
            button.setEnabled(False)

    def _show_totals(self) -> None:
        trace = self._shown()[0]
        runs = len(trace.runs)
        some = f"{runs:,} run{'s' if runs != 1 else ''}"
        errors = len(trace.errors)
        some_errors = f"{errors:,} error{'s' if errors != 1 else ''}"
        if self.partial:
            # Only the runs read so far: the totals and the errors are theirs, and said to be.
            self.title.setText(f"Path to {self.leaf}: reading it, {some} shown so far")
            self.path_totals.setText(
                f"These {some} ({len(trace.entries):,} of the path's {self._path_length:,} entries): {totals_text(trace.totals)}"
            )
            self.errors_label.setText(f"{some_errors} so far")
        else:
            self.title.setText(f"Path to {trace.leaf}: {some}, {len(trace.entries):,} entries")
            self.path_totals.setText(totals_text(trace.totals))
            self.errors_label.setText(some_errors)
        for button in (self.previous_error, self.next_error_button):
            button.setEnabled(bool(errors) or self.partial)  # the path's other runs may hold some

    def _mark(self, key: str | None) -> None:
        """Put the waterfall's mark on the lane of `key` (opening its run) and say what it is."""
        if self.lanes is None or key is None:
            return
        trace, lanes, describer = self._shown()
        node = trace.nodes.get(key)
        if node is None:
            return
        self.details.setText(describer.details(node))
        run = lanes.run_of(node)
        name = f"Run {run.number}" if run is not None and not self.partial else "This run"
        self.run_totals.setText(f"{name}: {totals_text(run.totals)}" if run is not None else "")
        before = len(lanes)
        lane = lanes.reveal(node)
        if len(lanes) != before:
            self.waterfall.set_lanes(lanes, keep_view=True)
        self.waterfall.set_current(lane)
        if lane is not None:
            self.waterfall.center_on(lanes.lanes[lane][0])

    # ---- the user's doing ----------------------------------------------------------------

    def _lane_activated(self, lane: int) -> None:
        _, lanes, describer = self._shown()
        node = lanes.lanes[lane][0]
        key = entry_of(node)
        if key == self.controller.selected:
            self.waterfall.set_current(lane)
            self.details.setText(describer.details(node))
            return
        self.controller.select(key)  # the tree and the context follow; refresh() moves the mark

    def _lane_toggled(self, lane: int) -> None:
        lanes = self._shown()[1]
        node = lanes.lanes[lane][0]
        if isinstance(node, Run):
            lanes.toggle(node)
            self.waterfall.set_lanes(lanes, keep_view=True)
            self.waterfall.set_current(lanes.lane_for_entry(self.controller.selected), reveal=False)

    def _set_all(self, open_: bool) -> None:
        if self.lanes is not None:
            self.lanes.set_all(open_)
            self.waterfall.set_lanes(self.lanes, keep_view=True)
            self.waterfall.set_current(self.lanes.lane_for_entry(self.controller.selected), reveal=False)

    def next_error(self, step: int = 1) -> str | None:
        """Select the next (step 1) or previous (-1) error along the path after the selection; its
        entry. While only a stretch of the path is shown, a step past its errors waits for the
        whole path (the errors before or after the stretch are not known yet): None then."""
        self._error_step = 0
        if self.trace is None:
            return None
        places = {key: at for at, key in enumerate(self.trace.entries)}
        here = places.get(self.controller.selected, -1)
        errors = sorted(self.trace.errors, key=lambda node: places.get(entry_of(node), 0))
        order = errors if step > 0 else list(reversed(errors))
        target = next((node for node in order if (places.get(entry_of(node), 0) - here) * step > 0), None)
        if target is None and self.partial:
            self._error_step = step
            self.details.setText(f"Looking for the {'next error' if step > 0 else 'error before'} in the rest of the path…")
            return None
        if target is None and not order:
            return None
        key = entry_of(target if target is not None else order[0])  # past the last: round to the first
        self.controller.select(key)
        return key


def _button(text: str, tip: str, slot) -> QToolButton:
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    button.setAutoRaise(True)
    button.clicked.connect(slot)
    return button
