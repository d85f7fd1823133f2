"""The rows a leaf picker lists: every leaf with its time, label, depth, last prompt and size.

Time, label, depth and the last user message come from one walk over the
tree (a session can have thousands of leaves on 100,000-entry paths, so no
path is walked per leaf). The size of each leaf's context (messages and
tokens) needs its context resolved, so it is filled in separately, a leaf at a
time, by whoever can afford it (the GUI does it off its thread).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Iterator

from ..context.resolve import Context, resolve
from ..text.describe import message_preview
from ..js.date import js_time
from ..tokens.message_tokens import estimate_messages_tokens

if TYPE_CHECKING:
    from ..session.session import Session


@dataclass(slots=True)
class LeafRow:
    id: str
    millis: int | None  # the entry's timestamp, as JS reads it
    label: str | None
    depth: int  # entries above it
    last_user: str  # the latest user message on its path, as a preview
    leaf: bool
    current: bool  # the session's current leaf
    messages: int | None = None  # filled in by fill_sizes
    tokens: int | None = None

    def matches(self, words: list[str], session_name: str = "") -> bool:
        """Every word (lower case) is in the id, label, session name or last user message."""
        haystack = f"{self.id} {self.label or ''} {session_name} {self.last_user}".lower()
        return all(word in haystack for word in words)


def leaf_rows(session: Session) -> list[LeafRow]:
    """Every leaf, newest first."""
    leaves = set(session.leaves())
    rows = [_row(session, key, depth, user) for key, depth, user in _walk_with_last_user(session) if key in leaves]
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


def _row(session: Session, key: str, depth: int, user: str | None) -> LeafRow:
    entry = session.entries[key]
    label = session.labels.get(key)
    return LeafRow(
        key,
        js_time(entry.timestamp),
        None if label is None else str(label),
        depth,
        " ".join(message_preview(session.entries[user].message).split()) if user is not None else "",
        not session.children(key),
        key == session.leaf_id,
    )


def _walk_with_last_user(session: Session) -> Iterator[tuple[str, int, str | None]]:
    """(entry, depth, nearest user message at or above it), parents before children."""
    nearest: dict[str, Any] = {}
    for key, depth in session.walk():
        entry = session.entries[key]
        parent = session.parent(key)
        user = key if entry.role == "user" else nearest.get(parent) if parent is not None else None
        nearest[key] = user
        yield key, depth, user
