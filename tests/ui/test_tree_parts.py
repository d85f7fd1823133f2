"""The tree view's collaborators, each on its own: folds, zoom, the pointer, keys, actions."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget

from pibrowser.ui.tree.folds import Folds
from pibrowser.ui.tree.layout import FOLD_THRESHOLD, build_layout, expansion
from pibrowser.ui.tree.menu import make_actions
from pibrowser.ui.tree.mouse import Pointer
from pibrowser.ui.tree.navigation import MOVES, OPEN, key_command
from pibrowser.ui.tree.zoom import MAX_SCALE, MIN_FIT, Zoom


def run_of(count: int) -> tuple[list[str], dict[str, list[str]]]:
    keys = [f"n{i}" for i in range(count)]
    return [keys[0]], {a: [b] for a, b in zip(keys, keys[1:])}


def layout(folds: Folds, count: int = 200):
    roots, children = run_of(count)
    return build_layout(roots, children, threshold=folds.threshold, unfolded=folds.unfolded)


# ---- folds: no Qt, only layouts ----------------------------------------------------------------------


def test_folds_reveal_expand_fold_again_and_unfold_all():
    folds = Folds()
    lay = layout(folds)
    assert len(lay.folds) == 1 and folds.unfolded == set()
    unit = next(iter(lay.folds))
    assert folds.reveal(lay, "n100") and "n100" in folds.unfolded
    lay = layout(folds)
    assert lay.fold_of("n100") is None and not folds.reveal(lay, "n100")  # already shown: nothing to do
    assert folds.can_fold(lay, "n100") and folds.fold_run(lay, "n100")
    assert folds.unfolded == set() and layout(folds).fold_of("n100") is not None
    lay = layout(folds)
    unit = next(iter(lay.folds))
    first = expansion(lay, unit)
    assert folds.expand(lay, unit) and folds.unfolded == set(first)
    assert not folds.expand(lay, 10_000)  # no such fold
    folds.unfold_all(f"n{i}" for i in range(200))
    assert not layout(folds).folds
    folds.fold_all(layout(folds), "n50")
    lay = layout(folds)
    assert lay.fold_of("n50") is None and lay.folds  # the rest folded again, around the selection
    folds.clear()
    assert folds.unfolded == set()


def test_short_runs_do_not_fold():
    folds = Folds()
    lay = layout(folds, FOLD_THRESHOLD)
    assert not lay.folds and not folds.can_fold(lay, "n1") and not folds.fold_run(lay, "n1")


# ---- keys -------------------------------------------------------------------------------------------------


def test_keys_map_to_moves_and_chords_are_left_alone():
    none = Qt.KeyboardModifier.NoModifier
    assert {key: key_command(key, none) for key in MOVES} == MOVES
    assert key_command(Qt.Key.Key_Return, none) == key_command(Qt.Key.Key_Space, none) == OPEN
    assert key_command(Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier) is None
    assert key_command(Qt.Key.Key_Up, Qt.KeyboardModifier.ShiftModifier) == "parent"
    assert key_command(Qt.Key.Key_A, none) is None
    # pi's Ctrl+← and Ctrl+→ (or Alt) fold or go up, unfold or go down, on the map as in the outline.
    for outline in (False, True):
        assert key_command(Qt.Key.Key_Left, Qt.KeyboardModifier.ControlModifier, outline) == "fold_or_up"
        assert key_command(Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier, outline) == "unfold_or_down"
        assert key_command(Qt.Key.Key_Left, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier, outline) is None


# ---- zoom on a bare view ------------------------------------------------------------------------------


@pytest.fixture
def bare_view(qtbot):
    view = QGraphicsView()
    scene = QGraphicsScene(view)
    scene.setSceneRect(QRectF(0, 0, 4000, 200_000))
    view.setScene(scene)
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_zoom_steps_clamp_and_report_each_change(bare_view):
    changes = []
    zoom = Zoom(bare_view, changed=lambda: changes.append(zoom.factor()), focus=lambda: None)
    zoom.step_in()
    assert zoom.factor() == pytest.approx(1.25) and changes == [pytest.approx(1.25)]
    for _ in range(20):
        zoom.step_in()
    assert zoom.factor() == pytest.approx(MAX_SCALE)
    count = len(changes)
    zoom.step_in()
    assert len(changes) == count  # no change, no report
    zoom.by(0.5, QPointF(10, 10))
    assert zoom.factor() == pytest.approx(MAX_SCALE / 2)


def test_a_very_tall_tree_fits_as_far_out_as_still_shows_something_around_the_focus(bare_view):
    focus = QPointF(2000, 150_000)
    zoom = Zoom(bare_view, changed=lambda: None, focus=lambda: focus)
    zoom.fit()
    assert zoom.factor() == pytest.approx(MIN_FIT)
    centre = bare_view.mapToScene(bare_view.viewport().rect().center())
    assert abs(centre.y() - focus.y()) < 200
    zoom.reading_size()
    assert zoom.factor() == pytest.approx(0.8)


# ---- the pointer, with a stand-in for what is under it ---------------------------------------------------


class Item:
    hovered = False

    def update(self) -> None:
        pass

    def tooltip(self) -> str:
        return "an item"


def mouse(kind, pos, button=Qt.MouseButton.LeftButton, buttons=Qt.MouseButton.NoButton):
    return QMouseEvent(kind, QPointF(*pos), QPointF(*pos), button, buttons, Qt.KeyboardModifier.ControlModifier)


def test_a_click_is_a_press_and_release_that_did_not_drag(qtbot):
    viewport = QWidget()
    qtbot.addWidget(viewport)
    item = Item()
    clicks = []
    pointer = Pointer(viewport, item_at=lambda pos: item if pos.x() < 50 else None, clicked=lambda it, mods: clicks.append((it, mods)))
    assert not pointer.press(mouse(QEvent.Type.MouseButtonPress, (10, 10)))
    pointer.release(mouse(QEvent.Type.MouseButtonRelease, (11, 10)))
    assert clicks == [(item, Qt.KeyboardModifier.ControlModifier)]
    assert pointer.hovered is item and item.hovered and viewport.cursor().shape() == Qt.CursorShape.PointingHandCursor
    pointer.press(mouse(QEvent.Type.MouseButtonPress, (10, 10)))
    pointer.release(mouse(QEvent.Type.MouseButtonRelease, (200, 10)))  # a drag
    assert len(clicks) == 1
    assert pointer.press(mouse(QEvent.Type.MouseButtonPress, (10, 10), Qt.MouseButton.RightButton))  # the menu's, not a drag
    pointer.release(mouse(QEvent.Type.MouseButtonRelease, (10, 10), Qt.MouseButton.RightButton))
    assert len(clicks) == 1
    pointer.move(mouse(QEvent.Type.MouseMove, (100, 10), Qt.MouseButton.NoButton))
    assert pointer.hovered is None and not item.hovered and viewport.cursor().shape() == Qt.CursorShape.OpenHandCursor


# ---- actions ----------------------------------------------------------------------------------------------


def test_actions_call_their_slots_and_come_in_groups(qtbot):
    owner = QWidget()
    qtbot.addWidget(owner)
    called = []

    def slot(name):
        return lambda: called.append(name)

    slots = {name: slot(name) for name in ("zoom_in", "zoom_out", "fit", "fold_all", "unfold_all", "go_leaf")}
    actions = make_actions(
        owner, **slots, show_legend=lambda on: called.append(("legend", on)), as_outline=lambda on: called.append(("outline", on))
    )
    for action in (actions.zoom_in, actions.fit, actions.go_leaf):
        action.trigger()
    actions.legend.trigger()
    actions.as_outline.trigger()
    actions.as_map.trigger()
    assert called == ["zoom_in", "fit", "go_leaf", ("legend", False), ("outline", True), ("outline", False)]
    assert actions.as_map.isChecked() and not actions.as_outline.isChecked()
    listed = actions.for_menu(owner)
    assert [a.isSeparator() for a in listed].count(True) == 3 and len(listed) == 12
    assert actions.zoom_in.toolTip().startswith("Zoom in on the tree (")


def test_a_flag_takes_the_first_lane_in_sight_that_keeps_its_gap_to_every_flag_placed():
    from PySide6.QtCore import QPointF, QRectF

    from pibrowser.ui.tree.flags import GAP, LANES, _free_spot, _Grid

    port, height, width = QRectF(0, 0, 400, 300), 16.0, 50.0
    taken = _Grid()
    first = _free_spot(taken, port, QPointF(100, 150), width, height)
    assert first == QRectF(103, 150 - 6 - height, width, height)  # above the node, its left 3 px past it
    taken.add(first)
    below = _free_spot(taken, port, QPointF(100, 150), width, height)
    assert below == QRectF(103, 156, width, height)  # the lane above is taken: the one below
    taken.add(below)
    # Beside the first, closer than GAP: the next lane up; exactly GAP away (edges touch once grown): beside it.
    assert _free_spot(taken, port, QPointF(100 + width + GAP - 3 - 0.5, 150), width, height).top() < first.top()
    assert _free_spot(taken, port, QPointF(100 + width + 2 * GAP, 150), width, height).top() == first.top()
    # Clamped into the view at its right edge; wider than the view, or every lane out of sight: no flag.
    assert _free_spot(_Grid(), port, QPointF(395, 150), width, height).right() == 400 - 2
    assert _free_spot(_Grid(), port, QPointF(100, 150), 500, height) is None
    assert _free_spot(_Grid(), QRectF(0, 0, 400, 20), QPointF(100, 10), width, height) is None
    crowded = _Grid()
    for lane in range(LANES * 2):
        crowded.add(QRectF(0, 150 - 6 - height - lane * (height + GAP), 400, height))
        crowded.add(QRectF(0, 156 + lane * (height + GAP), 400, height))
    assert _free_spot(crowded, port, QPointF(100, 150), width, height) is None
