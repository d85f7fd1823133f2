"""pi's per-message token estimates, remembered per entry for the life of a loaded session.

Every step along a path and every selection asks for the estimates of a whole
context: thousands of messages, nearly all of which an earlier context had too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .tokens import estimate_tokens

if TYPE_CHECKING:
    from .context import Context


class EstimateMemo:
    """`estimates(context)` equals `[estimate_tokens(m) for m in context.messages]`.

    An entry's messages, unedited, come from its line alone, and a line never
    changes while the session is loaded (appends add lines): their estimates are
    kept by entry id (numbers only, not the messages). A context_edit makes new
    messages, so an edited entry's are worked out each time.
    """

    def __init__(self) -> None:
        self._by_entry: dict[str, tuple[int, ...]] = {}

    def estimates(self, context: Context) -> list[int]:
        result: list[int] = []
        known = self._by_entry
        for projected in context.entries:
            messages = projected.messages
            if not messages:
                continue
            if projected.edit is not None:
                result.extend(map(estimate_tokens, messages))
                continue
            tokens = known.get(projected.entry.id)
            if tokens is None or len(tokens) != len(messages):
                # (An older compaction inside a newer one's range gives no messages: never kept.)
                tokens = known[projected.entry.id] = tuple(map(estimate_tokens, messages))
            result.extend(tokens)
        return result
