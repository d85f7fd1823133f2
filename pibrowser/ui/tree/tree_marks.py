"""The marks the tree shows on its items: the selected path (or the compared paths and their fork), and search hits.

Marks are flags on the unit items (see marks.py) plus the thick edges drawn for the
path; the map draws both, the outline reads the flags and the chains of units.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Callable, Mapping

from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsScene

from ...model.compare.comparison import common_ancestor
from .compare_marks import Chain, ComparedPaths, mark_comparison
from .legend import path_roles
from .marks import PathCache, mark_hits, mark_selected, unmark, unmark_hits
from .path_marks import PathMarks
from .style import ROW_HEIGHT, Style

if TYPE_CHECKING:
    from ...model.context.provenance import Provenance
    from ...model.session.session import Session
    from ..control.controller import SessionController
    from .layout import TreeLayout


MIN_PIXELS = 4.0  # the least width of a path's line on screen (a compared trunk's is wider in proportion)
_BASE_WIDTH = 0  # item data: the width the line has at full size


class TreeMarks:
    """Inputs: the scene (for the edge items) and the controller (its selection, comparison and
    provenance, read when refreshed). State: `hits` and `current_hit` (the search's), `fork` (where
    the compared paths part), `chains` (the compared paths' units), `hit_units`."""

    def __init__(self, scene: QGraphicsScene, controller: SessionController) -> None:
        self._scene = scene
        self._controller = controller
        self.hits: list[str] = []
        self.current_hit: str | None = None
        self.fork: str | None = None
        self.path = PathMarks(ROW_HEIGHT)
        self.chains: list[Chain] = []
        self.hit_units: set[int] = set()
        self._compare_items: list[QGraphicsPathItem] = []
        self._compared_units: set[int] = set()
        self._provenance = PathCache()

    @property
    def edge_items(self) -> list[QGraphicsPathItem]:
        """The thick edges drawn for the selected path or the compared paths."""
        return self.path.edge_items + self._compare_items

    def show_edges(self, on: bool) -> None:
        """The map's thick edges show with the map (the outline draws its own)."""
        for item in self.edge_items:
            if item.isVisible() != on:
                item.setVisible(on)

    def thicken(self, zoom: float) -> None:
        """Zoomed far out, the path's and the compared paths' lines keep a width that shows on screen."""
        for item in self.edge_items:
            pen = item.pen()
            base = item.data(_BASE_WIDTH)
            if base is None:
                base = pen.widthF()
                item.setData(_BASE_WIDTH, base)
            width = max(base, base * MIN_PIXELS / 3.2 / max(zoom, 1e-3))
            if width != pen.widthF():
                pen.setWidthF(width)
                item.setPen(pen)

    def forget(self) -> None:
        """Drop every reference to items (their scene is being cleared)."""
        self.path.forget()
        self._compare_items, self._compared_units, self.hit_units, self.chains = [], set(), set(), []

    def clear(self, items: list) -> None:
        """Take every mark off the items (they are about to be laid out again)."""
        self._clear_compare(items)
        self.path.clear(items, self._scene)
        unmark_hits(items, self.hit_units)
        self.hit_units = set()

    def _clear_compare(self, items: list) -> None:
        for item in self._compare_items:
            self._scene.removeItem(item)
        self._compare_items, self.chains = [], []
        unmark(items, self._compared_units)
        self._compared_units = set()

    def refresh(
        self, items: list, lay: TreeLayout | None, session: Session | None, unit_for: Callable[[str | None], int | None], style: Style
    ) -> None:
        """Mark what the controller has now: hits, and the selected path or the compared paths."""
        self.apply_hits(items, lay)
        if lay is None or not items or session is None:
            self._clear_compare(items)
            self.path.clear(items, self._scene)
            return
        compared = self._controller.compared
        if compared:
            self._clear_compare(items)
            self.path.clear(items, self._scene)
            self._mark_compare(items, lay, session, unit_for, style, compared)
        else:
            self._clear_compare(items)
            self._mark_path(items, lay, session, unit_for, style)  # moved from the path marked before: only changes repaint

    def _mark_path(self, items: list, lay: TreeLayout, session: Session, unit_for, style: Style) -> None:
        key = self._controller.selected
        unit = unit_for(key)
        if key is None or unit is None:
            self.path.clear(items, self._scene)
            return
        provenance = self.provenance(session, key)
        same_parts = self._controller.workspace.same_parts(self.path.key, key)
        # The path's units are the selected unit's ancestors in the layout: no walk over the path's entries.
        self.path.show(items, self._scene, lay.path_units(unit), unit, key, provenance, style, same_parts)

    def _mark_compare(self, items: list, lay: TreeLayout, session: Session, unit_for, style: Style, compared: tuple[str, str]) -> None:
        """Compare mode: the two paths, their trunk and fork instead of the selected path."""
        left, right = compared
        if left not in session.entries or right not in session.entries:
            return
        paths = ComparedPaths.of(session, left, right, common_ancestor(session, left, right))
        marked, edges, self.chains = mark_comparison(items, lay, paths, (left, right), style, ROW_HEIGHT / 2)
        self._compared_units.update(marked)
        self.fork = paths.fork
        for item in edges:
            self._scene.addItem(item)
            self._compare_items.append(item)
        key = self._controller.selected
        unit = unit_for(key) if key is not None and key in session.entries else None
        if key is not None and unit is not None:
            mark_selected(items[unit], key)
            self._compared_units.add(unit)

    def provenance(self, session: Session | None, key: str | None) -> Mapping[str, Provenance]:
        """The selected path's provenance, kept while folds and filters change."""
        if session is None or key is None or key not in session.entries:
            return {}
        if not self._controller.answers_now(key):
            return {}  # a long path's parts are worked out in the pool: drawn plain until they are in
        return self._provenance.get(session, key, self._controller.provenance)

    def path_roles(self, items: list, session: Session | None) -> set:
        """The parts and edits the marked path shows, for the legend."""
        return path_roles(items, self.path.units, self.provenance(session, self._controller.selected))

    # ---- search hits -----------------------------------------------------------------------

    def set_hits(self, hits: list[str], current: str | None, items: list, lay: TreeLayout | None) -> None:
        self.hits, self.current_hit = list(hits), current
        self.apply_hits(items, lay)

    def apply_hits(self, items: list, lay: TreeLayout | None) -> None:
        unmark_hits(items, self.hit_units)
        self.hit_units = set()
        if lay is not None and items:
            self.hit_units = mark_hits(items, lay.unit_of, self.hits, self.current_hit)
