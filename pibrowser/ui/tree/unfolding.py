"""Fold commands on the view: the shown tree decides what unfolds, the view lays out again and marks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QApplication, QMessageBox

from .folds import CONFIRM_UNFOLD

ALL_FOLDED = "Nothing more to fold: every long run is folded already"

if TYPE_CHECKING:
    from .view import TreeView


class Unfolding:
    """Input: the view (its shown tree, its session and selection, and its rebuild).
    `question`: the box asking before a very large unfold, while it is open."""

    def __init__(self, view: TreeView) -> None:
        self._view = view
        self.question: QMessageBox | None = None

    def reveal(self, key: str) -> bool:
        """Show `key` (or the visible entry standing for it): open the gap of siblings it is
        hidden in, then unfold around it if it sits in a fold. True when the layout changed."""
        view = self._view
        session = view.session
        if session is None:
            return False
        changed = False
        if view.shown.open_gap_of(session, key):
            view.rebuild(keep_view=True, reuse=True)
            changed = True
        if view.shown.unfold_around(session, key):
            view.rebuild(keep_view=True, reuse=True)
            changed = True
        return changed

    def _refold(self) -> None:
        """Show the folds as they now are."""
        self._view.rebuild(keep_view=True, reuse=True)
        self._view.refresh_marks()

    def expand(self, unit: int, everything: bool = False) -> None:
        """Open a fold, or show the next page of the siblings a gap hides."""
        if self._view.shown.expand(unit, everything):
            self._refold()

    def fold_run(self, key: str) -> None:
        """Fold again the run `key` belongs to."""
        if self._view.shown.fold_run(key):
            self._refold()

    def fold_all(self) -> None:
        """Fold every long run, except a few entries around the selection; say so when all already was."""
        view = self._view
        selected = view.controller.selected
        folds = view.shown.folds
        before = (frozenset(folds.unfolded), frozenset(folds.shown))
        if view.session is None or not view.shown.fold_all(view.session, selected):
            return
        self._refold()
        if selected is not None and self.reveal(selected):  # its branch was in a wide level now closed
            view.refresh_marks()
        if (folds.unfolded, folds.shown) == before:  # else the click seemed to do nothing
            view.told.emit(ALL_FOLDED)

    def _answered(self, answer: int) -> None:
        if answer == QMessageBox.StandardButton.Yes:
            self.unfold_all()

    def unfold_all(self, confirm: bool = False) -> None:
        """Show every entry. With `confirm`, ask first when that means a great many nodes."""
        view = self._view
        if view.visible is None:
            return
        count = len(view.visible)
        if confirm and count > CONFIRM_UNFOLD and view.isVisible():
            self._ask(count)
            return
        QApplication.setOverrideCursor(QCursor(Qt.CursorShape.WaitCursor))
        try:
            if view.shown.unfold_all():
                self._refold()
        finally:
            QApplication.restoreOverrideCursor()

    def _ask(self, count: int) -> None:
        # open(), not exec(): the question never runs a modal loop anything could wait on.
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Unfold all",
            f"Show all {count:,} entries one by one? Building that many nodes takes a few seconds.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self._view,
        )
        box.finished.connect(self._answered)
        box.finished.connect(box.deleteLater)
        self.question = box
        box.open()
