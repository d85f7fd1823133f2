"""The Trace, Files and composition views in the window: they follow the selection and select what is clicked."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from pibrowser.model import Session, resolve
from pibrowser.model.compare.changed_files import compare_files
from pibrowser.model.context.file_lists import file_operations
from pibrowser.model.tokens.composition import context_composition, message_kinds
from pibrowser.model.trace.agent_loop import build_trace, lead_in
from pibrowser.model.trace.spans import Run, ToolCall, Turn
from pibrowser.model.trace.table import FactsTable
from pibrowser.ui.trace import trace_panel
from pibrowser.ui.trace.lanes import entry_of, span_of
from pibrowser.ui.trace.lane_text import DETAIL_LINE
from pibrowser.ui.trace.waterfall import ROW, RULER

from ..conftest import BACKGROUND_MS, DEMO, FIXTURES
from ..sessions import message, write
from .conftest import load
from .menus import choose, click, entry, right_click

pytestmark = pytest.mark.usefixtures("isolated_settings")


def traced(qtbot, window, leaf):
    panel = window.trace_panel
    qtbot.waitUntil(lambda: not panel.busy and panel.trace is not None and panel.trace.leaf == leaf, timeout=20_000)
    return panel.trace


def lane_point(waterfall, lane: int, x: int | None = None) -> QPoint:
    waterfall.set_current(lane)  # scrolls it into view
    y = RULER + lane * ROW - waterfall.verticalScrollBar().value() + ROW // 2
    return QPoint(x if x is not None else waterfall.label_width() - 20, y)


def test_the_trace_tab_shows_the_selected_path_and_a_click_selects_the_entry(qtbot, window):
    session = load(qtbot, window, DEMO)
    window.trace_dock.raise_()
    trace = traced(qtbot, window, session.leaf_id)
    assert [run.entry for run in trace.runs] == [run.entry for run in build_trace(session.path_entries(session.leaf_id)).runs]
    panel = window.trace_panel
    assert panel.title.text().startswith(f"Path to {session.leaf_id}: {len(trace.runs)} runs")
    assert f"{trace.totals.errors} errors" in panel.path_totals.text()
    # The leaf's lane carries the mark, and the details say what it is.
    lane = panel.lanes.lane_for_entry(session.leaf_id)
    assert panel.waterfall.current == lane and panel.details.text().startswith("Turn ")
    # A click on a tool call's lane selects its result in the tree and the context.
    calls = [at for at, (node, _) in enumerate(panel.lanes.lanes) if isinstance(node, ToolCall) and node.result]
    target = panel.lanes.lanes[calls[0]][0]
    QTest.mouseClick(panel.waterfall.viewport(), Qt.MouseButton.LeftButton, pos=lane_point(panel.waterfall, calls[0]))
    assert window.controller.selected == target.result
    assert panel.trace is trace  # on the path shown: the path stays, only the mark moves
    assert panel.waterfall.current == panel.lanes.lane_of(target)
    assert window.context_panel.context is None or window.context_panel.key in (target.result, None)


def test_a_turn_of_thousands_of_calls_is_described_in_lines_a_label_can_wrap(qtbot, window, tmp_path):
    # Its details named every call: 1.2 million characters for 200,000 calls, which the details'
    # label took seconds of the window's thread to wrap.
    calls = [{"type": "toolCall", "id": f"c{index}", "name": f"tool_{index}", "arguments": {}} for index in range(3_000)]
    path = write(
        tmp_path / "calls.jsonl",
        message("u", None, "user", "go", second=0),
        message("a", "u", "assistant", calls, second=1, provider="p", model="m", stopReason="toolUse"),
    )
    load(qtbot, window, path)
    window.trace_dock.raise_()
    traced(qtbot, window, "a")
    panel = window.trace_panel
    window.controller.select("a")
    qtbot.waitUntil(lambda: panel.details.text().startswith("Turn "))
    lines = panel.details.text().split("\n")
    assert any(line.startswith("3000 tool calls: tool_0, tool_1, tool_2") for line in lines), lines
    assert max(map(len, lines)) <= DETAIL_LINE and any(line.endswith("…") for line in lines)


def test_next_error_steps_through_the_paths_errors_in_order(qtbot, window):
    session = load(qtbot, window, DEMO)
    window.trace_dock.raise_()
    trace = traced(qtbot, window, session.leaf_id)
    assert len(trace.errors) >= 2
    window.controller.select(trace.entries[0])
    panel = window.trace_panel
    seen = [panel.next_error(1) for _ in trace.errors]
    assert seen == [entry_of(error) for error in trace.errors]
    assert panel.next_error(1) == seen[0]  # past the last: round to the first
    assert panel.next_error(-1) == seen[-1]
    QTest.keyClick(panel.waterfall, Qt.Key.Key_F8)
    assert window.controller.selected == seen[0]


def test_selecting_off_the_path_shows_that_paths_trace_down_to_its_newest_leaf(qtbot, window):
    session = load(qtbot, window, DEMO)
    window.trace_dock.raise_()
    trace = traced(qtbot, window, session.leaf_id)
    other = next(leaf for leaf in session.leaves() if leaf not in trace.nodes)
    above = session.parent(other)
    newest = above
    while session.children(newest):
        newest = session.children(newest)[-1]  # pi's child order is by time: the last is the newest
    window.controller.select(above)
    shown = traced(qtbot, window, newest)
    assert above in shown.nodes and shown.entries == session.path_to(newest) and newest != session.leaf_id


def test_runs_open_and_close_and_the_view_zooms_and_pans(qtbot, window):
    session = load(qtbot, window, DEMO)
    window.trace_dock.raise_()
    traced(qtbot, window, session.leaf_id)
    panel, waterfall = window.trace_panel, window.trace_panel.waterfall
    first_run = next(at for at, (node, _) in enumerate(panel.lanes.lanes) if isinstance(node, Run))
    run = panel.lanes.lanes[first_run][0]
    before = len(panel.lanes)
    QTest.mouseClick(waterfall.viewport(), Qt.MouseButton.LeftButton, pos=lane_point(waterfall, first_run, 6 + 7))
    assert not panel.lanes.is_open(run) and len(panel.lanes) == before - len(run.items) - sum(len(turn.calls) for turn in run.turns)
    panel.close_all.click()
    assert len(panel.lanes) == len(panel.trace.before) + len(panel.trace.runs)
    waterfall.fit()
    scale = waterfall.scale
    QTest.keyClick(waterfall, Qt.Key.Key_Plus)
    assert waterfall.scale > scale
    offset = waterfall.offset
    waterfall.pan(-50)
    assert waterfall.offset > offset
    QTest.keyClick(waterfall, Qt.Key.Key_0)
    assert (waterfall.scale, waterfall.offset) == (scale, 0.0)


def bar_in_view(waterfall, lane: int) -> bool:
    """Some of the lane's bar is between the bars' left and right edges."""
    start, end = span_of(waterfall.lanes.lanes[lane][0])
    if start is None:
        return False
    left, right = waterfall.x_of(start), waterfall.x_of(end if end is not None else start)
    return right >= waterfall.bars_left() and left <= waterfall.bars_left() + waterfall.bars_width()


def lanes_in_view(waterfall) -> range:
    first = waterfall.verticalScrollBar().value() // ROW
    return range(first, min(len(waterfall.lanes), first + (waterfall.viewport().height() - RULER) // ROW))


@pytest.mark.parametrize("selected", [True, False])
def test_the_zoom_buttons_zoom_about_what_is_in_view(qtbot, window, selected):
    """Trace tab, the first run's lanes in view (the first one selected, or none), then + clicked again
    and again: the selected lane's bar stays in view, and so do bars of the lanes in view (zooming about
    the middle of the whole path's time lost them after a few clicks)."""
    session = load(qtbot, window, DEMO)
    window.trace_dock.raise_()
    trace = traced(qtbot, window, session.leaf_id)
    panel, waterfall = window.trace_panel, window.trace_panel.waterfall
    first = next(at for at, (node, _) in enumerate(panel.lanes.lanes) if isinstance(node, Run) and node is trace.runs[0])
    if selected:
        QTest.mouseClick(waterfall.viewport(), Qt.MouseButton.LeftButton, pos=lane_point(waterfall, first))
        assert waterfall.current == first
    else:
        waterfall.current = None
        waterfall.verticalScrollBar().setValue(first * ROW)
    QTest.mouseClick(panel.fit_button, Qt.MouseButton.LeftButton)
    shown = lanes_in_view(waterfall)
    for clicks in range(1, 13):
        QTest.mouseClick(panel.zoom_in, Qt.MouseButton.LeftButton)
        if selected:
            assert bar_in_view(waterfall, first), clicks
        assert any(bar_in_view(waterfall, lane) for lane in shown), clicks


def test_idle_time_between_runs_is_squeezed_and_said(qtbot, window):
    session = load(qtbot, window, DEMO)
    window.trace_dock.raise_()
    trace = traced(qtbot, window, session.leaf_id)
    axis = window.trace_panel.waterfall.axis
    long_gaps = [(a, b) for a, b in trace.gaps() if b - a > 60_000]
    assert long_gaps and all(any(gap.start == a and gap.width < b - a for gap in axis.gaps) for a, b in long_gaps)
    assert axis.length < trace.end - trace.start


def test_the_files_tab_lists_pis_files_and_a_call_selects_its_entry(qtbot, window):
    session = load(qtbot, window, DEMO)
    window.files_dock.raise_()
    view = window.files_view
    qtbot.waitUntil(lambda: not view.busy and view.operations is not None, timeout=20_000)
    expected = file_operations(session.path_entries(session.leaf_id))
    assert (view.operations.read_files, view.operations.modified_files) == (expected.read_files, expected.modified_files)
    modified = view.tree.topLevelItem(0)
    assert modified.text(0) == f"Modified ({len(expected.modified_files)})" and modified.childCount() == len(expected.modified_files)
    first_file = modified.child(0)
    first_file.setExpanded(True)  # its calls are listed when it opens
    call = first_file.child(0)
    view.tree.itemClicked.emit(call, 0)
    assert window.controller.selected == expected.calls_for(expected.modified_files[0])[0].entry
    assert view.leaf == session.leaf_id  # the entry is on the path shown: the list stays
    view.filter.setText(expected.read_files[0][-6:])
    assert [view.tree.topLevelItem(1).child(row).text(0) for row in range(view.tree.topLevelItem(1).childCount())] == [
        path for path in expected.read_files if expected.read_files[0][-6:].casefold() in path.casefold()
    ]


def test_compare_shows_which_side_changed_what(qtbot, window):
    session = load(qtbot, window, DEMO)
    leaves = session.leaves()
    window.controller.set_compare(leaves[0], leaves[-1])
    box = window.compare_view.files
    qtbot.waitUntil(lambda: box.comparison is not None, timeout=20_000)
    expected = compare_files(*(file_operations(session.path_entries(leaf)) for leaf in (leaves[0], leaves[-1])))
    assert [row.path for row in box.comparison.rows] == [row.path for row in expected.rows]
    assert box.toggle.toggle.text().startswith(
        f"Files: A alone changed {len(expected.only_left)}, B alone changed {len(expected.only_right)}"
    )


def test_a_comparison_cleared_before_its_files_are_listed_lets_their_answer_go(qtbot, window):
    """Clear (or another comparison) while the files are worked out: the box is gone, its late answer is dropped."""
    session = load(qtbot, window, DEMO)
    leaves = session.leaves()
    window.controller.set_compare(leaves[0], leaves[-1])
    box = window.compare_view.files
    window.compare_view.header.clear_button.click()
    assert window.controller.compared is None and window.compare_view.files is None
    # Another comparison: its answer comes from the same one facts thread, after the first one's.
    window.controller.set_compare(leaves[1], leaves[-1])
    qtbot.waitUntil(lambda: window.compare_view.files.comparison is not None, timeout=20_000)
    assert box.comparison is None


def test_the_composition_bar_names_its_parts_and_a_click_filters_the_cards(qtbot, window):
    session = load(qtbot, window, DEMO)
    panel = window.context_panel
    header = panel.header
    qtbot.waitUntil(lambda: panel.composition is not None, timeout=BACKGROUND_MS)
    expected = context_composition(resolve(session, session.leaf_id))
    assert panel.composition == expected
    bar = header.composition_bar
    assert [kind for kind, *_ in bar.segments] == [kind for kind, *_ in expected.shares()]
    kind, left, right, _ = max(bar.segments, key=lambda segment: segment[2] - segment[1])
    assert bar.kind_at((left + right) / 2) == kind
    assert bar.describe(kind).startswith(f"{header.composition_bar.describe(kind).split(':')[0]}: {expected.chars[kind]:,} characters")
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=QPoint(round((left + right) / 2), bar.height() // 2))
    assert panel.kind_filter == kind
    shown = panel.list.rows
    assert shown and all(kind in message_kinds(item.message) for item in shown)
    assert len(shown) == sum(1 for item in panel.info.items if not item.dropped and kind in message_kinds(item.message))
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=QPoint(round((left + right) / 2), bar.height() // 2))
    assert panel.kind_filter is None and len(panel.list.rows) == len(panel.info.items) - sum(item.dropped for item in panel.info.items)


STACKED = "Show What the Context Is Made Of"


def test_the_strip_stacks_what_the_context_is_made_of_on_request(qtbot, window):
    """Right-click the strip ▸ Show What the Context Is Made Of: ticked, the areas drawn; again: gone."""
    session = load(qtbot, window, FIXTURES / "generated-s5.jsonl")
    strip = window.timeline
    qtbot.waitUntil(lambda: bool(strip.series), timeout=20_000)
    assert not strip.stacked.groups
    spot = QPoint(strip.width() // 2, strip.height() // 2)
    choose(strip, spot, STACKED)
    qtbot.waitUntil(lambda: bool(strip.stacked.groups), timeout=20_000)
    path = session.path_entries(session.leaf_id)
    last = context_composition(resolve(session, session.leaf_id)).groups()
    assert strip.stacked.positions[-1] == len(path) - 1
    assert sum(strip.stacked.groups[-1]) == sum(last.values())
    menu = right_click(strip, spot)
    assert entry(menu, STACKED).isChecked()
    click(menu, entry(menu, STACKED))
    assert not strip.stacked.groups and not strip.stacked.enabled


def test_the_sessions_dock_shows_time_in_runs_and_errors(qtbot, window, tmp_path):
    import shutil

    from pibrowser.ui.sessions.sessions_panel import COLUMNS

    folder = tmp_path / "sessions" / "--work--"
    folder.mkdir(parents=True)
    shutil.copyfile(DEMO, folder / "demo.jsonl")
    with qtbot.waitSignal(window.sessions.scanned, timeout=20_000):
        window.sessions.populate(tmp_path / "sessions")
    item = window.sessions._items[str(folder / "demo.jsonl")]
    trace = build_trace(Session.load(DEMO).file_order)
    assert item.text(COLUMNS.index("Errors")) == str(trace.totals.errors)
    assert item.text(COLUMNS.index("Time")) and "in runs" in item.toolTip(0)
    assert isinstance(trace.runs[0].items[0], Turn)


def test_a_tab_behind_another_works_out_nothing_until_shown(qtbot, window):
    load(qtbot, window, DEMO)
    window.context_dock.raise_()
    window.controller.select(window.controller.session.file_order[3].id)
    assert window.trace_panel.trace is None and window.files_view.operations is None
    assert not window.trace_panel.busy and not window.files_view.busy
    window.files_dock.raise_()
    qtbot.waitUntil(lambda: window.files_view.operations is not None, timeout=20_000)
    assert window.trace_panel.trace is None


def test_tabs_behind_work_out_nothing_when_the_window_first_shows_a_session(qtbot, isolated_settings):
    # As `pibrowser FILE --screenshot` does: the session is loaded before the window first shows.
    # Every dock's widget then sees a Show event before the tabs are sorted out; the Trace and
    # Files tabs, behind Context, must not start reading the whole path for nothing.
    from pibrowser.ui.window.main_window import MainWindow

    window = MainWindow(restore_layout=False)
    window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    qtbot.addWidget(window)
    session = load(qtbot, window, DEMO)
    window.controller.select(session.leaf_id)
    window.show()
    qtbot.waitUntil(lambda: window.context_panel.key == session.leaf_id, timeout=20_000)
    qtbot.waitUntil(lambda: window.context_dock.isVisible() and not window.context_dock.visibleRegion().isEmpty(), timeout=20_000)
    assert window.trace_panel.trace is None and not window.trace_panel.busy
    assert window.files_view.operations is None and not window.files_view.busy
    window.trace_dock.raise_()
    assert traced(qtbot, window, session.leaf_id).leaf == session.leaf_id


LONG = FIXTURES / "legacy-v1.jsonl"  # 1,018 entries on the leaf's path, 86 runs, 41 errors


class HeldFacts:
    """The facts thread's work waits for a permit each: what the Trace tab shows between two
    pieces of it can be looked at."""

    def __init__(self, monkeypatch, facts) -> None:
        self.permits = threading.Semaphore(0)
        run = facts.run

        def held(work, done):
            run(lambda table: (self.permits.acquire(timeout=60), work(table))[1], done)

        monkeypatch.setattr(facts, "run", held)

    def release(self, count: int = 1) -> None:
        for _ in range(count):
            self.permits.release()


@pytest.fixture
def held(monkeypatch, window):
    """The Trace tab in front, its facts held, and stretches of 100 entries."""
    monkeypatch.setattr(trace_panel, "STRETCH_ENTRIES", 100)
    facts = HeldFacts(monkeypatch, window.trace_facts)
    window.trace_dock.raise_()
    yield facts
    facts.release(1000)  # nothing left waiting when the window closes


def stretch_shown(qtbot, window, held, path):
    """Let the first piece of work run: the runs around the selection; the place they start on `path`."""
    panel = window.trace_panel
    held.release()
    qtbot.waitUntil(lambda: panel.trace is not None, timeout=20_000)
    assert panel.partial and panel.busy
    begin = len(path) - len(panel.trace.entries)
    assert panel.trace.entries == [entry.id for entry in path[begin:]]  # the leaf is selected: the path's last runs
    return begin


def test_a_cold_open_shows_the_runs_around_the_selection_then_the_whole_path(qtbot, window, held):
    session = load(qtbot, window, LONG)
    path = session.path_entries(session.leaf_id)
    table = FactsTable()
    table.ensure(path)
    whole = build_trace(path, table)
    panel = window.trace_panel
    begin = stretch_shown(qtbot, window, held, path)
    stretch = panel.trace
    assert 100 <= len(stretch.entries) <= len(path) // 2 and isinstance(whole.nodes[path[begin].id], Run)
    assert stretch.totals == build_trace(path[begin:], table, lead_in=lead_in(path, begin)).totals
    assert [run.entry for run in stretch.runs] == [run.entry for run in whole.runs[-len(stretch.runs) :]]
    # Said to be part of the path: totals and errors of these runs, which are not numbered.
    assert panel.title.text() == f"Path to {session.leaf_id}: reading it, {len(stretch.runs)} runs shown so far"
    assert panel.path_totals.text().startswith(
        f"These {len(stretch.runs)} runs ({len(stretch.entries)} of the path's {len(path):,} entries)"
    )
    assert panel.errors_label.text().endswith("so far") and panel.next_error_button.isEnabled()
    assert panel.waterfall.label(stretch.runs[0]).startswith("Run · ")
    held.release(100)
    trace = traced(qtbot, window, session.leaf_id)
    assert not panel.partial and trace.totals == whole.totals and len(trace.errors) == len(whole.errors)
    assert panel.title.text() == f"Path to {session.leaf_id}: {len(whole.runs)} runs, {len(path):,} entries"
    assert panel.waterfall.label(trace.runs[-1]).startswith(f"Run {len(whole.runs)} · ")
    assert panel.waterfall.current == panel.lanes.lane_for_entry(session.leaf_id)


def test_a_click_while_the_runs_around_the_selection_show_selects_and_stays_selected(qtbot, window, held):
    session = load(qtbot, window, LONG)
    path = session.path_entries(session.leaf_id)
    stretch_shown(qtbot, window, held, path)
    panel, waterfall = window.trace_panel, window.trace_panel.waterfall
    turns = [at for at, (node, _) in enumerate(panel.lanes.lanes) if isinstance(node, Turn)]
    target = panel.lanes.lanes[turns[0]][0]
    QTest.mouseClick(waterfall.viewport(), Qt.MouseButton.LeftButton, pos=lane_point(waterfall, turns[0]))
    assert window.controller.selected == target.entry and waterfall.current == turns[0] and panel.partial
    assert panel.details.text().startswith(f"Turn {target.number} — reply {target.entry}")
    first_run = panel.trace.runs[0]
    QTest.mouseClick(waterfall.viewport(), Qt.MouseButton.LeftButton, pos=lane_point(waterfall, panel.lanes.lane_of(first_run), 6 + 7))
    assert panel.lanes.is_open(first_run)
    times = waterfall.shown_times()
    per_pixel = (times[1] - times[0]) / waterfall.bars_width()
    held.release(100)
    trace = traced(qtbot, window, session.leaf_id)
    assert window.controller.selected == target.entry  # the whole path took the stretch's place, the mark kept
    shown = trace.nodes[target.entry]
    assert waterfall.current == panel.lanes.lane_of(shown) and panel.lanes.is_open(panel.lanes.run_of(shown))
    assert panel.lanes.is_open(trace.nodes[first_run.entry]) and len(panel.lanes.opened) == 2  # the runs opened stay open
    # The same moments in view: the same time at the left edge, at the same scale (the whole path's
    # lanes may bring a scroll bar that narrows the view once they are laid out).
    start, end = waterfall.shown_times()
    assert start == pytest.approx(times[0], abs=1)
    assert (end - start) / waterfall.bars_width() == pytest.approx(per_pixel, rel=1e-6)
    assert panel.details.text().startswith(f"Turn {target.number} of run {shown.run} — reply {target.entry}")


def test_the_error_before_the_runs_shown_is_found_once_the_whole_path_is_read(qtbot, window, held):
    session = load(qtbot, window, LONG)
    path = session.path_entries(session.leaf_id)
    whole = build_trace(path)
    begin = stretch_shown(qtbot, window, held, path)
    panel = window.trace_panel
    window.controller.select(path[begin].id)  # the first entry shown: no error before it among the runs read
    assert panel.next_error(-1) is None and window.controller.selected == path[begin].id  # not "none before"
    places = {key: at for at, key in enumerate(whole.entries)}
    before = [entry_of(error) for error in whole.errors if places[entry_of(error)] < begin]
    assert before
    held.release(100)
    qtbot.waitUntil(lambda: window.controller.selected == before[-1], timeout=20_000)
    assert not panel.partial


def test_the_rest_of_a_path_is_not_read_once_another_session_is_open(qtbot, window, held):
    session = load(qtbot, window, LONG)
    path = session.path_entries(session.leaf_id)
    stretch_shown(qtbot, window, held, path)
    first_table = window.trace_facts.table
    demo = load(qtbot, window, DEMO)
    held.release(100)
    trace = traced(qtbot, window, demo.leaf_id)
    assert trace.entries == demo.path_to(demo.leaf_id)
    assert window.trace_facts.wait(20_000)
    assert first_table.missing(path)  # what was asked for the session before stopped with it


def test_winding_down_gives_up_the_facts_reading_and_waits_for_its_thread(qtbot, window, monkeypatch):
    # A thread still reading when the application deletes what it reports to crashed the exit
    # (a screenshot run, one in three): the window gives up that work and waits for it first.
    from pibrowser.model.trace.table import FactsTable

    reading, gave_up = threading.Event(), threading.Event()

    def endless(self, entries, stop=lambda: False, pace=lambda: None):
        reading.set()
        while not stop():  # reads on until told to give up
            gave_up.wait(0.005)
        gave_up.set()
        return False

    monkeypatch.setattr(FactsTable, "ensure", endless)
    load(qtbot, window, DEMO)
    window.trace_dock.raise_()
    qtbot.waitUntil(reading.is_set, timeout=20_000)
    assert not window.trace_facts.wait(0)  # the facts thread is busy
    window.wind_down()
    assert gave_up.is_set() and window.trace_facts.wait(0)
