"""The tree pane driven like a user: clicks, keys, the filter combo, search, folds, zoom, reloads."""

from __future__ import annotations

import random

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QContextMenuEvent, QImage, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QStyleOptionGraphicsItem

from pibrowser.model import Part, Session
from pibrowser.model.session.search import find
from pibrowser.model.session.tree_filter import FilterMode, visible_tree
from pibrowser.ui.control.controller import SessionController
from pibrowser.ui.tree import path_marks
from pibrowser.ui.tree import TreePane
from pibrowser.ui.tree.anchor import pin
from pibrowser.ui.tree.shown_tree import pinned
from pibrowser.ui.tree.fold_item import FoldItem
from pibrowser.ui.tree.layout import EXPAND_PAGE, WIDE_HEAD, WIDE_TAIL, build_layout
from pibrowser.ui.tree.node_item import NodeItem
from pibrowser.ui.tree.view_mode import MAP, OUTLINE
from pibrowser.ui.labels.label_editor import LabelEditor

from ..conftest import DEMO, FIXTURES, shown
from ..sessions import append, chain, linked, long_session, message, write
from ..changes import appended, compared, replaced


@pytest.fixture
def open_pane(qtbot):
    def make(path: Path, size=(1000, 700)) -> tuple[SessionController, TreePane]:
        controller = SessionController()
        pane = TreePane(controller)
        controller.setParent(pane)  # the widget owns it: freed with it on the GUI thread, never by the cycle collector on a loader's thread
        shown(qtbot, pane, *size)
        with qtbot.waitSignal(controller.changed, check_params_cb=replaced, timeout=20000):
            controller.open(path)
        return controller, pane

    return make


def viewport_pos(view, item) -> QPoint:
    view.centerOn(item.pos())
    return view.mapFromScene(item.pos())


def click(qtbot, view, item, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, viewport_pos(view, item))


def node(view, key: str) -> NodeItem:
    item = view.item_for(key)
    assert isinstance(item, NodeItem), f"{key} is not shown as its own node"
    return item


def selected_items(view) -> list[NodeItem]:
    return [item for item in view.node_items() if item.selected]


def in_viewport(view, item) -> bool:
    return view.viewport().rect().contains(view.mapFromScene(item.pos()))


# ---- loading and clicking -----------------------------------------------------------------------


def test_opening_marks_the_current_leaf_selected_and_in_view(open_pane):
    controller, pane = open_pane(DEMO)
    view = pane.view
    leaf = controller.session.leaf_id
    assert controller.selected == leaf
    item = node(view, leaf)
    assert item.selected and item.current_leaf and item.leaf
    assert [i.key for i in selected_items(view)] == [leaf]
    assert in_viewport(view, item)
    assert sum(1 for i in view.node_items() if i.current_leaf) == 1
    assert "72 of 104 shown" in pane.info_label.text()


def test_clicking_a_node_selects_it_and_highlights_its_path(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    view = pane.view
    session = controller.session
    target = next(i for i in view.node_items() if i.key != controller.selected and session.parent(i.key) and not i.on_path)
    click(qtbot, view, target)
    assert controller.selected == target.key
    assert target.selected and [i.key for i in selected_items(view)] == [target.key]
    path = set(session.path_to(target.key))
    marked = {i.key for i in view.node_items() if i.on_path}
    assert marked == {i.key for i in view.node_items() if i.key in path}
    assert marked, "the path is highlighted"
    old_leaf = node(view, session.leaf_id)
    assert not old_leaf.selected and not old_leaf.on_path or session.leaf_id in path


def test_a_click_on_empty_space_changes_nothing(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    view = pane.view
    before = controller.selected
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(view.viewport().width() - 5, 5))
    assert controller.selected == before


def test_ctrl_click_compares_the_selection_with_another_node(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    view = pane.view
    selected = controller.selected
    other = next(i for i in view.node_items() if i.key != selected)
    with qtbot.waitSignal(controller.changed, check_params_cb=compared):
        click(qtbot, view, other, Qt.KeyboardModifier.ControlModifier)
    assert controller.compared == (selected, other.key)
    assert controller.selected == selected
    assert node(view, selected).compare == "A" and node(view, other.key).compare == "B"


def test_compare_mode_draws_both_paths_their_trunk_and_the_fork(open_pane, qtbot):
    controller, pane = open_pane(FIXTURES / "generated-s5.jsonl", size=(1000, 700))
    view = pane.view
    session = controller.session
    controller.select("10e36670")
    with qtbot.waitSignal(controller.changed, check_params_cb=compared):
        controller.set_compare("10e36670", "d1f74e9a")
    fork = "1686bca6"
    trunk, a, b = session.path_to(fork), session.path_to("10e36670"), session.path_to("d1f74e9a")
    # Every entry of both paths that the filter shows as its own node (it hides settings entries).
    shown = {key: item for key in {*a, *b} if isinstance(item := view.item_for(key), NodeItem) and item.key == key}
    assert len(shown) > 20
    for key, item in shown.items():
        expected = "trunk" if key in trunk else "A" if key in a else "B"
        assert item.compare_path == expected, key
    assert node(view, fork).fork and not node(view, "10e36670").fork
    assert node(view, "10e36670").compare == "A" and node(view, "d1f74e9a").compare == "B"
    # The A/B and fork badges take the text's place beside the node: they never cover other text.
    badges = [text for text, *_ in node(view, "d1f74e9a")._plan()[0]]
    assert badges[0] == "B"
    # A solid, B dashed, the trunk wide: three pens, told apart without colour, and thick enough
    # to see on screen at the zoom that shows A, B and the fork together.
    pens = {(item.pen().style(), round(item.pen().widthF() * view.zoom_factor())) for item in view.path_items}
    assert {style for style, _ in pens} == {Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine} and len(pens) == 3
    assert min(width for _, width in pens) >= 3
    trunk = max(pens, key=lambda pen: pen[1])
    assert trunk[0] == Qt.PenStyle.SolidLine and trunk[1] >= 2 * min(width for _, width in pens)
    # The legend explains compare mode, not the compaction colours.
    legend = view.legend
    assert legend.isVisible() and legend.title.text() == "Comparing"
    assert legend.compare_rows["fork"][1].text() == "fork point 1686bca6 (double ring)"
    assert not any(swatch.isVisible() for swatch in legend.swatches.values())
    # The fork point and both ends are scrolled into sight.
    assert all(in_viewport(view, node(view, key)) for key in (fork, "10e36670", "d1f74e9a"))
    # Clearing brings the selected path and its legend back.
    controller.set_compare(None, None)
    assert all(item.compare_path is None for item in shown.values())
    assert not node(view, fork).fork and node(view, "d1f74e9a").compare is None
    assert legend.title.text() == "Selected path"
    assert node(view, "10e36670").on_path


def test_compare_across_separate_roots_has_no_trunk(open_pane, qtbot, tmp_path, isolated_settings):
    path = write(
        tmp_path / "roots.jsonl",
        message("r1", None, "user", "Fix the parser", second=0),
        message("a1", "r1", "assistant", [{"type": "text", "text": "tabs"}], second=1),
        message("r2", None, "user", "Fix the parser", second=60),
        message("a2", "r2", "assistant", [{"type": "text", "text": "spaces"}], second=61),
    )
    controller, pane = open_pane(path)
    controller.set_compare("a1", "a2")
    view = pane.view
    view.legend.toggle.setChecked(True)  # the legend starts folded
    assert [node(view, key).compare_path for key in ("r1", "a1", "r2", "a2")] == ["A", "A", "B", "B"]
    assert not any(item.fork for item in view.node_items())
    assert not view.legend.compare_rows["trunk"][0].isVisible() and view.legend.compare_rows["B"][0].isVisible()


def _drag(view, start: QPoint, end: QPoint) -> None:
    viewport = view.viewport()
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    for kind, pos, button, buttons in (
        (QEvent.Type.MouseButtonPress, start, left, left),
        (QEvent.Type.MouseMove, (start + end) / 2, none, left),
        (QEvent.Type.MouseMove, end, none, left),
        (QEvent.Type.MouseButtonRelease, end, left, none),
    ):
        event = QMouseEvent(kind, QPointF(pos), QPointF(viewport.mapToGlobal(pos)), button, buttons, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(viewport, event)


def test_dragging_pans_and_does_not_select(open_pane):
    controller, pane = open_pane(FIXTURES / "generated-s5.jsonl")
    view = pane.view
    before = controller.selected
    other = next(i for i in view.node_items() if i.key != before)
    start = viewport_pos(view, other)
    bars = view.horizontalScrollBar().value(), view.verticalScrollBar().value()
    _drag(view, start, start + QPoint(-120, -90))
    assert (view.horizontalScrollBar().value(), view.verticalScrollBar().value()) != bars
    assert controller.selected == before


# ---- keyboard --------------------------------------------------------------------------------


def test_arrow_keys_home_and_end_walk_the_tree(open_pane, qtbot):
    controller, pane = open_pane(FIXTURES / "generated-s3.jsonl")
    pane.set_filter(FilterMode.EVERY_ENTRY)  # then the displayed tree is the session's own
    view = pane.view
    session = controller.session
    branch = next(k for k in session.entries if len(session.children(k)) >= 2 and session.parent(k))
    first, second = session.children(branch)[:2]
    controller.select(second)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert controller.selected == first
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert controller.selected == second
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert controller.selected == branch
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert controller.selected == first
    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert controller.selected == session.path_to(branch)[0]
    qtbot.keyClick(view, Qt.Key.Key_Up)  # at a root: stays
    assert controller.selected == session.path_to(branch)[0]
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert controller.selected == session.leaf_id
    assert node(view, controller.selected).selected


def test_keys_skip_entries_the_filter_hides(open_pane, qtbot):
    controller, pane = open_pane(FIXTURES / "generated-s4.jsonl")
    view = pane.view
    session = controller.session
    tree = visible_tree(session, FilterMode.DEFAULT)
    key = next(k for k in tree.order if tree.parent[k] is not None and tree.parent[k] != session.parent(k))
    controller.select(key)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert controller.selected == tree.parent[key] != session.parent(key)


def drawn_entries(view) -> list[str]:
    """The entries the tree draws, in the order it draws them: the map's units, or the outline's rows
    top to bottom (a fold's members in its place)."""
    lay = view.tree_layout
    units = (view.outline.rows.rows.keys if view.outline.rows is not None else []) if view.outline.shown() else range(len(view.unit_items))
    return [key for unit in units for key in lay.members(unit)]


CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
# pi's /tree filter keys, pressed one after the other from the default filter, and the filter each leaves.
PI_FILTER_PRESSES = [
    (Qt.Key.Key_T, CTRL, FilterMode.NO_TOOLS),
    (Qt.Key.Key_T, CTRL, FilterMode.DEFAULT),  # each of these four toggles its mode with default
    (Qt.Key.Key_U, CTRL, FilterMode.USER_ONLY),
    (Qt.Key.Key_L, CTRL, FilterMode.LABELED_ONLY),  # from another mode, straight to its own
    (Qt.Key.Key_L, CTRL, FilterMode.DEFAULT),
    (Qt.Key.Key_A, CTRL, FilterMode.ALL),
    (Qt.Key.Key_D, CTRL, FilterMode.DEFAULT),
    (Qt.Key.Key_O, CTRL, FilterMode.NO_TOOLS),  # Ctrl+O cycles forward, round to default
    (Qt.Key.Key_O, CTRL, FilterMode.USER_ONLY),
    (Qt.Key.Key_O, CTRL, FilterMode.LABELED_ONLY),
    (Qt.Key.Key_O, CTRL, FilterMode.ALL),
    (Qt.Key.Key_O, CTRL, FilterMode.DEFAULT),
    (Qt.Key.Key_O, CTRL | SHIFT, FilterMode.ALL),  # Shift+Ctrl+O backward
    (Qt.Key.Key_O, CTRL | SHIFT, FilterMode.LABELED_ONLY),
    (Qt.Key.Key_A, CTRL, FilterMode.ALL),
    (Qt.Key.Key_A, CTRL, FilterMode.DEFAULT),
]


@pytest.mark.parametrize("shape", [MAP, OUTLINE])
def test_pis_filter_keys_change_the_filter_the_combo_and_the_rows(open_pane, qtbot, shape):
    controller, pane = open_pane(DEMO)
    view = pane.view
    view.mode.switch(shape)
    view.unfold_all()  # then every visible entry is drawn on its own
    view.setFocus()
    drawn = {mode: None for mode in FilterMode}
    for key, modifiers, mode in PI_FILTER_PRESSES:
        qtbot.keyClick(view, key, modifiers)
        view.unfold_all()
        assert pane.mode is mode and pane.filter_combo.currentText() == mode.title, (key, modifiers, mode)
        assert view.outline.shown() == (shape == OUTLINE) and view.hasFocus()
        drawn[mode] = drawn_entries(view)
        assert sorted(drawn[mode]) == sorted(visible_tree(controller.session, mode).order), mode
    assert len({len(rows) for rows in drawn.values() if rows is not None}) == 5  # five filters, five different trees
    # The raw view is no mode of pi's: forward from it comes round to default, backward to all.
    pane.set_filter(FilterMode.EVERY_ENTRY)
    qtbot.keyClick(view, Qt.Key.Key_O, CTRL)
    assert pane.mode is FilterMode.DEFAULT and pane.filter_combo.currentText() == FilterMode.DEFAULT.title
    pane.set_filter(FilterMode.EVERY_ENTRY)
    qtbot.keyClick(view, Qt.Key.Key_O, CTRL | SHIFT)
    assert pane.mode is FilterMode.ALL
    # Only while the tree has focus: typed in the search field, they are the field's.
    pane.search_edit.setFocus()
    qtbot.keyClick(pane.search_edit, Qt.Key.Key_T, CTRL)
    qtbot.keyClick(pane.search_edit, Qt.Key.Key_O, CTRL)
    assert pane.mode is FilterMode.ALL


def test_pis_filter_keys_without_a_session_do_nothing(qtbot):
    controller = SessionController()
    pane = TreePane(controller)
    controller.setParent(pane)
    shown(qtbot, pane, 600, 400)
    pane.view.setFocus()
    qtbot.keyClick(pane.view, Qt.Key.Key_O, CTRL)
    assert pane.mode is FilterMode.DEFAULT and pane.view.visible is None


def test_ctrl_arrows_go_up_and_down_the_branches_on_the_map(open_pane, qtbot):
    controller, pane = open_pane(FIXTURES / "generated-s3.jsonl")
    view = pane.view
    visible = pane.visible

    def chain_end(key: str) -> str:
        while len(visible.kids(key)) == 1:
            key = visible.kids(key)[0]
        return key

    # A branch point whose first branch leads, down its first children, to another branch point.
    first = next(
        k
        for k in visible.order
        if visible.parent[k] is not None
        and visible.kids(visible.parent[k])[0] == k
        and len(visible.kids(visible.parent[k])) > 1
        and len(visible.kids(chain_end(k))) > 1
    )
    branch_point = visible.parent[first]
    further = visible.kids(chain_end(first))[0]
    controller.select(branch_point)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Right, CTRL)  # down to the first child of the next branch point
    assert controller.selected == first
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert controller.selected == further
    assert not view.can_fold(further)  # else Ctrl+← would fold its run first
    qtbot.keyClick(view, Qt.Key.Key_Left, CTRL)  # up to where its branch starts
    assert controller.selected == first
    # At the end of a chain Ctrl+→ stays; from a root's chain Ctrl+← goes to the root.
    leaf = next(k for k in visible.order if not visible.kids(k))
    controller.select(leaf)
    qtbot.keyClick(view, Qt.Key.Key_Right, CTRL)
    assert controller.selected == leaf
    root = visible.roots[0]
    controller.select(visible.kids(root)[0])
    assert len(visible.kids(root)) == 1 and not view.can_fold(controller.selected)
    qtbot.keyClick(view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert controller.selected == root


# ---- filter ------------------------------------------------------------------------------------


def test_the_filter_combo_changes_what_the_tree_shows(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    view = pane.view
    combo = pane.filter_combo
    combo.setCurrentIndex(combo.findData(FilterMode.USER_ONLY))
    kinds = {(i.entry.type, i.entry.role) for i in view.node_items()}
    assert kinds == {("message", "user")}
    shown = {key for unit in range(len(view.tree_layout)) for key in view.tree_layout.members(unit)}
    assert shown == set(visible_tree(controller.session, FilterMode.USER_ONLY).order)
    assert "13 of 104 shown" in pane.info_label.text()
    combo.setCurrentIndex(combo.findData(FilterMode.EVERY_ENTRY))
    assert len({key for unit in range(len(view.tree_layout)) for key in view.tree_layout.members(unit)}) == 104
    combo.setCurrentIndex(combo.findData(FilterMode.LABELED_ONLY))
    assert {i.key for i in view.node_items()} == set(controller.session.labels)
    assert all(i.label for i in view.node_items())


def test_a_selection_the_filter_hides_is_shown_on_its_nearest_visible_ancestor(open_pane):
    controller, pane = open_pane(DEMO)
    view = pane.view
    session = controller.session
    label_entry = next(k for k, e in session.entries.items() if e.type == "label")
    controller.select(label_entry)
    shown = visible_tree(session).nearest_visible(session, label_entry)
    item = node(view, shown)
    assert item.proxy and not item.selected
    assert selected_items(view) == []


# ---- search --------------------------------------------------------------------------------------


def test_search_highlights_every_hit_and_steps_through_them(open_pane, qtbot):
    controller, pane = open_pane(FIXTURES / "generated-s3.jsonl")
    view = pane.view
    qtbot.keyClicks(pane.search_edit, "parser")
    qtbot.waitUntil(lambda: pane.hit_label.text().endswith("hits"), timeout=5000)
    expected = list(find(controller.session, "parser", visible_tree(controller.session).order))
    assert pane.hits == expected and len(expected) > 3
    assert pane.hit_label.text() == f"{len(expected)} hits"
    for key in expected:
        item = view.item_for(key)
        assert item.hit if isinstance(item, NodeItem) else item.hits > 0
    assert not any(i.hit for i in view.node_items() if i.key not in expected)
    qtbot.keyClick(pane.search_edit, Qt.Key.Key_Return)
    first = controller.selected
    assert first in expected
    index = expected.index(first)
    assert pane.hit_label.text() == f"{index + 1} of {len(expected)}"
    assert node(view, first).current_hit
    qtbot.keyClick(pane.search_edit, Qt.Key.Key_F3)
    assert controller.selected == expected[(index + 1) % len(expected)]
    assert pane.hit_label.text() == f"{(index + 1) % len(expected) + 1} of {len(expected)}"
    qtbot.keyClick(pane.search_edit, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(pane.search_edit, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert controller.selected == expected[(index - 1) % len(expected)]
    qtbot.keyClick(pane.search_edit, Qt.Key.Key_Escape)
    assert pane.search_edit.text() == "" and pane.hits == [] and not any(i.hit for i in view.node_items())


def test_search_finds_ids_and_labels(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    label_target, label = next(iter(controller.session.labels.items()))
    pane.search_edit.setText(label)
    pane.search_now()
    assert label_target in pane.hits
    some_id = next(i.key for i in pane.view.node_items() if i.key != controller.selected)
    pane.search_edit.setText(some_id)
    pane.next_hit()
    assert pane.hits == [some_id] and controller.selected == some_id and pane.hit_label.text() == "1 of 1"
    pane.search_edit.setText("no such text anywhere")
    pane.search_now()
    assert pane.hits == [] and pane.hit_label.text() == "no hits"


def test_search_counts_hits_the_filter_hides_and_reveals_them_on_click(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    session = controller.session
    pane.set_filter(FilterMode.USER_ONLY)
    shown = visible_tree(session, FilterMode.USER_ONLY)
    # Text that only assistant turns carry: "user only" hides every entry holding it.
    query = "Successfully replaced"
    everywhere = list(find(session, query, list(session.entries)))
    assert everywhere and not any(key in shown for key in everywhere)
    qtbot.keyClicks(pane.search_edit, query)
    qtbot.waitUntil(lambda: pane.hit_label.text() == "none shown", timeout=5000)
    assert pane.hits == [] and sorted(pane.hidden_hits) == sorted(everywhere)
    assert pane.reveal_action.isVisible() and pane.reveal_button.text() == f"+{len(everywhere)} hidden"
    assert "'User only' filter hides" in pane.reveal_button.toolTip()
    qtbot.mouseClick(pane.reveal_button, Qt.MouseButton.LeftButton)
    assert pane.mode is FilterMode.EVERY_ENTRY and pane.filter_combo.currentData() == FilterMode.EVERY_ENTRY
    assert sorted(pane.hits) == sorted(everywhere) and pane.hidden_hits == []
    assert not pane.reveal_action.isVisible()
    assert controller.selected in everywhere and node(pane.view, controller.selected).current_hit
    assert pane.hit_label.text() == f"{pane.hits.index(controller.selected) + 1} of {len(everywhere)}"
    # Clearing the search forgets the hidden hits too.
    qtbot.keyClick(pane.search_edit, Qt.Key.Key_Escape)
    assert pane.hidden_hits == [] and not pane.reveal_action.isVisible()


def test_search_in_default_mode_reports_hidden_bookkeeping_hits(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    session = controller.session
    hidden = [key for key in session.entries if key not in pane.visible]
    some = next(key for key in hidden if session.entries[key].type == "model_change")
    pane.search_edit.setText(some)  # its id: only that entry matches
    pane.search_now()
    assert pane.hits == [] and pane.hidden_hits == [some] and pane.reveal_button.text() == "+1 hidden"
    assert pane.hit_label.text() == "none shown"


def test_stepping_to_a_hit_inside_a_fold_unfolds_around_it(open_pane, qtbot):
    controller, pane = open_pane(FIXTURES / "legacy-v1.jsonl")
    view = pane.view
    folds = view.fold_items()
    assert folds, "a 1000-entry chain is folded"
    member = folds[0].members[len(folds[0].members) // 2]
    pane.search_edit.setText(member)  # its id
    pane.search_now()
    assert pane.hits == [member]
    assert view.item_for(member).hits == 1  # the fold says it holds a hit
    qtbot.keyClick(pane.search_edit, Qt.Key.Key_Return)
    item = node(view, member)
    assert item.selected and item.current_hit and in_viewport(view, item)
    assert len(view.fold_items()) == 2  # the rest of the run folded on either side


# ---- folds ---------------------------------------------------------------------------------------


def test_clicking_a_fold_expands_it_and_it_folds_again(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    view = pane.view
    fold = next(f for f in view.fold_items() if not f.contains_selection)
    members, count_text = list(fold.members), fold.count_text()
    assert count_text == f"{len(members)} entries"
    before = len(view.fold_items())
    click(qtbot, view, fold)
    assert all(isinstance(view.item_for(key), NodeItem) for key in members)
    assert len(view.fold_items()) == before - 1
    assert controller.selected != members[0]  # a fold is not an entry: nothing selected
    view.fold_run(members[3])
    again = view.item_for(members[0])
    assert isinstance(again, FoldItem) and again.members == members and again.count_text() == count_text


def test_fold_all_and_unfold_all(open_pane):
    controller, pane = open_pane(FIXTURES / "legacy-v1.jsonl")
    view = pane.view
    view.tree_actions.unfold_all.trigger()
    assert view.fold_items() == []
    assert len(view.node_items()) == len(visible_tree(controller.session).order)
    view.tree_actions.fold_all.trigger()
    assert view.fold_items()
    assert node(view, controller.selected).selected  # the selection stays in sight
    assert len(view.node_items()) < 40


def test_unfolding_a_great_many_asks_without_a_modal_loop(open_pane, qtbot, monkeypatch):
    monkeypatch.setattr("pibrowser.ui.tree.unfolding.CONFIRM_UNFOLD", 10)  # where the view asks
    controller, pane = open_pane(FIXTURES / "legacy-v1.jsonl")
    view = pane.view
    view.tree_actions.unfold_all.trigger()  # returns at once: the question waits for its answer, nothing waits for it
    assert view.unfold_question.isVisible() and view.fold_items()
    qtbot.mouseClick(view.unfold_question.button(QMessageBox.StandardButton.Yes), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.fold_items() == [], timeout=5000)


def test_selecting_an_entry_inside_a_fold_unfolds_it_and_scrolls_to_it(open_pane):
    controller, pane = open_pane(FIXTURES / "legacy-v1.jsonl")
    view = pane.view
    fold = view.fold_items()[0]
    member = fold.members[len(fold.members) // 3]
    controller.select(member)
    item = node(view, member)
    assert item.selected and in_viewport(view, item)
    assert view.fold_of_selection() is None


def test_selections_inside_folds_splice_the_items_as_a_fresh_build_makes_them(open_pane, tmp_path):
    # A selection that unfolds one run makes the items of that run only (build.splice_items); the
    # rest are the same items moved. After each, the items must be what a fresh build would make:
    # one per unit in order, of its kind, numbered, placed, and the path marked on them.
    import random

    from pibrowser.ui.tree.build import MARGIN
    from pibrowser.ui.tree.gap_item import GapItem
    from pibrowser.ui.tree.style import ROW_HEIGHT

    controller, pane = open_pane(long_session(tmp_path / "long.jsonl", 1500))
    view = pane.view
    rnd = random.Random(31)
    folded = [key for fold in view.fold_items() for key in fold.members]
    spliced = 0
    for key in rnd.sample(folded, 6):
        before = list(view.unit_items)
        controller.select(key)
        lay, items = view.tree_layout, view.unit_items
        spliced += lay.spliced is not None and len(set(map(id, before)) & set(map(id, items))) > len(items) // 2
        assert [item.unit for item in items] == list(range(len(lay)))
        assert [item.unit_key for item in items] == [lay.unit_key(unit) for unit in range(len(lay))]
        for unit, item in enumerate(items):
            kind = GapItem if unit in lay.gaps else FoldItem if unit in lay.folds else NodeItem
            assert type(item) is kind and item.scene() is view.scene()
            assert (item.pos().x(), item.pos().y()) == (
                MARGIN + lay.col[unit] * view.map_items.col_width,
                MARGIN + lay.row[unit] * ROW_HEIGHT,
            )
            assert not isinstance(item, FoldItem) or item.members == lay.folds[unit]
        assert node(view, key).selected and view.fold_of_selection() is None
        assert {item.unit for item in items if item.on_path} == set(lay.path_units(lay.unit_of[key]))
    assert spliced, "no selection spliced the items"


def test_a_fold_on_the_selected_path_shows_the_parts_of_its_members(open_pane):
    controller, pane = open_pane(DEMO)
    view = pane.view
    on_path = [f for f in view.fold_items() if f.on_path]
    assert on_path
    provenance = controller.provenance(controller.selected)
    for fold in on_path:
        assert sum(n for _, n in fold.path_parts) == sum(1 for key in fold.members if key in provenance)


# ---- provenance colours ----------------------------------------------------------------------------


def test_the_path_is_coloured_by_each_entrys_part_in_the_context(open_pane):
    controller, pane = open_pane(DEMO)
    view = pane.view
    view.legend.toggle.setChecked(True)  # folded, its rows are worked out when it opens
    provenance = controller.provenance(controller.selected)
    path_nodes = [i for i in view.node_items() if i.on_path]
    assert path_nodes
    for item in path_nodes:
        assert item.provenance == provenance[item.key]
    parts = {i.provenance.part for i in path_nodes}
    assert {Part.SUMMARIZED, Part.KEPT, Part.CHECKPOINT, Part.AFTER_COMPACTION} <= parts
    style = view.style_info
    summarized = next(i for i in path_nodes if i.provenance.part is Part.SUMMARIZED)
    kept = next(i for i in path_nodes if i.provenance.part is Part.KEPT)
    assert style.path_color(summarized.provenance) == style.part_color[Part.SUMMARIZED] != style.path_color(kept.provenance)
    pens = {item.pen().color().name() for item in view.path_items}
    assert style.part_color[Part.KEPT].name() in pens and style.part_color[Part.AFTER_COMPACTION].name() in pens
    edited = [i for i in path_nodes if i.provenance.edit is not None]
    assert edited, "the demo's context edit shows on the path"
    # the legend lists the colours in use, and only those
    shown = {role for role, swatch in view.legend.swatches.items() if not swatch.isHidden()}
    assert Part.SUMMARIZED in shown and Part.KEPT in shown and Part.SUPERSEDED not in shown
    assert view.legend.isVisible()
    view.tree_actions.legend.trigger()
    assert not view.legend.isVisible()


def test_a_folded_legend_works_out_the_paths_colours_when_it_opens(open_pane, monkeypatch, isolated_settings):
    # Work the user cannot see is not done in a selection's frame: folded, the legend's rows of the
    # selected path's colours are hidden, and worked out (for the selection then) once it opens.
    controller, pane = open_pane(DEMO)
    view, legend = pane.view, pane.view.legend
    asked = []
    real = view.marks.path_roles
    monkeypatch.setattr(view.marks, "path_roles", lambda *args: asked.append(controller.selected) or real(*args))
    assert not legend.expanded()
    path = controller.session.path_to(controller.session.leaf_id)
    for key in path[-4:-1]:
        controller.select(key)
    assert asked == []
    legend.toggle.setChecked(True)
    assert asked == [path[-2]]
    assert {role for role, swatch in legend.swatches.items() if not swatch.isHidden()} == real(view.unit_items, controller.session) & set(
        legend.swatches
    )


def test_the_legend_names_every_shape_and_mark_and_never_covers_the_tree(open_pane, qtbot, isolated_settings):
    controller, pane = open_pane(DEMO)
    view, legend = pane.view, pane.view.legend
    legend.toggle.setChecked(True)
    text = legend.text.text()
    for kind in {item.kind for item in view.node_items()}:
        from pibrowser.ui.tree.kinds import KIND_NAMES

        assert KIND_NAMES[kind] in text
    for mark in ("current leaf", "label", "end of a branch", "fold", "search hit", "compared", "context edit"):
        assert mark in text
    assert legend.title.text() == "Selected path" and legend.paths.isVisible()
    # Under the tree, not over it: the two never overlap.
    assert not legend.geometry().intersects(view.geometry()) and legend.parent() is pane
    legend.toggle.setChecked(False)  # collapsed to one line
    assert "current leaf" not in legend.text.text() and legend.isVisible()


def test_selecting_elsewhere_clears_the_old_path(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    view = pane.view
    root = pane.visible.root_of(controller.selected)  # the first entry shown on the path
    assert root != controller.session.path_to(controller.selected)[0]  # the file's root is hidden
    controller.select(root)
    on_path = [i.key for i in view.node_items() if i.on_path]
    assert on_path == [root]
    assert len(view.path_items) == 0


def marks_state(view) -> tuple:
    """Every mark the items and the path's edges show, to compare two ways of marking."""
    items = []
    for item in view.unit_items:
        if isinstance(item, NodeItem):
            items.append((item.key, item.selected, item.proxy, item.on_path, item.provenance))
        else:
            items.append((item.key, item.on_path, item.contains_selection, item.path_parts))
    edges = sorted(
        (item.pen().color().rgba(), item.pen().style().value, item.path().boundingRect().getRect(), item.path().elementCount())
        for item in view.path_items
    )
    return items, edges


def test_moving_the_path_marks_repaints_only_what_changes_and_marks_as_afresh(open_pane, qtbot, monkeypatch):
    controller, pane = open_pane(FIXTURES / "generated-s5.jsonl", size=(1000, 1400))
    view = pane.view
    session = controller.session
    repainted = []
    monkeypatch.setattr(NodeItem, "update", lambda self, *args: repainted.append(self.key))
    steps = [session.leaf_id, *reversed(session.path_to(session.leaf_id)[-6:-1])]  # ↑ along the path
    steps += [leaf for leaf in session.leaves()[:4]] + [session.path_to(session.leaves()[-1])[-5]]  # jumps, one into a fold
    rebuilt, checked, previous = [], 0, controller.selected
    view.treeRebuilt.connect(lambda: rebuilt.append(True))
    marked = []  # how many units each marking went over
    real_mark = path_marks.mark_path
    monkeypatch.setattr(
        path_marks, "mark_path", lambda items, units, *args, **kwargs: marked.append(len(units)) or real_mark(items, units, *args, **kwargs)
    )
    stayed = 0
    for key in steps:
        repainted.clear()
        rebuilt.clear()
        marked.clear()
        same_parts = controller.workspace.same_parts(previous, key)
        before = {i.key for i in view.node_items() if i.on_path}
        controller.select(key)
        moved = marks_state(view)
        after = {i.key for i in view.node_items() if i.on_path}
        if not rebuilt:  # (a fold opened around the selection: the layout's items were all marked afresh)
            # A node keeps its paint when its marks did not change: only the nodes that joined or left
            # the path, the one selected before and the one selected now are repainted.
            assert set(repainted) <= (before ^ after) | {key, previous}, key
            if session.parent(previous) == key:  # a step ↑: the old selection and the new one, nothing else
                assert set(repainted) <= {key, previous} and len(after) > 4
                checked += 1
                if same_parts:  # no compaction or edit crossed: only the path's last units are marked again
                    assert len(marked) == 1 and marked[0] <= 2, (key, marked)
                    stayed += 1
        view.marks.clear(view.unit_items)
        view.refresh_marks()
        assert marks_state(view) == moved, key
        previous = key
    assert checked >= 4 and stayed >= 2


def test_jumps_on_an_unfolded_tree_take_over_the_summarized_top_and_mark_as_afresh(open_pane, monkeypatch, tmp_path):
    # A jump between two points of a long path leaves alone the top both contexts summarize (only the
    # compaction it names changes): what it leaves must be exactly what marking afresh gives.
    items: list[dict] = []
    for index in range(2_400):
        if index % 300 == 299:
            items.append({"type": "compaction", "summary": "s", "firstKeptEntryId": f"e{index - 40}", "tokensBefore": 1000})
        else:
            role = "user" if index % 2 == 0 else "assistant"
            items.append({"role": role, "content": [{"type": "text", "text": f"turn {index}"}], "timestamp": 1})
    controller, pane = open_pane(write(tmp_path / "compacted.jsonl", *linked(items)), size=(1000, 1400))
    view = pane.view
    view.unfold_all()
    session = controller.session
    taken_over = []
    real = path_marks.summarized_prefix
    monkeypatch.setattr(path_marks, "summarized_prefix", lambda *args: taken_over.append(real(*args)) or taken_over[-1])
    for key in random.Random(7).sample([entry.id for entry in session.file_order], 30):
        controller.select(key)
        moved = marks_state(view)
        view.marks.clear(view.unit_items)
        view.refresh_marks()
        assert marks_state(view) == moved, key
    assert sum(1 for count in taken_over if count > 100) >= 10, taken_over


def test_panning_and_selecting_hold_background_loops_back(open_pane, qtbot, monkeypatch):
    controller, pane = open_pane(DEMO)
    pacer = controller.pacer
    monkeypatch.setattr(pacer, "quiet_for", 5.0)  # longer than the checks below can take
    pacer._until = 0.0
    assert not pacer.waiting
    bar = pane.view.verticalScrollBar()
    bar.setValue(bar.maximum() if bar.value() != bar.maximum() else bar.minimum())
    assert pacer.waiting
    pacer._until = 0.0
    controller.select(controller.session.path_to(controller.selected)[0])
    assert pacer.waiting
    pacer._until = 0.0  # the window's background jobs go on at once


# ---- context menu ----------------------------------------------------------------------------------


def test_right_click_selects_the_node_and_offers_the_node_actions(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    view = pane.view
    action = QAction("Do Something", pane)
    pane.set_node_actions([action])
    target = next(i for i in view.node_items() if i.key != controller.selected)
    pos = viewport_pos(view, target)
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, view.viewport().mapToGlobal(pos))
    QApplication.sendEvent(view.viewport(), event)
    assert controller.selected == target.key
    menu = view.context_menu
    assert menu is not None and action in menu.actions()
    menu.close()


# ---- zoom --------------------------------------------------------------------------------------


def test_zoom_actions_shortcuts_and_fit(open_pane, qtbot):
    controller, pane = open_pane(FIXTURES / "generated-s4.jsonl")
    view = pane.view
    start = view.zoom_factor()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom_factor() == pytest.approx(start * 1.25)
    qtbot.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom_factor() == pytest.approx(start * 1.25 * 0.8 * 0.8)
    qtbot.keyClick(view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.adjusted(-2, -2, 2, 2).contains(view.scene().itemsBoundingRect())
    names = [a.text().replace("&", "") for a in pane.view_actions()]
    assert {"Zoom In", "Zoom Out", "Fit Tree to Window", "Fold All Runs", "Unfold All Runs", "Go to Current Leaf"} <= set(names)


def test_the_wheel_zooms_about_the_point_under_the_mouse(open_pane):
    controller, pane = open_pane(FIXTURES / "generated-s5.jsonl")
    view = pane.view
    viewport = view.viewport()
    pos = QPointF(viewport.width() * 0.3, viewport.height() * 0.6)
    before_scene = view.mapToScene(pos.toPoint())
    before = view.zoom_factor()
    event = QWheelEvent(
        pos,
        QPointF(viewport.mapToGlobal(pos.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(viewport, event)
    assert view.zoom_factor() > before * 1.1
    after_scene = view.mapToScene(pos.toPoint())
    assert abs(after_scene.x() - before_scene.x()) < 4 and abs(after_scene.y() - before_scene.y()) < 4


def test_text_is_drawn_only_when_zoomed_in(open_pane):
    controller, pane = open_pane(DEMO)
    item = max(pane.view.node_items(), key=lambda i: i.text_width())
    assert item.text_width() > 100

    def ink(scale: float) -> int:
        image = QImage(800, 120, QImage.Format.Format_ARGB32)
        image.fill(0)
        painter = QPainter(image)
        painter.translate(20, 60)
        painter.scale(scale, scale)
        item.paint(painter, QStyleOptionGraphicsItem(), None)
        painter.end()
        start = int(20 + (item.text_x() + 40) * scale)  # right of the node and its badges
        return sum(1 for x in range(start, 800) for y in range(0, 120) if image.pixelColor(x, y).alpha() > 0)

    assert ink(1.0) > 50
    assert ink(0.45) > 50  # zoomed out, text keeps a size that reads
    assert ink(0.2) == 0  # rows are closer than a line of text: no text


def test_tooltips_name_the_entry(open_pane, qtbot):
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    controller, pane = open_pane(DEMO)
    item = node(pane.view, controller.selected)
    tip = item.tooltip()
    assert controller.selected in tip and "assistant message" in tip and "current leaf" in tip
    assert "2026" in tip  # the time
    pos = viewport_pos(pane.view, item)
    QApplication.sendEvent(pane.view.viewport(), QHelpEvent(QEvent.Type.ToolTip, pos, pane.view.viewport().mapToGlobal(pos)))
    qtbot.waitUntil(QToolTip.isVisible, timeout=2000)
    assert controller.selected in QToolTip.text()
    QToolTip.hideText()
    fold = pane.view.fold_items()[0]
    assert f"{len(fold.members)} entries folded" in fold.tooltip()


def test_far_out_a_big_tree_becomes_a_dot_map_that_still_takes_clicks(open_pane, qtbot, monkeypatch):
    import pibrowser.ui.tree.map_items as map_items

    monkeypatch.setattr(map_items, "OVERVIEW_ITEMS", 100)
    controller, pane = open_pane(FIXTURES / "generated-s5.jsonl")
    view = pane.view
    assert len(view.unit_items) > 100 and not view.map_items.overview_shown()
    view.zoom_by(0.2 / view.zoom_factor())
    assert view.map_items.overview_shown() and not view.unit_items[0].isVisible()
    target = next(i for i in view.node_items() if i.key != controller.selected)
    click(qtbot, view, target)
    assert controller.selected == target.key
    view.zoom_by(1.0 / view.zoom_factor())
    assert not view.map_items.overview_shown() and view.unit_items[0].isVisible()


def test_a_tree_of_many_units_is_indexed_and_still_takes_clicks_on_what_moved(open_pane, qtbot, monkeypatch):
    import pibrowser.ui.tree.map_items as map_items
    from PySide6.QtWidgets import QGraphicsScene

    monkeypatch.setattr(map_items, "INDEXED_UNITS", 850)
    controller, pane = open_pane(FIXTURES / "generated-s5.jsonl")
    view = pane.view
    indexed = QGraphicsScene.ItemIndexMethod.BspTreeIndex
    assert len(view.unit_items) < 850 and view.scene().itemIndexMethod() != indexed
    view.unfold_all()
    assert len(view.unit_items) > 850 and view.scene().itemIndexMethod() == indexed
    for target in random.Random(5).sample([i for i in view.node_items() if i.key != controller.selected], 5):
        view.centerOn(target)
        click(qtbot, view, target)  # found under the mouse through the index, after the units moved
        assert controller.selected == target.key
    view.tree_actions.fold_all.trigger()
    assert len(view.unit_items) < 850 and view.scene().itemIndexMethod() != indexed
    target = next(i for i in view.node_items() if i.key != controller.selected)
    view.centerOn(target)
    click(qtbot, view, target)
    assert controller.selected == target.key


def test_the_units_in_sight_are_found_by_height_as_a_walk_over_all_finds_them(open_pane):
    from pibrowser.ui.tree.flags import UnitRows

    controller, pane = open_pane(FIXTURES / "generated-s5.jsonl")
    view = pane.view
    rows = UnitRows()

    def walked() -> list:
        reach = 20 / view.transform().m11()
        seen = view.mapToScene(view.viewport().rect()).boundingRect().adjusted(-reach, -reach, reach, reach)
        return [item for item in view.unit_items if seen.contains(item.placed[0], item.placed[1])]

    for step in range(12):
        if step == 6:
            view.unfold_all()  # a new list of units: found by their new heights
        view.zoom_by((0.1 + 0.15 * (step % 6)) / view.zoom_factor())
        bar = view.verticalScrollBar()
        bar.setValue(bar.minimum() + (bar.maximum() - bar.minimum()) * (step % 3) // 2)
        assert rows.in_sight(view, view.unit_items) == walked(), step
    assert walked(), "nothing in sight: the test looked at nothing"


def test_an_empty_session_shows_a_note_and_ignores_input(open_pane, qtbot, tmp_path):
    path = write(tmp_path / "empty.jsonl")
    controller, pane = open_pane(path)
    view = pane.view
    assert view.unit_items == [] and view.empty_text is not None
    assert "no entries" in view.empty_text.text()
    view.setFocus()
    for key in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Return):
        qtbot.keyClick(view, key)
    view.tree_actions.fit.trigger()
    view.tree_actions.fold_all.trigger()
    view.tree_actions.unfold_all.trigger()
    pane.search_edit.setText("x")
    pane.search_now()
    assert pane.hits == [] and controller.selected is None


# ---- reload -------------------------------------------------------------------------------------


def _append(path: Path, parent: str, count: int) -> list[str]:
    ids = [f"new{i:05d}" for i in range(count)]
    later = [f"2030-01-01T00:00:{i % 60:02d}.{i // 60:03d}Z" for i in range(count)]  # after every entry there
    append(
        path, *({**message(key, parent if i == 0 else ids[i - 1], "user", f"more {i}"), "timestamp": later[i]} for i, key in enumerate(ids))
    )
    return ids


def test_a_reload_keeps_zoom_scroll_and_folds(open_pane, fixture_copy, qtbot):
    path = fixture_copy("generated-s5")
    controller, pane = open_pane(path)
    controller.follow_changes = False
    view = pane.view
    fold = view.fold_items()[0]
    view.expand_fold(fold.unit)
    expanded = list(fold.members)
    controller.select(expanded[0])  # not the leaf, which would follow the head to pi's new entries
    view.zoom_by(1.3)
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + 150)
    QApplication.processEvents()  # the scroll bars take the new range
    anchor_key, anchor_pos, _ = view.view_anchor()
    zoom, selected = view.zoom_factor(), controller.selected
    new = _append(path, controller.session.leaf_id, 3)
    with pytest.MonkeyPatch.context() as patch:
        scrolled = []
        patch.setattr(view, "scroll_to", lambda *a, **k: scrolled.append(a))
        with qtbot.waitSignal(controller.changed, check_params_cb=replaced, timeout=20000):
            controller.reload()
    assert controller.session.leaf_id == new[-1]
    assert controller.selected == selected
    assert view.zoom_factor() == pytest.approx(zoom)
    assert scrolled == []  # the kept selection does not yank the view
    assert all(isinstance(view.item_for(key), NodeItem) for key in expanded)
    moved = view.mapFromScene(view.item_for(anchor_key).pos()) - anchor_pos
    assert abs(moved.x()) <= 2 and abs(moved.y()) <= 2
    assert all(view.item_for(key) is not None for key in new)
    assert node(view, new[-1]).current_leaf


def test_entries_pi_appends_show_up_in_place(open_pane, fixture_copy, qtbot):
    path = fixture_copy("demo-session")
    controller, pane = open_pane(path)
    view = pane.view
    fold = view.fold_items()[0]
    view.expand_fold(fold.unit)
    expanded = list(fold.members)
    view.zoom_by(1.25)
    QApplication.processEvents()
    zoom = view.zoom_factor()
    session = controller.session
    old_leaf = session.leaf_id
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000):
        new = _append(path, old_leaf, 2)
    assert controller.session is session and session.leaf_id == new[-1]
    assert view.zoom_factor() == pytest.approx(zoom)
    assert all(isinstance(view.item_for(key), NodeItem) for key in expanded)
    assert node(view, new[-1]).current_leaf and not node(view, old_leaf).current_leaf
    assert pane.visible.order == visible_tree(session).order  # the in-place update matches a rebuild
    assert controller.selected == new[-1]  # following the head of the conversation
    assert node(view, new[-1]).selected and in_viewport(view, node(view, new[-1]))


def test_appends_at_the_leaf_grow_the_kept_layout_as_a_fresh_one_would(open_pane, tmp_path, qtbot):
    # pi's appends grow the kept runs and move the items that stay; what that shows must
    # equal a layout of the whole session built afresh, with the same folds open.
    path = write(tmp_path / "s.jsonl", *chain(60))
    controller, pane = open_pane(path)
    view = pane.view
    kept_skeleton, first = view.shown.skeleton, node(view, "m0")
    view.expand_fold(view.fold_items()[0].unit)  # something open, kept through the appends
    for round_ in range(4):
        session = controller.session
        leaf = session.leaf_id
        with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000):
            append(
                path,
                *[
                    message(
                        f"n{round_}{step}",
                        leaf if step == 0 else f"n{round_}{step - 1}",
                        "user",
                        f"more {step}",
                        second=100 + round_ * 10 + step,
                    )
                    for step in range(3)
                ],
            )
        fresh = build_layout(
            pane.visible.roots, pane.visible.children, threshold=view.folds.threshold, unfolded=view.folds.unfolded, pinned=pinned(session)
        )
        lay = view.tree_layout
        assert (lay.keys, lay.parent, lay.row, lay.col, lay.folds) == (fresh.keys, fresh.parent, fresh.row, fresh.col, fresh.folds)
        assert [item.pos() for item in view.unit_items] == [
            QPointF(view.map_items.x_of(c), view.map_items.y_of(r)) for r, c in zip(fresh.row, fresh.col)
        ]
        assert node(view, f"n{round_}2").current_leaf and not node(view, leaf).current_leaf
    assert view.shown.skeleton is kept_skeleton, "the runs were grown, not found again"
    assert node(view, "m0") is first, "an item that stays is moved, not built again"


def test_a_level_too_wide_to_draw_is_summarised_and_opens_where_the_user_goes(open_pane, tmp_path, qtbot):
    # 3,400 replies to one message: the ends are drawn, the middle is one gap that says how
    # many it hides; selecting an entry in it shows that branch; a click shows the next page.
    count = 3400
    items = [message("root", None, "user", "the question", second=0)]
    items += [message(f"c{i}", "root", "user", f"reply {i}", second=1 + i) for i in range(count)]
    # not the last line: the current leaf's branch is always shown
    items.insert(1502, message("deep", "c1500", "assistant", [{"type": "text", "text": "below a hidden reply"}], second=3500))
    controller, pane = open_pane(write(tmp_path / "wide.jsonl", *items))
    view = pane.view
    (gap,) = view.gap_items()
    assert gap.hidden == count - WIDE_HEAD - WIDE_TAIL and gap.count_text() == f"{gap.hidden:,} more branches"
    assert view.item_for("c1500") is None and len(view.unit_items) < 200
    assert node(view, f"c{count - 1}").current_leaf
    controller.select("deep")
    assert node(view, "deep").selected and node(view, "c1500").on_path
    assert [item.hidden for item in view.gap_items()] == [1500 - WIDE_HEAD, count - WIDE_TAIL - 1501]
    later = view.gap_items()[1]
    click(qtbot, view, later)  # more than a click shows at once: the next page
    qtbot.waitUntil(lambda: view.item_for("c1501") is not None, timeout=5000)
    assert node(view, f"c{1501 + EXPAND_PAGE - 1}") and view.item_for(f"c{1501 + EXPAND_PAGE}") is None
    assert [item.hidden for item in view.gap_items()] == [1500 - WIDE_HEAD, count - WIDE_TAIL - 1501 - EXPAND_PAGE]
    click(qtbot, view, view.gap_items()[0])  # few enough: all of them
    qtbot.waitUntil(lambda: view.item_for(f"c{WIDE_HEAD}") is not None, timeout=5000)
    assert len(view.gap_items()) == 1 and node(view, "deep").selected
    view.fold_all()
    assert len(view.gap_items()) == 2 and node(view, "deep").selected  # closed again, but for the selection's branch


def test_a_label_set_before_the_watcher_fires_shows_pi_s_entries_too(open_pane, tmp_path, qtbot):
    """pi appends, then (before the file watcher fires) the user sets a label: every new entry is in the tree."""
    path = write(tmp_path / "s.jsonl", *chain(3))
    controller, pane = open_pane(path)
    pane.set_filter(FilterMode.EVERY_ENTRY)  # labels are entries of their own here
    session = controller.session
    append(path, message("m3", "m2", "user", "pi wrote this", second=9))  # pi's line; no event is processed before the label
    label_id = LabelEditor(controller, pane).write("m0", "first")
    assert list(session.entries)[-2:] == ["m3", label_id] and session.leaf_id == label_id
    assert node(pane.view, "m3") and node(pane.view, label_id).current_leaf
    assert pane.visible.order == visible_tree(session, FilterMode.EVERY_ENTRY).order
    assert pane.info_label.text().startswith("5 entries")


def test_a_different_file_resets_folds_and_zoom(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    view = pane.view
    view.unfold_all()
    view.zoom_by(2.0)
    with qtbot.waitSignal(controller.changed, check_params_cb=replaced, timeout=20000):
        controller.open(FIXTURES / "legacy-v1.jsonl")
    assert view.fold_items()
    assert view.zoom_factor() <= 1.0


# ---- scale ------------------------------------------------------------------------------------------


def test_a_100k_entry_session_is_built_folded(open_pane, tmp_path, qtbot):
    # How long this takes is measured in benchmarks/bench_gui.py, not asserted here.
    path = long_session(tmp_path / "big.jsonl", 100_000)
    controller, pane = open_pane(DEMO)
    session = Session.load(path)
    controller.show_session(session)  # filter, fold, lay out, build the scene
    assert len(pane.view.unit_items) < 20_000
    pane.view.fit()
    pane.view.viewport().grab()  # painting everything at once stays possible


def test_the_reveal_link_takes_the_themes_link_colour(open_pane, qtbot):
    from PySide6.QtGui import QColor, QPalette

    controller, pane = open_pane(DEMO)
    app = QApplication.instance()
    before = app.palette()
    role = QPalette.ColorRole.ButtonText
    assert pane.reveal_button.palette().color(role) == before.color(QPalette.ColorRole.Link)
    themed = QPalette(before)
    themed.setColor(QPalette.ColorRole.Link, QColor("#ff8800"))
    try:
        app.setPalette(themed)
        qtbot.waitUntil(lambda: pane.reveal_button.palette().color(role) == QColor("#ff8800"), timeout=3000)
    finally:
        app.setPalette(before)
    qtbot.waitUntil(lambda: pane.reveal_button.palette().color(role) == before.color(QPalette.ColorRole.Link), timeout=3000)


# ---- reading at every zoom -----------------------------------------------------------------------


def test_fit_shows_text_on_a_small_tree(open_pane, qtbot):
    controller, pane = open_pane(DEMO, size=(580, 620))  # the tree's share of a 1000×700 window
    pane.set_filter(FilterMode.USER_ONLY)
    view = pane.view
    qtbot.keyClick(view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    lod = view.zoom_factor()
    nodes = view.node_items()
    assert 0 < len(nodes) < 20 and lod < 0.55  # fitting this tree zooms out past full-size text
    with_text = [item for item in nodes if item.small_text(lod) is not None]
    assert len(with_text) == len(nodes)
    plan, grow = with_text[0].small_text(lod)
    assert lod * grow >= 0.55  # on screen, the text is at least the size it has at 55%


def test_zoom_keys_keep_the_selection_in_view(open_pane, qtbot):
    controller, pane = open_pane(FIXTURES / "generated-s5.jsonl")
    view = pane.view
    item = view.node_items()[len(view.node_items()) // 2]
    controller.select(item.key)
    # Put the selection near the viewport's corner, where zooming about the centre would lose it.
    corner = QPointF(view.viewport().width() - 30, view.viewport().height() - 30)
    pin(view, item.pos(), corner)
    view.setFocus()
    for _ in range(6):
        qtbot.keyClick(view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
        assert in_viewport(view, item)
    for _ in range(10):
        pane.view.tree_actions.zoom_out.trigger()
        assert in_viewport(view, item)


def test_a_filter_change_keeps_the_selection_in_view(open_pane, qtbot):
    controller, pane = open_pane(FIXTURES / "generated-s5.jsonl")
    view = pane.view
    key = next(
        item.key
        for item in view.node_items()
        if item.entry.type == "message" and item.entry.message.get("role") == "user" and not in_viewport(view, item)
    )
    controller.select(key)
    for mode in (FilterMode.NO_TOOLS, FilterMode.USER_ONLY, FilterMode.ALL, FilterMode.DEFAULT):
        pane.set_filter(mode)
        shown = view.item_for(view.visible.nearest_visible(view.session, key))
        assert shown is not None and in_viewport(view, shown), mode


def test_a_hidden_selection_or_leaf_is_named_with_what_hides_it(open_pane, qtbot, fixture_copy):
    path = fixture_copy("demo-session")
    controller, pane = open_pane(path)
    leaf = controller.session.leaf_id
    assert leaf in pane.visible and pane.hidden_note.text() == ""
    pane.set_filter(FilterMode.USER_ONLY)
    note = pane.hidden_note.text()
    shown = pane.visible.nearest_visible(controller.session, leaf)
    hidden = len(controller.session.path_to(leaf)) - len(controller.session.path_to(shown))
    assert f"the selected assistant {leaf} ({hidden} {'entry' if hidden == 1 else 'entries'} below {shown}, which is marked)" in note
    assert node(pane.view, shown).proxy  # the tree marks the ancestor shown in its place
    pane.set_filter(FilterMode.DEFAULT)
    assert pane.hidden_note.text() == ""


def test_filter_and_search_start_afresh_in_another_file(open_pane, qtbot):
    controller, pane = open_pane(DEMO)
    pane.set_filter(FilterMode.USER_ONLY)
    pane.search_edit.setText("CHANGELOG")
    pane.search_now()
    assert pane.hits
    with qtbot.waitSignal(controller.changed, check_params_cb=replaced, timeout=20000):
        controller.open(FIXTURES / "generated-s1.jsonl")
    assert pane.mode is FilterMode.DEFAULT and FilterMode(pane.filter_combo.currentData()) is FilterMode.DEFAULT
    assert pane.search_edit.text() == "" and pane.hits == []
    # A reload of the same file keeps both.
    pane.set_filter(FilterMode.NO_TOOLS)
    with qtbot.waitSignal(controller.changed, check_params_cb=replaced, timeout=20000):
        controller.reload()
    assert pane.mode is FilterMode.NO_TOOLS


def test_all_and_raw_read_differently():
    assert FilterMode.ALL.title != FilterMode.EVERY_ENTRY.title
    assert [
        mode.value for mode in (FilterMode.DEFAULT, FilterMode.NO_TOOLS, FilterMode.USER_ONLY, FilterMode.LABELED_ONLY, FilterMode.ALL)
    ] == ["default", "no-tools", "user-only", "labeled-only", "all"]  # pi's names


def test_the_legend_never_takes_more_than_a_third_of_a_short_pane(open_pane, qtbot, isolated_settings):
    controller, pane = open_pane(FIXTURES / "generated-s5.jsonl", size=(420, 380))
    legend = pane.view.legend
    legend.toggle.setChecked(True)
    qtbot.waitUntil(lambda: legend.height() > 0, timeout=3000)
    assert legend.height() <= pane.height() * 0.3 + 1
    assert pane.view.height() > legend.height()  # the tree keeps the larger share


def test_the_legend_starts_folded_and_remembers_being_unfolded(open_pane, qtbot, isolated_settings):
    controller, pane = open_pane(DEMO)
    legend = pane.view.legend
    assert not legend.expanded() and "current leaf" not in legend.text.text()
    legend.toggle.setChecked(True)
    controller, again = open_pane(DEMO)
    assert again.view.legend.expanded()


@pytest.mark.parametrize("path", [DEMO, FIXTURES / "generated-s5.jsonl"])
def test_text_never_shrinks_as_the_zoom_grows(open_pane, qtbot, path):
    from pibrowser.ui.tree.style import text_scale

    controller, pane = open_pane(path)
    view = pane.view
    view.fit()
    seen: dict[str, float] = {}
    steps = 0
    while True:
        lod = view.zoom_factor()
        for item in view.node_items():
            size = item.text_size(lod)
            assert size >= seen.get(item.key, 0.0) - 1e-9, (item.key, lod)
            seen[item.key] = size
        for item in view.fold_items():
            assert text_scale(lod, item.style.bold_metrics.height()) >= seen.get(("fold", item.key), 0.0) - 1e-9
            seen[("fold", item.key)] = text_scale(lod, item.style.bold_metrics.height())
        view.zoom.step_in()
        steps += 1
        if view.zoom_factor() == lod:
            break
    assert steps > 8 and max(seen.values()) > 1.0  # from fit to the most zoom: the same nodes, never smaller


def test_the_minimap_frames_the_view_goes_where_clicked_and_redraws_a_fold_opened_once_the_user_pauses(qtbot, open_pane):
    controller, pane = open_pane(FIXTURES / "generated-s5.jsonl", size=(700, 500))
    view, minimap = pane.view, pane.view.minimap
    view.zoom_by(1.0 / view.zoom_factor())  # reading size: the map is larger than the view
    qtbot.waitUntil(minimap.isVisible, timeout=5000)
    assert not minimap.geometry().intersects(view.viewport().geometry())  # beside the map, never over a node
    # A click at the strip's far end brings that end of the map into view.
    before = view.mapToScene(view.viewport().rect().center())
    QTest.mouseClick(minimap, Qt.MouseButton.LeftButton, pos=QPoint(minimap.width() - 2, minimap.height() - 2))
    after = view.mapToScene(view.viewport().rect().center())
    assert after.x() > before.x() or after.y() > before.y()
    # A selection inside a fold lays the tree out again: the dots follow once the user pauses.
    fold = max(view.fold_items(), key=lambda item: len(item.members))
    minimap.grab()  # painted: its dots drawn for this layout
    assert not minimap.stale()
    controller.select(fold.members[len(fold.members) // 2])
    assert view.fold_of_selection() is None  # opened around the selection
    assert minimap.stale()
    qtbot.waitUntil(lambda: not minimap.stale(), timeout=5000)
    minimap.grab()  # painted with the new layout's dots
    # Another session is drawn at once, not after a pause.
    with qtbot.waitSignal(controller.changed, check_params_cb=replaced, timeout=20000):
        controller.open(DEMO)
    assert not minimap.stale()
