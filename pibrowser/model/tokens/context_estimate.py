"""pi's estimate of a whole context's size: the last assistant usage plus chars/4 of what follows.

pi's running estimate of a context (`estimateProjectedContextTokens`) anchors on
the last assistant usage when no context edit or compaction came after it;
otherwise it counts every message by chars/4, the system messages folded into one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..context.system_prompt import current_system_message
from ..js.value import MISSING, js_add, js_number_string, js_string, js_to_number, js_truthy
from ..js.map_key import key_truthy
from .message_tokens import Tokens, estimate_messages_tokens, estimate_tokens

if TYPE_CHECKING:
    from ..context.resolve import Context


@dataclass(frozen=True, slots=True)
class ContextEstimate:
    """pi's estimate of a context's size.

    tokens = usage_tokens (the last trusted assistant usage) + trailing_tokens
    (chars/4 of what came after it); with no trusted usage, all of it is chars/4.

    `tokens` and `usage_tokens` are JS values, as pi computes them from what the
    file holds: usually an int, but a float (a fraction, NaN, Infinity), a string
    (a usage field that is a string concatenates), or even a boolean or a list
    (`totalTokens: true`). `estimate_text` shows one, `estimate_number` plots it.
    """

    tokens: Any
    usage_tokens: Any
    trailing_tokens: Tokens
    last_usage_index: int | None


USAGE_FIELDS = ("input", "output", "cacheRead", "cacheWrite")


def context_tokens_of_usage(usage: Any) -> Any:
    """pi's calculateContextTokens: `usage.totalTokens || usage.input + usage.output + usage.cacheRead
    + usage.cacheWrite`, with JavaScript's `||` and `+`.

    A truthy totalTokens is the answer whatever it is ("5", true, [7]); otherwise the
    four fields add left to right: a missing one makes NaN, a string concatenates.
    Anything else but null has no such fields (NaN); null throws, as in pi (whose callers
    never pass it: assistant_usage does not).
    """
    if usage is None or usage is MISSING:
        raise TypeError("Cannot read properties of null (reading 'totalTokens')")
    if not isinstance(usage, dict):
        return math.nan
    total = usage.get("totalTokens", MISSING)
    if js_truthy(total):
        return total
    tokens = usage.get(USAGE_FIELDS[0], MISSING)
    for key in USAGE_FIELDS[1:]:
        tokens = js_add(tokens, usage.get(key, MISSING))
    return tokens


def assistant_usage(message: Any) -> dict[str, Any] | None:
    """A reply's usage that pi trusts (getAssistantUsage): not aborted, not an error, and
    calculateContextTokens > 0 in JS terms (NaN, zero, negatives and "0" are not)."""
    if not isinstance(message, dict) or message.get("role") != "assistant" or "usage" not in message:
        return None
    if message.get("stopReason") in ("aborted", "error"):
        return None
    usage = message.get("usage")
    if js_truthy(usage) and js_to_number(context_tokens_of_usage(usage)) > 0:
        return usage
    return None


def estimate_number(tokens: Any) -> float:
    """An estimate as a number, as pi compares it (`tokens > contextWindow - reserve`); 0 where
    is NaN or infinite, so a plot has a point (`estimate_text` says what the value really is)."""
    number = tokens if type(tokens) is int else js_to_number(tokens)
    return number if type(number) is int or math.isfinite(number) else 0


def estimate_text(tokens: Any) -> str:
    """An estimate for people: a number with thousands separators; a string pi made by
    concatenation quoted, so "70" is not read as seventy; anything else as JS prints it."""
    if isinstance(tokens, bool):
        return js_string(tokens)
    if isinstance(tokens, int):
        return f"{tokens:,}"
    if isinstance(tokens, float):
        if tokens.is_integer() and abs(tokens) < 1e21:
            return f"{int(tokens):,}"
        return js_number_string(tokens)
    if isinstance(tokens, str):
        return f"“{tokens}” (text)"
    return js_string(tokens)


def estimate_context_tokens(messages: list[Any], per_message: list[Tokens] | None = None) -> ContextEstimate:
    """pi's estimateContextTokens: last assistant usage plus chars/4 of what follows.

    `per_message`: estimate_tokens of each message, when the caller has them already.
    """
    for index in range(len(messages) - 1, -1, -1):
        usage = assistant_usage(messages[index])
        if usage is not None:
            trailing = sum(per_message[index + 1 :]) if per_message is not None else estimate_messages_tokens(messages[index + 1 :])
            return anchored_estimate(context_tokens_of_usage(usage), trailing, index)
    estimated = sum(per_message) if per_message is not None else estimate_messages_tokens(messages)
    return chars_estimate(estimated)


def anchored_estimate(usage_tokens: Any, trailing: Tokens, index: int) -> ContextEstimate:
    """pi's estimate from a trusted usage (context_tokens_of_usage, a JS value) at message `index`,
    and chars/4 of the messages after it, added as JavaScript adds them."""
    return ContextEstimate(js_add(usage_tokens, trailing), usage_tokens, trailing, index)


def chars_estimate(tokens: Tokens) -> ContextEstimate:
    """pi's estimate with no usage to trust: chars/4 alone."""
    return ContextEstimate(tokens, 0, tokens, None)


def projected_context_tokens(context: Context, per_message: list[Tokens] | None = None) -> ContextEstimate:
    """pi's estimateProjectedContextTokens for a resolved context and its path.

    The last assistant usage counts only if no context_edit or compaction on the
    path comes after the entry that gave it; otherwise everything is chars/4,
    with the system messages folded into one. `per_message` as for estimate_context_tokens.
    """
    estimate = estimate_context_tokens(context.messages, per_message)
    # pi passes getBranch(), which is empty when the leaf id is not truthy (an entry without an id
    # answers with its default leaf's projection): no usage is found on an empty branch.
    if estimate.last_usage_index is not None and (context.leaf is None or key_truthy(context.leaf)):
        usage_entry_id = None
        start = 0
        for projected in context.entries:
            end = start + len(projected.messages)
            if estimate.last_usage_index < end:
                usage_entry_id = projected.entry.id
                break
            start = end
        invalidated_at = -1
        for index in range(len(context.path) - 1, -1, -1):
            if context.path[index].type in ("context_edit", "compaction"):
                invalidated_at = index
                break
        # Ids are unique on a path: look for the usage's entry only after the invalidation,
        # not through a map of the whole (100,000-entry) path.
        path = context.path
        usage_after = usage_entry_id is not None and any(
            path[index].id == usage_entry_id for index in range(len(path) - 1, invalidated_at, -1)
        )
        if usage_after:
            return estimate
    if per_message is None:
        per_message = [estimate_tokens(message) for message in context.messages]
    tokens = folded_system_tokens(context.messages) + sum(
        tokens for message, tokens in zip(context.messages, per_message) if not is_system(message)
    )
    return chars_estimate(tokens)


def is_system(message: Any) -> bool:
    return isinstance(message, dict) and message.get("role") == "system"


def folded_system_tokens(messages: list[Any]) -> Tokens:
    """pi counts the system messages of a context once, folded into the current one."""
    system = current_system_message(messages)
    return estimate_tokens(system) if system is not None else 0
