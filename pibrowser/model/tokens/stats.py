"""Everything the context header shows about a context: message tokens, pi's estimate, usage on the path."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .context_estimate import ContextEstimate, projected_context_tokens
from .message_tokens import Tokens, estimate_tokens
from .usage import UsageTotals, path_usage

if TYPE_CHECKING:
    from ..context.resolve import Context


@dataclass(frozen=True, slots=True)
class ContextStats:
    messages: int
    estimated_tokens: Tokens  # chars/4 over every message sent, as listed
    pi_estimate: ContextEstimate
    usage: UsageTotals | None  # recorded on the path, as pi sums it; None while it is being summed
    message_tokens: list[Tokens]


def context_stats(context: Context) -> ContextStats:
    """The figures worked out from the context and its whole path (the fold gives the same, see model/fold/)."""
    per_message = [estimate_tokens(message) for message in context.messages]
    return ContextStats(
        len(context.messages),
        sum(per_message),
        projected_context_tokens(context, per_message),
        path_usage(context.path).total,
        per_message,
    )
