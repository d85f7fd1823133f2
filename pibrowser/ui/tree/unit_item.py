"""What a node and a fold have in common as graphics items: an item type of their own, and bounds they measure."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem


class UnitItem(QGraphicsItem):
    """The item of one unit of the layout. Subclasses set ITEM_TYPE and keep `_bounds` up to date.

    No __init__ here: building a big tree creates one item per unit, and an extra
    Python constructor for each would slow it down.
    """

    ITEM_TYPE = QGraphicsItem.UserType

    def type(self) -> int:
        return self.ITEM_TYPE

    def boundingRect(self) -> QRectF:
        return self._bounds

    @property
    def room(self) -> float:
        """How far right of its centre the item may draw before the next unit on its row."""
        return self._room
