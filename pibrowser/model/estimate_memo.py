"""pi's per-message token estimates, reused for the messages a context shares with one asked about before.

Walking a path (↑, ↓, a click on a nearby entry) asks for contexts that are
prefixes or extensions of each other: thousands of messages, of which only the
last few differ. Estimating each message again is most of the cost of a step.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from .sequence_match import shared_prefix
from .tokens import estimate_tokens


class EstimateMemo:
    """`estimates(messages)` equals `[estimate_tokens(m) for m in messages]`.

    It keeps the message lists of the last few contexts asked about (the lists
    only: the messages are the session's) with their estimates; the leading
    messages a new list shares with one of them, object for object, take their
    estimates from it. A message is never changed once read, so the same object
    has the same estimate.
    """

    KEEP = 4

    def __init__(self) -> None:
        self._recent: deque[tuple[list[Any], list[int]]] = deque(maxlen=self.KEEP)

    def estimates(self, messages: list[Any]) -> list[int]:
        known: list[int] = []
        for before, tokens in self._recent:
            shared = shared_prefix(before, messages)
            if shared > len(known):
                known = tokens[:shared]
        result = known + [estimate_tokens(message) for message in messages[len(known):]]
        self._recent.append((messages, result))
        return result

