"""The delegate of a list of painted rows: it paints a row from its pieces."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QSize
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionFocusRect, QStyleOptionViewItem

if TYPE_CHECKING:
    from .piece_list import PieceList


class RowDelegate(QStyledItemDelegate):
    """Paints a row from its pieces (the list builds and measures them), and the keyboard's focus on it."""

    def __init__(self, view: PieceList) -> None:
        super().__init__(view)
        self.view = view

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        view, rect = self.view, option.rect
        root = view.root(index.row())
        clip = painter.clipBoundingRect().toAlignedRect() if painter.hasClipping() else None
        root.paint_all(painter, rect.topLeft(), rect.width(), view.look_for(root, view.viewport()), clip)
        if option.state & QStyle.StateFlag.State_HasFocus and view.actions_.focus is None:
            focus = QStyleOptionFocusRect()
            focus.initFrom(view)
            focus.rect = rect.adjusted(-3, -3, 3, 3)
            view.style().drawPrimitive(QStyle.PrimitiveElement.PE_FrameFocusRect, focus, painter, view)

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        return QSize(self.view.viewport().width(), self.view.geometry_of_rows.heights[index.row()])
