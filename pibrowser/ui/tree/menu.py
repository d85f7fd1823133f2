"""What the tree view offers to choose: its actions (for menus and the toolbar) and its right-click menu."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from .fold_item import FoldItem
from .gap_item import GapItem
from .layout import expansion, run_members
from .node_item import NodeItem

if TYPE_CHECKING:
    from .view import TreeView


@dataclass(frozen=True)
class TreeActions:
    """The view's actions; `groups` orders them for a menu."""

    zoom_in: QAction
    zoom_out: QAction
    fit: QAction
    fold_all: QAction
    unfold_all: QAction
    go_leaf: QAction
    legend: QAction
    as_outline: QAction
    as_map: QAction

    def groups(self) -> list[list[QAction]]:
        return [
            [self.as_outline, self.as_map],
            [self.zoom_in, self.zoom_out, self.fit],
            [self.fold_all, self.unfold_all],
            [self.go_leaf, self.legend],
        ]

    def for_menu(self, parent: QObject) -> list[QAction]:
        """The actions in their groups, divided by separators."""
        actions: list[QAction] = []
        for group in self.groups():
            if actions:
                separator = QAction(parent)
                separator.setSeparator(True)
                actions.append(separator)
            actions.extend(group)
        return actions


def make_actions(
    parent: QObject,
    *,
    zoom_in: Callable[[], None],
    zoom_out: Callable[[], None],
    fit: Callable[[], None],
    fold_all: Callable[[], None],
    unfold_all: Callable[[], None],
    go_leaf: Callable[[], None],
    show_legend: Callable[[bool], None],
    as_outline: Callable[[bool], None],
) -> TreeActions:
    """The tree's actions, each calling the slot given for it."""
    legend = QAction("Show Path &Legend", parent)
    legend.setIconText("Legend")
    legend.setCheckable(True)
    legend.setChecked(True)
    legend.setStatusTip("Show what the colours of the selected path mean")
    legend.toggled.connect(show_legend)
    outline, tree_map = _view_choice(parent, as_outline)
    return TreeActions(
        zoom_in=_action(parent, "Zoom &In", zoom_in, ["Ctrl+=", "Ctrl++"], "Zoom in on the tree", short="+"),
        zoom_out=_action(parent, "Zoom &Out", zoom_out, ["Ctrl+-"], "Zoom out", short="−"),
        fit=_action(parent, "&Fit Tree to Window", fit, ["Ctrl+0"], "Show the whole tree (the outline: at reading size)", short="Fit"),
        fold_all=_action(parent, "Fold &All Runs", fold_all, ["Ctrl+["], "Fold every long run of single-child entries", short="Fold"),
        unfold_all=_action(parent, "&Unfold All Runs", unfold_all, ["Ctrl+]"], "Show every entry (slow for huge sessions)", short="Unfold"),
        go_leaf=_action(parent, "Go to &Current Leaf", go_leaf, ["Ctrl+End"], "Select the entry where pi resumes"),
        legend=legend,
        as_outline=outline,
        as_map=tree_map,
    )


def _view_choice(parent: QObject, as_outline: Callable[[bool], None]) -> tuple[QAction, QAction]:
    """View ▸ Tree as Outline / Tree as Map: one of the two, checked."""
    group = QActionGroup(parent)
    outline = _action(
        parent, "Tree as &Outline", lambda: None, ["Ctrl+Shift+T"], "Show the tree as indented rows, as pi's /tree does", short="Outline"
    )
    tree_map = _action(parent, "Tree as &Map", lambda: None, ["Ctrl+Shift+M"], "Show the tree as a map of its branches", short="Map")
    for action in (outline, tree_map):
        action.setCheckable(True)
        group.addAction(action)
    tree_map.setChecked(True)
    outline.toggled.connect(as_outline)
    return outline, tree_map


def _action(parent: QObject, text: str, slot: Callable, shortcuts: list[str], tip: str, short: str | None = None) -> QAction:
    """An action; `short` is what a toolbar button says (menus say `text`)."""
    action = QAction(text, parent)
    if short is not None:
        action.setIconText(short)
    action.setShortcuts([QKeySequence(s) for s in shortcuts])
    action.setStatusTip(tip)
    action.setToolTip(f"{tip} ({action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})" if shortcuts else tip)
    action.triggered.connect(slot)
    return action


def add_node_entries(menu: QMenu, node_actions: list[QAction], run: int, fold_run: Callable[[], None]) -> None:
    """On a node: the pane's actions on the selection, then folding the node's run (`run` entries; 0: it cannot fold)."""
    for action in node_actions:
        menu.addAction(action)
    if node_actions:
        menu.addSeparator()
    if run:
        menu.addAction(f"Fold This Run ({run:,} entries)", fold_run)


def add_fold_entries(menu: QMenu, count: int, first: int, expand: Callable[[bool], None]) -> None:
    """On a fold of `count` entries: show its `first` ones (when that is fewer), or all of them."""
    if count > first:
        menu.addAction(f"Show the First {first:,} Entries", lambda: expand(False))
    menu.addAction(f"Expand All {count:,} Entries", lambda: expand(True))
    menu.addSeparator()


def add_gap_entries(menu: QMenu, page: int, show: Callable[[], None]) -> None:
    """On a gap of siblings too many to draw: show the next `page` of them."""
    menu.addAction(f"Show the Next {page:,} " + ("Branch" if page == 1 else "Branches"), show)
    menu.addSeparator()


def tree_menu(view: TreeView, item: NodeItem | FoldItem | None, node_actions: list[QAction], actions: TreeActions) -> QMenu:
    """The right-click menu on `item` (a node, a fold, a gap or nothing), then the view's own entries."""
    menu = QMenu(view if isinstance(view, QWidget) else None)
    menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # one menu per right-click
    lay = view.tree_layout
    if isinstance(item, NodeItem):
        key = item.key
        run = len(run_members(lay, key)) if lay is not None and view.can_fold(key) else 0
        add_node_entries(menu, node_actions, run, lambda: view.fold_run(key))
    elif isinstance(item, GapItem):
        gap = item.unit
        add_gap_entries(menu, item.page(), lambda: view.expand_fold(gap))
    elif isinstance(item, FoldItem):
        fold = item.unit
        first = len(expansion(lay, fold)) if lay is not None else 0
        add_fold_entries(menu, len(item.members), first, lambda everything: view.expand_fold(fold, everything))
    for action in (actions.fold_all, actions.unfold_all, actions.fit):
        menu.addAction(action)
    return menu
