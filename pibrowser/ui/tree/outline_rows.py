"""The outline's rows: the shown tree's units laid out as pi's /tree lays out entries, and moving through them.

No Qt here. One row per unit of the layout (an entry, a fold or a gap), in pi's order
and indentation (model/session/tree_rows.py: the current leaf's branch first, chains
flat, branches indented), so the outline holds the same folds as the map. The moves are
pi's /tree keys: a row up or down (wrapping round), a page, and a branch up or down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model.session.tree_rows import TreeRows, leaf_first, tree_rows

if TYPE_CHECKING:
    from ...model.session.session import Session
    from .layout import TreeLayout


@dataclass(slots=True)
class OutlineRows:
    """`rows` (the units in pi's order, with indentation and rails), `row_of` (unit → row) and
    `parent_row` (row → its parent unit's row, -1 for a root)."""

    rows: TreeRows[int]
    row_of: list[int]
    parent_row: list[int]

    def __len__(self) -> int:
        return len(self.rows)

    def unit(self, row: int) -> int:
        return self.rows.keys[row]


def outline_rows(lay: TreeLayout, session: Session, leaf_unit: int | None) -> OutlineRows:
    """The rows of `lay`, the branch holding `leaf_unit` (the unit showing the current leaf) first."""
    active = frozenset(lay.path_units(leaf_unit)) if leaf_unit is not None else frozenset()
    keys, folds = lay.keys, lay.folds

    def last_entry(unit: int) -> str:
        members = folds.get(unit)
        return members[-1] if members else keys[unit]

    leaf = session.leaf_id if session.leaf_id in session.entries else None
    order = leaf_first(leaf, active, session.parent, keys.__getitem__, last_entry)
    rows = tree_rows(lay.roots, lay.children.__getitem__, active, order)
    row_of = [0] * len(lay)
    for row, unit in enumerate(rows.keys):
        row_of[unit] = row
    parents = lay.parent
    parent_row = [row_of[parents[unit]] if parents[unit] >= 0 else -1 for unit in rows.keys]
    return OutlineRows(rows, row_of, parent_row)


# ---- moving: each gives the row a key leads to from `row` ---------------------------------------


def step(outline: OutlineRows, row: int, delta: int) -> int:
    """A row up (-1) or down (+1), round from one end to the other as pi's /tree goes."""
    return (row + delta) % len(outline) if len(outline) else row


def page(outline: OutlineRows, row: int, delta: int) -> int:
    """`delta` rows up or down, stopping at the ends."""
    return max(0, min(len(outline) - 1, row + delta))


def branch_up(outline: OutlineRows, lay: TreeLayout, row: int) -> int:
    """The start of the branch above: up the parents to the first that begins a branch (a child of
    an entry with several) and lies above `row`; the root when none does (pi's foldOrUp move)."""
    current = row
    while True:
        parent = outline.parent_row[current]
        if parent < 0:
            return current
        if len(lay.children[outline.unit(parent)]) > 1 and current < row:
            return current
        current = parent


def branch_down(outline: OutlineRows, lay: TreeLayout, row: int) -> int:
    """Down the first children to the next branch point's first child, or to the end of the chain
    (pi's unfoldOrDown move)."""
    current = row
    while True:
        kids = lay.children[outline.unit(current)]
        if not kids:
            return current
        if len(kids) > 1:
            return current + 1  # pi's order puts a branch point's first child right below it
        current = outline.row_of[kids[0]]
