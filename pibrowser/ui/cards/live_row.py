"""The live view over the row the mouse is on: one LiveCard, moved from row to row."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QAbstractItemModel, QPersistentModelIndex, QRect
from PySide6.QtWidgets import QWidget

from .live_card import CardHost, LiveCard
from .row_pieces import RowPieces


class LiveRow:
    """Lays a LiveCard over one row of `model` in `viewport` (the persistent index follows the row as
    rows come and go): `root(row)` is the row's pieces, `rect(row)` its place; `host` paints and acts."""

    def __init__(
        self, host: CardHost, viewport: QWidget, model: QAbstractItemModel, root: Callable[[int], RowPieces], rect: Callable[[int], QRect]
    ) -> None:
        self.host, self.viewport, self.model = host, viewport, model
        self.root, self.rect = root, rect
        self.view: LiveCard | None = None
        self._index: QPersistentModelIndex | None = None

    def row(self) -> int | None:
        index = self._index
        return index.row() if index is not None and index.isValid() else None

    def over(self, row: int) -> LiveCard:
        """The live view, laid over this row."""
        root = self.root(row)
        if self.view is None:
            self.view = LiveCard(root, self.host, self.viewport)
        else:
            self.view.set_root(root)
        self._index = QPersistentModelIndex(self.model.index(row, 0))
        self.place()
        return self.view

    def place(self) -> None:
        """Follow the row: its place, and its pieces if they were built again; hidden when the row went."""
        view, row = self.view, self.row()
        if view is None:
            return
        if row is None or row >= self.model.rowCount():
            view.hide()
            return
        view.set_root(self.root(row))
        view.setGeometry(self.rect(row))
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
