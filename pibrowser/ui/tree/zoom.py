"""Zooming the tree view: by steps, under the mouse with the wheel, to fit, and at opening."""

from __future__ import annotations

from collections.abc import Callable

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
    """Zoom for a graphics view. Inputs: the view, `changed` (called after each change, so the view
    can pick its level of detail), `focus` (the scene point a far-out fit centres on, or None) and
    `drawn` (the scene rectangle of what a fit shows: the items drawn, not the scene's spare room)."""

    def __init__(
        self,
        view: QGraphicsView,
        changed: Callable[[], None],
        focus: Callable[[], QPointF | None],
        drawn: Callable[[], QRectF] | None = None,
    ) -> None:
        self._view = view
        self._changed = changed
        self._focus = focus
        self._drawn = drawn if drawn is not None else lambda: view.scene().itemsBoundingRect()
        self.fitted = False  # the view shows the whole tree as Fit left it (a filter change fits again)

    def factor(self) -> float:
        return self._view.transform().m11()

    def by(self, factor: float, at: QPointF | None = None) -> None:
        """Zoom by `factor`, keeping the scene point under viewport position `at` still.

        Without `at` (keys and buttons) the zoom is about the selection, which ends up
        (or stays) in view; with no selection, about the centre.
        """
        view = self._view
        current = self.factor()
        target = min(MAX_SCALE, max(min_scale(view.sceneRect(), view.viewport().rect()), current * factor))
        if target == current:
            return
        self.fitted = False
        if at is None:
            anchor, at = self._selection_anchor()
        else:
            at = QPointF(at)
            anchor = view.mapToScene(at.toPoint())
        old = view.transformationAnchor()
        view.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        view.scale(target / current, target / current)
        view.setTransformationAnchor(old)
        pin(view, anchor, at)
        self._changed()

    def _selection_anchor(self) -> tuple[QPointF, QPointF]:
        view = self._view
        port = view.viewport().rect()
        anchor = self._focus()
        if anchor is None:
            at = QPointF(port.center())
            return view.mapToScene(at.toPoint()), at
        where = QPointF(view.mapFromScene(anchor))
        margin = min(60.0, port.width() / 4, port.height() / 4)
        at = QPointF(min(max(where.x(), margin), port.width() - margin), min(max(where.y(), margin), port.height() - margin))
        return anchor, at

    def step_in(self) -> None:
        self.by(1.25)

    def step_out(self) -> None:
        self.by(0.8)

    def fit(self) -> None:
        view = self._view
        # The nodes and their text, not the scene's spare room past the last row and column.
        drawn = self._drawn()
        rect = drawn.adjusted(-12, -12, 12, 12) if not drawn.isEmpty() else view.sceneRect()
        if rect.isEmpty():
            return
        view.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        scale = self.factor()
        if scale > 1.2 or scale < MIN_FIT:
            # A tiny tree is not blown up; an enormously tall or wide one is shown as far
            # out as still shows something, around the selection.
            scale = min(1.2, max(MIN_FIT, scale))
            view.setTransform(QTransform.fromScale(scale, scale))
            focus = self._focus() if scale == MIN_FIT else None
            view.centerOn(focus if focus is not None else rect.center())
        self.fitted = True
        self._changed()

    def reading_size(self) -> None:
        """A new session opens at reading size, or smaller when it fits the window that way."""
        view = self._view
        rect = view.sceneRect()
        port = view.viewport().rect()
        if rect.width() <= 0 or port.width() <= 0:
            return
        scale = min(1.0, max(0.8, fit_scale(rect, port)))
        view.setTransform(QTransform.fromScale(scale, scale))
        self.fitted = False
        self._changed()

    def wheel(self, event) -> None:
        """The wheel zooms under the pointer; sideways (or with Shift) it scrolls across."""
        delta = event.angleDelta()
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier or (delta.x() and not delta.y()):
            bar = self._view.horizontalScrollBar()
            bar.setValue(bar.value() - (delta.y() or delta.x()))
        elif delta.y():
            self.by(1.0015 ** delta.y(), event.position())
        event.accept()
