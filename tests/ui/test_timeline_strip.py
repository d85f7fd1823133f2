"""The timeline strip under the tree: pi's estimate along the selected path, hover, click, compare."""

from __future__ import annotations

import pytest
import orjson
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from pibrowser.model.tokens.timeline import Timeline

from ..conftest import DEMO, FIXTURES
from .conftest import load
from ..changes import appended, selected

# The window and throwaway settings come from the ui tests' conftest.
pytestmark = pytest.mark.usefixtures("isolated_settings")


def drawn(qtbot, strip, leaf):
    qtbot.waitUntil(lambda: bool(strip.series) and strip.series[0].leaf == leaf, timeout=20_000)
    return strip.series[0]


def x_of(strip, index):
    return round(strip.plot_geometry().x(index))


def test_strip_follows_the_selection_with_pis_estimates(qtbot, window):
    session = load(qtbot, window, DEMO)
    strip = window.timeline
    assert window.timeline_dock.isVisible()
    series = drawn(qtbot, strip, session.leaf_id)
    expected = Timeline(session).rows(session.leaf_id)
    assert series.rows == expected
    assert [series.rows[i].id for i in series.compactions] == [row.id for row in expected if row.compaction]
    assert {series.rows[i].id for i in series.labels} == {row.id for row in expected if row.id in session.labels}
    assert all(len(session.children(series.rows[i].id)) > 1 for i in series.branch_points) and series.branch_points
    # An entry on the drawn path: the strip cuts the series short, without a walk.
    middle = series.rows[len(series.rows) // 2].id
    window.controller.select(middle)
    assert strip.series[0].leaf == middle and strip.series[0].rows == expected[: len(series.rows) // 2 + 1]
    # An entry off it (another branch) is walked and drawn too.
    other = next(leaf for leaf in session.leaves() if leaf not in {row.id for row in expected})
    window.controller.select(other)
    assert drawn(qtbot, strip, other).rows == Timeline(session).rows(other)


def test_at_compactions_the_header_shows_the_strips_figure(qtbot, window):
    session = load(qtbot, window, DEMO)
    compactions = [entry.id for entry in session.file_order if entry.type == "compaction"]
    assert len(compactions) >= 2
    for key in compactions:
        window.controller.select(key)
        row = drawn(qtbot, window.timeline, key).rows[-1]
        assert row.compaction
        shown = window.context_panel.header.values["tokens"].text()
        assert shown.startswith(f"≈{row.tokens_estimate:,} (pi's estimate"), shown


def test_hover_reads_out_an_entry_and_click_selects_it(qtbot, window):
    session = load(qtbot, window, FIXTURES / "blog-example.jsonl")
    strip = window.timeline
    series = drawn(qtbot, strip, session.leaf_id)
    assert strip.readout().startswith(f"{len(series.rows)} entries · now {series.rows[-1].tokens_estimate:,}")
    index = next(i for i, row in enumerate(series.rows) if row.input_tokens is not None)
    pos = QPointF(x_of(strip, index), strip.height() / 2)
    none = Qt.MouseButton.NoButton
    move = QMouseEvent(QEvent.Type.MouseMove, pos, strip.mapToGlobal(pos), none, none, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(strip, move)
    qtbot.waitUntil(lambda: strip.hovered == index)
    text = strip.readout()
    assert text.startswith(f"#{index + 1} ") and f"pi's estimate {series.rows[index].tokens_estimate:,}" in text
    assert f"input {series.rows[index].input_tokens:,}" in text
    with qtbot.waitSignal(window.controller.changed, check_params_cb=selected):
        qtbot.mouseClick(strip, Qt.MouseButton.LeftButton, pos=QPoint(x_of(strip, index), strip.height() // 2))
    assert window.controller.selected == series.rows[index].id


def test_compare_mode_draws_two_series(qtbot, window):
    session = load(qtbot, window, DEMO)
    left, right = session.leaves()[0], session.leaves()[-1]
    window.controller.set_compare(left, right)
    strip = window.timeline
    qtbot.waitUntil(lambda: len(strip.series) == 2, timeout=20_000)
    assert [series.leaf for series in strip.series] == [left, right]
    assert "compare:" in strip.readout()
    window.controller.set_compare(None, None)
    qtbot.waitUntil(lambda: len(strip.series) == 1)


def test_hidden_strip_computes_nothing_and_shows_on_toggle(qtbot, window):
    load(qtbot, window, DEMO)
    strip = window.timeline
    drawn(qtbot, strip, window.controller.selected)
    window.timeline_dock.toggleViewAction().trigger()
    assert not window.timeline_dock.isVisible()
    other = window.controller.session.leaves()[0]
    window.controller.select(other)
    assert strip.series == [] and not strip.busy  # nothing walked for a strip nobody sees
    window.timeline_dock.toggleViewAction().trigger()
    drawn(qtbot, strip, other)


def test_context_window_line_from_the_users_models_file(qtbot, window, tmp_path, monkeypatch):
    agent = tmp_path / "agent"
    agent.mkdir(exist_ok=True)
    (agent / "models.json").write_bytes(
        orjson.dumps({"providers": {"anthropic": {"modelOverrides": {"claude-sonnet-4-5": {"contextWindow": 200000}}}}})
    )
    session = load(qtbot, window, DEMO)
    series = drawn(qtbot, window.timeline, session.leaf_id)
    assert series.window == 200_000 and series.model_name == "anthropic/claude-sonnet-4-5"
    assert "window 200,000 (anthropic/claude-sonnet-4-5)" in window.timeline.readout()


def test_copy_the_paths_figures_as_the_cli_prints_them(qtbot, window):
    session = load(qtbot, window, FIXTURES / "blog-example.jsonl")
    strip = window.timeline
    series = drawn(qtbot, strip, session.leaf_id)
    strip.copy_rows("csv")
    lines = QApplication.clipboard().text().splitlines()
    assert lines[0] == "id,type,tokens_estimate,input_tokens,compaction" and len(lines) == len(series.rows) + 1
    strip.copy_rows("json")
    assert [row["id"] for row in orjson.loads(QApplication.clipboard().text())] == [row.id for row in series.rows]


def test_a_label_written_from_the_window_is_marked_on_the_strip(qtbot, window, fixture_copy):
    session = load(qtbot, window, fixture_copy("generated-s4"))
    strip = window.timeline
    series = drawn(qtbot, strip, session.leaf_id)
    target = next(row.id for row in series.rows[:-1] if row.id not in session.labels)
    window.controller.select(target)
    assert strip.series[0].leaf == target
    marked = len(strip.series[0].labels)
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=20_000):
        window.labels.write(target, "here")
    qtbot.waitUntil(lambda: bool(strip.series) and len(strip.series[0].labels) == marked + 1, timeout=20_000)
    assert strip.series[0].rows[strip.series[0].labels[-1]].id == target


def test_a_walk_overtaken_by_the_selection_settles(qtbot, window):
    session = load(qtbot, window, DEMO)
    strip = window.timeline
    drawn(qtbot, strip, session.leaf_id)
    leaves = [leaf for leaf in session.leaves() if leaf != session.leaf_id]
    window.controller.select(leaves[0])  # a path not drawn: a walk is due…
    assert strip.walking
    window.timeline_dock.toggleViewAction().trigger()  # …but the strip is hidden before it starts
    assert not strip.walking and not strip.busy and strip.series == []  # nothing is due: nothing will start
    window.timeline_dock.toggleViewAction().trigger()
    assert drawn(qtbot, strip, leaves[0]).rows == Timeline(session).rows(leaves[0])
    qtbot.waitUntil(lambda: not strip.busy and not strip.walking)
