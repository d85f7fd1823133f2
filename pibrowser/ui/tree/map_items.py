"""The map's graphics items for one layout: a node or fold item per unit, the edges, and the far-out dot map.

The items carry the marks (selection, path, hits, comparison) as flags; the outline
reads the same items for its rows, so both views show one state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsScene, QGraphicsSimpleTextItem

from .build import MARGIN, column_width, make_items, mark_current_leaf, scene_rect, splice_items
from .edges import edge_bands
from .fold_item import FoldItem
from .gap_item import GapItem
from .node_item import NodeItem
from .overview import NodeLayer, OverviewItem, overview, overview_marks
from .style import ROW_HEIGHT, Style

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.session.tree_filter import VisibleTree
    from .layout import TreeLayout

INDEXED_UNITS = 20_000  # with more units than this, the scene keeps a BSP index of its items (view.py says why)
OVERVIEW_ITEMS = 3000  # with more nodes than this, far zoom shows a dot map instead of the items

Unit = NodeItem | FoldItem


class MapItems:
    """`units` (one item per unit of the layout, in unit order, under `layer`), `bands` (the edges),
    `overview` (the dot map, made when first zoomed far out), `empty_text` (the note an empty tree shows)."""

    def __init__(self, scene: QGraphicsScene) -> None:
        self.scene = scene
        self.units: list[Unit] = []
        self._keyed: dict = {}  # the units' items by unit key (make_items), for the next layout to reuse
        self.layer: NodeLayer | None = None
        self.overview: OverviewItem | None = None
        self.bands: list[QGraphicsPathItem] = []
        self.empty_text: QGraphicsSimpleTextItem | None = None
        self.col_width = column_width(1)
        self.shown = True  # False while the outline stands in for the map
        # The layout the units were made for, and the units a detach took off, for a layout spliced from it.
        self._built: TreeLayout | None = None
        self._detached: list[Unit] = []

    # ---- building --------------------------------------------------------------------

    def forget(self) -> None:
        """Drop every reference to the items (the scene is about to clear them)."""
        self.units, self.layer, self.overview, self.bands, self.empty_text = [], None, None, [], None
        self._keyed, self._built, self._detached = {}, None, []

    def detach(self) -> dict:
        """Take the edges and the dot map off (drawn for one layout) and return the unit items by
        unit key, for the next layout to reuse (the caller has cleared their marks)."""
        for item in (*self.bands, *([self.overview] if self.overview is not None else [])):
            self.scene.removeItem(item)
        self.bands, self.overview = [], None
        kept, self._keyed = self._keyed, {}
        self._detached, self.units = self.units, []
        return kept

    def build(self, lay: TreeLayout, session: Session, visible: VisibleTree, style: Style, kept: dict | None) -> None:
        """The items of `lay`: `kept` ones moved into place, the rest made; the edges drawn afresh."""
        scene = self.scene
        self.col_width = column_width(lay.columns)
        spliced, built, detached = lay.spliced, self._built, self._detached
        self._built, self._detached = lay, []
        if kept is not None and self.layer is not None and spliced is not None and built is not None and spliced[0] == id(built):
            # One run unfolded in the layout the items show: only its units are made.
            self.units, dropped = splice_items(lay, session, style, self.col_width, self.layer, detached, kept)
            self._keyed = kept
        else:
            self.layer, self.units, dropped, self._keyed = make_items(
                lay, session, style, self.col_width, self.layer if kept is not None else None, kept
            )
        layer = self.layer
        for item in dropped:
            scene.removeItem(item)
        if layer.scene() is None:
            scene.addItem(layer)
        mark_current_leaf(self.units, lay, session, visible)
        self.bands = edge_bands(lay, self.x_of, self.y_of, style)
        for band in self.bands:
            scene.addItem(band)
        self._index(len(self.units))
        self._show(self.shown)

    def _index(self, units: int) -> None:
        """Few units move at every selection that opens a fold, and the scene finds the ones in sight by
        their bounds. Past tens of thousands (everything unfolded) each frame's walk over all of them cost
        more than a drag frame's budget; so many rarely move, and an index finds them in a few steps."""
        method = QGraphicsScene.ItemIndexMethod
        wanted = method.BspTreeIndex if units > INDEXED_UNITS else method.NoIndex
        if self.scene.itemIndexMethod() != wanted:
            self.scene.setItemIndexMethod(wanted)

    def rect(self, lay: TreeLayout) -> QRectF:
        return scene_rect(lay, self.col_width)

    def drawn(self) -> QRectF:
        """What the nodes and their text cover (a fit shows this, not the scene's spare room)."""
        return self.layer.childrenBoundingRect() if self.layer is not None else QRectF()

    def show_empty(self, text: str, style: Style) -> None:
        self.empty_text = self.scene.addSimpleText(text, style.font)
        self.empty_text.setBrush(style.muted)

    def x_of(self, col: int) -> float:
        return MARGIN + col * self.col_width

    def y_of(self, row: int) -> float:
        return MARGIN + row * ROW_HEIGHT

    # ---- showing ----------------------------------------------------------------------

    def set_shown(self, on: bool, far: bool) -> None:
        """Show the map (`far`: as its dot map) or hide it while the outline stands in."""
        self.shown = on
        self._show(on, far)

    def _show(self, on: bool, far: bool | None = None) -> None:
        far = self.overview_shown() if far is None else far
        for band in self.bands:
            band.setVisible(on)
        if self.layer is not None:
            self.layer.setVisible(on and not far)
        if self.overview is not None:
            self.overview.setVisible(on and far)

    def update_detail(self, zoom: float, detail_lod: float, style: Style, marks: tuple[set[int], int | None]) -> None:
        """Far out, a big tree shows as a dot map painted in a few calls instead of as items."""
        if self.layer is None or not self.shown:
            return
        far = zoom < detail_lod and len(self.units) > OVERVIEW_ITEMS
        if far and self.overview is None:
            self.overview = overview(self.units, style)
            self.scene.addItem(self.overview)
            self.update_overview_marks(*marks, style)
        if self.overview is not None:
            self.overview.setVisible(far)
        self.layer.setVisible(not far)

    def thicken(self, zoom: float, style: Style) -> None:
        """Zoomed far out, the edges keep a pixel's width, so the branches still read."""
        width = max(style.edge_pen.widthF(), 1.0 / max(zoom, 1e-3))
        for band in self.bands:
            pen = band.pen()
            if pen.widthF() != width:
                pen.setWidthF(width)
                band.setPen(pen)

    def overview_shown(self) -> bool:
        return self.overview is not None and self.overview.isVisible()

    def update_overview_marks(self, hit_units: set[int], selected: int | None, style: Style) -> None:
        if self.overview is None:
            return
        self.overview.marks.set_marks(overview_marks(self.units, hit_units, selected, style))

    # ---- finding items --------------------------------------------------------------------

    def position(self, unit: int | None) -> QPointF | None:
        return self.units[unit].pos() if unit is not None else None

    def node_items(self) -> list[NodeItem]:
        return [item for item in self.units if isinstance(item, NodeItem)]

    def fold_items(self) -> list[FoldItem]:
        return [item for item in self.units if isinstance(item, FoldItem) and not isinstance(item, GapItem)]

    def gap_items(self) -> list[GapItem]:
        return [item for item in self.units if isinstance(item, GapItem)]
