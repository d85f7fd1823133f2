"""Marks on the items: the selected entry, its path coloured by provenance, the compared pair, search hits.

A path can be 100,000 entries long, so each pass over it runs in C where it can.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from PySide6.QtGui import QColor

from ...model.context.provenance import Part, Provenance
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
    for u in units:
        item = items[u]
        if isinstance(item, NodeItem):
            found = provenance.get(item.key)
            if not (u in already and item.on_path and (found is item.provenance or found == item.provenance)):
                item.on_path, item.provenance = True, found
                item.update()
            part = found.part if found is not None else None
        else:
            item.on_path = True
            item.set_path(provenance)
            last = provenance.get(item.members[-1])  # the edge below takes the last member's colour
            part = last.part if last is not None else None
            item.update()
        if previous is not None:
            color = style.part_color.get(part, style.highlight) if part is not None else style.highlight
            a, b = items[previous].placed, item.placed  # where make_items put them: no call into Qt
            segments.append((a[0], a[1], b[0], b[1], color, part in _DOTTED))
        previous = u
    return segments


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
