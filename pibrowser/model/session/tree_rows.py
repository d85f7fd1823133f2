"""pi's /tree as rows: which entry comes on which line, how far it is indented, and the rails beside it.

pi 1.6.0's tree selector (TreeList in tree-selector.js) flattens the tree depth first and
draws it as text. Its rules, which `pibrowser tree` and the outline view both follow:

- Order: pi flattens the whole tree with, at each entry, the child whose subtree holds the
  current leaf first; a filter then leaves out rows, and an entry's visible children are
  its nearest visible descendants in that flattened order. So among visible siblings the
  one on the leaf's path comes first, then those whose way down leaves the path deepest
  (they sat under the path's hidden entries), each group in the tree's child order.
- Indentation: a chain of single children stays flat; the children of a branch point go
  one level in; so does the first entry below a branch's first entry (a branch's head
  sits on its connector, the rest of the branch one level further in).
- Several roots hang under an invisible root: they start one level in, without a
  connector, and every row is drawn one level further out (the display indent).
- Connectors: each child of a branch point gets `├─` (`└─` for the last); a child of
  that child carries a rail (a gutter) at the connector's level, drawn `│` while more
  siblings follow below and blank after the last.

Nothing here knows what an entry is: the tree comes as roots and a children function,
so the same rules lay out a session's entries (the text) or the units of a folded layout
(the outline). Iterative and linear: chains are 100,000 entries deep.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Container, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, groupby, repeat
from typing import Generic, TypeVar

K = TypeVar("K")
E = TypeVar("E")

NO_CONNECTOR, TEE, ELBOW = 0, 1, 2  # no connector, ├─ (more siblings below), └─ (the last)

Gutter = tuple[int, bool]  # (display level, whether its rail shows `│` on this row)
_NO_GUTTERS: tuple[Gutter, ...] = ()


@dataclass(slots=True)
class TreeRows(Generic[K]):
    """Parallel lists, one item per row in pi's order: `keys`, `indent` (the display indent, in
    levels: the row's node sits at that level), `connector` (NO_CONNECTOR, TEE or ELBOW, drawn at
    level indent - 1) and `gutters` (the rails at lower levels; rows of a chain share one tuple)."""

    keys: list[K] = field(default_factory=list)
    indent: list[int] = field(default_factory=list)
    connector: list[int] = field(default_factory=list)
    gutters: list[tuple[Gutter, ...]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.keys)

    def prefix(self, row: int, deepest: int | None = None) -> str:
        """The row's rails as pi draws them: three characters per level. With `deepest`, a row
        indented further draws only its last levels, after a marker of how many it leaves out
        (`DEPTH_MARK`, see `hidden_levels`)."""
        level_count = self.indent[row]
        connector = self.connector[row]
        hidden = hidden_levels(level_count, deepest)
        gutters = self.gutters[row]
        if hidden:  # a rail's level only grows down the tree: those of the levels left out come first
            gutters = gutters[bisect_left(gutters, (hidden,)) :]
        rails = dict(reversed(gutters))  # pi takes the first rail at a level
        parts = [DEPTH_MARK.format(hidden)] if hidden else []
        for level in range(hidden, level_count):
            shown = rails.get(level)
            if shown is not None:
                parts.append("│  " if shown else "   ")
            elif connector != NO_CONNECTOR and level == level_count - 1:
                parts.append("├─ " if connector == TEE else "└─ ")
            else:
                parts.append("   ")
        return "".join(parts)

    def prefixes(self, deepest: int | None = None) -> Iterator[str]:
        """Every row's `prefix`, in order (see prefix_runs)."""
        return chain.from_iterable(repeat(prefix, count) for prefix, count in self.prefix_runs(deepest))

    def prefix_runs(self, deepest: int | None = None) -> Iterator[tuple[str, int]]:
        """The rows' prefixes as runs of rows that share one: (the prefix, how many rows). The rows
        of a chain share their shape (indent, connector and the one gutters tuple): their rails are
        drawn once, and the runs are found in C, which on a deep tree is most of the work."""
        shapes = zip(self.indent, self.connector, map(id, self.gutters))  # the tuples live as long as the rows
        row = 0
        for _, run in groupby(shapes):
            count = len(list(run))
            yield self.prefix(row, deepest), count
            row += count


DEPTH_MARK = "⋯{} "  # in place of the rails of the levels a deep row leaves out: how many


def hidden_levels(levels: int, deepest: int | None) -> int:
    """How many of a row's `levels` its text leaves out to draw at most `deepest`. pi's /tree keeps
    a deep row readable by panning its viewport to the selected row; a text has no viewport, so it
    leaves out the outer levels, in steps of half of `deepest`: the rows around a deep one leave
    out the same, and their rails still line up."""
    if deepest is None or levels <= deepest:
        return 0
    step = max(1, deepest // 2)
    return -(-(levels - deepest) // step) * step


def active_first(kids: Sequence[K], active: Container[K]) -> Sequence[K]:
    """Siblings with nothing hidden between them and their parent, in pi's order: the one in
    `active` (on the way to the current leaf) first, the rest as they were."""
    for index, kid in enumerate(kids):
        if kid in active:
            return kids if index == 0 else [kid, *kids[:index], *kids[index + 1 :]]
    return kids


Order = Callable[["K | None", Sequence[K]], Sequence[K]]  # (parent, or None for the roots; its children) → pi's order


def leaf_first(
    leaf: E | None,
    active: Container[K],
    parent: Callable[[E], E | None],
    top_entry: Callable[[K], E],
    bottom_entry: Callable[[K], E],
) -> Order:
    """pi's order of the children of a node on the current leaf's path (and of the roots, under the
    invisible root) when a filter hides entries: the child in `active` (on the way to `leaf`) first,
    then the others by how deep their way up meets the leaf's path (the deepest first: pi flattened
    those under the path's hidden entries first), each group in the tree's order.

    Nodes may stand for runs of entries (a fold): `top_entry` and `bottom_entry` give a node's first
    and last entry; `parent` walks the whole tree, entry by entry. Only the hidden stretch of the
    path below the node is walked (down to its child on the path, or to the leaf), not the path.
    """

    def order(node: K | None, kids: Sequence[K]) -> Sequence[K]:
        lead = next((kid for kid in kids if kid in active), None)
        top = bottom_entry(node) if node is not None else None
        stretch = []  # the path's hidden entries below `node`, deepest first
        above = parent(top_entry(lead)) if lead is not None else leaf
        while above is not None and above != top:
            stretch.append(above)
            above = parent(above)
        if not stretch and lead is None:
            return kids
        depth = {key: len(stretch) - at for at, key in enumerate(stretch)}

        def rank(kid: K) -> int:
            if kid == lead:
                return len(stretch) + 1
            above = parent(top_entry(kid))
            while above is not None and above != top:
                at = depth.get(above)
                if at is not None:
                    return at
                above = parent(above)
            return 0

        return sorted(kids, key=rank, reverse=True)  # stable: equal ranks keep the tree's order

    return order


def tree_rows(
    roots: Sequence[K],
    children: Callable[[K], Sequence[K]],
    active: Container[K] = frozenset(),
    order: Order | None = None,
) -> TreeRows[K]:
    """The rows of the forest under `roots`, as pi's tree selector draws it.

    `active`: the nodes on the way to the current leaf (the path from its root to the
    leaf). `order` puts the children of those nodes and the roots in pi's order
    (leaf_first, where a filter hides entries); by default the active child comes first.
    """
    rows: TreeRows[K] = TreeRows()
    keys, indents, connectors, gutters = rows.keys, rows.indent, rows.connector, rows.gutters
    several = len(roots) > 1
    shift = 1 if several else 0
    # (node, indent, just branched, shows a connector, is last, gutters, hangs under the invisible root)
    stack: list[tuple[K, int, bool, bool, bool, tuple[Gutter, ...], bool]] = []
    ordered = order(None, roots) if order is not None else active_first(roots, active)
    for index in range(len(ordered) - 1, -1, -1):
        stack.append((ordered[index], shift, several, several, index == len(ordered) - 1, _NO_GUTTERS, several))
    pop, push = stack.pop, stack.append
    while stack:
        node, indent, branched, connector_shown, last, rails, virtual = pop()
        while True:  # down a chain without the stack: most rows are one
            shown = connector_shown and not virtual
            display = indent - shift if indent > shift else 0
            keys.append(node)
            indents.append(display)
            connectors.append((ELBOW if last else TEE) if shown else NO_CONNECTOR)
            gutters.append(rails)
            kids = children(node)
            if not kids:
                break
            if shown:
                rails = (*rails, (display - 1 if display > 0 else 0, not last))  # a rail at its connector's level
            if len(kids) == 1:
                # A chain stays flat, but for the first entry below a branch's head.
                if branched and indent > 0:
                    indent += 1
                node, branched, connector_shown, last, virtual = kids[0], False, False, True, False
                # Down the chain, the rows are alike but for their node: until one with other than one child.
                run: list[K] = []
                add = run.append
                while len(kids := children(node)) == 1:
                    add(node)
                    node = kids[0]
                keys += run
                indents += repeat(indent - shift if indent > shift else 0, len(run))
                connectors += repeat(NO_CONNECTOR, len(run))
                gutters += repeat(rails, len(run))
                continue
            if node in active:
                kids = order(node, kids) if order is not None else active_first(kids, active)
            end = len(kids) - 1
            for index in range(end, -1, -1):
                push((kids[index], indent + 1, True, True, index == end, rails, False))
            break
    return rows
