"""View ▸ Usage driven as a user drives it: the menu, the boxes, hovering and clicking bars, opening a session."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication


from ..changes import replaced
from ..test_usage import FIXTURE_FILES, expected_sum, fork_of

pytestmark = pytest.mark.usefixtures("isolated_settings")


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "sessions"
    copies = []
    for path in FIXTURE_FILES:
        target = root / "--p--" / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        copies.append(target)
    fork_of(
        next(path for path in copies if path.name == "generated-s5.jsonl"), root / "--p--" / "zz-fork.jsonl"
    )  # copies only: counted once
    return root, copies


def menu_action(window, menu_title: str, text: str):
    """The action a user picks from a menu of the window's menu bar."""
    menu = next(action.menu() for action in window.menuBar().actions() if action.text().replace("&", "") == menu_title)
    return next(action for action in menu.actions() if action.text().replace("&", "").rstrip("…") == text)


def open_usage(qtbot, window, root):
    with qtbot.waitSignal(window.sessions.scanned, timeout=30000):
        window.sessions.populate(root)
    view = window.usage_dock.widget()
    with qtbot.waitSignal(view.drawn, timeout=60000):
        menu_action(window, "View", "Usage").trigger()
    assert window.usage_dock.isVisible()
    return view


def test_view_usage_shows_the_folders_usage_each_copy_once(qtbot, window, folder):
    root, copies = folder
    view = open_usage(qtbot, window, root)
    expected = expected_sum(copies)
    stacks = view.stacks
    assert sum(row.replies for row in stacks.rows.values()) == expected["replies"]
    assert sum(map(sum, stacks.cost)) == pytest.approx(expected["cost"], rel=1e-9)
    assert sum(map(sum, stacks.tokens)) == expected["input"] + expected["output"] + expected["cacheRead"] + expected["cacheWrite"]
    assert f"{expected['replies']:,} replies" in view.summary.text() and "counted once" in view.summary.text()
    listed = [view.session_list.topLevelItem(row).text(1) for row in range(view.session_list.topLevelItemCount())]
    assert listed[0] == "$30.33" and view.session_list.topLevelItemCount() == len(copies)  # the fork owns nothing
    assert view.project_list.topLevelItem(0).text(0) == "/Users/badlogic/workspaces/pi-mono"


def test_the_boxes_regroup_the_bars(qtbot, window, folder):
    view = open_usage(qtbot, window, folder[0])
    with qtbot.waitSignal(view.drawn, timeout=10000):
        view.series_box.setCurrentIndex(view.series_box.findData("project"))
    assert view.stacks.series_by == "project" and view.stacks.series[0] == "/Users/badlogic/workspaces/pi-mono"
    with qtbot.waitSignal(view.drawn, timeout=10000):
        view.period_box.setCurrentIndex(view.period_box.findData("month"))
    assert view.stacks.periods[0] == "2025-11" and view.stacks.periods[-1] == "2026-11" and len(view.stacks.periods) == 13
    with qtbot.waitSignal(view.drawn, timeout=10000):
        view.measure_box.setCurrentIndex(view.measure_box.findData("tokens"))
    assert view.stacked.unit[1] == "million tokens"
    assert [bars.label() for bars in view.stacked.sets] == [name for name in view.stacks.series]


def hover(widget, where: QPoint) -> None:
    """The mouse moved over `where`, as the window system tells a widget (a window not on screen gets no
    move from a cursor moved by qtbot)."""
    event = QMouseEvent(
        QEvent.Type.MouseMove,
        QPointF(where),
        QPointF(widget.mapToGlobal(where)),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, event)


def largest_bar(view) -> tuple[int, int]:
    stacks = view.stacks
    return max(
        ((series, period) for series in range(len(stacks.series)) for period in range(len(stacks.periods))),
        key=lambda at: stacks.cost[at[0]][at[1]],
    )


def test_hovering_a_bar_reads_out_its_figures_and_a_click_lists_its_sessions_which_open(qtbot, window, folder):
    view = open_usage(qtbot, window, folder[0])
    with qtbot.waitSignal(view.drawn, timeout=10000):
        view.period_box.setCurrentIndex(view.period_box.findData("month"))
    qtbot.waitUntil(lambda: not view._redraw_soon.isActive() and view.stacked.chart().plotArea().height() > 20)
    series, period = largest_bar(view)
    where = view.stacked.bar_center(series, period).toPoint()
    hover(view.stacked.viewport(), where)
    qtbot.waitUntil(lambda: "$30.3302" in view.readout.text())
    assert view.readout.text().startswith("2025-11 · anthropic/claude-sonnet-4-5: $30.3302 · 47,609,906 tokens")
    qtbot.mouseClick(view.stacked.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert view.bar == (series, period) and view.back.isVisible()
    assert view.sessions_title.text() == "Sessions of anthropic/claude-sonnet-4-5, 2025-11"
    assert view.session_list.topLevelItemCount() == 1
    item = view.session_list.topLevelItem(0)
    rect = view.session_list.visualItemRect(item)
    with qtbot.waitSignal(window.controller.changed, check_params_cb=replaced, timeout=30000):
        qtbot.mouseClick(view.session_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.controller.session.path.name == "legacy-v1.jsonl"
    qtbot.mouseClick(view.back, Qt.MouseButton.LeftButton)
    assert view.bar is None and view.session_list.topLevelItemCount() == len(folder[1])


def test_a_folder_without_usage_says_so(qtbot, window, tmp_path):
    (tmp_path / "empty").mkdir()
    view = window.usage_dock.widget()
    window.sessions.populate(tmp_path / "empty")
    with qtbot.waitSignal(view.drawn, timeout=30000, check_params_cb=lambda: view.sessions.usage is not None):
        window.usage_action.trigger()
    assert view.pages.currentWidget() is view.empty and view.empty.text().startswith("No usage recorded in")


def test_the_charts_take_the_themes_colours(qtbot, window, folder):
    view = open_usage(qtbot, window, folder[0])
    for theme in ("dark", "light"):
        with qtbot.waitSignal(view.drawn, timeout=10000):
            window.themes.use(theme)
        base = QApplication.palette().color(view.palette().ColorRole.Base)
        assert view.stacked.chart().backgroundBrush().color() == base
        assert view.hits.chart().backgroundBrush().color() == base


def test_any_figure_a_file_holds_is_drawn_without_a_crash(qtbot, window, tmp_path):
    from ..sessions import message, write

    odd = [
        {"input": 1e308, "output": 1e308, "cacheRead": 1e308, "cacheWrite": 0, "cost": {"total": 1e308}},
        {"input": "many", "output": None, "cost": "free"},
        {"input": True, "output": [1], "cacheRead": {}, "cacheWrite": -5, "cost": {"total": -1}},
        "not a usage",
    ]
    (tmp_path / "sessions").mkdir()
    write(
        tmp_path / "sessions" / "s.jsonl",
        *[message(f"a{n}", None, "assistant", [], second=n, provider="p", model="m" * 500, usage=usage) for n, usage in enumerate(odd)],
    )
    view = open_usage(qtbot, window, tmp_path / "sessions")
    assert view.pages.currentIndex() == 0 and view.stacks.series == ["p/" + "m" * 500]
    for measure in ("tokens", "cost"):
        with qtbot.waitSignal(view.drawn, timeout=10000):
            view.measure_box.setCurrentIndex(view.measure_box.findData(measure))
        view.stacked.grab()  # painted
    assert "4 replies" in view.summary.text()
