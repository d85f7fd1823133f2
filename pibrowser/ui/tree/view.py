"""The branch tree on a QGraphicsView, as a map or as an outline: a layout turned into items, kept marked.

The view's concerns live in collaborators: what it shows (`ShownTree`: filter, folds,
layout), the map's items (`MapItems`), the marks on them (`TreeMarks`), the outline's
rows (`Outline`), zoom, the pointer, the keys and menus. TreeView wires them to the
controller, whose session, selection and comparison it reads when told (it keeps no
copy of them). Both views draw the same layout and the same marked items, so switching
keeps the selection, the folds, the hits and the comparison.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QPointF, Qt, Signal
from PySide6.QtGui import QAction, QPainter, QTransform
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QMenu, QWidget

from .anchor import Anchor, view_anchor
from .flags import TreeFlags
from .fold_item import FoldItem
from .gap_item import GapItem
from .legend import Legend
from .map_items import MapItems
from .menu import make_actions, tree_menu
from .minimap import Minimap
from .mouse import HitTest, Pointer
from .node_item import NodeItem
from .outline import Outline
from .rebuild import Rebuild
from .shown_tree import ShownTree
from .style import Style
from .tree_input import TreeInput
from .tree_marks import TreeMarks
from .unfolding import Unfolding
from .view_mode import MAP, OUTLINE, ViewMode
from .zoom import Zoom
from ..guard import guarded, guarded_paint

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.session.tree_filter import VisibleTree
    from ...model.workspace import Change
    from ..control.controller import SessionController
    from .folds import Folds
    from .layout import TreeLayout

__all__ = ["MAP", "OUTLINE", "TreeView"]


class TreeView(QGraphicsView):
    """Draws the controller's session through a VisibleTree, folded, as a map or an outline.

    Signals
      treeRebuilt()                 items were rebuilt (folds or filter changed, or a reload)
      modeChanged(str)              the view switched between MAP and OUTLINE
      filterChosen(FilterMode)      one of pi's filter keys asked for another filter (the pane applies it)
      told(str)                     a command did nothing, and why (the window's status bar shows it)
    """

    treeRebuilt = Signal()
    modeChanged = Signal(str)
    filterChosen = Signal(object)
    told = Signal(str)

    def __init__(self, controller: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        scene = QGraphicsScene(self)
        # No index: a selection inside a fold moves most of the ~1,000 units, and a BSP tree
        # re-files every moved one before the next paint; finding the few on screen by their
        # bounds (kept in C++, see unit_item.py) is cheaper than that. A tree of tens of thousands
        # of units (everything unfolded) is indexed (MapItems._index).
        scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.setScene(scene)
        self._set_up_view()
        self.shown = ShownTree()
        self.map_items = MapItems(scene)
        self.marks = TreeMarks(scene, controller)
        self.outline = Outline(scene)
        self.mode = ViewMode(self)
        self.zoom = Zoom(self, changed=self.mode.zoomed, focus=self._selected_position, drawn=self.map_items.drawn)
        self.hit_test = HitTest(self)
        self.unfolding = Unfolding(self)
        self.rebuilding = Rebuild(self)
        self.input = TreeInput(self)
        self.pointer = Pointer(self.viewport(), self.item_at, self.input.clicked, self.outline.repaint)
        self.flags = TreeFlags(self, self.mode.position)
        self.minimap = Minimap(self)
        self.node_actions: list[QAction] = []
        self.context_menu: QMenu | None = None
        self._framed: tuple[tuple[str, ...], QTransform, QPointF] | None = None  # see show_compared
        self._style = Style(self.palette(), self.font())
        self.setBackgroundBrush(self._style.base)
        self.legend = Legend(self)
        self.legend.set_style(self._style)
        self.tree_actions = make_actions(
            self,
            zoom_in=self.zoom.step_in,
            zoom_out=self.zoom.step_out,
            fit=self.fit,
            fold_all=self.unfolding.fold_all,
            unfold_all=lambda: self.unfolding.unfold_all(confirm=True),
            go_leaf=self.input.go_to_leaf,
            show_legend=self._toggle_legend,
            as_outline=self.mode.set_outline,
        )
        self.mode.show_choice()

    def _set_up_view(self) -> None:
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)

    # ---- what is shown ----------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        return self.controller.session

    @property
    def visible(self) -> VisibleTree | None:
        return self.shown.visible

    @property
    def folds(self) -> Folds:
        return self.shown.folds

    @property
    def tree_layout(self) -> TreeLayout | None:
        return self.shown.layout

    @property
    def unit_items(self) -> list[NodeItem | FoldItem]:
        return self.map_items.units

    @property
    def style_info(self) -> Style:
        return self._style

    @property
    def empty_text(self):
        """The note an empty tree shows, or None."""
        return self.map_items.empty_text

    def set_tree(self, visible: VisibleTree | None, *, keep_view: bool = True, keep_shown: tuple[str, ...] = ()) -> None:
        """Show the session through `visible` (a filter's view of it), marked; see Rebuild.set_tree."""
        self.rebuilding.set_tree(visible, keep_view=keep_view, keep_shown=keep_shown)

    def grow_tree(self, visible: VisibleTree, appended: list[str], leaf_before: str | None, keep_shown: tuple[str, ...] = ()) -> None:
        """`visible` grew by what pi appended; see Rebuild.grow_tree."""
        self.rebuilding.grow_tree(visible, appended, leaf_before, keep_shown)

    def rebuild(self, keep_view: bool = True, *, reuse: bool = False) -> None:
        """Lay the tree out again. `reuse`: only the folds changed, so items still shown are moved, not rebuilt."""
        self.rebuilding.run(keep_view, reuse=reuse)
        self.treeRebuilt.emit()

    # ---- finding items --------------------------------------------------------------

    def view_anchor(self) -> Anchor | None:
        """What keeps the view still across a rebuild: the selection in sight, else the node nearest the centre."""
        if not self.unit_items or self.tree_layout is None:
            return None
        if self.outline.shown():
            return self.mode.anchor()
        return view_anchor(self, self.unit_items, self.selected_unit())

    def unit_for(self, key: str | None) -> int | None:
        """The unit that shows `key`: its own, its fold's, its nearest visible ancestor's, or its gap's."""
        return self.shown.unit_for(self.session, key)

    def selected_unit(self) -> int | None:
        return self.unit_for(self.controller.selected)

    def position_of(self, key: str) -> QPointF | None:
        return self.mode.position(self.unit_for(key))

    def _selected_position(self) -> QPointF | None:
        return self.mode.position(self.selected_unit())

    def node_items(self) -> list[NodeItem]:
        return self.map_items.node_items()

    def fold_items(self) -> list[FoldItem]:
        return self.map_items.fold_items()

    def gap_items(self) -> list[GapItem]:
        return self.map_items.gap_items()

    def item_for(self, key: str) -> NodeItem | FoldItem | None:
        """The item that shows entry `key` (a fold when it is folded), or None."""
        unit = self.tree_layout.unit_of.get(key) if self.tree_layout is not None else None
        return self.unit_items[unit] if unit is not None else None

    def fold_of_selection(self) -> FoldItem | None:
        """The fold that hides the selection (or the entry standing for it), if any."""
        unit = self.selected_unit()
        item = self.unit_items[unit] if unit is not None else None
        return item if isinstance(item, FoldItem) else None

    # ---- marks ----------------------------------------------------------------------------

    @property
    def path_items(self) -> list:
        """The thick edges drawn on the map for the selected path or the compared paths."""
        return self.marks.edge_items

    @property
    def hits(self) -> list[str]:
        return self.marks.hits

    def set_hits(self, hits: list[str], current: str | None = None) -> None:
        """Highlight search hits; `current` is the one stepped to."""
        self.marks.set_hits(hits, current, self.unit_items, self.tree_layout)
        self._update_overview_marks()
        self.outline.update()

    def refresh_marks(self) -> None:
        self.marks.refresh(self.unit_items, self.tree_layout, self.session, self.unit_for, self._style)
        self.marks.thicken(self.zoom.factor())
        self.marks.show_edges(not self.outline.shown())
        self.outline.mark(self.marks, self.unit_items, self._style)
        self._update_legend()
        self._update_overview_marks()
        self.flags.invalidate()
        self.minimap.update()

    def _update_overview_marks(self) -> None:
        self.map_items.update_overview_marks(self.marks.hit_units, self.selected_unit(), self._style)

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
                self.unfolding.reveal(key)
            self.refresh_marks()
        elif not rebuilt and change.answered:
            self.refresh_marks()  # a long path's parts, worked out in the pool: its colours
        new_file = change.replaced and not change.same_file
        if key is not None and (new_file or change.selection):
            self.scroll_to(key, center=new_file)
        if change.compare and self.controller.compared:
            self.show_compared()
        if change.selection and not rebuilt:
            # The scene files moved and re-marked items into an update of its own at the next
            # turn, after the window has painted once: the whole window was painted twice.
            QCoreApplication.sendPostedEvents(self.scene(), QEvent.Type.MetaCall.value)

    def show_compared(self) -> None:
        """Bring A, B and the fork point into view together, zooming out if they do not fit. Until the
        user moves the view, they are framed again when it is resized (the window laid out, a dock
        dragged): a narrower view around the same centre would leave the fork out."""
        keys = tuple(key for key in (self.marks.fork, *(self.controller.compared or ())) if key is not None)
        self.mode.show_all(self.unit_for(key) for key in keys)
        self._framed = (keys, self.transform(), self._center())

    def _center(self) -> QPointF:
        return self.mapToScene(self.viewport().rect().center())

    def _frame_again(self) -> None:
        """After a resize: frame the comparison again if the view is still where show_compared left it."""
        if self._framed is None or not self.controller.compared:
            return
        keys, transform, center = self._framed
        if keys[-2:] != tuple(self.controller.compared) or transform != self.transform():
            self._framed = None
        elif (center - self._center()).manhattanLength() * self.zoom.factor() <= 2:  # a resize rounds to pixels
            self.show_compared()
        else:
            self._framed = None  # the user moved the view: it stays where they put it

    def scroll_to(self, key: str, center: bool = False) -> None:
        unit = self.unit_for(key)
        if unit is not None:
            self.mode.scroll_to(unit, center)

    # ---- zoom -------------------------------------------------------------------------------

    def zoom_factor(self) -> float:
        return self.zoom.factor()

    def zoom_by(self, factor: float, at: QPointF | None = None) -> None:
        self.zoom.by(factor, at)

    def fit(self) -> None:
        self.mode.fit()

    @guarded
    def wheelEvent(self, event) -> None:
        self.controller.pacer.busy()  # zooming: background loops let the frames through
        self.mode.wheel(event)

    @guarded
    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.controller.pacer.busy()  # panning, likewise
        super().scrollContentsBy(dx, dy)
        self.minimap.follow()

    @guarded_paint
    def drawForeground(self, painter, rect) -> None:
        self.flags.paint(painter, self.unit_items, self._style)

    # ---- folds (ShownTree decides; Unfolding lays out again) ----------------------------------

    def expand_fold(self, unit: int, everything: bool = False) -> None:
        self.unfolding.expand(unit, everything)

    def fold_run(self, key: str) -> None:
        self.unfolding.fold_run(key)

    def can_fold(self, key: str) -> bool:
        return self.shown.can_fold(key)

    def fold_all(self) -> None:
        self.unfolding.fold_all()

    def unfold_all(self, confirm: bool = False) -> None:
        self.unfolding.unfold_all(confirm)

    @property
    def unfold_question(self):
        return self.unfolding.question

    # ---- the pointer ---------------------------------------------------------------------------

    def item_at(self, pos: QPoint | QPointF) -> NodeItem | FoldItem | None:
        """The node or fold under a viewport position (on a row of the outline: its unit's item; on a flag: its node's)."""
        flagged = self.flags.unit_at(QPointF(pos))
        if flagged is not None and flagged < len(self.unit_items):
            return self.unit_items[flagged]
        if self.outline.shown():
            unit = self.outline.unit_at(self.mapToScene(QPoint(int(pos.x()), int(pos.y()))))
            return self.unit_items[unit] if unit is not None and unit < len(self.unit_items) else None
        return self.hit_test.at(pos, self.map_items.overview_shown(), self.tree_layout, self.unit_items, self.map_items.col_width)

    @guarded
    def mousePressEvent(self, event) -> None:
        if not self.pointer.press(event):
            super().mousePressEvent(event)

    @guarded
    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        self.pointer.release(event)

    @guarded
    def mouseMoveEvent(self, event) -> None:
        super().mouseMoveEvent(event)
        self.pointer.move(event)

    @guarded
    def leaveEvent(self, event) -> None:
        self.pointer.leave()
        super().leaveEvent(event)

    @guarded
    def mouseDoubleClickEvent(self, event) -> None:
        if self.input.double_clicked(self.item_at(event.position()), event.position()):
            event.accept()
        else:
            super().mouseDoubleClickEvent(event)

    @guarded(fallback=False)
    def viewportEvent(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            self.pointer.tooltip(event)
            return True
        return super().viewportEvent(event)

    # ---- keys and menus ---------------------------------------------------------------------

    @guarded(fallback=False)
    def event(self, event) -> bool:
        # pi's filter keys are the tree's while it has focus, ahead of the window's shortcuts (filter_keys.py).
        if event.type() == QEvent.Type.ShortcutOverride and self.input.claims(event.key(), event.modifiers()):
            event.accept()  # then it comes to keyPressEvent
            return True
        return super().event(event)

    @guarded
    def keyPressEvent(self, event) -> None:
        if not self.input.press(event.key(), event.modifiers()):
            super().keyPressEvent(event)  # not the tree's (a key event comes accepted, so one it took stays so)

    def actions_for_menu(self) -> list[QAction]:
        return self.tree_actions.for_menu(self)

    @guarded
    def contextMenuEvent(self, event) -> None:
        item = self.item_at(event.pos())
        if isinstance(item, NodeItem):
            self.controller.select(item.key)  # a right-click selects; the node actions act on the selection
        self.context_menu = tree_menu(self, item, self.node_actions, self.tree_actions)
        self.context_menu.popup(event.globalPos())
        event.accept()

    # ---- look ---------------------------------------------------------------------------------

    def _toggle_legend(self, on: bool) -> None:
        self.legend.enabled = on
        self._update_legend()

    def _update_legend(self) -> None:
        self.legend.show_marks(self.controller.compared if self.unit_items else None, self.marks.fork, self._path_roles)

    def _path_roles(self) -> set:
        return self.marks.path_roles(self.unit_items, self.session) if self.unit_items and not self.controller.compared else set()

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.mode.resized()
        self.minimap.follow()
        self._frame_again()

    @guarded
    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        # Qt can announce a palette or font change while __init__ is still running, before the legend exists.
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange, QEvent.Type.StyleChange) and hasattr(self, "legend"):
            self._style = Style(self.palette(), self.font())
            self.setBackgroundBrush(self._style.base)
            self.legend.set_style(self._style)
            if self.session is not None:
                self.rebuild(keep_view=True)
                self.refresh_marks()
