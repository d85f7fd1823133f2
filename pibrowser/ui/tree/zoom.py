"""Zooming the tree view: by steps, under the mouse with the wheel, to fit, and at opening."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QGraphicsView

from .anchor import pin

MIN_SCALE, MAX_SCALE = 0.01, 4.0
MIN_FIT = 0.02


def fit_scale(scene: QRectF, viewport: QRect) -> float:
    """The scale at which the whole scene fits the viewport."""
    return min(viewport.width() / scene.width(), viewport.height() / scene.height())


def min_scale(scene: QRectF, viewport: QRect) -> float:
    """How far out zooming may go: a little past fitting the whole tree, never more than half size."""
    if scene.width() <= 0 or scene.height() <= 0:
        return MIN_SCALE
    return max(MIN_SCALE, min(0.5, fit_scale(scene, viewport) * 0.8))


class Zoom:
    """Zoom for the tree view; after each change it lets the view pick its level of detail."""

    def zoom_factor(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float, at: QPointF | None = None) -> None:
        """Zoom by `factor`, keeping the scene point under viewport position `at` (default: the centre) still."""
        current = self.zoom_factor()
        target = min(MAX_SCALE, max(min_scale(self.sceneRect(), self.viewport().rect()), current * factor))
        if target == current:
            return
        at = QPointF(self.viewport().rect().center()) if at is None else QPointF(at)
        anchor = self.mapToScene(at.toPoint())
        old = self.transformationAnchor()
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.scale(target / current, target / current)
        self.setTransformationAnchor(old)
        pin(self, anchor, at)
        self._update_detail()

    def zoom_in(self) -> None:
        self.zoom_by(1.25)

    def zoom_out(self) -> None:
        self.zoom_by(0.8)

    def fit(self) -> None:
        rect = self.sceneRect()
        if rect.isEmpty():
            return
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        scale = self.zoom_factor()
        if scale > 1.2 or scale < MIN_FIT:
            # A tiny tree is not blown up; an enormously tall or wide one is shown as far
            # out as still shows something, around the selection.
            scale = min(1.2, max(MIN_FIT, scale))
            self.setTransform(QTransform.fromScale(scale, scale))
            unit = self._selected_unit()
            self.centerOn(self.unit_items[unit].pos() if unit is not None and scale == MIN_FIT else rect.center())
        self._update_detail()

    def _initial_zoom(self) -> None:
        """A new session opens at reading size, or smaller when it fits the window that way."""
        rect = self.sceneRect()
        view = self.viewport().rect()
        if rect.width() <= 0 or view.width() <= 0:
            return
        scale = min(1.0, max(0.8, fit_scale(rect, view)))
        self.setTransform(QTransform.fromScale(scale, scale))
        self._update_detail()

    def wheelEvent(self, event) -> None:
        delta = event.angleDelta()
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier or (delta.x() and not delta.y()):
            bar = self.horizontalScrollBar()
            bar.setValue(bar.value() - (delta.y() or delta.x()))
            event.accept()
            return
        if delta.y():
            self.zoom_by(1.0015 ** delta.y(), event.position())
        event.accept()
