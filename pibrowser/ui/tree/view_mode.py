"""Which view of the tree shows, the map or the outline, and what fitting, scrolling and zooming mean in each.

The choice is remembered. Each view keeps its own zoom; switching keeps the selection
in sight (centred when it was off screen) and everything else the views share.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, QSettings, Qt
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QGraphicsView

from .outline_item import LEVEL, ROW
from .style import DETAIL_LOD
from .zoom import fit_scale

if TYPE_CHECKING:
    from .view import TreeView

MAP, OUTLINE = "map", "outline"
SETTING = "tree/view"
COMPARE_MARGIN = 40.0
LIST = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop


def remembered() -> str:
    return OUTLINE if QSettings().value(SETTING, MAP) == OUTLINE else MAP


class ViewMode:
    """Input: the view (its layout, items, outline and zoom). `current` is MAP or OUTLINE."""

    def __init__(self, view: TreeView) -> None:
        self._view = view
        self.current = remembered()
        self._zooms = {MAP: QTransform(), OUTLINE: QTransform()}
        self._showing_choice = False

    def set_outline(self, on: bool) -> None:
        """The View menu's choice: switch, and remember it."""
        if self._showing_choice:
            return
        mode = OUTLINE if on else MAP
        QSettings().setValue(SETTING, mode)
        self.switch(mode)

    def switch(self, mode: str) -> None:
        """Show the tree the other way, the selection in sight."""
        view = self._view
        if mode == self.current:
            return
        self._zooms[self.current] = view.transform()
        self.current = mode
        view.setTransform(self._zooms[mode])
        self.show_choice()
        if view.tree_layout is not None and len(view.tree_layout):
            self.laid_out()
            view.outline.mark(view.marks, view.unit_items, view.style_info)  # the items keep their marks
            view.flags.invalidate()
            unit = view.selected_unit()
            if unit is not None:
                self.scroll_to(unit, center=True, keep_zoom=True)
        self.zoomed()
        view.modeChanged.emit(mode)

    def show_choice(self) -> None:
        """The View menu's two choices checked as the view is (the group unchecks the other)."""
        actions = self._view.tree_actions
        self._showing_choice = True
        try:
            (actions.as_outline if self.current == OUTLINE else actions.as_map).setChecked(True)
        finally:
            self._showing_choice = False

    def laid_out(self) -> None:
        """The map's items are built for a new layout: show them, or the outline's rows over them."""
        view = self._view
        lay, session = view.tree_layout, view.session
        if self.current == OUTLINE and lay is not None and session is not None:
            view.map_items.set_shown(False, far=False)
            view.marks.show_edges(False)
            leaf = session.leaf_id
            view.outline.show(lay, session, view.unit_items, view.unit_for(leaf), view.style_info)
            self.resized()
            view.scene().setSceneRect(view.outline.rect())
            view.setAlignment(LIST)  # fewer rows than the view holds start at its top, as a list's do
        else:
            view.setAlignment(Qt.AlignmentFlag.AlignCenter)  # a small map sits in the middle
            view.outline.hide()
            view.map_items.set_shown(True, far=view.map_items.overview_shown())
            view.marks.show_edges(True)
            if lay is not None:
                view.scene().setSceneRect(view.map_items.rect(lay))

    def position(self, unit: int | None) -> QPointF | None:
        """Where a unit's node is in the scene, in the view showing."""
        if unit is None:
            return None
        if self._view.outline.shown():
            return self._view.outline.node_point(unit)
        return self._view.map_items.position(unit)

    def anchor(self) -> tuple[str, QPointF, QTransform] | None:
        """In the outline: the selection's row if in sight, else the row in the middle of the view (see anchor.py)."""
        view = self._view
        port = view.viewport().rect()
        seen = view.mapToScene(port).boundingRect()
        unit = view.selected_unit()
        point = view.outline.node_point(unit)
        if point is None or not seen.contains(point):
            unit = view.outline.unit_at(seen.center())
            point = view.outline.node_point(unit)
        if unit is None or point is None:
            return None
        return view.unit_items[unit].key, QPointF(view.mapFromScene(point)), view.transform()

    # ---- scrolling and fitting ---------------------------------------------------------------

    def scroll_to(self, unit: int, center: bool = False, keep_zoom: bool = False) -> None:
        """Bring a unit into view: on the map, centred at reading size for a new file; in the outline, its row."""
        view = self._view
        if view.outline.shown():
            rect = view.outline.row_rect(unit)
            point = view.outline.node_point(unit)
            if rect is None or point is None:
                return
            seen = view.mapToScene(view.viewport().rect()).boundingRect()
            if center:
                view.centerOn(QPointF(seen.center().x(), rect.center().y()))
            view.ensureVisible(QRectF(seen.center().x(), rect.top(), 1, rect.height()), 0, int(ROW * 2))
            self._pan_to(point.x(), seen.width())
            return
        pos = view.map_items.position(unit)
        if pos is None:
            return
        col = view.map_items.col_width
        if center:
            if not keep_zoom:
                view.zoom.reading_size()
            view.centerOn(pos + QPointF(min(160.0, col), 0))
        else:
            view.ensureVisible(QRectF(pos.x() - 30, pos.y() - 30, 60 + min(220.0, col), 60), 40, 40)

    def _pan_to(self, x: float, width: float) -> None:
        """pi's /tree pans sideways only when the selected row's text would start too far right to
        read: then the row's node comes a few levels from the left edge; else the rows start at it."""
        view = self._view
        room = min(200.0, max(40.0, width / 3))  # how much of the row's text must show
        left = 0.0 if x + room <= width else x - min(4 * LEVEL, width / 4)
        bar = view.horizontalScrollBar()
        bar.setValue(round((left - view.sceneRect().left()) * view.zoom.factor()))

    def show_all(self, units: Iterable[int | None]) -> None:
        """Bring these units into view together (the compared pair and their fork), zooming out if they
        do not fit; the last of them wins when even the farthest zoom cannot hold them all."""
        view = self._view
        rects = [rect for rect in (self._unit_rect(unit) for unit in units if unit is not None) if rect is not None]
        if not rects:
            return
        whole = QRectF()
        for rect in rects:
            whole = whole.united(rect)
        whole = whole.adjusted(-COMPARE_MARGIN, -COMPARE_MARGIN, COMPARE_MARGIN, COMPARE_MARGIN)
        port = view.viewport().rect()
        scale = view.zoom.factor()
        needed = fit_scale(whole, port) * 0.95  # a little room, so scroll bars coming or going keep it all in
        if needed < scale:
            view.zoom.by(needed / scale)
        view.centerOn(whole.center())
        if not view.mapToScene(port).boundingRect().contains(whole):
            for rect in rects:
                view.ensureVisible(rect, 20, 20)

    def _unit_rect(self, unit: int) -> QRectF | None:
        view = self._view
        if view.outline.shown():
            rect = view.outline.row_rect(unit)
            point = view.outline.node_point(unit)
            return QRectF(point.x() - 12, rect.top(), 240, rect.height()) if rect is not None and point is not None else None
        return view.unit_items[unit].sceneBoundingRect() if unit < len(view.unit_items) else None

    def fit(self) -> None:
        """The map: the whole tree. The outline: reading size, the selection in sight."""
        view = self._view
        if not view.outline.shown():
            view.zoom.fit()
            return
        view.setTransform(QTransform())
        view.zoom.fitted = True
        self.zoomed()
        unit = view.selected_unit()
        if unit is not None:
            self.scroll_to(unit)

    def zoomed(self) -> None:
        """After a zoom: far out a big map shows as a dot map, its lines keep a width that shows and
        flags name what text no longer can; the outline's rows widen to the view."""
        view = self._view
        zoom, style = view.zoom.factor(), view.style_info
        view.map_items.update_detail(zoom, DETAIL_LOD, style, (view.marks.hit_units, view.selected_unit()))
        view.map_items.thicken(zoom, style)
        view.marks.thicken(zoom)
        self.resized()
        view.flags.update(view.unit_items, style, outline=view.outline.shown())
        view.minimap.follow()
        # Flags move between lanes and outline rows elide at the view's edge as the view scrolls:
        # then a scroll repaints the whole view rather than moving what was painted.
        update = QGraphicsView.ViewportUpdateMode
        whole = view.flags.active or view.outline.shown()
        view.setViewportUpdateMode(update.FullViewportUpdate if whole else update.SmartViewportUpdate)

    def resized(self) -> None:
        """The outline's rows are as wide as the view."""
        view = self._view
        if view.outline.shown():
            view.outline.set_width(view.viewport().width() / max(view.zoom.factor(), 1e-3))
            view.scene().setSceneRect(view.outline.rect())

    def wheel(self, event) -> None:
        """On the map the wheel zooms; in the outline it scrolls, as in a list (Ctrl zooms)."""
        view = self._view
        if view.outline.shown() and not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            QGraphicsView.wheelEvent(view, event)
            return
        view.zoom.wheel(event)
