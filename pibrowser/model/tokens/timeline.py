"""The context over time: pi's size estimate for every entry of a path, as if it were the leaf.

A row per entry: pi's estimateProjectedContextTokens were it the leaf, and the
input the provider recorded for an assistant reply. The figures come from the
fold of pi's rules along the path (model/fold/: `PathFold.rows`, `path_rows`);
this module says what a row holds and writes rows as JSON (text/csv_cells.py as CSV).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..js.stringify import dump_json
from ..js.value import MISSING
from .usage import usage_number

if TYPE_CHECKING:
    from ..session.entry import Entry


@dataclass(frozen=True, slots=True)
class TimelineRow:
    id: str
    type: Any
    tokens_estimate: Any  # pi's estimate were this entry the leaf (a JS value: see ContextEstimate)
    input_tokens: float | None  # what the provider reported the assistant read, where recorded
    compaction: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": None if self.type is MISSING else self.type,
            "tokens_estimate": self.tokens_estimate,
            "input_tokens": self.input_tokens,
            "compaction": self.compaction,
        }


def input_tokens(entry: Entry) -> float | None:
    """The prompt the provider counted for an assistant reply: input + cache read + cache write.

    With prompt caching, `input` alone is only the uncached tail (often a handful
    of tokens); the three together are what the model read.
    """
    if entry.type != "message" or entry.role != "assistant":
        return None
    message = entry.message
    usage = message.get("usage") if isinstance(message, dict) else None
    if not isinstance(usage, dict) or not ("input" in usage or "cacheRead" in usage or "cacheWrite" in usage):
        return None
    return usage_number(usage, "input") + usage_number(usage, "cacheRead") + usage_number(usage, "cacheWrite")


CSV_COLUMNS = ("id", "type", "tokens_estimate", "input_tokens", "compaction")


def timeline_json(rows: list[TimelineRow]) -> bytes:
    """One JSON array of row objects."""
    return dump_json([row.to_json() for row in rows])
