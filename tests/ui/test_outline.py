"""The tree as an outline: pi's /tree rows in the tree's own view, agreeing with the map on everything they share."""

from __future__ import annotations

import shutil
import subprocess

import orjson
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt

from pibrowser.model.session.tree_filter import PI_MODES, FilterMode, visible_tree
from pibrowser.model.session.tree_rows import leaf_first, tree_rows
from pibrowser.ui.tree.fold_item import FoldItem
from pibrowser.ui.tree.node_item import NodeItem
from pibrowser.ui.tree.outline_item import ROW
from pibrowser.ui.tree.view_mode import MAP, OUTLINE

from ..conftest import DEMO, FIXTURES, fixture_names, session_file
from ..pi.locate import PI_VERSION, node_binary, pi_command, pi_package
from .test_tree_pane import open_pane  # noqa: F401 — the fixture

MODES = (*PI_MODES, FilterMode.EVERY_ENTRY)
S5 = FIXTURES / "generated-s5.jsonl"
NODE = node_binary()
PI_DIR = pi_package() if NODE else None


def outline_keys(view) -> list[str]:
    """The entries the outline's rows show, top to bottom (a fold's members in its place)."""
    keys = []
    for unit in view.outline.rows.rows.keys:
        item = view.unit_items[unit]
        keys.extend(item.members if isinstance(item, FoldItem) else [item.key])
    return keys


def row_of(view, key: str) -> int:
    return view.outline.rows.row_of[view.unit_for(key)]


def row_in_sight(view, key: str) -> bool:
    rect = view.outline.row_rect(view.unit_for(key))
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    return seen.contains(rect.center())


def marks(item) -> tuple:
    if isinstance(item, NodeItem):
        return (
            item.selected,
            item.proxy,
            item.on_path,
            item.hit,
            item.current_hit,
            item.compare,
            item.compare_path,
            item.fork,
            item.current_leaf,
            item.label,
        )
    return (item.contains_selection, item.on_path, item.hits, item.compare_path, len(item.members))


@pytest.mark.parametrize("name", [*fixture_names(), "demo-session"])
def test_the_outline_and_the_map_agree_under_every_filter(open_pane, qtbot, name):  # noqa: F811
    controller, pane = open_pane(session_file(name))
    view = pane.view
    session = controller.session
    for mode in MODES:
        pane.set_filter(mode)
        lay = view.tree_layout
        if not len(lay):  # nothing this filter keeps: both say so, neither draws a row
            view.mode.switch(OUTLINE)
            assert view.outline.rows is None and "No entries" in view.empty_text.text(), (name, mode)
            view.mode.switch(MAP)
            continue
        view.mode.switch(MAP)
        on_map = {unit: marks(item) for unit, item in enumerate(view.unit_items)}
        view.mode.switch(OUTLINE)
        rows = view.outline.rows
        # The same units, each on one row: the same visible entries and the same folds.
        assert sorted(rows.rows.keys) == list(range(len(lay))), (name, mode)
        assert {unit: marks(item) for unit, item in enumerate(view.unit_items)} == on_map, (name, mode)
        # The selection (or the entry standing for it) is the one row drawn selected.
        chosen = [
            row
            for row, unit in enumerate(rows.rows.keys)
            if any(marks(view.unit_items[unit])[:2])
            and isinstance(view.unit_items[unit], NodeItem)
            and (view.unit_items[unit].selected or view.unit_items[unit].proxy)
        ]
        selected = view.selected_unit()
        assert chosen == ([rows.row_of[selected]] if selected is not None and isinstance(view.unit_items[selected], NodeItem) else []), (
            name,
            mode,
        )
        # The path's thick edges join the rows of the path the map marks.
        chain = view.marks.path.chain
        assert [(parent, child) for parent, child, _ in view.outline.item.edges(0, len(rows))] == [
            (rows.row_of[a], rows.row_of[b]) for a, b in zip(chain, chain[1:])
        ], (name, mode)
        # Unfolded, the rows are pi's /tree rows, entry for entry.
        view.unfold_all()
        visible = visible_tree(session, mode)
        leaf = session.leaf_id
        path = session.path_to(leaf) if leaf in session.entries else []
        expected = tree_rows(
            visible.roots, visible.kids, frozenset(path), leaf_first(path[-1] if path else None, frozenset(path), session.parent, str, str)
        )
        assert outline_keys(view) == expected.keys, (name, mode)
        assert view.outline.rows.rows.indent == expected.indent, (name, mode)
        view.fold_all()


def test_switching_keeps_the_selection_folds_and_comparison(open_pane, qtbot):  # noqa: F811
    controller, pane = open_pane(S5)
    view = pane.view
    fold = view.fold_items()[0]
    view.expand_fold(fold.unit)
    unfolded = set(view.folds.unfolded)
    controller.select("931951b9")
    controller.set_compare("931951b9", "ecdfd5fa")
    view.mode.switch(OUTLINE)
    assert view.folds.unfolded == unfolded and controller.compared == ("931951b9", "ecdfd5fa")
    assert row_in_sight(view, "931951b9")
    sides = {side for side, _ in view.marks.chains}
    assert sides == {"trunk", "A", "B"} and len(list(view.outline.item.edges(0, len(view.outline.rows)))) > 3
    view.mode.switch(MAP)
    assert view.folds.unfolded == unfolded
    item = view.item_for("931951b9")
    assert view.mapToScene(view.viewport().rect()).boundingRect().contains(item.pos())


def test_the_choice_of_view_is_remembered(open_pane, qtbot, isolated_settings):  # noqa: F811
    controller, pane = open_pane(DEMO)
    pane.view.tree_actions.as_outline.trigger()
    assert pane.view.outline.shown() and pane.view.mode.current == OUTLINE
    controller, again = open_pane(DEMO)
    assert again.view.outline.shown() and again.view.tree_actions.as_outline.isChecked()
    again.view.tree_actions.as_map.trigger()
    assert not again.view.outline.shown() and again.view.map_items.layer.isVisible()


def test_keys_move_as_in_pis_tree(open_pane, qtbot):  # noqa: F811
    controller, pane = open_pane(S5, size=(1000, 700))
    view = pane.view
    view.mode.switch(OUTLINE)
    view.setFocus()
    keys = view.outline.rows.rows.keys
    start = row_of(view, controller.selected)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert row_of(view, controller.selected) == start + 1
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert row_of(view, controller.selected) == start
    # Round from the top to the bottom, as pi's list goes.
    controller.select(view.unit_items[keys[0]].key)
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert row_of(view, controller.selected) == len(view.outline.rows) - 1
    # ← and → page, a screenful at a time.
    controller.select(view.unit_items[view.outline.rows.unit(0)].key)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    paged = row_of(view, controller.selected)
    assert paged > 10 and row_in_sight(view, controller.selected)
    qtbot.keyClick(view, Qt.Key.Key_PageUp)
    assert row_of(view, controller.selected) == 0
    # Ctrl+→ goes down to the next branch's first entry; Ctrl+← back up to where a branch starts.
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    down = row_of(view, controller.selected)
    parent = view.outline.rows.parent_row[down]
    assert down > 0 and len(view.tree_layout.children[view.outline.rows.unit(parent)]) > 1
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    further = row_of(view, controller.selected)
    assert further > down
    qtbot.keyClick(view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert row_of(view, controller.selected) == down


@pytest.mark.parametrize("shape", [OUTLINE, MAP])
def test_ctrl_left_folds_a_long_run_and_ctrl_right_opens_it(open_pane, qtbot, tmp_path, shape):  # noqa: F811
    from ..sessions import chain, write

    path = write(tmp_path / "long.jsonl", *chain(40))
    controller, pane = open_pane(path)
    view = pane.view
    view.mode.switch(shape)
    view.setFocus()
    controller.select("m20")
    assert view.can_fold("m20")
    qtbot.keyClick(view, Qt.Key.Key_Left, Qt.KeyboardModifier.ControlModifier)
    # Folded, the selection sits in a fold again: its row is the fold's.
    assert isinstance(view.unit_items[view.selected_unit()], FoldItem)
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    assert isinstance(view.item_for("m20"), NodeItem)


@pytest.mark.skipif(PI_DIR is None, reason=f"needs Node.js >= 22 and pi {PI_VERSION} (PIBROWSER_NODE, PIBROWSER_PI_DIR)")
@pytest.mark.parametrize("name", ["generated-s3", "generated-s5", "demo-session"])
def test_ctrl_arrows_move_through_the_branches_as_pis_tree_does(open_pane, tmp_path, name):  # noqa: F811
    """Every row's Ctrl+→ and Ctrl+← moves, unfolded under each of pi's filters, against pi's own selector.
    (Where pi's Ctrl+← folds the branch instead, pibrowser folds long runs, not branches: not compared.)"""
    copy = tmp_path / session_file(name).name  # pi's SessionManager may rewrite a file it opens
    shutil.copyfile(session_file(name), copy)
    answer = subprocess.run(pi_command(NODE, PI_DIR, "treekeys", copy), capture_output=True, timeout=600)
    assert answer.returncode == 0, answer.stderr.decode()
    controller, pane = open_pane(session_file(name))
    view = pane.view
    view.mode.switch(OUTLINE)
    for mode, rows in orjson.loads(answer.stdout)["moves"].items():
        pane.set_filter(mode)
        view.unfold_all()
        if not rows:
            continue
        assert outline_keys(view) == [key for key, _, _ in rows], (name, mode)
        lay = view.tree_layout

        def move(key: str, where: str) -> str:
            return view.unit_items[view.outline.target(lay, view.unit_for(key), where, 1)].key

        assert [move(key, "branch_down") for key, _, _ in rows] == [down for _, _, down in rows], (name, mode)
        moved_up = [(key, up) for key, up, _ in rows if up is not None]
        assert [move(key, "branch_up") for key, _ in moved_up] == [up for _, up in moved_up], (name, mode)


def test_a_click_on_a_row_selects_it_and_ctrl_click_compares(open_pane, qtbot):  # noqa: F811
    controller, pane = open_pane(DEMO)
    view = pane.view
    view.mode.switch(OUTLINE)
    rows = view.outline.rows
    target = next(
        unit for unit in rows.rows.keys if isinstance(view.unit_items[unit], NodeItem) and view.unit_items[unit].key != controller.selected
    )
    view.centerOn(view.outline.node_point(target))
    where = view.mapFromScene(view.outline.node_point(target) + QPointF(60, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, where)
    assert controller.selected == view.unit_items[target].key
    other = next(unit for unit in rows.rows.keys if isinstance(view.unit_items[unit], NodeItem) and unit != target)
    view.centerOn(view.outline.node_point(other))
    where = view.mapFromScene(view.outline.node_point(other) + QPointF(60, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, where)
    assert controller.compared == (view.unit_items[target].key, view.unit_items[other].key)


def test_only_the_rows_in_sight_are_painted(open_pane, qtbot, monkeypatch):  # noqa: F811
    controller, pane = open_pane(S5, size=(900, 600))
    view = pane.view
    pane.set_filter(FilterMode.EVERY_ENTRY)
    view.unfold_all()
    view.mode.switch(OUTLINE)
    item = view.outline.item
    assert len(view.outline.rows) > 1000
    painted = []
    monkeypatch.setattr(type(item), "_paint_row", lambda self, painter, row, *rest: painted.append(row))
    view.viewport().grab()
    in_sight = view.viewport().height() / 26 + 2
    assert 0 < len(painted) <= in_sight


def test_a_row_too_long_for_the_view_is_elided_and_whole_in_its_tooltip(open_pane, qtbot):  # noqa: F811
    from pibrowser.ui.tree.outline_item import TEXT_GAP

    controller, pane = open_pane(S5, size=(600, 500))
    view = pane.view
    view.mode.switch(OUTLINE)
    rows = view.outline.rows
    longest = max(
        (unit for unit in rows.rows.keys if isinstance(view.unit_items[unit], NodeItem)),
        key=lambda unit: len(view.unit_items[unit].title()),
    )
    item = view.unit_items[longest]
    room = view.outline.item.width - view.outline.node_point(longest).x() - TEXT_GAP - 8
    _badges, _x, title_width = item._plan_in(room)
    assert 0 < title_width < item.style.metrics.horizontalAdvance(item.short_title())  # drawn elided, in the row's room
    assert item.title() in item.tooltip()


def test_the_maps_marks_stay_off_the_outline(open_pane, qtbot):  # noqa: F811
    controller, pane = open_pane(S5)
    view = pane.view
    controller.select("931951b9")
    controller.set_compare("931951b9", "ecdfd5fa")
    assert view.path_items and all(item.isVisible() for item in view.path_items)
    view.mode.switch(OUTLINE)
    assert not any(item.isVisible() for item in view.path_items)  # the outline draws its own edges
    controller.set_compare(None, None)
    assert view.path_items and not any(item.isVisible() for item in view.path_items)
    view.mode.switch(MAP)
    assert all(item.isVisible() for item in view.path_items)


def test_unfolding_on_the_map_after_the_outline_showed_keeps_both_right(open_pane, qtbot):  # noqa: F811
    """View ▸ Tree as Outline, back to the Map, Unfold All Runs, then the Outline again: the rows of the
    outline shown before (of the layout with folds) are not marked with the new layout's units."""
    controller, pane = open_pane(DEMO)
    view = pane.view
    actions = view.tree_actions
    actions.as_outline.trigger()
    actions.as_map.trigger()
    folds = len(view.fold_items())
    assert folds
    actions.unfold_all.trigger()
    assert not view.fold_items()
    actions.as_outline.trigger()
    assert len(view.outline.rows.rows.keys) == len(view.unit_items) == len(outline_keys(view))  # a row per entry, no fold
    assert row_in_sight(view, controller.selected)
    actions.fold_all.trigger()
    assert len(view.fold_items()) == folds


@pytest.mark.parametrize("first", ["outline", "filter"])
def test_a_short_outline_starts_at_the_top_of_the_view(open_pane, qtbot, first):  # noqa: F811
    """The demo under "User only" in the outline has fewer rows than the view holds: they start at its
    top, as a list's do, rather than centred below a blank band (either choice made first)."""
    controller, pane = open_pane(DEMO, size=(1000, 800))
    view = pane.view
    combo = pane.filter_combo
    choose = {
        "outline": lambda: view.tree_actions.as_outline.trigger(),
        "filter": lambda: combo.setCurrentIndex(combo.findData(FilterMode.USER_ONLY)),
    }
    for step in (first, "filter" if first == "outline" else "outline"):
        choose[step]()
    assert view.outline.shown() and pane.mode is FilterMode.USER_ONLY
    rows = view.outline.rows
    assert view.outline.rect().height() < view.viewport().height() - 2 * ROW  # the case: fewer rows than the view holds
    top = view.mapToScene(view.viewport().rect().topLeft() + QPoint(40, 2))
    assert view.outline.unit_at(top) == rows.unit(0)
    last = view.outline.row_rect(rows.unit(len(rows) - 1))
    assert view.mapToScene(view.viewport().rect()).boundingRect().contains(last)
