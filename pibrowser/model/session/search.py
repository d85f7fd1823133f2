"""Finding entries by text: message content, summaries, labels and ids."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Iterator

from .entry import Entry

if TYPE_CHECKING:
    from .session import Session


def search_text(entry: Entry, label: Any = None) -> str:
    """Everything a person would expect a search to look through, lower-cased."""
    parts: list[str] = [entry.id]
    if label is not None:
        parts.append(str(label))
    _collect(entry.peek(), parts, depth=0)
    return "\n".join(parts).casefold()


_SKIP_KEYS = {"type", "id", "parentId", "timestamp", "data", "mimeType", "api", "usage", "signature", "thinkingSignature"}


def _collect(value: Any, parts: list[str], depth: int) -> None:
    if depth > 32:
        return
    if isinstance(value, str):
        parts.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            # Image data and bookkeeping fields would only produce false hits.
            if key not in _SKIP_KEYS or (key == "type" and depth == 0):
                _collect(item, parts, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _collect(item, parts, depth + 1)


def find(session: Session, query: str, order: list[str] | None = None) -> Iterator[str]:
    """Ids of entries whose text contains `query` (case-insensitive), in `order` (default: tree order)."""
    needle = query.casefold().strip()
    if not needle:
        return
    keys = order if order is not None else [key for key, _ in session.walk()]
    for key in keys:
        entry = session.entries[key]
        if needle in search_text(entry, session.labels.get(key)):
            yield key


def value_text(value: Any) -> str:
    """The strings of a value (a message, say) that a search looks through, lower-cased."""
    parts: list[str] = []
    _collect(value, parts, depth=0)
    return "\n".join(parts).casefold()
