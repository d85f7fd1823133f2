"""The selected path's marks, moved from one path to the next: only what changes is repainted.

A step ↑ along a path changes the marks of a unit or two (the selection moves, the last unit
leaves the path) and the path's thick edges near its end. Clearing every mark and setting them
again repainted every unit of the path on screen, and its edges from top to bottom, at each step.

Contract: `show` leaves exactly the marks a clear followed by a fresh marking would (the items'
flags, the edge items' segments and pens); it only skips the repaints of items whose flags did
not change, and keeps the edge items of the bands of rows whose segments did not change.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsScene

from ...model.context.provenance import Provenance
from .edges import EdgeGroups, path_edge_groups, pen_edges
from ...model.session.sequences import equal_prefix
from .marks import Segment, mark_path, mark_selected, summarized_prefix, take_over_summarized, unmark, unselect
from .style import Style

EdgeKey = tuple[int, bool, int]  # colour, dotted, band of rows
BAND_ROWS = 24  # rows of the path's edges one item draws


class PathMarks:
    """`units`: the units marked (the path's and the selected one's), `chain`: the path's units top first,
    `selected`: the selected unit, `key`: the entry shown."""

    def __init__(self, row_height: float) -> None:
        self.half, self.band_height = row_height / 2, BAND_ROWS * row_height
        self.units: set[int] = set()
        self.chain: list[int] = []
        self.selected: int | None = None
        self.key: str | None = None
        self._segments: list[Segment] = []  # the chain's edges: the one into chain[i] is _segments[i - 1]
        self._provenance: Mapping[str, Provenance] = {}  # what the chain was marked with
        self._groups: EdgeGroups = {}  # the segments by colour and band of rows
        self._edges: dict[EdgeKey, tuple[list[tuple[float, float, float, float]], QGraphicsPathItem]] = {}

    @property
    def edge_items(self) -> list[QGraphicsPathItem]:
        return [item for _, item in self._edges.values()]

    def show(
        self,
        items: list,
        scene: QGraphicsScene,
        path: list[int],
        selected: int,
        key: str,
        provenance: Mapping[str, Provenance],
        style: Style,
        same_parts: bool = False,
    ) -> None:
        """Mark `path` (units, top first) with `provenance`, and `selected` as showing entry `key`.

        `same_parts`: every entry the path shares with the one marked before plays the same part
        (the model says so of a step along a path that crosses no compaction or edit): the units
        the two share are left as they are, but for the last (its edge below, or a fold's parts,
        may change). A step ↑ or ↓ then marks a unit or two, not the whole path.
        """
        marked = set(path)
        marked.add(selected)
        unmark(items, self.units - marked)
        if self.selected is not None and self.selected in marked:
            unselect(items[self.selected])
        shared = equal_prefix(self.chain, path)
        if same_parts:
            start = max(0, shared - 1)
        else:  # the top of a long path is summarized in both contexts: drawn the same, only renamed
            start = summarized_prefix(items, path, shared, self._provenance, provenance)
            if start:
                take_over_summarized(items, path[:start], provenance)  # type: ignore[arg-type]
        above = path[start - 1] if start else None
        unchanged = max(0, start - 1)  # the edges into the units before `start`
        segments = self._segments[:unchanged] + mark_path(items, path[start:], provenance, style, already=self.units, previous=above)
        mark_selected(items[selected], key)
        self.units, self.chain, self.selected, self.key = marked, path, selected, key
        self._segments, self._provenance = segments, provenance
        self._groups = path_edge_groups(segments, self.band_height, self._groups, unchanged)
        self._show_edges(scene, self._groups)

    def clear(self, items: list, scene: QGraphicsScene) -> None:
        unmark(items, self.units)
        for _, item in self._edges.values():
            scene.removeItem(item)
        self.forget()

    def forget(self) -> None:
        """Drop every reference to items (their scene is being cleared)."""
        self.units, self.chain, self.selected, self.key, self._edges = set(), [], None, None, {}
        self._segments, self._provenance, self._groups = [], {}, {}

    def _show_edges(self, scene: QGraphicsScene, groups: EdgeGroups) -> None:
        gone = [key for key, (segments, _) in self._edges.items() if not _same(groups.get(key, (None, None))[1], segments)]
        for edge_key in gone:
            scene.removeItem(self._edges.pop(edge_key)[1])
        for edge_key, (pen, segments) in groups.items():
            if edge_key not in self._edges:
                (item,) = pen_edges([(pen, segments)], self.half)
                scene.addItem(item)
                self._edges[edge_key] = (segments, item)


def _same(a: list | None, b: list) -> bool:
    return a is b or a == b  # a band taken over from the last marking is the same list
