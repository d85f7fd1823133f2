"""The mouse on the tree view: what is under it, clicks that select or unfold, hover and tooltips.

The items take no mouse events themselves; the view finds the node or fold under
the pointer, so a drag on empty space or on a node alike scrolls the view.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtWidgets import QApplication, QToolTip

from .build import MARGIN, ROW_HEIGHT
from .fold_item import FOLD_TYPE, FoldItem
from .node_item import NODE_TYPE, NodeItem


class Mouse:
    """Pointer handling for the tree view: `_press` is the button down, `_hovered` the item under the pointer."""

    def item_at(self, pos: QPoint | QPointF) -> NodeItem | FoldItem | None:
        """The node or fold under a viewport position."""
        point = self.mapToScene(QPoint(int(pos.x()), int(pos.y())))
        if self.overview_shown():
            return self._nearest_cell(point)
        for item in self.scene().items(point, Qt.ItemSelectionMode.IntersectsItemShape, Qt.SortOrder.DescendingOrder, self.transform()):
            if item.type() in (NODE_TYPE, FOLD_TYPE):
                return item
        return None

    def _nearest_cell(self, point: QPointF) -> NodeItem | FoldItem | None:
        """In the dot map: the unit whose grid cell holds the point."""
        lay = self.tree_layout
        if lay is None:
            return None
        if self._cells is None:
            self._cells = {(lay.row[u], lay.col[u]): u for u in range(len(lay))}
        row = round((point.y() - MARGIN) / ROW_HEIGHT)
        col = round((point.x() - MARGIN) / self.col_width)
        unit = self._cells.get((row, col))
        return self.unit_items[unit] if unit is not None else None

    # ---- clicks -------------------------------------------------------------------

    def mousePressEvent(self, event) -> None:
        self._press = (event.position(), event.button())
        if event.button() == Qt.MouseButton.RightButton:
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        press, self._press = self._press, None
        if press is None or press[1] != Qt.MouseButton.LeftButton or event.button() != Qt.MouseButton.LeftButton:
            return
        moved = (event.position() - press[0]).manhattanLength()
        if moved >= QApplication.startDragDistance():
            return  # a drag scrolled the view
        self._click(event.position(), event.modifiers())
        self._update_hover(event.position())

    def _click(self, pos: QPointF, modifiers) -> None:
        """A fold unfolds; a node is selected, or with Ctrl compared with the selection."""
        item = self.item_at(pos)
        if isinstance(item, FoldItem):
            self.expand_fold(item.unit)
            return
        if not isinstance(item, NodeItem):
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        if modifiers & Qt.KeyboardModifier.ControlModifier:
            selected = self.controller.selected
            if selected is not None and selected != item.key:
                self.controller.set_compare(selected, item.key)
                return
        self.controller.select(item.key)

    def mouseDoubleClickEvent(self, event) -> None:
        item = self.item_at(event.position())
        if isinstance(item, NodeItem):
            if self.zoom_factor() < 1.0:
                self.zoom_by(1.0 / self.zoom_factor(), event.position())
            self.centerOn(item.pos() + QPointF(min(160.0, self.col_width), 0))
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    # ---- hover ----------------------------------------------------------------------

    def mouseMoveEvent(self, event) -> None:
        super().mouseMoveEvent(event)
        if not event.buttons():
            self._update_hover(event.position())

    def _update_hover(self, pos: QPointF) -> None:
        item = self.item_at(pos)
        if item is self._hovered:
            return
        self._unhover()
        self._hovered = item
        if item is not None:
            item.hovered = True
            item.update()
            self.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
        else:
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)

    def _unhover(self) -> None:
        if self._hovered is not None:
            self._hovered.hovered = False
            self._hovered.update()
            self._hovered = None

    def leaveEvent(self, event) -> None:
        self._unhover()
        super().leaveEvent(event)

    def viewportEvent(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            item = self.item_at(event.pos())
            if item is not None:
                QToolTip.showText(event.globalPos(), item.tooltip(), self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)
