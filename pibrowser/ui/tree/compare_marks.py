"""Marks for a comparison: the trunk both paths share, then path A and path B, and the fork point.

The trunk (root to the lowest common ancestor) is a wide pale band, A's own
part a solid line, B's own part a dashed one, so the three read apart without
colour; the common ancestor is the fork point. The compared nodes carry "A"
and "B" badges beside them (in the text's place, so they never cover text).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QGraphicsPathItem

from .edges import pen_edges
from .node_item import NodeItem
from .style import Style

if TYPE_CHECKING:
    from ...model.session.session import Session
    from .layout import TreeLayout


@dataclass(frozen=True, slots=True)
class ComparedPaths:
    """Entry ids of the shared trunk and of each side's own part below the fork."""

    trunk: list[str]
    a: list[str]
    b: list[str]
    fork: str | None

    @classmethod
    def of(cls, session: Session, left: str, right: str, fork: str | None) -> ComparedPaths:
        a, b = session.path_to(left), session.path_to(right)
        depth = a.index(fork) + 1 if fork is not None else 0
        return cls(a[:depth], a[depth:], b[depth:], fork)


Chain = tuple[str, list[int]]  # a compared path's side ("trunk", "A", "B") and its units, top first (from the trunk's end)


def mark_comparison(
    items: list, lay: TreeLayout, paths: ComparedPaths, compared: tuple[str, str], style: Style, half: float
) -> tuple[set[int], list[QGraphicsPathItem], list[Chain]]:
    """Mark the units on the compared paths; return them, the paths' edge items and their chains of units."""
    marked: set[int] = set()
    groups = []
    chains: list[Chain] = []
    unit_of = lay.unit_of
    trunk = lay.units_along(paths.trunk)
    for side, ids in (("trunk", paths.trunk), ("A", paths.a), ("B", paths.b)):
        units = trunk if side == "trunk" else _below(trunk, lay.units_along(ids))
        for unit in units:
            item = items[unit]
            item.on_path = True
            item.compare_path = side
            item.update()
        marked.update(units)
        chain = units if side == "trunk" or not trunk else [trunk[-1], *units]
        chains.append((side, chain))
        groups.append((style.compare_pen(side), _segments(items, chain)))
    for mark, key in zip("AB", compared):
        unit = unit_of.get(key)
        if unit is not None and isinstance(items[unit], NodeItem):
            items[unit].compare = mark
            marked.add(unit)
    fork_unit = unit_of.get(paths.fork) if paths.fork is not None else None
    if fork_unit is not None and isinstance(items[fork_unit], NodeItem):
        items[fork_unit].fork = True
        marked.add(fork_unit)
    for unit in marked:
        if isinstance(items[unit], NodeItem):
            items[unit].refresh_text()
    return marked, pen_edges(groups, half), chains


def _below(trunk: list[int], units: list[int]) -> list[int]:
    """A side's units without the fold it shares with the trunk's end (a fold holding the fork)."""
    return units[1:] if trunk and units and units[0] == trunk[-1] else units


def _segments(items: list, units: list[int]) -> list[tuple[float, float, float, float]]:
    segments = []
    for parent, child in zip(units, units[1:]):
        a, b = items[parent].pos(), items[child].pos()
        segments.append((a.x(), a.y(), b.x(), b.y()))
    return segments
