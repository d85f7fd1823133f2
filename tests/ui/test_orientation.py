"""Knowing where you are: the context in front after a selection, compare in view, keys in view, the
Sessions dock on the open session, Enter on a typed id, ↑ from a hidden entry, actions that cannot apply."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabBar, QToolButton

from pibrowser.model.session.search import find
from pibrowser.model.text.describe import short_label
from pibrowser.model.session.tree_filter import FilterMode
from pibrowser.ui.sessions.sessions_panel import PATH_ROLE
from pibrowser.ui.tree.view_mode import MAP, OUTLINE

from pibrowser.ui.window.main_window import MainWindow

from ..conftest import DEMO, FIXTURES
from ..session_tree import build
from .conftest import load
from ..changes import compared, replaced

S5 = FIXTURES / "generated-s5.jsonl"
pytestmark = pytest.mark.usefixtures("isolated_settings")


def front_tab(window) -> str:
    """The tab in front of the Context / Compare pair."""
    for bar in window.findChildren(QTabBar):
        texts = [bar.tabText(index) for index in range(bar.count())]
        if "Context" in texts and "Compare" in texts:
            return bar.tabText(bar.currentIndex())
    raise AssertionError("the Context and Compare docks are not tabbed together")


def in_view(view, key: str) -> bool:
    """The unit showing `key` is in the view's sight, on the map or in the outline."""
    point = view.mode.position(view.unit_for(key))
    return point is not None and view.mapToScene(view.viewport().rect()).boundingRect().contains(point)


def test_clearing_a_comparison_brings_the_context_forward(qtbot, window):
    load(qtbot, window, S5)
    window.controller.set_compare("931951b9", "ecdfd5fa")
    assert front_tab(window) == "Compare"
    qtbot.mouseClick(window.compare_view.header.clear_button, Qt.MouseButton.LeftButton)
    assert window.controller.compared is None
    assert front_tab(window) == "Context"


def test_selecting_from_anywhere_brings_the_context_forward(qtbot, window):
    load(qtbot, window, S5)
    window.controller.set_compare("931951b9", "ecdfd5fa")
    assert front_tab(window) == "Compare"
    window.controller.set_compare(None, None)
    window.compare_dock.raise_()  # the user looked at the comparison's tab, then selects in the tree
    window.controller.select("ecdfd5fa")
    assert front_tab(window) == "Context"


def test_the_trace_and_files_tabs_stay_in_front_and_follow_a_selection(qtbot, window):
    session = load(qtbot, window, S5)
    for dock, tab in ((window.trace_dock, "Trace"), (window.files_dock, "Files")):
        dock.raise_()  # the user clicks the tab: it shows once the window has laid it out
        qtbot.waitUntil(lambda: window.compare_dock.visibleRegion().isEmpty(), timeout=5000)
        assert front_tab(window) == tab
        for key in ("ecdfd5fa", "931951b9"):
            window.controller.select(key)
            assert front_tab(window) == tab and window.controller.selected == key
    trace = window.trace_panel
    qtbot.waitUntil(lambda: not trace.busy and trace.trace is not None and "931951b9" in trace.trace.nodes, timeout=30_000)
    assert session.leaf_id  # the session is still the one shown


def test_opening_a_hit_brings_the_context_forward(qtbot, window, tmp_path):
    tree = build(tmp_path / "sessions")
    load(qtbot, window, S5)
    window.compare_dock.raise_()
    with qtbot.waitSignal(window.controller.changed, check_params_cb=replaced, timeout=20000):
        window.open_path(tree.parent)  # what a hit of Search All Sessions does, then selects its entry
    window.controller.select("t1")
    assert front_tab(window) == "Context"


def s5_in(qtbot, window, size: tuple[int, int], mode: str):
    """generated-s5 in a window of `size`, its tree shown as `mode`; the tree view."""
    window.resize(*size)
    load(qtbot, window, S5)
    view = window.tree.view
    view.mode.switch(mode)
    return view


@pytest.mark.parametrize("mode", [MAP, OUTLINE])
def test_compare_keeps_a_b_and_the_fork_in_view(qtbot, window, mode):
    view = s5_in(qtbot, window, (1000, 700), mode)
    window.controller.select("931951b9")
    with qtbot.waitSignal(window.controller.changed, check_params_cb=compared):
        window.controller.set_compare("931951b9", "ecdfd5fa")
    fork = view.marks.fork
    assert fork is not None
    for key in ("931951b9", "ecdfd5fa", fork):
        assert in_view(view, key), (mode, key)


@pytest.mark.parametrize("size", [(800, 600), (1000, 700), (1600, 1000)])
def test_a_comparison_made_as_the_window_shows_keeps_the_fork_in_view(qtbot, isolated_settings, size):
    """As `pibrowser s5 --screenshot --compare 331df647 88c67955 --size WxH` does: the pair is compared as
    the window first shows, before its docks are laid out; then a dock is dragged wider. The fork stays in
    sight throughout, until the user moves the view."""
    window = MainWindow(restore_layout=False, interactive=False)
    window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    qtbot.addWidget(window)
    window.resize(*size)
    load(qtbot, window, S5)
    window.show()
    window.controller.set_compare("331df647", "88c67955")
    qtbot.waitExposed(window)
    view = window.tree.view
    assert view.marks.fork == "6d6e9188"
    for key in ("6d6e9188", "331df647", "88c67955"):
        assert in_view(view, key), (size, key)
    window.resizeDocks([window.context_dock], [window.context_dock.width() + 120], Qt.Orientation.Horizontal)
    window.layout().activate()
    for key in ("6d6e9188", "331df647", "88c67955"):
        assert in_view(view, key), ("dock dragged", size, key)
    bar = view.horizontalScrollBar()
    bar.setValue(bar.value() - view.viewport().width())  # the user pans a screen to the left
    sight = view.mapToScene(view.viewport().rect().center())
    window.resizeDocks([window.context_dock], [window.context_dock.width() - 60], Qt.Orientation.Horizontal)
    window.layout().activate()
    moved = (view.mapToScene(view.viewport().rect().center()) - sight).manhattanLength() * view.zoom_factor()
    assert moved <= 2  # where the user put it: not framed again


def must_read(item) -> list[str]:
    """What a node must say wherever it is in sight: the current leaf, its label."""
    return (["current"] if item.current_leaf else []) + ([short_label(item.label)] if item.label else [])


def reads(view, item, text: str) -> bool:
    """`text` reads for `item`: spelled out beside the node at this zoom, or on a flag of its unit
    (whole, or ending in an ellipsis when the flag's room is spent)."""
    if text in item.badges_shown(view.zoom_factor()):
        return True
    return any(
        flag.unit == item.unit and (flag.text == text or (flag.text.endswith("…") and text.startswith(flag.text[:-1])))
        for flag in view.flags.flags
    )


def overlapping(flags) -> list:
    """The pairs of flags drawn one over the other."""
    return [(a.text, b.text) for i, a in enumerate(flags) for b in flags[i + 1 :] if a.rect.intersects(b.rect)]


@pytest.mark.parametrize("size", [(800, 600), (1000, 700), (1600, 1000)])
def test_every_label_reads_at_every_zoom_step_from_fit(qtbot, isolated_settings, size):
    """s5, Ctrl+0 (Fit), then Ctrl++ step by step up to reading size: at every step each label and the
    current leaf in sight reads (at steps 8 and 9 at 1600×1000 they had shrunk to a ring and a tiny flag),
    and no flag is drawn over another."""
    window = MainWindow(restore_layout=False)  # shown for real and active: the keys are shortcuts
    qtbot.addWidget(window)
    window.show()
    qtbot.waitActive(window)
    view = s5_in(qtbot, window, size, MAP)
    window.activateWindow()
    view.setFocus()
    qtbot.waitUntil(lambda: window.isActiveWindow() and view.hasFocus(), timeout=3000)
    qtbot.keyClick(view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    view.viewport().grab()
    assert view.flags.flags and not overlapping(view.flags.flags)  # at Fit s5 is all flags, none over another
    steps = 0
    while view.zoom_factor() < 1.0:
        before = view.zoom_factor()
        qtbot.keyClick(view, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
        assert view.zoom_factor() > before, "Ctrl++ did not zoom in"
        steps += 1
        view.viewport().grab()  # a paint: the flags are placed for what the view now shows
        assert not overlapping(view.flags.flags), steps
        sight = view.mapToScene(view.viewport().rect()).boundingRect()
        marked = [item for item in view.node_items() if must_read(item) and sight.contains(item.pos())]
        for item in marked:
            for text in must_read(item):
                assert reads(view, item, text), (steps, round(view.zoom_factor(), 3), item.key, text)
    assert steps > 8


@pytest.mark.parametrize("mode", [MAP, OUTLINE])
def test_home_end_and_arrows_keep_the_selection_in_view(qtbot, window, mode):
    view = s5_in(qtbot, window, (800, 600), mode)
    view.setFocus()
    for key in (Qt.Key.Key_Home, Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_End, Qt.Key.Key_Up, Qt.Key.Key_Up, Qt.Key.Key_Home):
        qtbot.keyClick(view, key)
        assert in_view(view, window.controller.selected), (mode, key)


def test_the_sessions_dock_follows_the_open_session(qtbot, window, tmp_path):
    tree = build(tmp_path / "sessions")
    with qtbot.waitSignal(window.sessions.scanned, timeout=20000):
        window.sessions.populate(tree.root)
    panel = window.sessions
    panel.select_file(tree.parent)
    load(qtbot, window, tree.parent)
    load(qtbot, window, tree.other)  # opened from elsewhere (File ▸ Open, a hit, the command line)
    current = panel.tree.currentItem()
    assert current is not None and current.data(0, PATH_ROLE) == str(tree.other) and current.font(0).bold()
    load(qtbot, window, S5)  # not in the list: no row stays highlighted
    assert panel.tree.currentItem() is None


def test_enter_on_a_typed_id_selects_that_entry(qtbot, window):
    session = load(qtbot, window, S5)
    pane = window.tree
    # An id that a branch summary (daaa01ec) names in its fromId: the search finds both.
    target = "42f5bcac"
    assert set(find(session, target, list(session.entries))) >= {target, "daaa01ec"}
    for start in (session.leaf_id, "daaa01ec", session.roots[0]):
        window.controller.select(start)
        pane.focus_search()
        pane.search_edit.setText(target)
        qtbot.keyClick(pane.search_edit, Qt.Key.Key_Return)
        assert window.controller.selected == target, start
        pane.clear_search()


@pytest.mark.parametrize("mode", [MAP, OUTLINE])
def test_up_from_a_hidden_selection_goes_to_its_stand_in(qtbot, window, mode):
    session = load(qtbot, window, S5)
    view = window.tree.view
    view.mode.switch(mode)
    assert window.controller.selected == session.leaf_id == "7363d65d"  # a model change: the default filter hides it
    assert window.tree.visible.nearest_visible(session, "7363d65d") == "37904537"
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert window.controller.selected == "37904537"


def test_actions_that_cannot_apply_are_disabled(qtbot, window):
    session = load(qtbot, window, DEMO)
    labelled = next(iter(session.labels))
    unlabelled = next(key for key in session.entries if key not in session.labels)
    window.controller.select(unlabelled)
    assert window.label_action.isEnabled() and not window.clear_label_action.isEnabled()
    window.controller.select(labelled)
    assert window.clear_label_action.isEnabled()


def test_a_fitted_tree_fits_again_after_a_filter_change(qtbot, window):
    load(qtbot, window, S5)
    pane = window.tree
    view = pane.view
    view.fit()
    fitted = view.zoom_factor()
    pane.set_filter(FilterMode.USER_ONLY)
    assert view.zoom.fitted and view.zoom_factor() != pytest.approx(fitted)
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    assert all(seen.contains(item.pos()) for item in view.unit_items)


def test_a_small_first_window_tabs_its_docks_with_the_context(qtbot, isolated_settings, tmp_path, monkeypatch):
    from pibrowser.ui.window.main_window import MainWindow

    build(tmp_path / "agent" / "sessions")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    window = MainWindow(restore_layout=False)
    window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    qtbot.addWidget(window)
    window.resize(800, 600)
    window.show()
    load(qtbot, window, S5)
    window.sessions_dock.show()
    window.search_action.trigger()
    assert window.size().width() == 800  # the docks side by side would need more: they are tabbed instead
    area = window.dockWidgetArea(window.context_dock)
    for dock in (window.sessions_dock, window.timeline_dock, window.search_dock):
        assert window.dockWidgetArea(dock) == area and dock in window.tabifiedDockWidgets(window.context_dock)
    bars = [bar for bar in window.findChildren(QTabBar) if bar.count() > 3]
    assert bars and all(bar.tabToolTip(index) == bar.tabText(index) for bar in bars for index in range(bar.count()))
    # The tree keeps most of the window's height, its bar the search field and Fit, Fold, Unfold.
    pane = window.tree
    assert pane.view.height() > 250 and pane.search_edit.isVisible()
    shown = {
        button.defaultAction()
        for button in pane.top_bar.findChildren(QToolButton)
        if button.isVisible() and button.parent() is pane.top_bar
    }
    actions = pane.view.tree_actions
    assert {actions.fit, actions.fold_all, actions.unfold_all} <= shown
