"""What the keys and clicks on the tree view do: move the selection, select, compare, open or fold,
or change the filter.

The same on the map and in the outline, but for the arrows (navigation.py); pi's filter
keys (filter_keys.py) ask the pane for another filter; the pointer finds what is under
it (mouse.py) and hands it here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt

from ...model.session.filter_commands import filter_after
from .filter_keys import WINDOW_FIRST, filter_command
from .fold_item import FoldItem
from .gap_item import GapItem
from .node_item import NodeItem
from .navigation import OPEN, key_command, neighbour
from .outline_item import ROW

if TYPE_CHECKING:
    from ...model.session.tree_filter import FilterMode
    from .view import TreeView

_FORWARD = ("down", "page_down", "branch_down")


class TreeInput:
    """Input: the view (its controller's selection, its shown tree and its outline)."""

    def __init__(self, view: TreeView) -> None:
        self._view = view

    def press(self, key: int, modifiers) -> bool:
        """Act on a key; False when it is not one of the tree's."""
        view = self._view
        mode = self.filter_for(key, modifiers)
        if mode is not None:
            view.filterChosen.emit(mode)
            return True
        command = key_command(key, modifiers, outline=view.outline.shown())
        if command is None:
            return False
        unit = view.selected_unit()
        item = view.unit_items[unit] if unit is not None else None
        if command == OPEN:
            if isinstance(item, FoldItem) and unit is not None:
                view.expand_fold(unit)
            return True
        if command == "fold_or_up":
            selected = view.controller.selected
            if item is not None and not isinstance(item, FoldItem) and selected is not None and view.can_fold(selected):
                view.fold_run(selected)
                return True
            command = "branch_up"
        elif command == "unfold_or_down":
            if isinstance(item, FoldItem) and unit is not None:
                view.expand_fold(unit)
                return True
            command = "branch_down"
        target = self.target(command)
        if target is not None:
            view.controller.select(target)
        return True

    def filter_for(self, key: int, modifiers) -> FilterMode | None:
        """The filter one of pi's filter keys asks for, when it is not the one on (else None: the key
        is not the tree's, and the window's shortcut for it may act; filter_keys.py says why)."""
        command = filter_command(key, modifiers)
        visible = self._view.visible
        if command is None or visible is None:
            return None
        mode = filter_after(visible.mode, command)
        return mode if mode is not visible.mode else None

    def claims(self, key: int, modifiers) -> bool:
        """Whether the tree takes this key ahead of the window's shortcuts: a filter key that changes
        the filter, other than those the window keeps (filter_keys.WINDOW_FIRST)."""
        return filter_command(key, modifiers) not in WINDOW_FIRST and self.filter_for(key, modifiers) is not None

    def go_to_leaf(self) -> None:
        """Select the current leaf; already selected, bring it into view."""
        view = self._view
        if view.session is not None and view.session.leaf_id is not None:
            if view.controller.selected == view.session.leaf_id:
                view.scroll_to(view.session.leaf_id)
            view.controller.select(view.session.leaf_id)

    def target(self, move: str) -> str | None:
        """The entry a move leads to from the selection: on the map along the tree, in the outline by rows."""
        view = self._view
        session, visible, selected = view.session, view.visible, view.controller.selected
        if not view.outline.shown() or move in ("root", "leaf") or session is None or visible is None:
            return neighbour(session, visible, selected, move)
        unit = view.selected_unit()
        if unit is None or view.tree_layout is None:
            return neighbour(session, visible, selected, move)
        stand_in = visible.nearest_visible(session, selected)
        if move == "up" and stand_in is not None and stand_in != selected:
            return stand_in  # the selection is hidden: first the entry the tree marks for it
        page = max(1, int(view.viewport().height() / (ROW * view.zoom_factor())) - 1)
        target = view.outline.target(view.tree_layout, unit, move, page)
        return self._entry_of(target, forward=move in _FORWARD) if target is not None else None

    def _entry_of(self, unit: int, forward: bool) -> str:
        """The entry to select for a unit: its own; a fold's first member going down, its last going up."""
        item = self._view.unit_items[unit]
        if isinstance(item, FoldItem) and not isinstance(item, GapItem):
            return item.members[0] if forward else item.members[-1]
        return item.key

    # ---- the pointer ---------------------------------------------------------------------------

    def clicked(self, item: NodeItem | FoldItem | None, modifiers) -> None:
        """A fold unfolds; a node is selected, or with Ctrl compared with the selection."""
        view = self._view
        if isinstance(item, FoldItem):
            view.expand_fold(item.unit)
            return
        if not isinstance(item, NodeItem):
            return
        view.setFocus(Qt.FocusReason.MouseFocusReason)
        selected = view.controller.selected
        if modifiers & Qt.KeyboardModifier.ControlModifier and selected is not None and selected != item.key:
            view.controller.set_compare(selected, item.key)
            return
        view.controller.select(item.key)

    def double_clicked(self, item: NodeItem | FoldItem | None, at: QPointF) -> bool:
        """On the map, a node double-clicked comes to reading size in the middle of the view."""
        view = self._view
        if not isinstance(item, NodeItem) or view.outline.shown():
            return False
        if view.zoom.factor() < 1.0:
            view.zoom.by(1.0 / view.zoom.factor(), at)
        view.centerOn(item.pos() + QPointF(min(160.0, view.map_items.col_width), 0))
        return True
