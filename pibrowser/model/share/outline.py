"""The outline of the shared page: pi's /tree rows under each of pi's filters, and what its keys do.

The rows come from the same rules as `pibrowser tree` and the window's outline
(session/tree_rows: order, indentation, rails) over the tree each filter leaves
(session/tree_filter); which filter each of pi's filter commands leaves is
session/filter_commands. The page reads these tables; it decides none of it.
"""

from __future__ import annotations

from typing import Any

from ..session.filter_commands import COMMANDS, KEYS, filter_after
from ..session.session import Session
from ..session.tree_filter import PI_MODES, FilterMode, visible_tree
from ..session.tree_rows import leaf_first, tree_rows


def _same(key: str) -> str:
    return key


def filter_outline(session: Session, mode: FilterMode, node_of: dict[str, int], prefixes: dict[str, int]) -> dict[str, Any]:
    """One filter's rows: `rows` (nodes in pi's order), `prefix` (each row's rails as pi draws
    them, into a table the filters share) and `up` (each row's parent row, -1 for a root), plus
    `hidden` (how many entries the filter leaves out)."""
    visible = visible_tree(session, mode)
    leaf = session.leaf_id if session.leaf_id in session.entries else None
    shown = visible.nearest_visible(session, leaf)
    active = frozenset(visible.parent.among(session.path_to(shown))) if shown is not None else frozenset()
    order = leaf_first(leaf, active, session.parent, _same, _same)
    rows = tree_rows(visible.roots, visible.kids, active, order)
    row_of = {key: row for row, key in enumerate(rows.keys)}
    prefix = []
    drawn: dict[tuple[int, int, tuple[Any, ...]], int] = {}  # rows of a chain share their rails: drawn once
    last: tuple[int, int, tuple[Any, ...]] | None = None  # the shape of the row before, and its rails
    at = -1
    for row, shape in enumerate(zip(rows.indent, rows.connector, rows.gutters)):
        # A chain's rows share one gutters tuple: told apart without hashing it again.
        if last is None or shape[2] is not last[2] or shape[0] != last[0] or shape[1] != last[1]:
            found = drawn.get(shape)
            if found is None:
                found = drawn[shape] = prefixes.setdefault(rows.prefix(row), len(prefixes))
            last, at = shape, found
        prefix.append(at)
    up = [-1] * len(rows.keys)  # each row's parent row: the visible entry whose children it is among
    for above, kids in visible.children.items():
        at = row_of[above]
        for kid in kids:
            up[row_of[kid]] = at
    return {
        "mode": mode.value,
        "title": mode.title,
        "description": mode.description,
        "rows": list(map(node_of.__getitem__, rows.keys)),
        "prefix": prefix,
        "up": up,
        "hidden": visible.hidden,
    }


def outlines(session: Session, node_of: dict[str, int]) -> dict[str, Any]:
    """Every pi filter's rows, the rails they share, the filter each command leaves and pi's key for each command."""
    prefixes: dict[str, int] = {}
    filters = [filter_outline(session, mode, node_of, prefixes) for mode in PI_MODES]
    after = {mode.value: {command: filter_after(mode, command).value for command in COMMANDS} for mode in PI_MODES}
    return {
        "filters": filters,
        "prefixes": list(prefixes),
        "commands": after,
        "keys": KEYS,
    }
