"""What a node and a fold have in common as graphics items: an item type of their own, and bounds they measure."""

from __future__ import annotations

from PySide6.QtCore import Qt, QRectF
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

_NO_PEN = QPen(Qt.PenStyle.NoPen)


# PySide6's stub leaves out QGraphicsItem's anonymous enum (Type, UserType); Qt and PySide6 have it.
USER_TYPE: int = QGraphicsItem.UserType  # type: ignore[attr-defined]


class UnitItem(QGraphicsRectItem):
    """The item of one unit of the layout. Subclasses draw it and give its bounds (`start_bounds`, then `set_bounds`).

    A rect item, so that Qt keeps the bounds itself: the scene (which keeps no index)
    asks every item for them at each paint and hit test, and every moved item when a
    fold opens, and a Python boundingRect would be called for each. Subclasses paint
    the item themselves; the rect is only its bounds (drawn with no pen, they are
    the rect exactly).

    No __init__ here: building a big tree creates one item per unit, and an extra
    Python constructor for each would slow it down.
    """

    ITEM_TYPE = USER_TYPE
    placed: tuple[float, float, float]  # (x, y, room) where make_items put it
    unit_key: tuple[str, str]  # its unit's key (TreeLayout.unit_key), set by make_items
    _room: float  # set by the subclass's __init__ and set_room

    def type(self) -> int:
        return self.ITEM_TYPE

    def start_bounds(self, bounds: QRectF) -> None:
        """The first bounds, from a subclass's __init__: no pen, so the bounds are the rect exactly.

        Each item keeps what it painted as a pixmap at the view's scale (Qt's device cache, within
        its pixmap cache's limit): a selection, a step ↑ or an append repaints the map around a few
        changed items, and painting the text of every unit in sight again took most of the frame
        (some 0.5–1 ms a node). update() on an item, its bounds or a zoom draw it afresh."""
        self.setPen(_NO_PEN)
        self.setRect(bounds)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def set_bounds(self, bounds: QRectF) -> None:
        self.setRect(bounds)  # prepares the geometry change itself

    @property
    def room(self) -> float:
        """How far right of its centre the item may draw before the next unit on its row."""
        return self._room
