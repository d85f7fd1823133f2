"""The tree as indented text, laid out as pi's /tree lays it out (order, indentation, rails)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..session.tree_rows import tree_rows
from .describe import entry_title, short_label
from .terminal_text import visible_line

if TYPE_CHECKING:
    from ..session.session import Session


RAIL_LEVELS = 24  # at most 72 columns of rails before a row's text: a deep branch's rows stay lines a terminal shows


def tree_text(session: Session, width: int = 100, deepest: int | None = RAIL_LEVELS) -> str:
    """Every entry on a line of its own: the current leaf's branch first, chains flat, branches
    indented, at most `deepest` levels of rails drawn (TreeRows.prefix)."""
    return "".join(tree_lines(session, width, deepest))


def tree_lines(session: Session, width: int = 100, deepest: int | None = RAIL_LEVELS) -> Iterator[str]:
    """tree_text a line at a time (each ending in a newline): a long session's text need not be held whole."""
    leaf = session.leaf_id
    active = frozenset(session.path_to(leaf)) if leaf is not None and leaf in session.entries else frozenset()
    rows = tree_rows(session.display_roots(), session.children, active)
    for prefix, key in zip(rows.prefixes(deepest), rows.keys):
        yield prefix + _line(session, key, width) + "\n"


def _line(session: Session, key: str, width: int) -> str:
    # Ids and titles come from the file: a newline in one must not split its node. The entry is
    # parsed for its title only: a long session's entries, kept parsed, would hold it all in memory.
    text = f"{visible_line(key)} {visible_line(entry_title(session.entry(key).transient(), width))}"
    label = session.labels.get(key)
    if label is not None:
        text += f"  [{short_label(label)}]"
    if key == session.leaf_id:
        text += "  ← leaf"
    if key in session.cycle_roots:
        text += "  (parentId cycle cut here)"
    return text
