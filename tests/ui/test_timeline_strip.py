"""The timeline strip under the tree: pi's estimate along the selected path, hover, click, compare."""

from __future__ import annotations

import pytest
import orjson
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from pibrowser.model import Session, resolve
from pibrowser.model.tokens.context_estimate import projected_context_tokens

from ..conftest import BACKGROUND_MS, DEMO, FIXTURES
from .conftest import load
from ..changes import appended, selected

# The window and throwaway settings come from the ui tests' conftest.
pytestmark = pytest.mark.usefixtures("isolated_settings")


def drawn(qtbot, strip, key):
    """The series drawn once the figures are worked out, with its cursor on `key`."""
    qtbot.waitUntil(lambda: bool(strip.series) and strip.series[0].cursor == strip.series[0].index_of(key) is not None, timeout=20_000)
    return strip.series[0]


def x_of(strip, index):
    return round(strip.plot_geometry().x(index))


def pis_estimates(session: Session, keys: list[str]) -> list[int]:
    return [projected_context_tokens(resolve(session, key)).tokens for key in keys]


def test_strip_draws_the_selections_path_and_moves_its_cursor_along_it(qtbot, window):
    session = load(qtbot, window, DEMO)
    strip = window.timeline
    assert window.timeline_dock.isVisible()
    series = drawn(qtbot, strip, session.leaf_id)
    path = session.path_to(session.leaf_id)
    assert series.keys == path and series.cursor == len(path) - 1
    assert [row.tokens_estimate for row in series.rows()] == pis_estimates(session, path)
    assert series.estimates == [float(value) for value in pis_estimates(session, path)]
    assert [path[i] for i in series.compactions] == [key for key in path if session.entries[key].type == "compaction"]
    assert {path[i] for i in series.labels} == {key for key in path if key in session.labels}
    assert all(len(session.children(path[i])) > 1 for i in series.branch_points) and series.branch_points
    # An entry on the drawn path: the cursor moves there, nothing is drawn anew.
    middle = path[len(path) // 2]
    window.controller.select(middle)
    assert strip.series[0] is series and series.cursor == len(path) // 2
    # An entry off it (another branch): its path is drawn, to the end of its branch.
    other = next(leaf for leaf in session.leaves() if leaf not in path)
    window.controller.select(other)
    series = drawn(qtbot, strip, other)
    assert series.keys == session.path_to(other)
    assert [row.tokens_estimate for row in series.rows()] == pis_estimates(session, series.keys)


def test_at_compactions_the_header_shows_the_strips_figure(qtbot, window):
    session = load(qtbot, window, DEMO)
    compactions = [entry.id for entry in session.file_order if entry.type == "compaction"]
    assert len(compactions) >= 2
    for key in compactions:
        window.controller.select(key)
        series = drawn(qtbot, window.timeline, key)
        row = series.row(series.cursor)
        assert row.compaction and row.id == key
        shown = window.context_panel.header.values["tokens"].text()
        assert shown.startswith(f"≈{row.tokens_estimate:,} (pi's estimate"), shown


def test_hover_reads_out_an_entry_and_click_selects_it(qtbot, window):
    session = load(qtbot, window, FIXTURES / "blog-example.jsonl")
    strip = window.timeline
    series = drawn(qtbot, strip, session.leaf_id)
    assert strip.readout().startswith(f"{len(series)} entries · now {series.row(series.cursor).tokens_estimate:,} at #{len(series)}")
    rows = series.rows()
    index = next(i for i, row in enumerate(rows) if row.input_tokens is not None)
    pos = QPointF(x_of(strip, index), strip.height() / 2)
    none = Qt.MouseButton.NoButton
    move = QMouseEvent(QEvent.Type.MouseMove, pos, strip.mapToGlobal(pos), none, none, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(strip, move)
    qtbot.waitUntil(lambda: strip.hovered == index)
    text = strip.readout()
    assert text.startswith(f"#{index + 1} ") and f"pi's estimate {rows[index].tokens_estimate:,}" in text
    assert f"input {rows[index].input_tokens:,.0f}" in text
    with qtbot.waitSignal(window.controller.changed, check_params_cb=selected):
        qtbot.mouseClick(strip, Qt.MouseButton.LeftButton, pos=QPoint(x_of(strip, index), strip.height() // 2))
    assert window.controller.selected == rows[index].id
    assert strip.series[0] is series and series.cursor == index  # on the path drawn: the cursor moved


def test_compare_mode_draws_two_series(qtbot, window):
    session = load(qtbot, window, DEMO)
    left, right = session.leaves()[0], session.leaves()[-1]
    window.controller.set_compare(left, right)
    strip = window.timeline
    qtbot.waitUntil(lambda: len(strip.series) == 2, timeout=20_000)
    assert [series.leaf for series in strip.series] == [left, right]
    assert "compare:" in strip.readout()
    window.controller.set_compare(None, None)
    qtbot.waitUntil(lambda: len(strip.series) == 1, timeout=BACKGROUND_MS)


def test_hidden_strip_draws_nothing_and_shows_on_toggle(qtbot, window):
    load(qtbot, window, DEMO)
    strip = window.timeline
    drawn(qtbot, strip, window.controller.selected)
    window.timeline_dock.toggleViewAction().trigger()
    assert not window.timeline_dock.isVisible()
    other = window.controller.session.leaves()[0]
    window.controller.select(other)
    assert strip.series == [] and not strip.busy  # nothing kept for a strip nobody sees
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
    assert lines[0] == "id,type,tokens_estimate,input_tokens,compaction" and len(lines) == len(series) + 1
    strip.copy_rows("json")
    assert [row["id"] for row in orjson.loads(QApplication.clipboard().text())] == series.keys


def test_a_label_written_from_the_window_is_marked_on_the_strip(qtbot, window, fixture_copy):
    session = load(qtbot, window, fixture_copy("generated-s4"))
    strip = window.timeline
    series = drawn(qtbot, strip, session.leaf_id)
    target = next(key for key in series.keys[:-1] if key not in session.labels)
    window.controller.select(target)
    assert strip.series[0].cursor == series.keys.index(target)
    marked = len(strip.series[0].labels)
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=20_000):
        window.labels.write(target, "here")
    qtbot.waitUntil(lambda: bool(strip.series) and len(strip.series[0].labels) == marked + 1, timeout=20_000)
    assert target in {strip.series[0].keys[index] for index in strip.series[0].labels}


def test_until_the_figures_are_worked_out_the_strip_says_so(qtbot, window, monkeypatch):
    from pibrowser.model.workspace import Workspace

    real = Workspace.fold
    monkeypatch.setattr(Workspace, "fold", lambda self, session, pace=None: False)  # the fold never finishes
    session = load(qtbot, window, DEMO)
    strip = window.timeline
    qtbot.waitUntil(lambda: not window.controller.working_ahead, timeout=20_000)
    assert strip.busy and strip.series == [] and strip.readout().startswith("Estimating")
    monkeypatch.setattr(Workspace, "fold", real)
    window.controller.reload()
    drawn(qtbot, strip, window.controller.selected)
    assert not strip.busy and window.controller.selected == session.leaf_id


def test_pi_appending_to_the_path_drawn_extends_it_as_built_afresh(qtbot, window, fixture_copy):
    from pibrowser.ui.timeline.series import build_series

    from ..sessions import append, entry, message

    path = fixture_copy("generated-s4")
    session = load(qtbot, window, path)
    strip = window.timeline
    series = drawn(qtbot, strip, session.leaf_id)
    leaf, fork = session.leaf_id, series.keys[len(series) // 2]
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=20_000):
        append(
            path,
            message("y1", fork, "user", "a new branch here", second=900),
            message("x1", leaf, "user", "more", second=901),
            message("x2", "x1", "assistant", [{"type": "text", "text": "ok"}], second=902),
        )
    qtbot.waitUntil(lambda: strip.series and strip.series[0].leaf == "x2", timeout=20_000)
    assert strip.series[0] is series  # taken in, not built again
    fresh = build_series(session, window.controller.workspace.path_fold().along("x2"))
    for name in ("keys", "estimates", "inputs", "compactions", "labels", "branch_points", "cursor"):
        assert getattr(series, name) == getattr(fresh, name), name
    assert series.keys.index(fork) in series.branch_points
    # A label pi appends may name any entry of the path, not only the new ones.
    named = next(key for key in series.keys[:-1] if key not in session.labels)
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=20_000):
        append(
            path,
            entry("label", "l1", "x2", second=903, targetId=named, label="pi's"),
            message("x3", "l1", "user", "and more", second=904),
        )
    qtbot.waitUntil(lambda: strip.series and strip.series[0].leaf == "x3", timeout=20_000)
    assert strip.series[0] is series
    fresh = build_series(session, window.controller.workspace.path_fold().along("x3"))
    for name in ("keys", "estimates", "inputs", "compactions", "labels", "branch_points", "cursor"):
        assert getattr(series, name) == getattr(fresh, name), name
    assert series.keys.index(named) in series.labels


def _series_state(series, width: int) -> tuple:
    drawing = series.drawing(width, len(series))
    return (
        series.keys,
        series.estimates,
        series.inputs,
        series.cursor,
        series.compactions,
        series.labels,
        series.branch_points,
        series.window,
        series.model_name,
        series.peak,
        drawing.per,
        drawing.line.toList(),
        drawing.line_ends,
        drawing.dots,
        drawing.dot_points.toList(),
    )


@pytest.mark.parametrize("name", ["generated-s5", "generated-s3"])
def test_a_path_drawn_after_another_is_read_from_their_fork_as_built_afresh(name):
    # The strip draws one selection's path after another's: the rows and columns the two share are
    # taken over (build_series with `near`). Whatever the pair, the series must equal a fresh one.
    import random

    from pibrowser.model.fold.path_fold import PathFold
    from pibrowser.ui.timeline.series import build_series

    session = Session.load(FIXTURES / f"{name}.jsonl")
    fold = PathFold(session)
    fold.fold_spine()
    rnd = random.Random(name)
    keys = list(session.entries)
    near = build_series(session, fold.along(rnd.choice(keys)))
    taken = 0
    for _ in range(40):
        width = rnd.choice([7, 50, 400])
        near.drawing(width, len(near))
        along = fold.along(rnd.choice(keys))
        series = build_series(session, along, near)
        taken += series.keys[:1] == near.keys[:1] and series.drawn is not None
        assert _series_state(series, width) == _series_state(build_series(session, along), width)
        near = series
    assert taken, "no series took over the one before"
