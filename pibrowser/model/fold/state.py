"""pi's rules applied one entry at a time: the state at a leaf, carried to the entry below it.

Walking a path from the root, every entry changes what pi would answer were it
the leaf. `FoldState` is that answer's state after an entry: the settings in
force, the last compaction and the first entry it keeps, the edits in force, the
messages of the context summed by pi's chars/4, the last usage pi trusts and the
chars/4 after it, and the usage recorded so far. `Folder.add` moves it one entry
down. The rules are pi's steps as model/context/resolve.py (settings, compaction
range, edits, projection), model/tokens/context_estimate.py (trusted usage, the
folded system message) and model/tokens/usage.py (what an entry records) state
them; this module only calls them and carries their answers from entry to entry.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field, replace
from operator import add
from typing import Any, Protocol

from ..context.resolve import (
    apply_edit,
    edit_target,
    entry_messages,
    first_kept,
    is_system_message,
    project,
    sets_model,
    sets_thinking_level,
)
from ..session.entry import Entry
from ..tokens.context_estimate import (
    ContextEstimate,
    anchored_estimate,
    assistant_usage,
    chars_estimate,
    context_tokens_of_usage,
    folded_system_tokens,
    is_system,
)
from ..context.system_prompt import current_system_message
from ..tokens.composition import GROUPS, add_to_groups
from ..tokens.message_tokens import OddParts, Tokens, estimate_tokens, message_parts
from ..tokens.usage import UsageTotals, recorded_usage

# The only entry types whose fields a rule reads (entry_messages, edit_target, first_kept,
# recorded_usage): an entry of any other type is folded by its type alone, its line unread.
CONTENT_TYPES = frozenset({"message", "custom_message", "branch_summary", "compaction", "context_edit", "usage"})

_CHECKPOINT = -1  # where the leading compaction's messages sort among the context's (they come first)


class FoldPath(Protocol):
    """The path folded so far, by depth, and where an id lies on it (see resolve.position_on)."""

    def __getitem__(self, depth: int) -> Entry: ...

    def position(self, key: Any, stop: int) -> int: ...


@dataclass(slots=True)
class FoldState:
    """What pi would answer were the entry at `depth` the leaf (cheap to copy: no per-entry data)."""

    depth: int = -1  # -1: before the first entry
    thinking_at: int = -1  # depth of the last thinking-level setter (-1: none)
    model_at: int = -1  # ... of the last model setter
    compaction_at: int = -1  # depth of the last compaction
    kept_from: int = 0  # where the entries it keeps start (== compaction_at when none)
    edits: dict[str, Entry] = field(default_factory=dict)  # the context_edit in force per target
    messages: int = 0  # messages in the context
    others: int = 0  # chars/4 of those that are not system messages, where it is a count (nearly always)
    odd: tuple[Tokens, ...] = ()  # ... where it is not (NaN, mostly: message_tokens.OddParts), kept apart
    # so that an edit can take one back
    systems: dict[int, list[Any]] = field(default_factory=dict)  # order (depth; the checkpoint first) → system messages
    folded: Tokens | None = 0  # estimate of the system messages folded into one (None: to work out)
    groups: array[int] = field(
        default_factory=lambda: array("i", bytes(4 * len(GROUPS)))
    )  # characters by group of the messages but system ones
    system_groups: list[int] | None = None  # … of the system messages folded into one (None: to work out; empty: there is none)
    anchor_at: int = -1  # depth of the last usage pi trusts: after the last compaction and edit (-1: none)
    anchor_usage: Any = 0  # its context tokens (a JS value: see context_tokens_of_usage)
    anchor_message: int = -1  # its message's place in the context
    trailing: Tokens = 0  # chars/4 of the messages after it
    usage: UsageTotals = field(default_factory=UsageTotals)  # recorded on the path so far

    def copy(self) -> FoldState:
        return replace(self, edits=dict(self.edits), systems=dict(self.systems), usage=replace(self.usage), groups=self.groups[:])

    def estimate(self) -> ContextEstimate:
        """pi's estimateProjectedContextTokens at this leaf."""
        if self.anchor_at >= 0:
            return anchored_estimate(self.anchor_usage, self.trailing, self.anchor_message)
        return chars_estimate(self.chars_tokens())

    def composition(self) -> array[int]:
        """What the context is made of: characters by group (composition.GROUPS), the system
        messages folded into one as pi counts them (context_composition's groups). Without a
        system message, the groups themselves: the fold records them at every depth, in C."""
        if self.system_groups is None:
            system = current_system_message(self._system_messages())
            self.system_groups = []
            if system is not None:
                self.system_groups = [0] * len(GROUPS)
                add_to_groups(self.system_groups, message_parts(system))
        if not self.system_groups:
            return self.groups
        return array("i", map(add, self.groups, self.system_groups))

    def _system_messages(self) -> list[Any]:
        return [message for order in sorted(self.systems) for message in self.systems[order]]

    def chars_tokens(self) -> Tokens:
        """chars/4 of the context with its system messages folded into one."""
        if self.folded is None:
            self.folded = folded_system_tokens(self._system_messages())
        tokens = self.folded + self.others
        for cost in self.odd:
            tokens += cost
        return tokens


class Folder:
    """Moves a FoldState down `path`, one entry at a time (`add`).

    After each step, `own` holds what the entry gives of itself, unedited: (messages, chars/4).
    """

    def __init__(self, path: FoldPath, state: FoldState) -> None:
        self.path = path
        self.state = state
        self.own: tuple[int, Tokens] = (0, 0)

    def add(self, entry: Entry) -> Entry:
        """Fold `entry`, the one at depth state.depth + 1. Returns it with its fields when a rule read
        them (for the caller's own figures: read once for all), else as it is."""
        state = self.state
        depth = state.depth = state.depth + 1
        kind, role = entry.type, entry.role
        if sets_thinking_level(kind, role):
            state.thinking_at = depth
        if sets_model(kind, role):
            state.model_at = depth
        self.own = (0, 0)
        if kind not in CONTENT_TYPES:
            return entry
        full = entry.transient()
        if kind == "compaction":
            self._compact(full, depth)
        else:
            if kind == "context_edit":
                self._edit(full, depth)
            self._enter(full, depth)
        found = recorded_usage(full)
        if found is not None:
            self.state.usage.add(found[2])
        return full

    def _enter(self, entry: Entry, depth: int) -> None:
        """The entry joins the context as its newest entry."""
        state = self.state
        edit = state.edits.get(entry.id)
        original = entry_messages(entry)
        if edit is None and len(original) == 1 and not is_system(original[0]):
            # The usual entry, one message unedited (nine in ten of a long path): the sums in line.
            message = original[0]
            parts = message_parts(message)
            plain = -(-add_to_groups(state.groups, parts) // 4)  # estimate_tokens, by group
            cost: Tokens = plain
            if type(parts) is OddParts:
                cost = parts.tokens
                state.odd += (cost,)
            else:
                state.others += plain
            self.own = (1, cost)
            state.messages += 1
            self._after_usage(message, cost, depth, state.messages - 1)
            return
        messages = original if edit is None else apply_edit(original, edit)
        tokens = list(map(estimate_tokens, messages))
        self.own = (len(messages), sum(tokens)) if edit is None else self._unedited(original)
        start = state.messages
        self._count(depth, messages, tokens, 1)
        for offset, message in enumerate(messages):
            self._after_usage(message, tokens[offset], depth, start + offset)

    def _after_usage(self, message: Any, cost: Tokens, depth: int, index: int) -> None:
        """A message joined the context: pi trusts its usage from now on, or counts it after the last trusted one."""
        state = self.state
        usage = assistant_usage(message)
        if usage is not None:
            state.anchor_at, state.anchor_usage, state.anchor_message, state.trailing = depth, context_tokens_of_usage(usage), index, 0
        else:
            state.trailing += cost

    @staticmethod
    def _unedited(messages: list[Any]) -> tuple[int, Tokens]:
        return len(messages), sum(map(estimate_tokens, messages))

    def _count(self, order: int, messages: list[Any], tokens: list[Tokens], sign: int) -> None:
        """Add (sign 1) or take back (-1) what messages give to the sums; `order`: their entry's place."""
        state = self.state
        systems = [message for message in messages if is_system(message)]
        state.messages += sign * len(messages)
        for message, cost in zip(messages, tokens):
            if is_system(message):
                continue
            if type(cost) is int:
                state.others += sign * cost
            else:
                state.odd = state.odd + (cost,) if sign > 0 else _without(state.odd, cost)
            add_to_groups(state.groups, message_parts(message), sign)
        if systems or order in state.systems:
            if sign > 0 and systems:
                state.systems[order] = systems
            else:
                state.systems.pop(order, None)
            state.folded = state.system_groups = None

    def _edit(self, edit: Entry, depth: int) -> None:
        """A context_edit: no usage before it is trusted any more, and its target's messages change."""
        state = self.state
        state.anchor_at, state.trailing = -1, 0
        target = edit_target(edit)
        if target is None:
            return
        at = self.path.position(target, depth)
        if at == depth or not self._in_context(at):
            state.edits[target] = edit  # in force should the target come later on the path
            return
        entry = self.path[at].transient()
        before = self._messages(entry, at)
        self._count(self._order(at), before, list(map(estimate_tokens, before)), -1)
        state.edits[target] = edit
        after = self._messages(entry, at)
        self._count(self._order(at), after, list(map(estimate_tokens, after)), 1)

    def _in_context(self, at: int) -> bool:
        state = self.state
        if state.compaction_at < 0 or at >= state.compaction_at:
            return True
        return at >= state.kept_from and not is_system_message(self.path[at])

    def _order(self, at: int) -> int:
        return _CHECKPOINT if at == self.state.compaction_at else at

    def _messages(self, entry: Entry, at: int) -> list[Any]:
        """The messages the entry at `at` gives in the context now (an older compaction kept gives none)."""
        state = self.state
        leading = state.compaction_at < 0 or at >= state.compaction_at
        return project(entry, 0 if leading else 1, state.edits.get(entry.id)).messages

    def _compact(self, compaction: Entry, depth: int) -> None:
        """A compaction starts a new context: its checkpoint, then the entries it keeps (with the
        edits among them); no usage before it is trusted."""
        old = self.state
        kept = first_kept(self.path, compaction, depth)
        state = self.state = FoldState(depth, old.thinking_at, old.model_at, depth, kept, usage=old.usage)
        keeps = [(at, self.path[at].transient()) for at in range(kept, depth) if not is_system_message(self.path[at])]
        for _, entry in keeps:
            target = edit_target(entry)
            if target is not None:
                state.edits[target] = entry
        for at, entry in [(depth, compaction), *keeps]:
            messages = self._messages(entry, at)
            tokens = list(map(estimate_tokens, messages))
            if at == depth:
                self.own = self._unedited(project(compaction, 0, None).messages)
            self._count(self._order(at), messages, tokens, 1)


def _without(odd: tuple[Tokens, ...], cost: Tokens) -> tuple[Tokens, ...]:
    """`odd` with one `cost` taken out (NaN is not equal to itself: matched as NaN)."""
    for at, value in enumerate(odd):
        if value == cost or (value != value and cost != cost):
            return odd[:at] + odd[at + 1 :]
    return odd
