"""Keeping the view still across a rebuild: the node it centres on stays where it was on screen."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView

from .fold_item import FOLD_TYPE
from .node_item import NODE_TYPE

Anchor = tuple[str, QPointF, QTransform]  # an entry's key, where it shows in the viewport, and the zoom


def view_anchor(view: QGraphicsView, items: list, selected: int | None) -> Anchor | None:
    """The selection if it is in sight, else the node nearest the centre of the view."""
    rect = view.viewport().rect()
    centre = view.mapToScene(rect.center())
    visible_rect = view.mapToScene(rect).boundingRect()
    if selected is not None and visible_rect.contains(items[selected].pos()):
        best = items[selected]
    else:
        best = _nearest(view.scene(), visible_rect, centre)
    if best is None:
        return None
    return best.key, view.mapFromScene(best.pos()), view.transform()


def _nearest(scene: QGraphicsScene, rect: QRectF, centre: QPointF):
    best, best_distance = None, None
    for item in scene.items(rect):
        if item.type() not in (NODE_TYPE, FOLD_TYPE):
            continue
        delta = item.pos() - centre
        distance = delta.x() ** 2 + delta.y() ** 2
        if best_distance is None or distance < best_distance:
            best, best_distance = item, distance
    return best


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
