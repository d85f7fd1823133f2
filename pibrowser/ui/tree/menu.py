"""What the tree view offers to choose: its actions (for menus and the toolbar) and its right-click menu."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from .fold_item import FoldItem
from .layout import expansion, run_members
from .node_item import NodeItem


class Menus:
    """The view's actions and context menu; `node_actions` (set by the pane) head the menu on a node."""

    def _build_actions(self) -> None:
        make = self._make_action
        self.zoom_in_action = make("Zoom &In", self.zoom_in, ["Ctrl+=", "Ctrl++"], "Zoom in on the tree")
        self.zoom_out_action = make("Zoom &Out", self.zoom_out, ["Ctrl+-"], "Zoom out")
        self.fit_action = make("&Fit Tree to Window", self.fit, ["Ctrl+0"], "Show the whole tree")
        self.fold_all_action = make("Fold &All Runs", self.fold_all, ["Ctrl+["], "Fold every long run of single-child entries")
        self.unfold_all_action = make("&Unfold All Runs", lambda: self.unfold_all(confirm=True), ["Ctrl+]"], "Show every entry (slow for huge sessions)")
        self.go_leaf_action = make("Go to &Current Leaf", self.go_to_current_leaf, ["Ctrl+End"], "Select the entry where pi resumes")
        self.legend_action = QAction("Show Path &Legend", self)
        self.legend_action.setCheckable(True)
        self.legend_action.setChecked(True)
        self.legend_action.setStatusTip("Show what the colours of the selected path mean")
        self.legend_action.toggled.connect(self._toggle_legend)

    def _make_action(self, text: str, slot: Callable, shortcuts: list[str | QKeySequence], tip: str) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(s) for s in shortcuts])
        action.setStatusTip(tip)
        action.setToolTip(f"{tip} ({action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})" if shortcuts else tip)
        action.triggered.connect(slot)
        return action

    def actions_for_menu(self) -> list[QAction]:
        """The view's actions for a menu, in groups divided by separators."""
        groups = [
            [self.zoom_in_action, self.zoom_out_action, self.fit_action],
            [self.fold_all_action, self.unfold_all_action],
            [self.go_leaf_action, self.legend_action],
        ]
        actions: list[QAction] = []
        for group in groups:
            if actions:
                separator = QAction(self)
                separator.setSeparator(True)
                actions.append(separator)
            actions.extend(group)
        return actions

    def contextMenuEvent(self, event) -> None:
        item = self.item_at(event.pos())
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # one menu per right-click
        if isinstance(item, NodeItem):
            self._add_node_entries(menu, item)
        elif isinstance(item, FoldItem):
            self._add_fold_entries(menu, item)
        for action in (self.fold_all_action, self.unfold_all_action, self.fit_action):
            menu.addAction(action)
        self.context_menu = menu
        menu.popup(event.globalPos())
        event.accept()

    def _add_node_entries(self, menu: QMenu, item: NodeItem) -> None:
        """A right-click selects the node; then the pane's actions on it, and folding its run."""
        self.controller.select(item.key)
        for action in self.node_actions:
            menu.addAction(action)
        if self.node_actions:
            menu.addSeparator()
        if self.can_fold(item.key):
            run = len(run_members(self.tree_layout, item.key))
            menu.addAction(f"Fold This Run ({run:,} entries)", lambda key=item.key: self.fold_run(key))

    def _add_fold_entries(self, menu: QMenu, item: FoldItem) -> None:
        count = len(item.members)
        if count > len(expansion(self.tree_layout, item.unit)):
            menu.addAction(f"Show the First {len(expansion(self.tree_layout, item.unit)):,} Entries", lambda u=item.unit: self.expand_fold(u))
        menu.addAction(f"Expand All {count:,} Entries", lambda u=item.unit: self.expand_fold(u, everything=True))
        menu.addSeparator()
