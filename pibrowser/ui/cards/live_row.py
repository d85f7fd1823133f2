"""The live view over the row the mouse is on: one CardView, moved from row to row."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPersistentModelIndex

from .card_view import CardView

if TYPE_CHECKING:
    from .piece_list import PieceList


class LiveRow:
    """Lays a CardView over one row of `rows` (the persistent index follows the row as rows come and go)."""

    def __init__(self, rows: PieceList) -> None:
        self.rows = rows
        self.view: CardView | None = None
        self._index: QPersistentModelIndex | None = None

    def row(self) -> int | None:
        index = self._index
        return index.row() if index is not None and index.isValid() else None

    def over(self, row: int) -> CardView:
        """The live view, laid over this row."""
        root = self.rows.root(row)
        if self.view is None:
            self.view = CardView(root, self.rows, self.rows.viewport())
        else:
            self.view.set_root(root)
        self._index = QPersistentModelIndex(self.rows.rows_model.index(row, 0))
        self.place()
        return self.view

    def place(self) -> None:
        """Follow the row: its place, and its pieces if they were built again; hidden when the row went."""
        view, row = self.view, self.row()
        if view is None:
            return
        if row is None or row >= len(self.rows.rows):
            view.hide()
            return
        view.set_root(self.rows.root(row))
        view.setGeometry(self.rows.row_rect(row))
        view.show()
        view.update()

    def update(self) -> None:
        if self.view is not None:
            self.view.update()

    def refresh_marks(self) -> None:
        """The search marks changed: the live texts show the new ones."""
        if self.view is not None:
            self.view.refresh_marks()

    def hide(self) -> None:
        if self.view is not None:
            self.view.hide()
        self._index = None
