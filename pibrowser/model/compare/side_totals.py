"""One side of a comparison in numbers: messages, tokens, recorded cost, model and thinking level."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..context.resolve import Context
from ..tokens.message_tokens import Tokens
from ..tokens.stats import ContextStats, context_stats


@dataclass(frozen=True, slots=True)
class SideTotals:
    messages: int
    tokens: Tokens  # pi's estimateTokens over every message sent (chars / 4; a JS number)
    pi_tokens: Any  # pi's running estimate (last usage + what came after), a JS value (see ContextEstimate)
    cost: float | None  # usage.cost.total recorded on the path, as pi's session statistics sum it (None: being summed)
    model: Any
    thinking_level: Any

    @classmethod
    def of(cls, context: Context, stats: ContextStats | None = None) -> SideTotals:
        stats = stats if stats is not None else context_stats(context)
        return cls(
            stats.messages,
            stats.estimated_tokens,
            stats.pi_estimate.tokens,
            stats.usage.cost if stats.usage is not None else None,
            context.model,
            context.thinking_level,
        )

    def minus(self, other: SideTotals) -> tuple[int, Tokens, float | None]:
        """(messages, tokens, cost) of this side less the other's (cost None while either is being summed)."""
        cost = None if self.cost is None or other.cost is None else self.cost - other.cost
        return self.messages - other.messages, self.tokens - other.tokens, cost
