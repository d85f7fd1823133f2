"""The branch tree on a QGraphicsView: a layout turned into items, kept marked as the selection moves.

The view's concerns each live in their own module: zoom, folds and the pointer as
collaborators with their own state, actions, menus and keys as small factories and
functions, building, marks and anchoring as functions. TreeView owns the items and
wires those pieces to the controller, whose session, selection and comparison it
reads when told (it keeps no copy of them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QCursor, QPainter
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QMenu,
    QMessageBox,
    QWidget,
)

from ...model.compare.comparison import common_ancestor
from ...model.session.gcpause import gc_paused
from ...model.session.tree_filter import VisibleTree
from .anchor import Anchor, pin, restore_anchor, view_anchor
from .build import (
    MARGIN,
    ROW_HEIGHT,
    column_width,
    growth_tip,
    is_pinned,
    make_items,
    mark_current_leaf,
    pinned,
    scene_rect,
)
from .compare_marks import ComparedPaths, mark_comparison
from .edges import edge_bands
from .fold_item import FoldItem
from .gap_item import GapItem
from .folds import CONFIRM_UNFOLD, Folds
from .layout import Skeleton, TreeLayout, build_layout, expansion, grow_skeleton, run_members, skeleton
from .legend import Legend, path_roles, shown_kinds
from .marks import (
    PathCache,
    mark_hits,
    mark_selected,
    unmark,
    unmark_hits,
)
from .menu import add_fold_entries, add_gap_entries, add_node_entries, make_actions
from .mouse import HitTest, Pointer
from .navigation import OPEN, key_command, neighbour
from .node_item import NodeItem
from .path_marks import PathMarks
from .overview import NodeLayer, OverviewItem, overview, overview_marks
from .style import DETAIL_LOD, Style
from .zoom import Zoom

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.workspace import Change
    from ..control.controller import SessionController

OVERVIEW_ITEMS = 3000  # with more nodes than this, far zoom shows a dot map instead of the items


class TreeView(QGraphicsView):
    """Draws a VisibleTree, folded; talks to the controller for selection and comparison.

    Signals
      treeRebuilt()      items were rebuilt (folds or filter changed, or a reload)
    """

    treeRebuilt = Signal()

    def __init__(self, controller: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        scene = QGraphicsScene(self)
        # No index: a selection inside a fold moves most of the ~1,000 units, and a BSP tree
        # re-files every moved one before the next paint; finding the few on screen by their
        # bounds (kept in C++, see unit_item.py) is cheaper than that.
        scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.setScene(scene)
        self._set_up_view()
        self.visible: VisibleTree | None = None
        self.tree_layout: TreeLayout | None = None
        self._skeleton: Skeleton | None = None  # the runs of the shown tree, kept while only folds change
        self._skeleton_shown = 0  # the version of the siblings shown in wide levels it was built with
        self.folds = Folds()
        self.zoom = Zoom(self, changed=self._update_detail, focus=self._selected_position)
        self.hit_test = HitTest(self)
        self.pointer = Pointer(self.viewport(), self.item_at, self._clicked)
        self.unit_items: list[NodeItem | FoldItem] = []
        self.node_actions: list[QAction] = []
        self.context_menu: QMenu | None = None
        self.col_width = column_width(1)
        self.hits: list[str] = []
        self.current_hit: str | None = None
        self._fork: str | None = None  # where the compared paths part, as last marked
        self._path_marks = PathMarks(ROW_HEIGHT)
        self._compare_items: list = []  # the compared paths' edges
        self._bands: list = []
        self._paths = PathCache()
        self._layer: NodeLayer | None = None
        self._overview: OverviewItem | None = None
        self._marked: set[int] = set()  # the units compare mode marked
        self._hit_units: set[int] = set()
        self._empty_text: QGraphicsSimpleTextItem | None = None
        self._style = Style(self.palette(), self.font())
        self.setBackgroundBrush(self._style.base)
        self.legend = Legend(self)
        self.legend.set_style(self._style)
        self.tree_actions = make_actions(
            self,
            zoom_in=self.zoom.step_in,
            zoom_out=self.zoom.step_out,
            fit=self.zoom.fit,
            fold_all=self.fold_all,
            unfold_all=lambda: self.unfold_all(confirm=True),
            go_leaf=self.go_to_current_leaf,
            show_legend=self._toggle_legend,
        )

    def _set_up_view(self) -> None:
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)

    # ---- building ------------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        return self.controller.session

    def set_tree(self, visible: VisibleTree | None, *, keep_view: bool = True, keep_shown: tuple[str, ...] = ()) -> None:
        """Show the controller's session through `visible` (a filter's view of it), marked.

        `keep_view` keeps folds, hits, zoom and scroll (a reload, an append, another
        filter); without it (another file) they start afresh. The selection and the
        entries in `keep_shown` are unfolded if a fold would hide them.
        """
        self.visible = visible
        self._skeleton = None  # the tree may have changed: its runs are found again
        if not keep_view:
            self.folds.clear()
            self.hits, self.current_hit = [], None
            self.resetTransform()
        self._rebuild(keep_view=keep_view)
        self._show_kept(keep_shown)

    def grow_tree(self, visible: VisibleTree, appended: list[str], leaf_before: str | None, keep_shown: tuple[str, ...] = ()) -> None:
        """`visible` was extended in place by what pi appended: grow the kept layout where the
        entries came, moving the items that stay, or lay out afresh when more than that changed."""
        session = self.session
        grows, tip = growth_tip(session, visible, appended, leaf_before) if session is not None else (False, None)
        if self._skeleton is None or self._skeleton_shown != self.folds.shown_version or visible is not self.visible or not grows:
            self.set_tree(visible, keep_view=True, keep_shown=keep_shown)
            return
        if tip is not None and not grow_skeleton(self._skeleton, visible.children, is_pinned(session), tip):
            self.set_tree(visible, keep_view=True, keep_shown=keep_shown)
            return
        self._rebuild(keep_view=True, reuse=True)
        self._show_kept(keep_shown)

    def _show_kept(self, keep_shown: tuple[str, ...]) -> None:
        """Unfold around these entries, the selection and the current leaf, then mark."""
        session = self.session
        leaf = session.leaf_id if session is not None else None
        for key in (*keep_shown, self.controller.selected, leaf):
            if key is not None and session is not None and key in session.entries:
                self._reveal(key)
        self._refresh_marks()

    def _rebuild(self, keep_view: bool = True, *, reuse: bool = False) -> None:
        """Lay the tree out again. `reuse`: only the folds changed, so items still shown are moved, not rebuilt."""
        with gc_paused():
            self._rebuild_scene(keep_view, reuse and self._layer is not None)

    def _rebuild_scene(self, keep_view: bool, reuse: bool) -> None:
        anchor = self._view_anchor() if keep_view else None
        kept = self._detach_items() if reuse else None
        if kept is None:
            self._forget_items()
        session, visible = self.session, self.visible
        if session is None or visible is None:
            self.tree_layout = None
            self.scene().setSceneRect(QRectF(0, 0, 1, 1))
        else:
            folds = self.folds
            if self._skeleton is None or self._skeleton_shown != folds.shown_version:
                self._skeleton = skeleton(visible.roots, visible.children, pinned(session), folds.shown)
                self._skeleton_shown = folds.shown_version
            self.tree_layout = build_layout(visible.roots, visible.children, threshold=folds.threshold, unfolded=folds.unfolded, skel=self._skeleton)
            if len(self.tree_layout):
                self._add_items(anchor, kept)
            else:
                self._forget_items()
                self._show_empty()
        self.treeRebuilt.emit()

    def _forget_items(self) -> None:
        """Drop the items and every reference to them, before the scene deletes them."""
        self.pointer.forget()
        self.hit_test.forget()
        self._layer = None
        self._overview = None
        self._path_marks.forget()
        self._compare_items = []
        self._bands = []
        self._marked = set()
        self._hit_units = set()
        self.unit_items = []
        self._empty_text = None
        self.scene().clear()

    def _detach_items(self) -> dict:
        """Take every mark off the unit items and return them by unit key, for the next layout to reuse;
        the edges and the dot map go (they are drawn for one layout)."""
        self._clear_marks()
        unmark_hits(self.unit_items, self._hit_units)
        self._hit_units = set()
        self.pointer.leave()  # the items stay: the hovered one is un-hovered, not just forgotten
        self.hit_test.forget()
        scene = self.scene()
        for item in (*self._bands, *([self._overview] if self._overview is not None else [])):
            scene.removeItem(item)
        self._bands, self._overview = [], None
        lay = self.tree_layout
        kept = {lay.unit_key(unit): item for unit, item in enumerate(self.unit_items)} if lay is not None else {}
        self.unit_items = []
        return kept

    def _add_items(self, anchor: Anchor | None, kept: dict | None = None) -> None:
        lay, scene, style = self.tree_layout, self.scene(), self._style
        col_w = self.col_width = column_width(lay.columns)
        self._layer, self.unit_items, dropped = make_items(lay, self.session, style, col_w, self._layer if kept is not None else None, kept)
        for item in dropped:
            scene.removeItem(item)
        if self._layer.scene() is None:
            scene.addItem(self._layer)
        mark_current_leaf(self.unit_items, lay, self.session, self.visible)
        self._bands = edge_bands(lay, self.x_of, self.y_of, style)
        for band in self._bands:
            scene.addItem(band)
        scene.setSceneRect(scene_rect(lay, col_w))
        if anchor is not None:
            restore_anchor(self, anchor, self._position_of)
        self._update_detail()
        self.legend.show_kinds(shown_kinds(self.unit_items))

    def _show_empty(self) -> None:
        text = "This session has no entries." if not self.session.entries else "No entries match this filter."
        self._empty_text = self.scene().addSimpleText(text, self._style.font)
        self._empty_text.setBrush(self._style.muted)
        self.scene().setSceneRect(QRectF(-20, -20, 400, 80))

    def x_of(self, col: int) -> float:
        return MARGIN + col * self.col_width

    def y_of(self, row: int) -> float:
        return MARGIN + row * ROW_HEIGHT

    # ---- finding items --------------------------------------------------------------

    def _view_anchor(self) -> Anchor | None:
        if not self.unit_items or self.tree_layout is None:
            return None
        return view_anchor(self, self.unit_items, self._selected_unit())

    def pin(self, scene_point: QPointF, viewport_point: QPointF) -> None:
        """Scroll so that `scene_point` shows at `viewport_point` (as near as the scroll range allows)."""
        pin(self, scene_point, viewport_point)

    def _unit_for(self, key: str | None) -> int | None:
        """The unit that shows `key`: its own, its fold's, or its nearest visible ancestor's."""
        if key is None or self.tree_layout is None or self.session is None or key not in self.session.entries:
            return None
        unit = self.tree_layout.unit_of.get(key)
        if unit is None:
            shown = self.visible.nearest_visible(self.session, key)
            unit = self.tree_layout.unit_of.get(shown) if shown is not None else None
            if unit is None and shown is not None:
                hidden = self.tree_layout.gap_holding(shown, self.visible.parent, self.visible.children)
                unit = hidden[0] if hidden is not None else None
        return unit

    def _position_of(self, key: str) -> QPointF | None:
        unit = self._unit_for(key)
        return self.unit_items[unit].pos() if unit is not None else None

    def _selected_unit(self) -> int | None:
        return self._unit_for(self.controller.selected)

    def node_items(self) -> list[NodeItem]:
        return [item for item in self.unit_items if isinstance(item, NodeItem)]

    def item_for(self, key: str) -> NodeItem | FoldItem | None:
        """The item that shows entry `key` (a fold when it is folded), or None."""
        unit = self.tree_layout.unit_of.get(key) if self.tree_layout is not None else None
        return self.unit_items[unit] if unit is not None else None

    # ---- marks: selection, path, hits, comparison -----------------------------------------

    @property
    def _path_items(self) -> list:
        """The thick edges drawn for the selected path or the compared paths."""
        return self._path_marks.edge_items + self._compare_items

    def _clear_marks(self) -> None:
        self._clear_compare_marks()
        self._path_marks.clear(self.unit_items, self.scene())

    def _clear_compare_marks(self) -> None:
        scene = self.scene()
        for item in self._compare_items:
            scene.removeItem(item)
        self._compare_items = []
        unmark(self.unit_items, self._marked)
        self._marked = set()

    def _refresh_marks(self) -> None:
        self._apply_hits()
        if self.tree_layout is None or not self.unit_items:
            self._clear_marks()
            self.legend.show_roles(set())
            return
        if self.controller.compared:
            self._clear_marks()
            self._mark_compare()
        else:
            self._clear_compare_marks()
            self._mark_path(self.controller.selected)  # moved from the path marked before: only changes repaint
        self._update_legend()

    def _mark_path(self, key: str | None) -> None:
        unit = self._unit_for(key)
        if unit is None:
            self._path_marks.clear(self.unit_items, self.scene())
            return
        provenance = self._paths.get(self.session, key, self.controller.provenance)
        # The path's units are the selected unit's ancestors in the layout: no walk over the path's entries.
        self._path_marks.show(self.unit_items, self.scene(), self.tree_layout.path_units(unit), unit, key, provenance, self._style)

    def _mark_compare(self) -> None:
        """Compare mode: the two paths, their trunk and fork instead of the selected path."""
        left, right = self.controller.compared
        if left not in self.session.entries or right not in self.session.entries:
            return
        paths = ComparedPaths.of(self.session, left, right, common_ancestor(self.session, left, right))
        marked, edges = mark_comparison(self.unit_items, self.tree_layout, paths, (left, right), self._style, ROW_HEIGHT / 2)
        self._marked.update(marked)
        self._fork = paths.fork
        for item in edges:
            self.scene().addItem(item)
            self._compare_items.append(item)
        key = self.controller.selected
        unit = self._unit_for(key) if key is not None and key in self.session.entries else None
        if unit is not None:
            mark_selected(self.unit_items[unit], key)
            self._marked.add(unit)

    def set_hits(self, hits: list[str], current: str | None = None) -> None:
        """Highlight search hits; `current` is the one stepped to."""
        self.hits, self.current_hit = list(hits), current
        self._apply_hits()
        self._update_overview_marks()

    def _apply_hits(self) -> None:
        unmark_hits(self.unit_items, self._hit_units)
        self._hit_units = set()
        if self.tree_layout is None or not self.unit_items:
            return
        self._hit_units = mark_hits(self.unit_items, self.tree_layout.unit_of, self.hits, self.current_hit)

    # ---- following the controller ------------------------------------------------------

    def show_change(self, change: Change, *, rebuilt: bool) -> None:
        """Mark and scroll to what `change` did to the selection and comparison.

        `rebuilt`: set_tree has just run for this change, so the marks are fresh.
        A new file centres the selection at reading size; a selection that moved
        is scrolled into view; one that stayed leaves the view where it is.
        """
        if self.tree_layout is None:
            return
        key = self.controller.selected
        if not rebuilt and (change.selection or change.compare):
            if change.selection and key is not None:
                self._reveal(key)
            self._refresh_marks()
        self._update_overview_marks()
        new_file = change.replaced and not change.same_file
        if key is not None and (new_file or change.selection):
            self.scroll_to(key, center=new_file)
        if change.compare and self.controller.compared:
            self._show_compared()
        if change.selection and not rebuilt:
            # The scene files moved and re-marked items into an update of its own at the next
            # turn, after the window has painted once: the whole window was painted twice.
            QCoreApplication.sendPostedEvents(self.scene(), QEvent.Type.MetaCall.value)

    def _show_compared(self) -> None:
        """Scroll (no zoom) so the fork point and both compared nodes show, the fork first if not all fit."""
        items = [self.item_for(key) for key in (self._fork, *self.controller.compared) if key is not None]
        items = [item for item in items if item is not None]
        if not items:
            return
        rect = QRectF()
        for item in items:
            rect = rect.united(item.sceneBoundingRect())
        self.ensureVisible(rect, 30, 30)
        if self._fork is not None and items[0] is self.item_for(self._fork):
            self.ensureVisible(items[0].sceneBoundingRect(), 30, 30)

    def scroll_to(self, key: str, center: bool = False) -> None:
        unit = self._unit_for(key)
        if unit is None:
            return
        pos = self.unit_items[unit].pos()
        if center:
            self.zoom.reading_size()
            self.centerOn(pos + QPointF(min(160.0, self.col_width), 0))
        else:
            self.ensureVisible(QRectF(pos.x() - 30, pos.y() - 30, 60 + min(220.0, self.col_width), 60), 40, 40)

    def go_to_current_leaf(self) -> None:
        if self.session is not None and self.session.leaf_id is not None:
            if self.controller.selected == self.session.leaf_id:
                self.scroll_to(self.session.leaf_id)
            self.controller.select(self.session.leaf_id)

    # ---- zoom (the Zoom collaborator does it; these are the view's names for it) ------------

    def zoom_factor(self) -> float:
        return self.zoom.factor()

    def zoom_by(self, factor: float, at: QPointF | None = None) -> None:
        self.zoom.by(factor, at)

    def fit(self) -> None:
        self.zoom.fit()

    def _selected_position(self) -> QPointF | None:
        unit = self._selected_unit()
        return self.unit_items[unit].pos() if unit is not None else None

    def wheelEvent(self, event) -> None:
        self.controller.courtesy.busy()  # zooming: background loops let the frames through
        self.zoom.wheel(event)

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.controller.courtesy.busy()  # panning, likewise
        super().scrollContentsBy(dx, dy)

    # ---- folds (the Folds collaborator decides; the view lays out again) ---------------------

    def _reveal(self, key: str) -> bool:
        """Show `key` (or the visible entry standing for it): open the gap of siblings it is
        hidden in, then unfold around it if it sits in a fold."""
        if self.tree_layout is None or self.visible is None:
            return False
        shown = self.visible.nearest_visible(self.session, key)
        changed = False
        if shown is not None and shown not in self.tree_layout.unit_of:
            hidden = self.tree_layout.gap_holding(shown, self.visible.parent, self.visible.children)
            if hidden is not None and self.folds.show_sibling(hidden[1]):
                self._rebuild(keep_view=True, reuse=True)
                changed = True
        if self.folds.reveal(self.tree_layout, shown):
            self._rebuild(keep_view=True, reuse=True)
            changed = True
        return changed

    def _refold(self) -> None:
        """Show the folds as they now are."""
        self._rebuild(keep_view=True, reuse=True)
        self._refresh_marks()

    def expand_fold(self, unit: int, everything: bool = False) -> None:
        """Open a fold, or show the next page of the siblings a gap hides."""
        lay = self.tree_layout
        if lay is None:
            return
        if unit in lay.gaps:
            if self.visible is not None and self.folds.open_gap(lay, unit, self.visible.children):
                self._refold()
        elif self.folds.expand(lay, unit, everything):
            self._refold()

    def fold_run(self, key: str) -> None:
        """Fold again the run `key` belongs to."""
        if self.tree_layout is not None and self.folds.fold_run(self.tree_layout, key):
            self._refold()

    def can_fold(self, key: str) -> bool:
        return self.tree_layout is not None and self.folds.can_fold(self.tree_layout, key)

    def fold_all(self) -> None:
        """Fold every long run, except a few entries around the selection."""
        if self.tree_layout is None:
            return
        selected = self.controller.selected
        self.folds.fold_all(self.tree_layout, self.visible.nearest_visible(self.session, selected) if selected is not None else None)
        self._refold()
        if selected is not None and self._reveal(selected):  # its branch was in a wide level now closed
            self._refresh_marks()

    def unfold_all(self, confirm: bool = False) -> None:
        """Show every entry. With `confirm`, ask first when that means a great many nodes."""
        if self.visible is None:
            return
        count = len(self.visible)
        if confirm and count > CONFIRM_UNFOLD and self.isVisible():
            self._ask_to_unfold(count)
            return
        QApplication.setOverrideCursor(QCursor(Qt.CursorShape.WaitCursor))
        try:
            self.folds.unfold_all(self.visible.order)
            self._refold()
        finally:
            QApplication.restoreOverrideCursor()

    def _ask_to_unfold(self, count: int) -> None:
        # open(), not exec(): the question never runs a modal loop anything could wait on.
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Unfold all",
            f"Show all {count:,} entries one by one? Building that many nodes takes a few seconds.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.finished.connect(lambda answer: answer == QMessageBox.StandardButton.Yes and self.unfold_all())
        box.finished.connect(box.deleteLater)
        self.unfold_question = box
        box.open()

    def fold_items(self) -> list[FoldItem]:
        return [item for item in self.unit_items if isinstance(item, FoldItem) and not isinstance(item, GapItem)]

    def gap_items(self) -> list[GapItem]:
        return [item for item in self.unit_items if isinstance(item, GapItem)]

    def fold_of_selection(self) -> FoldItem | None:
        """The fold that hides the selection (or the entry standing for it), if any."""
        unit = self._selected_unit()
        item = self.unit_items[unit] if unit is not None else None
        return item if isinstance(item, FoldItem) else None

    # ---- the pointer (the Pointer collaborator tells clicks from drags and tracks hover) -------

    def item_at(self, pos: QPoint | QPointF) -> NodeItem | FoldItem | None:
        """The node or fold under a viewport position."""
        return self.hit_test.at(pos, self.overview_shown(), self.tree_layout, self.unit_items, self.col_width)

    def _clicked(self, item: NodeItem | FoldItem | None, modifiers) -> None:
        """A fold unfolds; a node is selected, or with Ctrl compared with the selection."""
        if isinstance(item, FoldItem):
            self.expand_fold(item.unit)
            return
        if not isinstance(item, NodeItem):
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        selected = self.controller.selected
        if modifiers & Qt.KeyboardModifier.ControlModifier and selected is not None and selected != item.key:
            self.controller.set_compare(selected, item.key)
            return
        self.controller.select(item.key)

    def mousePressEvent(self, event) -> None:
        if not self.pointer.press(event):
            super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        self.pointer.release(event)

    def mouseMoveEvent(self, event) -> None:
        super().mouseMoveEvent(event)
        self.pointer.move(event)

    def leaveEvent(self, event) -> None:
        self.pointer.leave()
        super().leaveEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:
        item = self.item_at(event.position())
        if not isinstance(item, NodeItem):
            super().mouseDoubleClickEvent(event)
            return
        if self.zoom.factor() < 1.0:
            self.zoom.by(1.0 / self.zoom.factor(), event.position())
        self.centerOn(item.pos() + QPointF(min(160.0, self.col_width), 0))
        event.accept()

    def viewportEvent(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            self.pointer.tooltip(event)
            return True
        return super().viewportEvent(event)

    # ---- keys and menus ---------------------------------------------------------------------

    def keyPressEvent(self, event) -> None:
        """Arrows, Home and End move the selection; Enter opens the fold holding it."""
        command = key_command(event.key(), event.modifiers())
        if command is None:
            super().keyPressEvent(event)
            return
        event.accept()
        if command == OPEN:
            unit = self._selected_unit()
            if unit is not None and isinstance(self.unit_items[unit], FoldItem):
                self.expand_fold(unit)
            return
        target = self.neighbour(command)
        if target is not None:
            self.controller.select(target)

    def neighbour(self, move: str) -> str | None:
        """The entry a navigation key leads to from the selection, in the displayed tree."""
        return neighbour(self.session, self.visible, self.controller.selected, move)

    def actions_for_menu(self) -> list[QAction]:
        return self.tree_actions.for_menu(self)

    def contextMenuEvent(self, event) -> None:
        item = self.item_at(event.pos())
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # one menu per right-click
        if isinstance(item, NodeItem):
            self.controller.select(item.key)  # a right-click selects; the node actions act on the selection
            run = len(run_members(self.tree_layout, item.key)) if self.can_fold(item.key) else 0
            add_node_entries(menu, self.node_actions, run, lambda key=item.key: self.fold_run(key))
        elif isinstance(item, GapItem):
            add_gap_entries(menu, item.page(), lambda unit=item.unit: self.expand_fold(unit))
        elif isinstance(item, FoldItem):
            first = len(expansion(self.tree_layout, item.unit))
            add_fold_entries(menu, len(item.members), first, lambda everything, unit=item.unit: self.expand_fold(unit, everything))
        actions = self.tree_actions
        for action in (actions.fold_all, actions.unfold_all, actions.fit):
            menu.addAction(action)
        self.context_menu = menu
        menu.popup(event.globalPos())
        event.accept()

    # ---- far out ---------------------------------------------------------------------------

    def overview_shown(self) -> bool:
        return self._overview is not None and self._overview.isVisible()

    @property
    def node_layer(self) -> NodeLayer | None:
        """The item that paints every node (None before a session shows); an export draws through it."""
        return self._layer

    @property
    def overview_item(self) -> OverviewItem | None:
        """The far-out dot map, once one was made."""
        return self._overview

    def _update_detail(self) -> None:
        """Far out, a big tree shows as a dot map painted in a few calls instead of as items."""
        if self._layer is None:
            return
        far = self.zoom.factor() < DETAIL_LOD and len(self.unit_items) > OVERVIEW_ITEMS
        if far and self._overview is None:
            self._overview = overview(self.unit_items, self._style)
            self.scene().addItem(self._overview)
            self._update_overview_marks()
        if self._overview is not None:
            self._overview.setVisible(far)
        self._layer.setVisible(not far)

    def _update_overview_marks(self) -> None:
        if self._overview is None:
            return
        self._overview.marks = overview_marks(self.unit_items, self._hit_units, self._selected_unit(), self._style)
        self._overview.update()

    # ---- look ---------------------------------------------------------------------------------

    def _toggle_legend(self, on: bool) -> None:
        self.legend.enabled = on
        self._update_legend()

    def _update_legend(self) -> None:
        compared = self.controller.compared
        if compared and self.unit_items:
            self.legend.show_compare(*compared, self._fork)
        else:
            key, session = self.controller.selected, self.session
            on_path = session is not None and key is not None and key in session.entries
            provenance = self._paths.get(session, key, self.controller.provenance) if on_path else {}
            self.legend.show_roles(path_roles(self.unit_items, self._path_marks.units, provenance))
        self._place_legend()

    def _place_legend(self) -> None:
        if self.legend.parent() is not self:
            return  # laid out under the tree by the pane
        self.legend.adjustSize()
        frame = self.viewport().geometry()
        self.legend.move(frame.right() - self.legend.width() - 8, frame.bottom() - self.legend.height() - 8)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place_legend()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._place_legend()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        # Qt can announce a palette or font change while __init__ is still running, before the legend exists.
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange, QEvent.Type.StyleChange) and hasattr(self, "legend"):
            self._style = Style(self.palette(), self.font())
            self.setBackgroundBrush(self._style.base)
            self.legend.set_style(self._style)
            if self.session is not None:
                self._rebuild(keep_view=True)
                self._refresh_marks()

    @property
    def style_info(self) -> Style:
        return self._style
