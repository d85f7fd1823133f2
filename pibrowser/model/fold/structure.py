"""A path's structure: where its compactions and its setters are, read off the entries' types alone.

No line is read to know it: an entry's type (and a message's role) says whether it is a
compaction, sets the thinking level or the model, or is a context edit. The settings in
force and the last compaction at any depth are then one bisection away, which is all a
context needs besides its messages (`context_from`). The fold's spines keep one per path.
The command line resolves one path's leaf alone (`context_of_path`): it looks for the last
of each from the leaf up, and imports nothing of the fold's content figures to do so.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from itertools import compress, count
from typing import Any

from ..context.resolve import Context, context_at, first_kept, settings_from, sets_model, sets_thinking_level
from ..session.entry import Entry

# A path's entries' kinds as codes into a table of (type, role) pairs, what the command line's
# index keeps per entry (session/path_index.py): the codes from the leaf up (read as far as
# they are asked for), and the table (a few pairs for a whole file).
KindCodes = tuple[Callable[[], Iterator[int]], Sequence[tuple[Any, Any]]]


class Structure:
    """Depths (sorted) of the entries that set something, from their types and roles alone."""

    __slots__ = ("compactions", "thinking", "models", "barriers")

    def __init__(self) -> None:
        self.compactions = array("i")
        self.thinking = array("i")  # thinking-level setters
        self.models = array("i")  # model setters
        self.barriers = array("i")  # compactions and context edits: no usage before one is trusted

    def add(self, kinds: Sequence[Any], roles: Sequence[Any], start: int) -> None:
        """The entries at depths start, start + 1, … have these types and roles."""
        depths = range(start, start + len(kinds))
        self.compactions.extend(compress(depths, [kind == "compaction" for kind in kinds]))
        self.barriers.extend(compress(depths, [kind in ("compaction", "context_edit") for kind in kinds]))
        self.thinking.extend(compress(depths, list(map(sets_thinking_level, kinds, roles))))
        self.models.extend(compress(depths, list(map(sets_model, kinds, roles))))


def last_at(depths: array, depth: int) -> int:
    """The last of the sorted `depths` not after `depth`; -1 when none is."""
    found = bisect_right(depths, depth)
    return depths[found - 1] if found else -1


def context_from(key: str | None, path: Sequence[Entry], at: int, kept: int, thinking_at: int, model_at: int) -> Context:
    """The context at the end of `path`, given the depths of its last compaction (`at`), the first
    entry that keeps (`kept`) and its last setters (-1: none): no walk over the path."""
    compaction = path[at] if at >= 0 else None
    return context_at(key, path, compaction, kept, at, settings_from(path, thinking_at, model_at))


def context_of_path(key: str | None, path: Sequence[Entry], kinds: KindCodes) -> Context:
    """The context at the end of `path` for one path alone (the command line), given its entries'
    kinds as codes (`kinds`: the path's codes and their table), so no entry is made to learn its
    type: the last compaction and the last setters are looked for from the leaf up (they are
    usually near it), then pi's steps. Only the entries of the context are read."""
    from_leaf, table = kinds
    depth = len(path) - 1

    def last(answers: list[bool]) -> int:
        """The depth of the last entry whose kind's answer is True (-1: none), looked for in C."""
        wanted = {code for code, answer in enumerate(answers) if answer}
        return next(compress(count(depth, -1), map(wanted.__contains__, from_leaf())), -1) if wanted else -1

    at = last([kind == "compaction" for kind, _ in table])
    kept = first_kept(path, path[at], at) if at >= 0 else 0
    thinking_at = last([sets_thinking_level(kind, role) for kind, role in table])
    model_at = last([sets_model(kind, role) for kind, role in table])
    return context_from(key, path, at, kept, thinking_at, model_at)
