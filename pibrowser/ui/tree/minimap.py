"""The minimap: the whole map small, in a strip under it, the part in view framed; a click or a drag goes there.

It shows while the map is larger than the view, beside it (the view gives it a margin
of its own), never over a node. Every unit is a dot in its kind's colour (drawn once per
layout; when only folds changed, once the user pauses), the selection a larger dot in the
highlight colour. Width and height are scaled
apart: a map twenty times wider than tall fills the strip as well as a square one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QWidget

from .node_item import NodeItem
from ..guard import guarded, guarded_paint

if TYPE_CHECKING:
    from .view import TreeView

HEIGHTS = (24, 44)  # the strip's height: an eighth of the view's, within these
REDRAW_AFTER_MS = 150  # a layout's dots are drawn this long after its last change


class Minimap(QWidget):
    """Input: the view (its scene, its items, its selection and what it shows)."""

    def __init__(self, view: TreeView) -> None:
        super().__init__(view)
        self._view = view
        self._picture: QPixmap | None = None
        self._scene = QRectF()
        # The dots of a layout that changed are drawn again once the user pauses: a selection that
        # opens a fold moves thousands of units by a row or two of a strip 44 pixels high, and
        # their picture costs as much as the rest of the minimap's paint. The frame and the
        # selection's dot are drawn at every paint.
        self._redraw = QTimer(self, singleShot=True, interval=REDRAW_AFTER_MS)
        self._redraw.timeout.connect(self._draw_again)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("The whole tree: the frame is the part in view (click or drag to move it)")
        self.setVisible(False)

    def refresh(self, soon: bool = False) -> None:
        """The items changed: draw their dots again (`soon`: once the user pauses, as the same tree's
        folds changed), then place and show (or hide) the minimap."""
        if soon:
            self._redraw_soon()
        else:
            self._redraw.stop()
            self._picture = None
        self.follow()

    def stale(self) -> bool:
        """Whether the dots shown are of an earlier layout (drawn again once the user pauses)."""
        return self._redraw.isActive()

    def _redraw_soon(self) -> None:
        if self._picture is not None:
            self._redraw.start()

    def _draw_again(self) -> None:
        if self._view.controller.pacer.waiting:
            # The user is still busy (a selection that took longer than the wait is still being shown):
            # the dots are not drawn in its frame, but once they pause.
            self._redraw.start()
            return
        self._picture = None
        self.update()

    def follow(self) -> None:
        """The view moved or zoomed: show the minimap only while the map does not fit, framed where it is."""
        view = self._view
        scene = view.sceneRect()
        shown = bool(view.unit_items) and not view.outline.shown() and not scene.isEmpty()
        if shown:
            seen = view.mapToScene(view.viewport().rect()).boundingRect()
            shown = not seen.contains(view.map_items.drawn())  # the nodes, not the scene's spare room
        height = max(HEIGHTS[0], min(HEIGHTS[1], view.height() // 8))
        if shown != self.isVisible() or (shown and height != self.height()):
            view.setViewportMargins(0, 0, 0, height if shown else 0)  # the strip is the view's, not the map's
            self.setVisible(shown)
        if not shown:
            return
        if scene != self._scene:
            self._scene = QRectF(scene)
            self._redraw_soon()
        port = view.viewport().geometry()
        self.setGeometry(port.left(), port.bottom() + 1, port.width(), height)
        self.update()

    def _to_map(self, point: QPointF) -> QPointF:
        scene = self._scene
        return QPointF(
            (point.x() - scene.left()) * self.width() / scene.width(), (point.y() - scene.top()) * self.height() / scene.height()
        )

    def _to_scene(self, point: QPointF) -> QPointF:
        scene = self._scene
        return QPointF(scene.left() + point.x() * scene.width() / self.width(), scene.top() + point.y() * scene.height() / self.height())

    def _draw_picture(self) -> QPixmap:
        """The units as dots, one fill of rectangles per colour (a few calls, however many units).

        Each unit is read where the layout placed it (`placed`, kept in Python by build.py: asking
        Qt for thousands of positions costs more), and units that land on one pixel of the strip are
        drawn once. A fold opened by a selection redraws this: one QPainterPath of thousands of
        rectangles per colour took some 12 ms to fill, rectangles drawn as such take 3.
        """
        view = self._view
        style = view.style_info
        ratio = self.devicePixelRatioF()
        picture = QPixmap(int(self.width() * ratio), int(self.height() * ratio))
        picture.setDevicePixelRatio(ratio)
        picture.fill(Qt.GlobalColor.transparent)
        scene = self._scene
        scale_x, scale_y = self.width() / scene.width(), self.height() / scene.height()
        left, top = scene.left() - 0.5 / scale_x, scene.top() - 0.5 / scale_y  # int() then rounds
        cells: dict[str | None, set[int]] = {}  # by node kind (None: a fold or a gap), the pixels taken
        for item in view.unit_items:
            x, y, _ = item.placed
            kind = item.kind if isinstance(item, NodeItem) else None
            found = cells.get(kind)
            if found is None:
                found = cells[kind] = set()
            found.add(int((x - left) * scale_x) << 16 | int((y - top) * scale_y))
        painter = QPainter(picture)
        painter.setPen(Qt.PenStyle.NoPen)
        for kind, found in cells.items():
            painter.setBrush(style.muted if kind is None else style.kind_color[kind])
            painter.drawRects([QRectF((cell >> 16) - 1, (cell & 0xFFFF) - 1, 2.2, 2.2) for cell in found])
        painter.end()
        return picture

    @guarded_paint
    def paintEvent(self, event) -> None:
        view = self._view
        style = view.style_info
        if self._picture is None or self._picture.size() != self.size() * self.devicePixelRatioF():
            self._picture = self._draw_picture()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        background = QColor(style.base)
        background.setAlpha(235)
        painter.setPen(QPen(style.edge, 1.0))
        painter.setBrush(background)
        painter.drawRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5))
        painter.drawPixmap(0, 0, self._picture)
        unit = view.selected_unit()
        if unit is not None and unit < len(view.unit_items):
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.highlight)
            painter.drawEllipse(self._to_map(view.unit_items[unit].pos()), 3.5, 3.5)
        seen = view.mapToScene(view.viewport().rect()).boundingRect()
        frame = QRectF(self._to_map(seen.topLeft()), self._to_map(seen.bottomRight())).intersected(QRectF(self.rect()))
        if frame.width() < 6 or frame.height() < 6:  # a view far smaller than the map still shows where it is
            frame = QRectF(frame.center().x() - 3, frame.center().y() - 3, 6, 6).adjusted(-1, -1, 1, 1)
        painter.setPen(QPen(style.highlight, 1.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(frame.adjusted(0.75, 0.75, -0.75, -0.75))
        painter.end()

    @guarded
    def mousePressEvent(self, event) -> None:
        self._view.centerOn(self._to_scene(event.position()))
        event.accept()

    @guarded
    def mouseMoveEvent(self, event) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._view.centerOn(self._to_scene(event.position()))
        event.accept()
