"""Everything the context header shows about a context: message tokens, pi's estimate, usage on the path."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .context_estimate import ContextEstimate, projected_context_tokens
from .estimate_memo import EstimateMemo
from .message_tokens import estimate_tokens
from .usage import PathUsage, UsageMemo, path_usage

if TYPE_CHECKING:
    from ..context.resolve import Context


@dataclass(frozen=True, slots=True)
class ContextStats:
    messages: int
    estimated_tokens: int  # chars/4 over every message sent, as listed
    pi_estimate: ContextEstimate
    usage: PathUsage
    message_tokens: list[int]


def context_stats(context: Context, memo: UsageMemo | None = None, estimates: EstimateMemo | None = None) -> ContextStats:
    """`memo` and `estimates` make a step along a path cost the difference (same answers without them)."""
    messages = context.messages
    per_message = estimates.estimates(context) if estimates is not None else [estimate_tokens(message) for message in messages]
    return ContextStats(
        len(messages),
        sum(per_message),
        projected_context_tokens(context, per_message),
        path_usage(context.path, memo),
        per_message,
    )
