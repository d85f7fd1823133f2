"""A QListView whose rows are placed by our own geometry, not by QListView's layout.

QListView lays its rows out by asking every row's size at every change (a row inserted
or removed, a row grown): a list of thousands of cards would pay for all of them at
each step along a path. This view answers the item view's geometry questions (where is
a row, which row is at a point, how far is it scrolled, where the cursor moves) from a
RowGeometry: heights known or estimated, tops summed once per change from the first
row that changed. The subclass measures rows and says when they changed.

Why a QListView and not a bare QAbstractItemView, when every geometry method is ours:
those methods are the ones QAbstractItemView leaves to a subclass anyway, and
QListView is what Qt's accessibility knows as a list. A screen reader reaches a
QListView's rows (role List, one child per row, each with its text); a
QAbstractItemView subclass is to it one blank widget (role Client, no rows), which
`tests/ui/test_context_panel.py` checks. What is taken over from QListView is its
layout (`doItemsLayout`) and nothing else of it runs: its keyboard moves go through
`moveCursor`, its painting is the list's.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, QRect
from PySide6.QtGui import QRegion
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from .row_geometry import RowGeometry
from ..guard import guarded

SIDE, TOP, BOTTOM, SPACING = 8, 6, 10, 8  # the rows' margins in the list, and the space between two
ESTIMATE = 120  # the height a row counts with until it is measured

Index = QModelIndex | QPersistentModelIndex


class RowView(QListView):
    """Rows one under the other, SIDE from the sides, SPACING apart, where `geometry_of_rows` says."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.geometry_of_rows = RowGeometry(TOP, ESTIMATE + SPACING)

    def footer_height(self) -> int:
        """Room under the last row (a note there)."""
        return 0

    def ensure_visible(self, row: int) -> None:
        raise NotImplementedError

    # -- where rows are

    def card_width(self) -> int:
        return max(self.viewport().width() - 2 * SIDE, 1)

    def content_height(self) -> int:
        return self.geometry_of_rows.end() + self.footer_height() + BOTTOM

    def row_rect(self, row: int) -> QRect:
        """The row in the viewport's coordinates."""
        geometry, value = self.geometry_of_rows, self.verticalScrollBar().value()
        top = geometry.top(row)
        return QRect(SIDE, top - value, self.card_width(), geometry.bottom(row) - top - SPACING)

    def visible_rows(self) -> range:
        """The rows that show, whole or in part."""
        geometry, value = self.geometry_of_rows, self.verticalScrollBar().value()
        if not len(geometry):
            return range(0)
        first = geometry.row_at(max(value, TOP))
        last = geometry.row_at(min(value + self.viewport().height() - 1, geometry.end() - 1))
        return range(first, last + 1) if first is not None and last is not None else range(0)

    def top_anchor(self) -> tuple[int, int] | None:
        """The first row that shows and how far its top is from the view's top."""
        geometry, value = self.geometry_of_rows, self.verticalScrollBar().value()
        row = geometry.row_at(max(value, TOP)) if len(geometry) else None
        return (row, geometry.top(row) - value) if row is not None else None

    # -- the item view's questions, answered from the geometry

    def doItemsLayout(self) -> None:
        QAbstractItemView.doItemsLayout(self)  # not QListView's: it would size every row

    @guarded
    def updateGeometries(self) -> None:
        bar, view = self.verticalScrollBar(), self.viewport().height()
        bar.setPageStep(max(view, 1))
        bar.setRange(0, max(self.content_height() - view, 0))
        QAbstractItemView.updateGeometries(self)

    @guarded(fallback=QRect())
    def visualRect(self, index: Index) -> QRect:
        if not index.isValid() or not 0 <= index.row() < len(self.geometry_of_rows):
            return QRect()
        return self.row_rect(index.row())

    @guarded(fallback=QModelIndex())
    def indexAt(self, point: QPoint) -> QModelIndex:
        row = self.geometry_of_rows.row_at(point.y() + self.verticalScrollBar().value())
        if row is None or not self.row_rect(row).contains(point):
            return QModelIndex()
        return self.model().index(row, 0)

    @guarded
    def scrollTo(self, index: Index, hint: QAbstractItemView.ScrollHint = QAbstractItemView.ScrollHint.EnsureVisible) -> None:
        if index.isValid() and index.row() < len(self.geometry_of_rows):
            self.ensure_visible(index.row())

    @guarded(fallback=QModelIndex())
    def moveCursor(self, action: QAbstractItemView.CursorAction, modifiers) -> QModelIndex:
        count = len(self.geometry_of_rows)
        if not self.currentIndex().isValid():
            shown = self.visible_rows()  # the keyboard comes in where the user looks
            return self.model().index(shown[0], 0) if shown else QModelIndex()
        current = self.currentIndex().row()
        moves = {
            QAbstractItemView.CursorAction.MoveUp: current - 1,
            QAbstractItemView.CursorAction.MovePrevious: current - 1,
            QAbstractItemView.CursorAction.MoveDown: current + 1,
            QAbstractItemView.CursorAction.MoveNext: current + 1,
            QAbstractItemView.CursorAction.MoveHome: 0,
            QAbstractItemView.CursorAction.MoveEnd: count - 1,
        }
        return self.model().index(max(0, min(moves.get(action, current), count - 1)), 0) if count else QModelIndex()

    def horizontalOffset(self) -> int:
        return 0

    @guarded(fallback=0)
    def verticalOffset(self) -> int:
        return self.verticalScrollBar().value()

    def isIndexHidden(self, index: Index) -> bool:
        return False

    def setSelection(self, rect: QRect, command) -> None:
        pass  # what is selected is the tree's selection, not rows of this list

    def visualRegionForSelection(self, selection) -> QRegion:
        return QRegion()

    @guarded
    def rowsInserted(self, parent: Index, start: int, end: int) -> None:
        self.geometry_of_rows.replace(start, 0, end - start + 1)
        QAbstractItemView.rowsInserted(self, parent, start, end)

    @guarded
    def rowsAboutToBeRemoved(self, parent: Index, start: int, end: int) -> None:
        QAbstractItemView.rowsAboutToBeRemoved(self, parent, start, end)
        self.geometry_of_rows.replace(start, end - start + 1, 0)

    def dataChanged(self, top_left: Index, bottom_right: Index, roles=()) -> None:
        QAbstractItemView.dataChanged(self, top_left, bottom_right, roles)

    @guarded
    def reset(self) -> None:
        self.geometry_of_rows.clear()
        model = self.model()
        if model is not None:
            self.geometry_of_rows.replace(0, 0, model.rowCount())
        QAbstractItemView.reset(self)
