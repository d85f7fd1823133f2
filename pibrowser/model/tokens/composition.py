"""What a context is made of, in pi's own estimate: characters by kind, and the tokens they make.

pi counts a context's size, when no usage anchors it, as estimateTokens of the
system messages folded into one (getCurrentSystemMessage) plus estimateTokens of
every other message: ceil(chars / 4) per message, images 4,800 characters each.
The composition splits each of those messages into its parts
(`message_tokens.message_parts`: system prompt text, sections and tools, user
text, assistant text, thinking, each tool's calls and results, images, summaries,
custom messages, bash runs) and adds them up over the context:

- the characters of every kind add up exactly to the characters pi counts;
- a kind's share of the tokens is its characters / 4; pi rounds up once per
  message, and what that adds (0, ¼, ½ or ¾ of a token a message) is the
  "rounding" share, so the shares add up exactly to pi's total.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..context.system_prompt import current_system_message
from ..session.sequences import shared_prefix
from .context_estimate import is_system
from .message_tokens import (
    ASSISTANT_TEXT,
    BASH_EXECUTION,
    BRANCH_SUMMARY,
    COMPACTION_SUMMARY,
    CUSTOM_IMAGE,
    CUSTOM_TEXT,
    SYSTEM_IMAGE,
    SYSTEM_SECTIONS,
    SYSTEM_TEXT,
    SYSTEM_TOOLS,
    THINKING,
    TOOL_CALL,
    TOOL_RESULT,
    TOOL_RESULT_IMAGE,
    USER_IMAGE,
    USER_TEXT,
    OddParts,
    Parts,
    Tokens,
    message_parts,
    tokens_of,
)

if TYPE_CHECKING:
    from ..context.resolve import Context

ROUNDING = "rounding"

# The groups a kind falls in, in the order views stack them (the system prompt at the bottom,
# as it comes first in the context), with what a person calls them.
GROUPS = (
    ("system", "System prompt"),
    ("user", "User text"),
    ("assistant", "Assistant text"),
    ("thinking", "Thinking"),
    ("tool_call", "Tool calls"),
    ("tool_result", "Tool results"),
    ("image", "Images"),
    ("summary", "Summaries"),
    ("custom", "Custom messages"),
    ("bash", "Bash runs"),
)
_GROUP_OF = {
    SYSTEM_TEXT: "system",
    SYSTEM_SECTIONS: "system",
    SYSTEM_TOOLS: "system",
    USER_TEXT: "user",
    ASSISTANT_TEXT: "assistant",
    THINKING: "thinking",
    SYSTEM_IMAGE: "image",
    USER_IMAGE: "image",
    CUSTOM_IMAGE: "image",
    BRANCH_SUMMARY: "summary",
    COMPACTION_SUMMARY: "summary",
    CUSTOM_TEXT: "custom",
    BASH_EXECUTION: "bash",
}
_NAMES = {
    SYSTEM_TEXT: "System prompt",
    SYSTEM_SECTIONS: "System prompt sections",
    SYSTEM_TOOLS: "Tool definitions",
    SYSTEM_IMAGE: "System prompt images",
    USER_TEXT: "User text",
    USER_IMAGE: "User images",
    ASSISTANT_TEXT: "Assistant text",
    THINKING: "Thinking",
    CUSTOM_TEXT: "Custom messages",
    CUSTOM_IMAGE: "Custom message images",
    BASH_EXECUTION: "Bash runs (!cmd)",
    BRANCH_SUMMARY: "Branch summaries",
    COMPACTION_SUMMARY: "Compaction summary",
    ROUNDING: "Rounding (pi rounds up per message)",
}
_GROUP_ORDER = {group: place for place, (group, _) in enumerate(GROUPS)}


def group_of(kind: str) -> str:
    """The group a kind is drawn in: tool kinds by their prefix, images together."""
    if kind.startswith(TOOL_CALL):
        return "tool_call"
    if kind.startswith(TOOL_RESULT_IMAGE):
        return "image"
    if kind.startswith(TOOL_RESULT):
        return "tool_result"
    return _GROUP_OF.get(kind, "custom")


_GROUP_INDEX: dict[str, int] = {}  # kind → its group's place in GROUPS, as met


def add_to_groups(totals: MutableSequence[int], parts: Parts, sign: int = 1) -> int:
    """Add (sign 1) or take back (-1) one message's characters into `totals`, by group (GROUPS
    order); returns its characters. What the fold keeps per depth for the strip's stacked areas."""
    chars = 0
    for kind, count in parts.items():
        if count:
            place = _GROUP_INDEX.get(kind)
            if place is None:
                place = _GROUP_INDEX[kind] = _GROUP_ORDER[group_of(kind)]
            totals[place] += sign * count
            chars += count
    return chars


def kind_name(kind: str) -> str:
    """A kind as a person reads it: "Tool results: read", "Thinking"."""
    for prefix, name in ((TOOL_CALL, "Tool calls"), (TOOL_RESULT_IMAGE, "Tool result images"), (TOOL_RESULT, "Tool results")):
        if kind.startswith(prefix):
            return f"{name}: {kind[len(prefix) :]}"
    return _NAMES.get(kind, kind)


def kind_order(kind: str) -> tuple[int, str, str]:
    """Where a kind goes among the others: by group, then the kind itself (tool names alphabetical)."""
    return (_GROUP_ORDER.get(group_of(kind), len(GROUPS)), kind.split(":", 1)[0], kind)


@dataclass(frozen=True, slots=True)
class Composition:
    """A context's characters by kind, as pi counts them, and pi's estimate they make.

    `tokens` = Σ over the counted messages of ceil(chars / 4) (the system messages
    folded into one), which is pi's estimate without usage; `rounding` is what the
    per-message rounding adds to Σ chars / 4.
    """

    chars: dict[str, int] = field(default_factory=dict)  # kinds with characters, in kind_order
    tokens: int = 0
    messages: int = 0  # messages counted (the folded system message as one)

    @property
    def total_chars(self) -> int:
        return sum(self.chars.values())

    @property
    def rounding(self) -> float:
        return self.tokens - self.total_chars / 4

    def kind_tokens(self, kind: str) -> float:
        """A kind's share of the tokens: its characters / 4 (the rounding share for ROUNDING)."""
        return self.rounding if kind == ROUNDING else self.chars.get(kind, 0) / 4

    def shares(self) -> list[tuple[str, int, float]]:
        """(kind, chars, tokens) of every kind with characters, then the rounding: the tokens add up to `tokens`."""
        rows = [(kind, chars, chars / 4) for kind, chars in self.chars.items()]
        if self.rounding:
            rows.append((ROUNDING, 0, self.rounding))
        return rows

    def groups(self) -> dict[str, int]:
        """Characters by group, in GROUPS order (groups without characters left out)."""
        totals: dict[str, int] = {}
        for kind, chars in self.chars.items():
            group = group_of(kind)
            totals[group] = totals.get(group, 0) + chars
        return {group: totals[group] for group, _ in GROUPS if group in totals}

    def to_json(self) -> dict[str, Any]:
        """`{kind: {chars, tokens}}`, the rounding last: what `pibrowser composition` prints."""
        return {kind: {"chars": chars, "tokens": tokens} for kind, chars, tokens in self.shares()}


def composition_of(parts: Iterable[Parts]) -> Composition:
    """The composition of the messages whose parts these are (each rounded on its own, as pi does)."""
    totals: dict[str, int] = {}
    tokens = messages = 0
    for message in parts:
        chars = 0
        for kind, count in message.items():
            if count:
                totals[kind] = totals.get(kind, 0) + count
                chars += count
        tokens += -(-chars // 4)
        messages += 1
    return Composition({kind: totals[kind] for kind in sorted(totals, key=kind_order)}, tokens, messages)


def counted_messages(messages: list[Any]) -> list[Any]:
    """The messages pi's chars/4 estimate counts: the system messages folded into the current
    one (first, where pi's getCurrentSystemMessage gives one), then every other message."""
    system = current_system_message(messages)
    others = [message for message in messages if not is_system(message)]
    return [system, *others] if system is not None else others


def context_composition(context: Context) -> Composition:
    """What the context pi would send at `context.leaf` is made of."""
    return composition_of(map(message_parts, counted_messages(context.messages)))


def composition_and_tokens(context: Context) -> tuple[Composition, list[Tokens]]:
    """context_composition, and each message's estimate_tokens, from one walk of the messages: a
    million-entry context's parts were each worked out twice (or held, 200 MB, between the two)."""
    sums, tokens = _Sums(), list[Tokens]()
    append = tokens.append
    for message in context.messages:
        parts = message_parts(message)
        if is_system(message):
            append(tokens_of(parts))  # folded into one, counted below
            continue
        before = sums.tokens
        sums.add_message(parts)
        append(parts.tokens if type(parts) is OddParts else sums.tokens - before)
    return sums.composition(current_system_message(context.messages)), tokens


def message_kinds(message: Any) -> set[str]:
    """The kinds a message has characters of (what a filter by kind matches)."""
    return {kind for kind, chars in message_parts(message).items() if chars}


class _Sums:
    """Characters by kind and pi's tokens (ceil per message) of some messages, added up."""

    __slots__ = ("chars", "tokens", "messages")

    def __init__(self, chars: dict[str, int] | None = None, tokens: int = 0, messages: int = 0) -> None:
        self.chars = chars if chars is not None else {}
        self.tokens = tokens
        self.messages = messages

    def copy(self) -> _Sums:
        return _Sums(dict(self.chars), self.tokens, self.messages)

    def add_message(self, parts: Parts) -> None:
        chars = self.chars
        total = 0
        for kind, count in parts.items():
            if count:
                chars[kind] = chars.get(kind, 0) + count
                total += count
        self.tokens += -(-total // 4)
        self.messages += 1

    def add(self, other: _Sums) -> None:
        chars = self.chars
        for kind, count in other.chars.items():
            chars[kind] = chars.get(kind, 0) + count
        self.tokens += other.tokens
        self.messages += other.messages

    def composition(self, system: dict[str, Any] | None) -> Composition:
        sums = self
        if system is not None:
            sums = self.copy()
            sums.add_message(message_parts(system))
        return Composition({kind: sums.chars[kind] for kind in sorted(sums.chars, key=kind_order)}, sums.tokens, sums.messages)


def entry_sums(messages: Iterable[Any]) -> _Sums:
    """The sums of an entry's messages, its system messages left out (pi folds those)."""
    sums = _Sums()
    for message in messages:
        if not is_system(message):
            sums.add_message(message_parts(message))
    return sums


class CompositionMemo:
    """`composition(context)` equals `context_composition(context)`, at the cost of what changed.

    An unedited entry's messages come from its line alone, so its sums are kept by id. A step
    along a path shares its leading projected entries (the very same objects) with the context
    asked for before: the running sums at every STRIDE-th entry are kept, and a new context
    starts from the last one it shares.
    """

    STRIDE = 256

    def __init__(self) -> None:
        self._by_entry: dict[str, _Sums] = {}
        self._last: list[Any] = []  # the projected entries of the context asked for last
        self._marks: list[_Sums] = []  # running sums after entries[(i + 1) * STRIDE - 1]

    def composition(self, context: Context) -> Composition:
        entries = context.entries
        marks = self._marks[: min(shared_prefix(self._last, entries) // self.STRIDE, len(self._marks))]
        sums = marks[-1].copy() if marks else _Sums()
        for index in range(len(marks) * self.STRIDE, len(entries)):
            sums.add(self._entry(entries[index]))
            if (index + 1) % self.STRIDE == 0:
                marks.append(sums.copy())
        self._last, self._marks = list(entries), marks
        return sums.composition(current_system_message(context.messages))

    def _entry(self, projected: Any) -> _Sums:
        if projected.edit is not None:
            return entry_sums(projected.messages)  # an edit makes messages of its own
        key = projected.entry.id
        found = self._by_entry.get(key)
        if found is None or found.messages != sum(1 for message in projected.messages if not is_system(message)):
            found = self._by_entry[key] = entry_sums(projected.messages)
        return found
