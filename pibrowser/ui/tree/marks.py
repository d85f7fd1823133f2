"""Marks on the items: the selected entry, its path coloured by provenance, the compared pair, search hits.

A path can be 100,000 entries long, so each pass over it runs in C where it can.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from PySide6.QtGui import QColor

from ...model.context.provenance import Part, PathProvenance, Provenance, provenance_along
from .fold_item import FoldItem
from .node_item import NodeItem
from .style import Style

if TYPE_CHECKING:
    from ...model.session.session import Session
    from .layout import UnitIndex

log = logging.getLogger(__name__)

Segment = tuple[float, float, float, float, QColor, bool]  # parent x, y, child x, y, colour, dotted
_DOTTED = (Part.SUMMARIZED, Part.SUPERSEDED)  # parts that are not sent as they are


def unmark(items: list, marked: set[int]) -> None:
    """Clear the selection, path and comparison marks of the `marked` units."""
    for unit in marked:
        item = items[unit]
        if isinstance(item, NodeItem):
            item.selected = item.proxy = item.on_path = False
            item.provenance = None
            if item.compare or item.fork:
                item.compare, item.fork = None, False
                item.refresh_text()  # the A/B and fork badges took room from the title
            item.compare_path = None
        else:
            item.on_path = item.contains_selection = False
            item.set_path(None)
            item.compare_path = None
        item.update()


def mark_path(
    items: list,
    units: list[int],
    provenance: Mapping[str, Provenance],
    style: Style,
    already: AbstractSet[int] = frozenset(),
    previous: int | None = None,
) -> list[Segment]:
    """Mark the units as on the path with their provenance; return the path's edges in their colours
    (from `previous`, the unit above the first, when the units continue a path marked before).

    `already`: units marked on the path shown before; a node among them whose part did not
    change is left alone, not repainted (a fold is repainted: its members' parts may differ).
    """
    segments: list[Segment] = []
    unit_items = list(map(items.__getitem__, units))
    answers = provenance_along(provenance, list(map(_path_key, unit_items)))
    for u, item, found in zip(units, unit_items, answers):
        if isinstance(item, NodeItem):
            if not (u in already and item.on_path and (found is item.provenance or found == item.provenance)):
                item.on_path, item.provenance = True, found
                item.update()
        else:
            item.on_path = True
            item.set_path(provenance)
            item.update()
        part = found.part if found is not None else None
        if previous is not None:
            color = style.part_color.get(part, style.highlight) if part is not None else style.highlight
            a, b = items[previous].placed, item.placed  # where make_items put them: no call into Qt
            segments.append((a[0], a[1], b[0], b[1], color, part in _DOTTED))
        previous = u
    return segments


def summarized_prefix(items: list, chain: list[int], shared: int, before: Mapping[str, Provenance], now: Mapping[str, Provenance]) -> int:
    """How many units at the top of `chain` (its first `shared` marked before as they are now) show
    a summarized entry (or a fold of them) in the context marked before and in this one: their look
    is the same in both, only the compaction they name changed. Bisected, not walked."""
    if shared < 2 or not isinstance(before, PathProvenance) or not isinstance(now, PathProvenance):
        return 0
    keys = _PathKeys(items, chain, shared)
    return min(before.summarized_count(keys) or 0, now.summarized_count(keys) or 0, len(chain) - 1)


def take_over_summarized(items: list, units: list[int], provenance: PathProvenance) -> None:
    """Units still summarized, as before: they name this context's compaction now (what a tooltip
    says); nothing they draw changed, so they are not repainted."""
    summarized = provenance.summarized
    for item in map(items.__getitem__, units):
        if isinstance(item, NodeItem):
            item.provenance = summarized
        else:
            item.set_path(provenance)


class _PathKeys(Sequence[str]):
    """The entry each of a chain's first `count` units stands for on the path (a fold: its last member),
    read when asked: a bisection asks twenty of a hundred thousand."""

    def __init__(self, items: list, chain: list[int], count: int) -> None:
        self._items, self._chain, self._count = items, chain, count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        return _path_key(self._items[self._chain[index]])


def _path_key(item: NodeItem | FoldItem) -> str:
    """The entry a unit stands for on the path: a node's own, a fold's last member (its edge below
    takes that one's colour; its parts are its members', read when painted)."""
    return item.key if isinstance(item, NodeItem) else item.members[-1]


def unselect(item: NodeItem | FoldItem) -> None:
    """Take the selection mark (or its stand-in's, or a fold's ring) off an item that stays on the path."""
    if isinstance(item, NodeItem):
        item.selected = item.proxy = False
    else:
        item.contains_selection = False
    item.update()


def mark_selected(item: NodeItem | FoldItem, key: str) -> None:
    """Mark the item that shows the selection `key`: itself, a stand-in for it, or the fold holding it."""
    if isinstance(item, NodeItem):
        if item.key == key:
            item.selected = True
        else:
            item.proxy = True
    else:
        item.contains_selection = True
    item.update()


def unmark_hits(items: list, hit_units: set[int]) -> None:
    for unit in hit_units:
        if unit < len(items):
            item = items[unit]
            if isinstance(item, NodeItem):
                item.hit = item.current_hit = False
            else:
                item.hits = 0
                item.current_hit = False
            item.update()


def mark_hits(items: list, unit_of: UnitIndex, hits: list[str], current: str | None) -> set[int]:
    """Mark the search hits (a fold counts those inside it); return the units marked."""
    hit_units: set[int] = set()
    for key in hits:
        unit = unit_of.get(key)
        if unit is None:
            continue
        item = items[unit]
        if isinstance(item, NodeItem):
            item.hit = True
            item.current_hit = key == current
        else:
            item.hits += 1
            item.current_hit = item.current_hit or key == current
        hit_units.add(unit)
        item.update()
    return hit_units


class PathCache:
    """The selected entry's provenance (its path's parts), kept while folds and filters change.

    It costs time linear in the path's length, and a path can be 100,000 entries long.
    """

    def __init__(self) -> None:
        self._cached: tuple[Session, str, Mapping[str, Provenance]] | None = None

    def get(self, session: Session, key: str, provenance_of: Callable[[str], Mapping[str, Provenance]]) -> Mapping[str, Provenance]:
        cached = self._cached
        if cached is not None and cached[0] is session and cached[1] == key:
            return cached[2]
        try:
            provenance = provenance_of(key)
        except Exception:  # a bug of ours on a broken session must not break the tree: its path goes uncoloured
            log.exception("the provenance of %s could not be worked out; its path is drawn without it", key)
            provenance = {}
        self._cached = (session, key, provenance)
        return provenance
