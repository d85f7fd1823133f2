"""The rows a leaf picker lists: every leaf with its time, label, depth, last prompt and size.

Time, label, depth and the last user message come from one pass over the
entries (a session can have thousands of leaves on 100,000-entry paths, so no
path is walked twice). The size of each leaf's context (messages and tokens)
needs its context resolved, so it is filled in separately, a leaf at a time, by
whoever can afford it (the GUI does it off its thread).

Both may run in a pool thread while the GUI thread links pi's appends into the
session: they describe the first `known` entries linked (the file order only
grows), and read of the session only what never changes once an entry is
linked (its fields, its parent, so its path) or one key at a time (a label);
never a container an append changes while they walk it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from collections.abc import Callable, Iterator

from ..context.resolve import Context, resolve
from ..text.describe import message_preview
from ..js.date import js_time
from ..tokens.message_tokens import Tokens, estimate_messages_tokens

if TYPE_CHECKING:
    from ..session.session import Session


@dataclass(slots=True)
class LeafRow:
    id: str
    millis: int | None  # the entry's timestamp, as JS reads it
    label: str | None
    depth: int  # entries above it
    last_user: str  # the latest user message on its path, as a preview
    current: bool  # the session's current leaf
    messages: int | None = None  # filled in by fill_sizes
    tokens: Tokens | None = None  # a JS number: NaN where pi takes the length of a number

    def matches(self, words: list[str], session_name: str = "") -> bool:
        """Every word (lower case) is in the id, label, session name or last user message."""
        haystack = f"{self.id} {self.label or ''} {session_name} {self.last_user}".lower()
        return all(word in haystack for word in words)


def leaf_rows(session: Session, known: int | None = None) -> list[LeafRow]:
    """Every leaf among the first `known` entries linked (default: all of them), newest first."""
    order = session.file_order[:known] if known is not None else list(session.file_order)  # one copy, taken at once
    entries, parent = session.entries, session.parent
    linked = [entry for entry in order if entries.get(entry.id) is entry]  # a duplicate id's earlier entry gave way
    parents = {above for above in map(parent, (entry.id for entry in linked)) if above is not None}
    leaves = [entry.id for entry in linked if entry.id not in parents]
    current = order[-1].id if order else None  # the session's leaf: the last entry read
    depth: dict[str, int] = {}
    nearest_user: dict[str, str | None] = {}
    rows = [_row(session, key, *_place(session, key, depth, nearest_user), key == current) for key in leaves]
    rows.sort(key=lambda row: row.millis if row.millis is not None else float("-inf"), reverse=True)
    return rows


def fill_sizes(session: Session, rows: list[LeafRow], resolve_context: Callable[[str], Context] | None = None) -> Iterator[int]:
    """Resolve each row's context for its message count and tokens; yields the index of each row done."""
    get = resolve_context or (lambda key: resolve(session, key))
    for index, row in enumerate(rows):
        messages = get(row.id).messages
        row.messages = len(messages)
        row.tokens = estimate_messages_tokens(messages)
        yield index


def _place(session: Session, key: str, depth: dict[str, int], nearest_user: dict[str, str | None]) -> tuple[int, str | None]:
    """`key`'s depth and the nearest user message at or above it; what the walk up meets on the
    way is kept in `depth` and `nearest_user`, so the leaves' paths are walked once in all."""
    chain: list[str] = []
    above: str | None = key
    while above is not None and above not in depth:
        chain.append(above)
        above = session.parent(above)
    level, user = (depth[above], nearest_user[above]) if above is not None else (-1, None)
    for below in reversed(chain):
        level += 1
        user = below if session.entries[below].role == "user" else user
        depth[below], nearest_user[below] = level, user
    return depth[key], nearest_user[key]


def _row(session: Session, key: str, depth: int, user: str | None, current: bool) -> LeafRow:
    entry = session.entries[key]
    label = session.labels.get(key)
    return LeafRow(
        key,
        js_time(entry.timestamp),
        None if label is None else str(label),
        depth,
        " ".join(message_preview(session.entries[user].message).split()) if user is not None else "",
        current,
    )
