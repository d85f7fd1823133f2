"""pi's per-message token estimates, remembered per entry for the life of a loaded session.

Every step along a path and every selection asks for the estimates of a whole
context: thousands of messages, nearly all of which an earlier context had too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice
from typing import TYPE_CHECKING

from ..context.resolve import entry_messages
from ..session.entry import Entry
from ..session.sequences import shared_prefix
from .message_tokens import estimate_tokens

if TYPE_CHECKING:
    from ..context.resolve import Context, ProjectedEntry


class EstimateMemo:
    """`estimates(context)` equals `[estimate_tokens(m) for m in context.messages]`.

    An entry's messages, unedited, come from its line alone, and a line never
    changes while the session is loaded (appends add lines): their estimates are
    kept by entry id (numbers only, not the messages). A context_edit makes new
    messages, so an edited entry's are worked out each time.
    """

    def __init__(self) -> None:
        self._by_entry: dict[str, tuple[int, ...]] = {}
        # The last answer: its context's entries, and where each entry's estimates end in it.
        self._last: tuple[list[ProjectedEntry], list[int], list[int]] = ([], [], [])

    def estimates(self, context: Context) -> list[int]:
        # A step along a path shares its leading entries, the very same objects, with the
        # context asked for before: their estimates are taken over without a look at each.
        last_entries, last_result, last_ends = self._last
        shared = shared_prefix(last_entries, context.entries)
        result = last_result[: last_ends[shared - 1]] if shared else []
        ends = last_ends[:shared]
        known = self._by_entry
        for projected in islice(context.entries, shared, None):
            messages = projected.messages
            if messages and projected.edit is not None:
                result.extend(map(estimate_tokens, messages))
            elif messages:
                tokens = known.get(projected.entry.id)
                if tokens is None or len(tokens) != len(messages):
                    # (An older compaction inside a newer one's range gives no messages: never kept.)
                    tokens = known[projected.entry.id] = tuple(map(estimate_tokens, messages))
                result.extend(tokens)
            ends.append(len(result))
        self._last = (list(context.entries), result, ends)
        return result[:]

    def warm(self, entries: Iterable[Entry], stop: Callable[[], bool] = lambda: False, pace: Callable[[], None] = lambda: None) -> None:
        """Work out every entry's estimates (in the background, after a load), so a first
        selection in a part of the session not seen yet estimates nothing.

        Lines are parsed without keeping them: a lazily loaded session keeps only
        what the user looked at. `pace` is called every 256 entries (see courtesy.py).
        """
        known = self._by_entry
        for done, entry in enumerate(entries):
            if not done % 256:
                if stop():
                    return
                pace()
            if entry.id in known:
                continue
            parsed = _unkept(entry)
            messages = entry_messages(parsed) if parsed is not None else None
            if messages:
                known[entry.id] = tuple(map(estimate_tokens, messages))


def _unkept(entry: Entry) -> Entry | None:
    """The entry with its fields parsed, for one use: the entry itself stays unparsed.
    None when its line cannot be read now (the GUI thread may be parsing it: it is left
    for `estimates` to work out)."""
    if entry.is_parsed:
        return entry
    data = entry.peek()
    return Entry(entry.id, entry.parent_id, entry.type, entry.timestamp, entry.role, entry.line, data=data) if data else None
