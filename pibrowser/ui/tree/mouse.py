"""The mouse on the tree view: what is under it, a click told from a drag, hover and tooltips.

The items take no mouse events themselves; the view finds the node or fold under
the pointer, so a drag on empty space or on a node alike scrolls the view.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QApplication, QGraphicsView, QToolTip, QWidget

from .build import MARGIN, ROW_HEIGHT
from .fold_item import FOLD_TYPE, FoldItem
from .layout import TreeLayout
from .node_item import NODE_TYPE, NodeItem

Unit = NodeItem | FoldItem


class HitTest:
    """Finds the node or fold under a viewport position: by the items' shapes, or far out by the dot map's grid.

    Inputs: the view (its scene and transform); `forget()` whenever the items are rebuilt.
    """

    def __init__(self, view: QGraphicsView) -> None:
        self._view = view
        self._cells: dict[tuple[int, int], int] | None = None

    def forget(self) -> None:
        self._cells = None

    def at(self, pos: QPoint | QPointF, overview: bool, lay: TreeLayout | None, items: list[Unit], col_width: float) -> Unit | None:
        view = self._view
        point = view.mapToScene(QPoint(int(pos.x()), int(pos.y())))
        if overview:
            return self._nearest_cell(point, lay, items, col_width)
        for item in view.scene().items(point, Qt.ItemSelectionMode.IntersectsItemShape, Qt.SortOrder.DescendingOrder, view.transform()):
            if item.type() in (NODE_TYPE, FOLD_TYPE) and isinstance(item, (NodeItem, FoldItem)):
                return item
        return None

    def _nearest_cell(self, point: QPointF, lay: TreeLayout | None, items: list[Unit], col_width: float) -> Unit | None:
        """In the dot map: the unit whose grid cell holds the point."""
        if lay is None:
            return None
        if self._cells is None:
            self._cells = {(lay.row[u], lay.col[u]): u for u in range(len(lay))}
        row = round((point.y() - MARGIN) / ROW_HEIGHT)
        col = round((point.x() - MARGIN) / col_width)
        unit = self._cells.get((row, col))
        return items[unit] if unit is not None else None


class Pointer:
    """The pointer over the tree: the button pressed (a click is a press and release that did not drag)
    and the item under the pointer, drawn hovered.

    Inputs: `viewport` (its cursor and tooltips), `item_at(viewport position)`, `clicked(item, modifiers)`,
    called for a left click that did not drag, and `repaint(item)` for an item whose hover changed.
    The view forwards its mouse events.
    """

    def __init__(
        self,
        viewport: QWidget,
        item_at: Callable[[QPointF], Unit | None],
        clicked: Callable[[Unit | None, object], None],
        repaint: Callable[[Unit], None] = lambda item: item.update(),
    ) -> None:
        self._viewport = viewport
        self._item_at = item_at
        self._clicked = clicked
        self._repaint = repaint
        self._press: tuple[QPointF, Qt.MouseButton] | None = None
        self.hovered: Unit | None = None

    def press(self, event) -> bool:
        """Remember the press; True when it is used up here (a right press opens the menu, it does not drag)."""
        self._press = (event.position(), event.button())
        if event.button() == Qt.MouseButton.RightButton:
            event.accept()
            return True
        return False

    def release(self, event) -> None:
        """After the view has ended any drag: a left click that did not move is a click."""
        press, self._press = self._press, None
        if press is None or press[1] != Qt.MouseButton.LeftButton or event.button() != Qt.MouseButton.LeftButton:
            return
        if (event.position() - press[0]).manhattanLength() >= QApplication.startDragDistance():
            return  # a drag scrolled the view
        self._clicked(self._item_at(event.position()), event.modifiers())
        self.hover(event.position())

    def move(self, event) -> None:
        if not event.buttons():
            self.hover(event.position())

    def hover(self, pos: QPointF) -> None:
        item = self._item_at(pos)
        if item is self.hovered:
            return
        self.leave()
        self.hovered = item
        if item is not None:
            item.hovered = True
            self._repaint(item)
            self._viewport.setCursor(Qt.CursorShape.PointingHandCursor)
        else:
            self._viewport.setCursor(Qt.CursorShape.OpenHandCursor)

    def leave(self) -> None:
        if self.hovered is not None:
            self.hovered.hovered = False
            self._repaint(self.hovered)
            self.hovered = None

    def forget(self) -> None:
        """The items are about to go: drop the one hovered without touching it."""
        self.hovered = None

    def tooltip(self, event) -> None:
        item = self._item_at(event.pos())
        if item is not None:
            QToolTip.showText(event.globalPos(), item.tooltip(), self._viewport)
        else:
            QToolTip.hideText()
            event.ignore()
