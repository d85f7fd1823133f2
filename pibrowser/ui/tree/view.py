"""The branch tree on a QGraphicsView: layout to items, selection, folds, zoom and keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QColor, QCursor, QKeySequence, QPainter, QPalette, QTransform
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QGridLayout,
    QLabel,
    QMenu,
    QToolTip,
    QWidget,
)

from ...model.provenance import Part
from ...model.gcpause import gc_paused
from ...model.tree_filter import VisibleTree
from .items import (
    FOLD_TYPE,
    LEGEND,
    MAX_TEXT,
    NODE_TYPE,
    DETAIL_LOD,
    FoldItem,
    NodeItem,
    NodeLayer,
    OverviewItem,
    Style,
    overview,
    edge_bands,
    parts_runs,
    path_edges,
)
from .layout import FOLD_THRESHOLD, REVEAL_RADIUS, TreeLayout, build_layout, expansion, reveal, run_members

if TYPE_CHECKING:
    from ...model.session import Session
    from ..controller import SessionController

ROW_HEIGHT = 46.0
MARGIN = 40.0
MIN_SCALE, MAX_SCALE = 0.01, 4.0
MIN_FIT = 0.02
PINNED_TYPES = frozenset({"compaction", "branch_summary"})
OVERVIEW_ITEMS = 3000  # with more nodes than this, far zoom shows a dot map instead of the items
CONFIRM_UNFOLD = 20_000  # unfolding more entries than this asks first


def column_width(columns: int) -> float:
    """Roomy columns for the usual few branches, tighter ones for a bushy tree."""
    if columns <= 6:
        return 240.0
    if columns <= 16:
        return 150.0
    if columns <= 48:
        return 96.0
    return 64.0


class Legend(QFrame):
    """What the path colours mean; small, in a corner of the view."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("treeLegend")
        self.setAutoFillBackground(True)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(8, 6, 8, 6)
        self._grid.setHorizontalSpacing(6)
        self._grid.setVerticalSpacing(1)
        self.swatches: dict[object, QLabel] = {}
        self._labels: dict[object, QLabel] = {}
        self.enabled = True
        title = QLabel("<b>Selected path</b>")
        self._grid.addWidget(title, 0, 0, 1, 2)
        for row, (role, text) in enumerate(LEGEND, start=1):
            swatch = QLabel()
            swatch.setFixedSize(18, 6)
            label = QLabel(text)
            self._grid.addWidget(swatch, row, 0)
            self._grid.addWidget(label, row, 1)
            self.swatches[role] = swatch
            self._labels[role] = label
        font = self.font()
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        self.setFont(font)
        self.setToolTip(_kinds_tooltip())

    def show_roles(self, roles: set) -> None:
        """Show only the rows for colours the selected path uses; hide when there are none."""
        any_shown = False
        for role, swatch in self.swatches.items():
            on = role in roles
            swatch.setVisible(on)
            self._labels[role].setVisible(on)
            any_shown = any_shown or on
        self.setVisible(self.enabled and any_shown)
        self.adjustSize()

    def set_style(self, style: Style) -> None:
        for role, swatch in self.swatches.items():
            color = style.color_for(role)
            swatch.setStyleSheet(f"background: {color.name()}; border-radius: 3px;")
        palette = self.palette()
        background = QColor(style.base)
        background.setAlpha(235)
        palette.setColor(QPalette.ColorRole.Window, background)
        self.setPalette(palette)


def _kinds_tooltip() -> str:
    from .items import KIND_NAMES, KINDS

    rows = []
    glyph = {"circle": "●", "square": "■", "diamond": "◆", "hexagon": "⬢", "compaction": "▬", "summary": "▭", "triangle": "▲",
             "triangle_down": "▼", "tag": "⬟", "cross": "✖", "diamond_hollow": "◇", "dot": "•", "circle_dashed": "○", "unknown": "?"}
    seen = set()
    for kind, (light, _, shape, _) in KINDS.items():
        name = KIND_NAMES[kind]
        if name in seen:
            continue
        seen.add(name)
        rows.append(f"<span style='color:{light}'>{glyph.get(shape, '●')}</span> {name}")
    rows.append("<br>A bar under a node ends a branch; an amber ring marks the current leaf.")
    rows.append("A dashed capsule is a fold: click it to show its entries.")
    return "<b>Node shapes</b><br>" + "<br>".join(rows)


class TreeView(QGraphicsView):
    """Draws a VisibleTree, folded; talks to the controller for selection and comparison.

    Signals
      treeRebuilt()      items were rebuilt (folds or filter changed, or a reload)
    """

    treeRebuilt = Signal()

    def __init__(self, controller: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.session: Session | None = None
        self.visible: VisibleTree | None = None
        self.tree_layout: TreeLayout | None = None
        self.unfolded: set[str] = set()
        self.threshold = FOLD_THRESHOLD
        self.unit_items: list[NodeItem | FoldItem] = []
        self.node_actions: list[QAction] = []
        self.context_menu: QMenu | None = None
        self.col_width = column_width(1)
        self.hits: list[str] = []
        self.current_hit: str | None = None
        self.compared: tuple[str, str] | None = None
        self._path_items: list = []
        self._path_cache: tuple | None = None
        self._layer: NodeLayer | None = None
        self._overview: OverviewItem | None = None
        self._cells: dict[tuple[int, int], int] | None = None
        self._marked: set[int] = set()
        self._hit_units: set[int] = set()
        self._selected_key: str | None = None
        self._marks_for: tuple | None = None  # (selection, comparison) the marks show; None after a rebuild
        self._center_next = False
        self._press: tuple[QPointF, Qt.MouseButton] | None = None
        self._hovered: NodeItem | FoldItem | None = None
        self._empty_text: QGraphicsSimpleTextItem | None = None
        self._style = Style(self.palette(), self.font())
        self.setBackgroundBrush(self._style.base)
        self.legend = Legend(self)
        self.legend.set_style(self._style)
        self._build_actions()
        controller.selectionChanged.connect(self._on_selection)
        controller.compareChanged.connect(self._on_compare)

    # ---- actions ------------------------------------------------------------------

    def _build_actions(self) -> None:
        def make(text: str, slot: Callable, shortcuts: list[str | QKeySequence], tip: str) -> QAction:
            action = QAction(text, self)
            action.setShortcuts([QKeySequence(s) for s in shortcuts])
            action.setStatusTip(tip)
            action.setToolTip(f"{tip} ({action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})" if shortcuts else tip)
            action.triggered.connect(slot)
            return action

        self.zoom_in_action = make("Zoom &In", self.zoom_in, ["Ctrl+=", "Ctrl++"], "Zoom in on the tree")
        self.zoom_out_action = make("Zoom &Out", self.zoom_out, ["Ctrl+-"], "Zoom out")
        self.fit_action = make("&Fit Tree to Window", self.fit, ["Ctrl+0"], "Show the whole tree")
        self.fold_all_action = make("Fold &All Runs", self.fold_all, ["Ctrl+["], "Fold every long run of single-child entries")
        self.unfold_all_action = make("&Unfold All Runs", lambda: self.unfold_all(confirm=True), ["Ctrl+]"], "Show every entry (slow for huge sessions)")
        self.go_leaf_action = make("Go to &Current Leaf", self.go_to_current_leaf, ["Ctrl+End"], "Select the entry where pi resumes")
        self.legend_action = QAction("Show Path &Legend", self)
        self.legend_action.setCheckable(True)
        self.legend_action.setChecked(True)
        self.legend_action.setStatusTip("Show what the colours of the selected path mean")
        self.legend_action.toggled.connect(self._toggle_legend)

    def actions_for_menu(self) -> list[QAction]:
        """The view's actions for a menu, in groups divided by separators."""
        groups = [
            [self.zoom_in_action, self.zoom_out_action, self.fit_action],
            [self.fold_all_action, self.unfold_all_action],
            [self.go_leaf_action, self.legend_action],
        ]
        actions: list[QAction] = []
        for group in groups:
            if actions:
                separator = QAction(self)
                separator.setSeparator(True)
                actions.append(separator)
            actions.extend(group)
        return actions

    # ---- building ------------------------------------------------------------------

    def set_tree(self, session: Session | None, visible: VisibleTree | None, *, same_file: bool = False) -> None:
        """Show a (re)loaded session or a new filter. `same_file` keeps folds, zoom and scroll."""
        new_session = session is not self.session
        self.session = session
        self.visible = visible
        if not same_file:
            self.unfolded = set()
            self.hits, self.current_hit = [], None
            if new_session:
                self._selected_key = None
                self.compared = None
                self._center_next = True
                self.resetTransform()
        self._rebuild(keep_view=same_file)
        selected = self.controller.selected
        if selected is not None and session is not None and selected in session.entries:
            self._reveal(selected)
            self._selected_key = selected
        self._refresh_marks()

    def _pinned(self) -> Callable[[str], bool]:
        session = self.session
        labels, entries = session.labels, session.entries
        return lambda key: key in labels or entries[key].type in PINNED_TYPES

    def _rebuild(self, keep_view: bool = True) -> None:
        with gc_paused():
            self._rebuild_scene(keep_view)

    def _rebuild_scene(self, keep_view: bool) -> None:
        anchor = self._view_anchor() if keep_view else None
        scene = self.scene()
        self._hovered = None
        self._layer = None
        self._overview = None
        self._cells = None
        self._path_items = []
        self._marked = set()
        self._marks_for = None
        self._hit_units = set()
        self.unit_items = []
        self._empty_text = None
        scene.clear()
        session, visible = self.session, self.visible
        if session is None or visible is None:
            self.tree_layout = None
            scene.setSceneRect(QRectF(0, 0, 1, 1))
            self.treeRebuilt.emit()
            return
        lay = build_layout(visible.roots, visible.children, threshold=self.threshold, unfolded=self.unfolded, pinned=self._pinned())
        self.tree_layout = lay
        if not len(lay):
            text = "This session has no entries." if not session.entries else "No entries match this filter."
            self._empty_text = scene.addSimpleText(text, self._style.font)
            self._empty_text.setBrush(self._style.muted)
            scene.setSceneRect(QRectF(-20, -20, 400, 80))
            self.treeRebuilt.emit()
            return
        col_w = self.col_width = column_width(lay.columns)
        style = self._style
        entries, labels = session.entries, session.labels
        cols, rows, rooms, children, folds, keys = lay.col, lay.row, lay.room, lay.children, lay.folds, lay.keys
        items = self.unit_items
        layer = self._layer = NodeLayer()
        no_room = MAX_TEXT + 20
        for unit in range(len(keys)):
            room = rooms[unit]
            room_px = (room + 1) * col_w - 14 if room >= 0 else no_room
            members = folds.get(unit)
            if members is None:
                key = keys[unit]
                item = NodeItem(unit, entries[key], style, room_px, labels.get(key))
                item.leaf = not children[unit]
            else:
                item = FoldItem(unit, members, entries, style, room_px)
            item.setPos(MARGIN + cols[unit] * col_w, MARGIN + rows[unit] * ROW_HEIGHT)
            item.setParentItem(layer)
            items.append(item)
        scene.addItem(layer)
        self._mark_current_leaf()
        for band in edge_bands(lay, self.x_of, self.y_of, style):
            scene.addItem(band)
        # room past the last row and column, so the ends can scroll clear of the legend
        width = MARGIN * 2 + (lay.columns - 1) * col_w + MAX_TEXT + 120
        height = MARGIN * 2 + (lay.rows - 1) * ROW_HEIGHT + 160
        scene.setSceneRect(QRectF(0, 0, width, height))
        if anchor is not None:
            self._restore_anchor(anchor)
        self._update_detail()
        self.treeRebuilt.emit()

    def x_of(self, col: int) -> float:
        return MARGIN + col * self.col_width

    def y_of(self, row: int) -> float:
        return MARGIN + row * ROW_HEIGHT

    def _mark_current_leaf(self) -> None:
        session, visible, lay = self.session, self.visible, self.tree_layout
        leaf = session.leaf_id
        shown = visible.nearest_visible(session, leaf) if leaf is not None else None
        if shown is None:
            return
        item = self.unit_items[lay.unit_of[shown]]
        if isinstance(item, NodeItem):
            item.current_leaf = True
            item.current_leaf_hidden = len(session.path_to(leaf)) - len(session.path_to(shown)) if shown != leaf else 0
            item.refresh_text()

    # ---- keeping the view across rebuilds ---------------------------------------------

    def _view_anchor(self) -> tuple[str, QPointF, QTransform] | None:
        if not self.unit_items or self.tree_layout is None:
            return None
        rect = self.viewport().rect()
        centre = self.mapToScene(rect.center())
        visible_rect = self.mapToScene(rect).boundingRect()
        best, best_distance = None, None
        selected = self._selected_unit()
        if selected is not None and visible_rect.contains(self.unit_items[selected].pos()):
            best = self.unit_items[selected]
        else:
            for item in self.scene().items(visible_rect):
                if item.type() not in (NODE_TYPE, FOLD_TYPE):
                    continue
                delta = item.pos() - centre
                distance = delta.x() ** 2 + delta.y() ** 2
                if best_distance is None or distance < best_distance:
                    best, best_distance = item, distance
        if best is None:
            return None
        return best.key, self.mapFromScene(best.pos()), self.transform()

    def _restore_anchor(self, anchor: tuple[str, QPointF, QTransform]) -> None:
        key, viewport_pos, transform = anchor
        self.setTransform(transform)
        unit = self._unit_for(key)
        if unit is not None:
            self.pin(self.unit_items[unit].pos(), QPointF(viewport_pos))

    def pin(self, scene_point: QPointF, viewport_point: QPointF) -> None:
        """Scroll so that `scene_point` shows at `viewport_point` (as near as the scroll range allows)."""
        for _ in range(2):  # a second pass settles a scroll range that changed with the first
            delta = self.mapFromScene(scene_point) - viewport_point.toPoint()
            if delta.isNull():
                return
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() + delta.y())

    def _unit_for(self, key: str | None) -> int | None:
        """The unit that shows `key`: its own, its fold's, or its nearest visible ancestor's."""
        if key is None or self.tree_layout is None or self.session is None or key not in self.session.entries:
            return None
        unit = self.tree_layout.unit_of.get(key)
        if unit is None:
            shown = self.visible.nearest_visible(self.session, key)
            unit = self.tree_layout.unit_of.get(shown) if shown is not None else None
        return unit

    def _selected_unit(self) -> int | None:
        return self._unit_for(self.controller.selected)

    # ---- folds ------------------------------------------------------------------

    def _reveal(self, key: str) -> bool:
        """Unfold around `key` (or the visible entry standing for it) if it sits in a fold."""
        if self.tree_layout is None or self.visible is None:
            return False
        shown = self.visible.nearest_visible(self.session, key)
        if shown is None or self.tree_layout.fold_of(shown) is None:
            return False
        self.unfolded.update(reveal(self.tree_layout, shown, REVEAL_RADIUS))
        self._rebuild(keep_view=True)
        return True

    def expand_fold(self, unit: int, everything: bool = False) -> None:
        lay = self.tree_layout
        if lay is None or unit not in lay.folds:
            return
        members = lay.folds[unit] if everything else expansion(lay, unit)
        self.unfolded.update(members)
        self._rebuild(keep_view=True)
        self._refresh_marks()

    def fold_run(self, key: str) -> None:
        """Fold again the run `key` belongs to."""
        if self.tree_layout is None:
            return
        run = run_members(self.tree_layout, key)
        if len(run) <= self.threshold:
            return
        self.unfolded.difference_update(run)
        self._rebuild(keep_view=True)
        self._refresh_marks()

    def can_fold(self, key: str) -> bool:
        return self.tree_layout is not None and len(run_members(self.tree_layout, key)) > self.threshold and self.tree_layout.fold_of(key) is None

    def fold_all(self) -> None:
        """Fold every long run, except a few entries around the selection."""
        if self.tree_layout is None:
            return
        keep: set[str] = set()
        selected = self.controller.selected
        shown = self.visible.nearest_visible(self.session, selected) if selected is not None else None
        if shown is not None:
            run = run_members(self.tree_layout, shown)
            if run:
                at = run.index(shown)
                keep.update(run[max(0, at - REVEAL_RADIUS) : at + REVEAL_RADIUS + 1])
        self.unfolded = keep
        self._rebuild(keep_view=True)
        self._refresh_marks()

    def unfold_all(self, confirm: bool = False) -> None:
        """Show every entry. With `confirm`, ask first when that means a great many nodes."""
        if self.visible is None:
            return
        count = len(self.visible)
        if confirm and count > CONFIRM_UNFOLD and self.isVisible():
            from PySide6.QtWidgets import QMessageBox

            answer = QMessageBox.question(
                self,
                "Unfold all",
                f"Show all {count:,} entries one by one? Building that many nodes takes a few seconds.",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        QApplication.setOverrideCursor(QCursor(Qt.CursorShape.WaitCursor))
        try:
            self.unfolded = set(self.visible.order)
            self._rebuild(keep_view=True)
            self._refresh_marks()
        finally:
            QApplication.restoreOverrideCursor()

    def fold_items(self) -> list[FoldItem]:
        return [item for item in self.unit_items if isinstance(item, FoldItem)]

    def node_items(self) -> list[NodeItem]:
        return [item for item in self.unit_items if isinstance(item, NodeItem)]

    def fold_of_selection(self) -> FoldItem | None:
        """The fold that hides the selection (or the entry standing for it), if any."""
        unit = self._selected_unit()
        item = self.unit_items[unit] if unit is not None else None
        return item if isinstance(item, FoldItem) else None

    def item_for(self, key: str) -> NodeItem | FoldItem | None:
        """The item that shows entry `key` (a fold when it is folded), or None."""
        unit = self.tree_layout.unit_of.get(key) if self.tree_layout is not None else None
        return self.unit_items[unit] if unit is not None else None

    # ---- marks: selection, path, hits, comparison -----------------------------------------

    def _clear_marks(self) -> None:
        scene = self.scene()
        for item in self._path_items:
            scene.removeItem(item)
        self._path_items = []
        for unit in self._marked:
            item = self.unit_items[unit]
            if isinstance(item, NodeItem):
                item.selected = item.proxy = item.on_path = False
                item.provenance = None
                item.compare = None
            else:
                item.on_path = item.contains_selection = False
                item.path_parts = []
            item.update()
        self._marked = set()

    def _refresh_marks(self) -> None:
        self._marks_for = (self.controller.selected, self.compared)
        self._clear_marks()
        self._apply_hits()
        if self.tree_layout is None or not self.unit_items:
            self.legend.show_roles(set())
            return
        self._mark_path(self.controller.selected)
        self._mark_compare()
        self._update_legend()

    def _mark_path(self, key: str | None) -> None:
        session, lay = self.session, self.tree_layout
        if key is None or key not in session.entries:
            return
        unit = self._unit_for(key)
        if unit is None:
            return
        path, provenance = self._path_and_provenance(key)
        units: list[int] = []
        unit_of = lay.unit_of
        for entry_id in path:
            u = unit_of.get(entry_id)
            if u is not None and (not units or units[-1] != u):
                units.append(u)
        style = self._style
        segments = []
        previous = None
        for u in units:
            item = self.unit_items[u]
            item.on_path = True
            if isinstance(item, NodeItem):
                item.provenance = provenance.get(item.key)
                part = item.provenance.part if item.provenance is not None else None
            else:
                item.path_parts = parts_runs(item.members, provenance)
                part = item.path_parts[-1][0] if item.path_parts else None
            self._marked.add(u)
            item.update()
            if previous is not None:
                color = style.part_color.get(part, style.highlight) if part is not None else style.highlight
                a, b = self.unit_items[previous].pos(), item.pos()
                segments.append((a.x(), a.y(), b.x(), b.y(), color, part in (Part.SUMMARIZED, Part.SUPERSEDED)))
            previous = u
        target = self.unit_items[unit]
        if isinstance(target, NodeItem):
            if target.key == key:
                target.selected = True
            else:
                target.proxy = True
        else:
            target.contains_selection = True
        self._marked.add(unit)
        target.update()
        scene = self.scene()
        for path_item in path_edges(segments, ROW_HEIGHT / 2):
            scene.addItem(path_item)
            self._path_items.append(path_item)

    def _path_and_provenance(self, key: str) -> tuple[list[str], dict]:
        """The selected entry's path and its provenance, kept while folds and filters change.

        Both cost time linear in the path's length, and a path can be 100,000 entries long.
        """
        cached = self._path_cache
        if cached is not None and cached[0] is self.session and cached[1] == key:
            return cached[2], cached[3]
        try:
            provenance = self.controller.provenance(key)
        except Exception:  # a broken session must not break the tree
            provenance, path = {}, self.session.path_to(key)
        else:
            path = list(provenance)  # it has every entry on the path, in path order
        self._path_cache = (self.session, key, path, provenance)
        return path, provenance

    def _mark_compare(self) -> None:
        if not self.compared:
            return
        for mark, key in zip("AB", self.compared):
            unit = self._unit_for(key)
            if unit is not None and isinstance(self.unit_items[unit], NodeItem):
                self.unit_items[unit].compare = mark
                self._marked.add(unit)
                self.unit_items[unit].update()

    def set_hits(self, hits: list[str], current: str | None = None) -> None:
        """Highlight search hits; `current` is the one stepped to."""
        self.hits, self.current_hit = list(hits), current
        self._apply_hits()
        self._update_overview_marks()

    def _apply_hits(self) -> None:
        for unit in self._hit_units:
            if unit < len(self.unit_items):
                item = self.unit_items[unit]
                if isinstance(item, NodeItem):
                    item.hit = item.current_hit = False
                else:
                    item.hits = 0
                    item.current_hit = False
                item.update()
        self._hit_units = set()
        if self.tree_layout is None or not self.unit_items:
            return
        unit_of = self.tree_layout.unit_of
        for key in self.hits:
            unit = unit_of.get(key)
            if unit is None:
                continue
            item = self.unit_items[unit]
            if isinstance(item, NodeItem):
                item.hit = True
                item.current_hit = key == self.current_hit
            else:
                item.hits += 1
                item.current_hit = item.current_hit or key == self.current_hit
            self._hit_units.add(unit)
            item.update()

    def _on_selection(self, key: str | None) -> None:
        if self.session is None or self.tree_layout is None:
            return
        scroll = key != self._selected_key
        self._selected_key = key
        if key is not None:
            self._reveal(key)
        if self._marks_for != (key, self.compared):
            # A reload re-announces the selection set_tree has just marked; marking a long path twice is wasted.
            self._refresh_marks()
        self._update_overview_marks()
        if scroll and key is not None:
            self.scroll_to(key, center=self._center_next)
            self._center_next = False

    def _on_compare(self, left: str | None, right: str | None) -> None:
        self.compared = (left, right) if left and right else None
        self._refresh_marks()

    def scroll_to(self, key: str, center: bool = False) -> None:
        unit = self._unit_for(key)
        if unit is None:
            return
        pos = self.unit_items[unit].pos()
        if center:
            self._initial_zoom()
            self.centerOn(pos + QPointF(min(160.0, self.col_width), 0))
        else:
            self.ensureVisible(QRectF(pos.x() - 30, pos.y() - 30, 60 + min(220.0, self.col_width), 60), 40, 40)

    def _initial_zoom(self) -> None:
        """A new session opens at reading size, or smaller when it fits the window that way."""
        rect = self.sceneRect()
        view = self.viewport().rect()
        if rect.width() <= 0 or view.width() <= 0:
            return
        fit = min(view.width() / rect.width(), view.height() / rect.height())
        scale = min(1.0, max(0.8, fit))
        self.setTransform(QTransform.fromScale(scale, scale))
        self._update_detail()

    def overview_shown(self) -> bool:
        return self._overview is not None and self._overview.isVisible()

    def _update_detail(self) -> None:
        """Far out, a big tree shows as a dot map painted in a few calls instead of as items."""
        if self._layer is None:
            return
        far = self.zoom_factor() < DETAIL_LOD and len(self.unit_items) > OVERVIEW_ITEMS
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
        style = self._style
        marks = []
        for unit in self._hit_units:
            marks.append((self.unit_items[unit].pos(), style.current_hit))
        selected = self._selected_unit()
        if selected is not None:
            marks.append((self.unit_items[selected].pos(), style.highlight))
        self._overview.marks = marks
        self._overview.update()

    # ---- zoom ------------------------------------------------------------------------------

    def zoom_factor(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float, at: QPointF | None = None) -> None:
        """Zoom by `factor`, keeping the scene point under viewport position `at` (default: the centre) still."""
        current = self.zoom_factor()
        target = min(MAX_SCALE, max(self._min_scale(), current * factor))
        if target == current:
            return
        at = QPointF(self.viewport().rect().center()) if at is None else QPointF(at)
        anchor = self.mapToScene(at.toPoint())
        old = self.transformationAnchor()
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.scale(target / current, target / current)
        self.setTransformationAnchor(old)
        self.pin(anchor, at)
        self._update_detail()

    def _min_scale(self) -> float:
        rect = self.sceneRect()
        view = self.viewport().rect()
        if rect.width() <= 0 or rect.height() <= 0:
            return MIN_SCALE
        fit = min(view.width() / rect.width(), view.height() / rect.height())
        return max(MIN_SCALE, min(0.5, fit * 0.8))

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

    def go_to_current_leaf(self) -> None:
        if self.session is not None and self.session.leaf_id is not None:
            if self.controller.selected == self.session.leaf_id:
                self.scroll_to(self.session.leaf_id)
            self.controller.select(self.session.leaf_id)

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

    # ---- mouse --------------------------------------------------------------------------------

    def item_at(self, pos: QPoint | QPointF) -> NodeItem | FoldItem | None:
        """The node or fold under a viewport position."""
        point = self.mapToScene(QPoint(int(pos.x()), int(pos.y())))
        if self.overview_shown():
            return self._nearest_cell(point)
        for item in self.scene().items(point, Qt.ItemSelectionMode.IntersectsItemShape, Qt.SortOrder.DescendingOrder, self.transform()):
            if item.type() in (NODE_TYPE, FOLD_TYPE):
                return item
        return None

    def _nearest_cell(self, point: QPointF) -> NodeItem | FoldItem | None:
        """In the dot map: the unit whose grid cell holds the point."""
        lay = self.tree_layout
        if lay is None:
            return None
        if self._cells is None:
            self._cells = {(lay.row[u], lay.col[u]): u for u in range(len(lay))}
        row = round((point.y() - MARGIN) / ROW_HEIGHT)
        col = round((point.x() - MARGIN) / self.col_width)
        unit = self._cells.get((row, col))
        return self.unit_items[unit] if unit is not None else None

    def mousePressEvent(self, event) -> None:
        self._press = (event.position(), event.button())
        if event.button() == Qt.MouseButton.RightButton:
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        press, self._press = self._press, None
        if press is None or press[1] != Qt.MouseButton.LeftButton or event.button() != Qt.MouseButton.LeftButton:
            return
        moved = (event.position() - press[0]).manhattanLength()
        if moved >= QApplication.startDragDistance():
            return
        self._click(event.position(), event.modifiers())
        self._update_hover(event.position())

    def _click(self, pos: QPointF, modifiers) -> None:
        item = self.item_at(pos)
        if isinstance(item, FoldItem):
            self.expand_fold(item.unit)
            return
        if not isinstance(item, NodeItem):
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        if modifiers & Qt.KeyboardModifier.ControlModifier:
            selected = self.controller.selected
            if selected is not None and selected != item.key:
                self.controller.set_compare(selected, item.key)
                return
        self.controller.select(item.key)

    def mouseDoubleClickEvent(self, event) -> None:
        item = self.item_at(event.position())
        if isinstance(item, NodeItem):
            if self.zoom_factor() < 1.0:
                self.zoom_by(1.0 / self.zoom_factor(), event.position())
            self.centerOn(item.pos() + QPointF(min(160.0, self.col_width), 0))
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def mouseMoveEvent(self, event) -> None:
        super().mouseMoveEvent(event)
        if not event.buttons():
            self._update_hover(event.position())

    def _update_hover(self, pos: QPointF) -> None:
        item = self.item_at(pos)
        if item is self._hovered:
            return
        if self._hovered is not None:
            self._hovered.hovered = False
            self._hovered.update()
        self._hovered = item
        if item is not None:
            item.hovered = True
            item.update()
            self.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
        else:
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)

    def leaveEvent(self, event) -> None:
        if self._hovered is not None:
            self._hovered.hovered = False
            self._hovered.update()
            self._hovered = None
        super().leaveEvent(event)

    def viewportEvent(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            item = self.item_at(event.pos())
            if item is not None:
                QToolTip.showText(event.globalPos(), item.tooltip(), self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)

    def contextMenuEvent(self, event) -> None:
        item = self.item_at(event.pos())
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # one menu per right-click
        if isinstance(item, NodeItem):
            self.controller.select(item.key)
            for action in self.node_actions:
                menu.addAction(action)
            if self.node_actions:
                menu.addSeparator()
            if self.can_fold(item.key):
                run = len(run_members(self.tree_layout, item.key))
                menu.addAction(f"Fold This Run ({run:,} entries)", lambda key=item.key: self.fold_run(key))
        elif isinstance(item, FoldItem):
            count = len(item.members)
            if count > len(expansion(self.tree_layout, item.unit)):
                menu.addAction(f"Show the First {len(expansion(self.tree_layout, item.unit)):,} Entries", lambda u=item.unit: self.expand_fold(u))
            menu.addAction(f"Expand All {count:,} Entries", lambda u=item.unit: self.expand_fold(u, everything=True))
            menu.addSeparator()
        for action in (self.fold_all_action, self.unfold_all_action, self.fit_action):
            menu.addAction(action)
        self.context_menu = menu
        menu.popup(event.globalPos())
        event.accept()

    # ---- keys -----------------------------------------------------------------------------------

    _MOVES = {
        Qt.Key.Key_Up: "parent",
        Qt.Key.Key_Down: "child",
        Qt.Key.Key_Left: "previous",
        Qt.Key.Key_Right: "next",
        Qt.Key.Key_Home: "root",
        Qt.Key.Key_End: "leaf",
    }

    def keyPressEvent(self, event) -> None:
        move = self._MOVES.get(event.key())
        plain = not (event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier))
        if move is not None and plain:
            target = self.neighbour(move)
            if target is not None:
                self.controller.select(target)
            event.accept()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and plain:
            # Enter on a selection that stands inside a fold shows the fold's entries.
            unit = self._selected_unit()
            if unit is not None and isinstance(self.unit_items[unit], FoldItem):
                self.expand_fold(unit)
            event.accept()
            return
        super().keyPressEvent(event)

    def neighbour(self, move: str) -> str | None:
        """The entry a navigation key leads to from the selection, in the displayed tree."""
        session, visible = self.session, self.visible
        if session is None or visible is None or not len(visible):
            return None
        if move == "leaf":
            return session.leaf_id
        current = visible.nearest_visible(session, self.controller.selected)
        if current is None:
            return visible.nearest_visible(session, session.leaf_id) or visible.roots[0]
        if move == "parent":
            return visible.parent.get(current)
        if move == "child":
            kids = visible.kids(current)
            return kids[0] if kids else None
        if move == "root":
            return visible.root_of(current)
        siblings = visible.siblings(current)
        at = siblings.index(current)
        step = -1 if move == "previous" else 1
        if 0 <= at + step < len(siblings):
            return siblings[at + step]
        return None

    # ---- look ---------------------------------------------------------------------------------

    def _toggle_legend(self, on: bool) -> None:
        self.legend.enabled = on
        self._update_legend()

    def _update_legend(self) -> None:
        roles: set = set()
        for unit in self._marked:
            item = self.unit_items[unit]
            if isinstance(item, NodeItem) and item.provenance is not None:
                roles.add(item.provenance.part)
                if item.provenance.edit is not None:
                    roles.add(item.provenance.edit)
            elif isinstance(item, FoldItem):
                roles.update(part for part, _ in item.path_parts)
        if Part.AFTER_COMPACTION in roles:
            roles.add(Part.IN_CONTEXT)  # one colour, one row
        self.legend.show_roles(roles)
        self._place_legend()

    def _place_legend(self) -> None:
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
