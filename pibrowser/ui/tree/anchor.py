"""Keeping the view still across a rebuild: the node it centres on stays where it was on screen."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QGraphicsView


Anchor = tuple[str, QPointF, QTransform]  # an entry's key, where it shows in the viewport, and the zoom


def view_anchor(view: QGraphicsView, items: list, selected: int | None) -> Anchor | None:
    """The selection if it is in sight, else the node nearest the centre of the view."""
    rect = view.viewport().rect()
    centre = view.mapToScene(rect.center())
    visible_rect = view.mapToScene(rect).boundingRect()
    if selected is not None and visible_rect.contains(items[selected].pos()):
        best = items[selected]
    else:
        best = _nearest(items, visible_rect, centre)
    if best is None:
        return None
    return best.key, view.mapFromScene(best.pos()), view.transform()


def _nearest(items: list, rect: QRectF, centre: QPointF):
    """The unit nearest the centre among those in sight (else among all), read from where the layout
    placed them: the scene, which keeps no index, asked every item for its shape."""
    left, top, right, bottom = rect.left(), rect.top(), rect.right(), rect.bottom()
    in_sight = [item for item in items if left <= item.placed[0] <= right and top <= item.placed[1] <= bottom]
    x, y = centre.x(), centre.y()
    return min(in_sight or items, key=lambda item: (item.placed[0] - x) ** 2 + (item.placed[1] - y) ** 2, default=None)


def restore_anchor(view: QGraphicsView, anchor: Anchor, position_of: Callable[[str], QPointF | None]) -> None:
    """Zoom as before and scroll the anchor's entry (wherever it now is) back to its place."""
    key, viewport_pos, transform = anchor
    view.setTransform(transform)
    pos = position_of(key)
    if pos is not None:
        pin(view, pos, QPointF(viewport_pos))


def pin(view: QGraphicsView, scene_point: QPointF, viewport_point: QPointF) -> None:
    """Scroll so that `scene_point` shows at `viewport_point` (as near as the scroll range allows)."""
    for _ in range(2):  # a second pass settles a scroll range that changed with the first
        delta = view.mapFromScene(scene_point) - viewport_point.toPoint()
        if delta.isNull():
            return
        view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + delta.x())
        view.verticalScrollBar().setValue(view.verticalScrollBar().value() + delta.y())
