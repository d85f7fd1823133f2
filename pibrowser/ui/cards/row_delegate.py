"""The delegate of a list of painted rows: it paints a row from its pieces."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QAbstractItemView, QStyle, QStyledItemDelegate, QStyleOptionFocusRect, QStyleOptionViewItem, QWidget

from ..guard import guarded, guarded_paint
from .pieces import PaintState
from .row_pieces import RowPieces


class RowDelegate(QStyledItemDelegate):
    """Paints a row of `view` from its pieces (`root(row)`, built and measured by the list) as
    `paint_state` says, and the keyboard's focus on the row unless Tab is on a part of it."""

    def __init__(
        self,
        view: QAbstractItemView,
        root: Callable[[int], RowPieces],
        paint_state: Callable[[RowPieces, QWidget], PaintState],
        on_a_part: Callable[[], bool],
        height: Callable[[int], int],
    ) -> None:
        super().__init__(view)
        self.view = view
        self.root, self.paint_state, self.on_a_part, self.height = root, paint_state, on_a_part, height

    @guarded_paint
    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        view, rect = self.view, option.rect
        root = self.root(index.row())
        clip = painter.clipBoundingRect().toAlignedRect() if painter.hasClipping() else None
        root.paint_all(painter, rect.topLeft(), rect.width(), self.paint_state(root, view.viewport()), clip)
        if option.state & QStyle.StateFlag.State_HasFocus and not self.on_a_part():
            focus = QStyleOptionFocusRect()
            focus.initFrom(view)
            focus.rect = rect.adjusted(-3, -3, 3, 3)
            view.style().drawPrimitive(QStyle.PrimitiveElement.PE_FrameFocusRect, focus, painter, view)

    @guarded(fallback=QSize())
    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        return QSize(self.view.viewport().width(), self.height(index.row()))
