"""Issue 30's reproduced cases, each a small session with one hostile value, in the real window: each
froze it, crashed it or left a view blank; now each shows, with every tab, and nothing is logged
as an error. (The fuzz test, test_fuzz_window.py, tries the same kinds of value on every fixture.)"""

from __future__ import annotations

import logging
import threading

import pytest

from pibrowser.model import workspace as workspace_module
from pibrowser.model.fold import path_fold
from pibrowser.ui.cards import Action, ActionKind, Line
from pibrowser.ui.context.message_build import BLOCK_PAGE
from pibrowser.ui.timeline.plot import axis_label, axis_ticks
from pibrowser.ui.trace.axis import TICK_ROOM, tick_step, ticks_between

from ..hostile import chain_file, make
from .conftest import load
from .window_checks import Watchdog, errors_logged, settled, show_everything

pytestmark = pytest.mark.usefixtures("isolated_settings")


def opened(qtbot, window, tmp_path, name, caplog):
    """The hostile file `name` (tests/hostile.py) open, every tab shown once."""
    caplog.set_level(logging.ERROR, logger="pibrowser")
    with Watchdog():
        session = load(qtbot, window, make(tmp_path, name))
        show_everything(qtbot, window)
    return session


@pytest.mark.parametrize("name, top", [("usage_1e300", "1e300"), ("usage_infinity", None)])
def test_a_usage_past_what_reads_draws_the_strip(qtbot, window, tmp_path, caplog, name, top):
    # 1e300: the axis stepped through every multiple of a capped step (the window froze); 1e400,
    # Infinity: OverflowError in the strip's paint, then a crash.
    opened(qtbot, window, tmp_path, name, caplog)
    strip = window.timeline
    assert strip.series and not strip.busy
    window.timeline_dock.raise_()
    strip.grab()
    labels = [axis_label(value) for value in axis_ticks(strip.plot_geometry().top / 1.08)]
    assert (labels[-1] if labels else None) == top
    assert errors_logged(caplog) == []


def test_a_thousand_levels_of_arguments_show_to_a_depth_and_say_so(qtbot, window, tmp_path, caplog):
    # RecursionError in the card's clip_strings: a crash under --screenshot, a raise on every paint.
    opened(qtbot, window, tmp_path, "deep_arguments", caplog)
    cards = window.context_panel.list
    call = next(call for row in range(len(cards.rows)) for call in cards.card(row).tool_calls)
    assert "nested deeper: not shown" in call.arguments.plain_text()
    window.controller.select("x")
    window.context_panel.tabs.setCurrentIndex(1)  # the entry's JSON, clipped the same way
    assert "nested deeper: not shown" in window.context_panel.raw.text.toPlainText()
    assert errors_logged(caplog) == []


@pytest.mark.parametrize("name", ["role_object", "role_array"])
def test_a_role_that_is_no_string_is_sent_and_shown_as_pi_does(qtbot, window, tmp_path, caplog, name):
    # TypeError: unhashable in message_tokens: "No session" in the panel, a strip waiting forever.
    opened(qtbot, window, tmp_path, name, caplog)
    cards = window.context_panel.list
    assert [cards.card(row).source_id for row in range(len(cards.rows))] == ["u1", "x", "u2"]
    assert window.context_panel.stats.message_tokens == [2, 0, 2]  # pi's estimate of that message: 0
    assert window.timeline.series and window.timeline.series[0].estimates[-1] == 4
    assert errors_logged(caplog) == []


@pytest.mark.parametrize("name", ["type_object", "type_array"])
def test_an_entry_type_that_is_no_string_is_an_entry_of_its_own_kind(qtbot, window, tmp_path, caplog, name):
    # TypeError in tree_filter: the tree stayed blank, --screenshot took 61 s, `timeline` failed.
    opened(qtbot, window, tmp_path, name, caplog)
    assert len(window.tree.visible) == 3 and "x" in window.tree.visible
    assert [row.id for row in window.controller.workspace.rows("u2")] == ["u1", "x", "u2"]
    assert errors_logged(caplog) == []


def test_a_year_9999_timestamp_gives_the_trace_a_ruler_of_a_few_ticks(qtbot, window, tmp_path, caplog):
    # A tick per day of the span: each repaint of the ruler took 33-43 s.
    opened(qtbot, window, tmp_path, "year_9999", caplog)
    window.trace_dock.raise_()
    qtbot.waitUntil(lambda: settled(window) and window.trace_panel.waterfall.axis is not None, timeout=20_000)
    waterfall = window.trace_panel.waterfall
    waterfall.grab()
    start, end = waterfall.shown_times()
    assert end - start > 2.5e14  # the whole eight thousand years in view
    ticks = list(ticks_between(start, end, tick_step(waterfall.scale)))
    assert 1 <= len(ticks) <= waterfall.bars_width() // TICK_ROOM + 2
    waterfall.zoom(1e6)  # zoomed to the millisecond: the scroll bar still counts the millennia
    waterfall.grab()
    assert errors_logged(caplog) == []


def test_a_message_of_thousands_of_blocks_is_shown_a_page_at_a_time(qtbot, window, tmp_path, caplog):
    # 100,000 blocks: 17.8 s and 2.2 GB, each block a piece of the card; a million: 289 s and 21.5 GB.
    opened(qtbot, window, tmp_path, "blocks_3000", caplog)
    cards = window.context_panel.list
    row = next(row for row in range(len(cards.rows)) if cards.card(row).source_id == "x")
    card = cards.card(row)
    assert len(card.texts) == BLOCK_PAGE
    pagers = [piece for piece in card.pieces() if isinstance(piece, Line) and piece.texts()[0].startswith("Blocks ")]
    assert pagers and pagers[0].texts()[:2] == ["Blocks 1–100 of 3,000", "next ›"]
    next_page = next(part.action for part in pagers[0].parts if part.text == "next ›")
    assert next_page == Action(ActionKind.PAGE, (next_page.value[0], 1))
    cards.act(card, card, next_page)
    card = cards.card(row)
    pager = next(piece for piece in card.pieces() if isinstance(piece, Line) and piece.texts()[0].startswith("Blocks "))
    assert pager.texts()[0] == "Blocks 101–200 of 3,000" and len(card.texts) == BLOCK_PAGE
    assert errors_logged(caplog) == []


def test_a_long_paths_context_and_marks_are_worked_out_in_the_pool(qtbot, window, tmp_path, caplog, monkeypatch):
    # A million-entry chain: the GUI thread stalled 30 s after the load (tree_marks → path_provenance).
    monkeypatch.setattr(workspace_module, "LONG_SESSION", 50)  # a session this long counts as a long one
    on_gui_thread = []
    real = path_fold.path_provenance

    def watched(*args, **kwargs):
        on_gui_thread.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(path_fold, "path_provenance", watched)
    caplog.set_level(logging.ERROR, logger="pibrowser")
    load(qtbot, window, chain_file(tmp_path / "chain.jsonl", 200))
    qtbot.waitUntil(lambda: window.context_panel.context is not None, timeout=20_000)
    assert len(window.context_panel.list.rows) == 200
    assert window.tree.view.marks.provenance(window.controller.session, window.controller.selected)  # the path's parts are drawn
    window.controller.select("0")  # the root: a path of one entry, worked out in the pool all the same
    qtbot.waitUntil(lambda: window.context_panel.key == "0", timeout=20_000)
    assert on_gui_thread and not any(on_gui_thread)
    assert errors_logged(caplog) == []


def test_a_long_paths_header_takes_the_folds_usage_and_a_screenshot_waits_for_the_context(qtbot, window, tmp_path, caplog, monkeypatch):
    # The leaf's answers are worked out first, the fold waiting for them: answered again once the
    # fold is in, the header took no usage ("being summed…" stayed); and a screenshot showed
    # "Working out the context" (it waited for the timeline alone).
    from pibrowser.ui.window.app import _wait_for_answers

    monkeypatch.setattr(workspace_module, "LONG_SESSION", 50)
    caplog.set_level(logging.ERROR, logger="pibrowser")
    load(qtbot, window, chain_file(tmp_path / "chain.jsonl", 300))
    _wait_for_answers(window, 20_000)
    panel = window.context_panel
    assert panel.key == window.controller.selected and len(panel.list.rows) == 300
    assert panel.stats is not None and panel.stats.usage is not None  # the fold's: the usage on the path summed
    assert not window.controller.working_ahead
    assert errors_logged(caplog) == []
