"""What the tree view offers to choose: its actions (for menus and the toolbar) and its right-click menu."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu


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

    def groups(self) -> list[list[QAction]]:
        return [[self.zoom_in, self.zoom_out, self.fit], [self.fold_all, self.unfold_all], [self.go_leaf, self.legend]]

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
) -> TreeActions:
    """The tree's actions, each calling the slot given for it."""
    legend = QAction("Show Path &Legend", parent)
    legend.setCheckable(True)
    legend.setChecked(True)
    legend.setStatusTip("Show what the colours of the selected path mean")
    legend.toggled.connect(show_legend)
    return TreeActions(
        zoom_in=_action(parent, "Zoom &In", zoom_in, ["Ctrl+=", "Ctrl++"], "Zoom in on the tree"),
        zoom_out=_action(parent, "Zoom &Out", zoom_out, ["Ctrl+-"], "Zoom out"),
        fit=_action(parent, "&Fit Tree to Window", fit, ["Ctrl+0"], "Show the whole tree"),
        fold_all=_action(parent, "Fold &All Runs", fold_all, ["Ctrl+["], "Fold every long run of single-child entries"),
        unfold_all=_action(parent, "&Unfold All Runs", unfold_all, ["Ctrl+]"], "Show every entry (slow for huge sessions)"),
        go_leaf=_action(parent, "Go to &Current Leaf", go_leaf, ["Ctrl+End"], "Select the entry where pi resumes"),
        legend=legend,
    )


def _action(parent: QObject, text: str, slot: Callable, shortcuts: list[str], tip: str) -> QAction:
    action = QAction(text, parent)
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
