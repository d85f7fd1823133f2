"""The outline of each node shape, as a painter path centred on the node, for a given radius."""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPolygonF, QTransform


def _polygon(points: list[QPointF]) -> QPainterPath:
    path = QPainterPath()
    path.addPolygon(QPolygonF(points))
    path.closeSubpath()
    return path


def _rounded(rect: QRectF, rx: float, ry: float) -> QPainterPath:
    path = QPainterPath()
    path.addRoundedRect(rect, rx, ry)
    return path


def _circle(r: float) -> QPainterPath:
    path = QPainterPath()
    path.addEllipse(QPointF(0, 0), r, r)
    return path


def _square(r: float) -> QPainterPath:
    return _rounded(QRectF(-r, -r, 2 * r, 2 * r), 1.5, 1.5)


def _diamond(r: float) -> QPainterPath:
    return _polygon([QPointF(0, -r * 1.2), QPointF(r * 1.2, 0), QPointF(0, r * 1.2), QPointF(-r * 1.2, 0)])


def _hexagon(r: float) -> QPainterPath:
    return _polygon([QPointF(r * math.cos(a), r * math.sin(a)) for a in (math.pi / 3 * i + math.pi / 6 for i in range(6))])


def _compaction(r: float) -> QPainterPath:
    return _rounded(QRectF(-r * 1.35, -r * 0.75, r * 2.7, r * 1.5), 3, 3)


def _summary(r: float) -> QPainterPath:
    return _rounded(QRectF(-r * 1.2, -r * 0.8, r * 2.4, r * 1.6), r * 0.8, r * 0.8)


def _triangle(r: float) -> QPainterPath:
    return _polygon([QPointF(0, -r * 1.15), QPointF(r * 1.15, r * 0.85), QPointF(-r * 1.15, r * 0.85)])


def _triangle_down(r: float) -> QPainterPath:
    return _polygon([QPointF(0, r * 1.15), QPointF(r * 1.15, -r * 0.85), QPointF(-r * 1.15, -r * 0.85)])


def _tag(r: float) -> QPainterPath:
    return _polygon(
        [QPointF(-r, -r * 0.8), QPointF(r * 0.4, -r * 0.8), QPointF(r * 1.2, 0), QPointF(r * 0.4, r * 0.8), QPointF(-r, r * 0.8)]
    )


def _cross(r: float) -> QPainterPath:
    path = QPainterPath()
    w = r * 0.45
    for angle in (45, -45):
        bar = QPainterPath()
        bar.addRect(QRectF(-r * 1.1, -w, r * 2.2, 2 * w))
        path = path.united(QTransform().rotate(angle).map(bar))
    return path


def _box(r: float) -> QPainterPath:
    path = QPainterPath()
    path.addRect(QRectF(-r, -r, 2 * r, 2 * r))
    return path


_SHAPES: dict[str, Callable[[float], QPainterPath]] = {
    "circle": _circle,
    "circle_dashed": _circle,
    "dot": _circle,
    "square": _square,
    "diamond": _diamond,
    "diamond_hollow": _diamond,
    "hexagon": _hexagon,
    "compaction": _compaction,
    "summary": _summary,
    "triangle": _triangle,
    "triangle_down": _triangle_down,
    "tag": _tag,
    "cross": _cross,
}


def shape_path(name: str, r: float) -> QPainterPath:
    """The path of shape `name` (a box for a name not known)."""
    return _SHAPES.get(name, _box)(r)
