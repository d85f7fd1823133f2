"""The tree as indented text, laid out as pi's /tree lays it out (order, indentation, rails)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from itertools import chain, compress, count, islice, repeat
from typing import TYPE_CHECKING, Any, TypeVar

from ..session.entry import line_object
from ..session.forest import Forest, SessionForest
from ..session.tree_rows import tree_rows
from .describe import entry_title, fields_title, message_title, short_label
from .terminal_text import visible_line, visible_lines

if TYPE_CHECKING:
    from ..session.path_index import Kind
    from ..session.session import Session

K = TypeVar("K")

TITLE_WIDTH = 100  # characters of an entry's title on its row
RAIL_LEVELS = 24  # at most 72 columns of rails before a row's text: a deep branch's rows stay lines a terminal shows
_PIECE = 4096  # rows made and written at a time


def tree_text(session: Session, width: int = TITLE_WIDTH, deepest: int | None = RAIL_LEVELS) -> str:
    """Every entry on a line of its own: the current leaf's branch first, chains flat, branches
    indented, at most `deepest` levels of rails drawn (TreeRows.prefix)."""
    return "".join(tree_lines(session, width, deepest))


def tree_lines(session: Session, width: int = TITLE_WIDTH, deepest: int | None = RAIL_LEVELS) -> Iterator[str]:
    """tree_text in pieces of whole lines: a long session's text need not be held whole."""
    return (piece.decode() for piece in tree_bytes(session, width, deepest))


def tree_bytes(session: Session, width: int = TITLE_WIDTH, deepest: int | None = RAIL_LEVELS) -> Iterator[bytes]:
    """tree_lines as the UTF-8 that is written."""

    def title(key: str) -> bytes:
        # Parsed for its title only: a long session's entries, kept parsed, would hold it all in memory.
        return visible_line(entry_title(session.entry(key).transient(), width)).encode()

    return forest_lines(SessionForest(session), title, deepest)


def line_titles(lines: list[bytes], kinds: list[Kind], messages: list[Any], width: int = TITLE_WIDTH) -> list[bytes]:
    """The title of the entry on each of these lines, as tree_bytes writes it, for a pass over a
    file's lines (PathIndex.scan's `previews`: an IndexTree's column, which forest_lines writes).
    Given each one's (type, role) and its message as the pass decoded it: a dict of what its
    preview reads (nearly every line); any other entry's line is read whole."""
    titles = [
        message_title(role, message, width)
        if kind == "message" and type(message) is dict
        else fields_title(kind, role, line_object(raw), width)
        for raw, (kind, role), message in zip(lines, kinds, messages)
    ]
    # Held as the UTF-8 written: most titles hold an ellipsis or an arrow, and as text each character would take two bytes.
    return list(map(str.encode, visible_lines(titles)))


def forest_lines(forest: Forest[K], title: Callable[[K], bytes], deepest: int | None = RAIL_LEVELS) -> Iterator[bytes]:
    """tree_bytes of any Forest, each node titled by `title` (its title as written: terminal-safe
    UTF-8), in pieces of whole lines."""
    leaf = forest.leaf
    active = forest.on_path(leaf) if leaf is not None else frozenset()
    cut = forest.cut_roots()
    rows = tree_rows([*forest.roots(), *cut], forest.children, active)
    prefixes = chain.from_iterable(repeat(prefix.encode(), count) for prefix, count in rows.prefix_runs(deepest))
    marked = {*forest.labelled(), *cut, leaf}  # the few nodes with more after their title
    for start in range(0, len(rows), _PIECE):
        nodes = rows.keys[start : start + _PIECE]
        # Ids come from the file: a newline in one must not split its row.
        ids = map(str.encode, visible_lines(list(map(forest.key, nodes))))
        marks = [b""] * len(nodes)
        for at in compress(count(), map(marked.__contains__, nodes)):
            marks[at] = _marks(forest, nodes[at], cut).encode()
        lines = zip(islice(prefixes, len(nodes)), ids, repeat(b" "), map(title, nodes), marks, repeat(b"\n"))
        yield b"".join(chain.from_iterable(lines))


def _marks(forest: Forest[K], node: K, cut: Collection[K]) -> str:
    """What follows a node's title: its label, whether it is the current leaf, whether a cycle was cut there."""
    label = forest.label(node)
    marks = f"  [{short_label(label)}]" if label is not None else ""
    if node == forest.leaf:
        marks += "  ← leaf"
    if node in cut:
        marks += "  (parentId cycle cut here)"
    return marks
