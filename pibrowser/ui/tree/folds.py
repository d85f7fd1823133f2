"""Folding and unfolding runs in the tree view: around a selection, one fold, one run, or all of them.

The view keeps `unfolded`, the entries shown one by one that would otherwise be
folded; every change here rebuilds the items and marks them again.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QApplication, QMessageBox

from .fold_item import FoldItem
from .layout import REVEAL_RADIUS, TreeLayout, expansion, reveal, run_members

CONFIRM_UNFOLD = 20_000  # unfolding more entries than this asks first


def around(lay: TreeLayout, key: str) -> list[str]:
    """The few entries either side of `key` in its run, so it does not vanish into a fold."""
    run = run_members(lay, key)
    if not run:
        return []
    at = run.index(key)
    return run[max(0, at - REVEAL_RADIUS) : at + REVEAL_RADIUS + 1]


class Folds:
    """The view's folding commands."""

    def _reveal(self, key: str) -> bool:
        """Unfold around `key` (or the visible entry standing for it) if it sits in a fold."""
        if self.tree_layout is None or self.visible is None:
            return False
        shown = self.visible.nearest_visible(self.session, key)
        if shown is None or self.tree_layout.fold_of(shown) is None:
            return False
        self.unfolded.update(reveal(self.tree_layout, shown, REVEAL_RADIUS))
        self._rebuild(keep_view=True)
        return True

    def _refold(self) -> None:
        """Show the folds as `unfolded` now has them."""
        self._rebuild(keep_view=True)
        self._refresh_marks()

    def expand_fold(self, unit: int, everything: bool = False) -> None:
        lay = self.tree_layout
        if lay is None or unit not in lay.folds:
            return
        members = lay.folds[unit] if everything else expansion(lay, unit)
        self.unfolded.update(members)
        self._refold()

    def fold_run(self, key: str) -> None:
        """Fold again the run `key` belongs to."""
        if self.tree_layout is None:
            return
        run = run_members(self.tree_layout, key)
        if len(run) <= self.threshold:
            return
        self.unfolded.difference_update(run)
        self._refold()

    def can_fold(self, key: str) -> bool:
        return self.tree_layout is not None and len(run_members(self.tree_layout, key)) > self.threshold and self.tree_layout.fold_of(key) is None

    def fold_all(self) -> None:
        """Fold every long run, except a few entries around the selection."""
        if self.tree_layout is None:
            return
        selected = self.controller.selected
        shown = self.visible.nearest_visible(self.session, selected) if selected is not None else None
        self.unfolded = set(around(self.tree_layout, shown)) if shown is not None else set()
        self._refold()

    def unfold_all(self, confirm: bool = False) -> None:
        """Show every entry. With `confirm`, ask first when that means a great many nodes."""
        if self.visible is None:
            return
        count = len(self.visible)
        if confirm and count > CONFIRM_UNFOLD and self.isVisible():
            self._ask_to_unfold(count)
            return
        QApplication.setOverrideCursor(QCursor(Qt.CursorShape.WaitCursor))
        try:
            self.unfolded = set(self.visible.order)
            self._refold()
        finally:
            QApplication.restoreOverrideCursor()

    def _ask_to_unfold(self, count: int) -> None:
        # open(), not exec(): the question never runs a modal loop anything could wait on.
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Unfold all",
            f"Show all {count:,} entries one by one? Building that many nodes takes a few seconds.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.finished.connect(lambda answer: answer == QMessageBox.StandardButton.Yes and self.unfold_all())
        box.finished.connect(box.deleteLater)
        self.unfold_question = box
        box.open()

    def fold_items(self) -> list[FoldItem]:
        return [item for item in self.unit_items if isinstance(item, FoldItem)]

    def fold_of_selection(self) -> FoldItem | None:
        """The fold that hides the selection (or the entry standing for it), if any."""
        unit = self._selected_unit()
        item = self.unit_items[unit] if unit is not None else None
        return item if isinstance(item, FoldItem) else None
