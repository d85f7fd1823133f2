"""The context over time: pi's size estimate for every entry of a path, as if it were the leaf.

pi's estimateProjectedContextTokens, for a leaf, is one of two sums:
- the last assistant usage in the context plus chars/4 of every message after
  it, when no context_edit or compaction on the path comes after that assistant
  entry;
- otherwise chars/4 of every message that is not a system message, plus the
  system messages folded into one.

Walking the path root → leaf, both sums change by what each new entry adds: a
message adds its tokens; a context_edit swaps its target's tokens and voids
the usage; a compaction starts a new context (its summary, the kept entries,
then what follows). So each entry costs about its own size, and a path of
thousands of entries is walked in one pass. Rows depend only on the path to
their entry, so they are kept by id; walker states saved along the way let a
neighbouring selection resume where its path leaves the one walked before.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..context.resolve import apply_edit, entry_messages, is_system_message
from .context_estimate import assistant_usage, context_tokens_of_usage, folded_system_tokens, is_system
from ..session.entry import Entry
from ..session.gcpause import gc_paused
from ..js.stringify import dump_json, js_stringify
from ..js.value import MISSING, js_add
from .message_tokens import estimate_tokens
from .usage import usage_number

if TYPE_CHECKING:
    from ..session.session import Session


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
    if not isinstance(usage, dict) or not any(key in usage for key in ("input", "cacheRead", "cacheWrite")):
        return None
    return sum(usage_number(usage, key) for key in ("input", "cacheRead", "cacheWrite"))


@dataclass(slots=True)
class _State:
    """Both of pi's sums for the path walked so far; cheap to copy (no per-entry data)."""

    compaction: int = -1  # index of the last compaction on the path
    kept_from: int = 0  # where the entries it keeps start (== compaction when none)
    usage: Any = None  # the last trusted usage's calculateContextTokens, None when voided or absent
    trailing: int = 0  # chars/4 of every message after it
    others: int = 0  # chars/4 of every message in the context that is not a system message
    edits: dict[str, Entry] = field(default_factory=dict)  # the latest context_edit per target
    systems: dict[int, list[Any]] = field(default_factory=dict)  # path index → its system messages
    folded: int | None = 0  # the folded system message's tokens (None: to recompute)

    def copy(self) -> _State:
        return replace(self, edits=dict(self.edits), systems=dict(self.systems))

    def tokens(self) -> Any:
        if self.usage is not None:
            return js_add(self.usage, self.trailing)
        if self.folded is None:
            self.folded = folded_system_tokens([message for messages in self.systems.values() for message in messages])
        return self.folded + self.others


class _Walk:
    """One pass along a path, from a saved state."""

    def __init__(self, path: list[Entry], state: _State) -> None:
        self.path = path
        self.at = {entry.id: index for index, entry in enumerate(path)}
        self.state = state
        self.leaf: tuple[int, Entry] | None = None  # the newest entry, read once for all its uses

    def read(self, position: int) -> Entry:
        if self.leaf is not None and self.leaf[0] == position:
            return self.leaf[1]
        return _read(self.path[position])

    def add(self, index: int) -> Any:
        """Take path[index] as the new leaf; pi's estimate there."""
        entry = self.path[index]
        self.leaf = (index, _read(entry))
        if entry.type == "compaction":
            self._start_context(index)
        else:
            if entry.type == "context_edit":
                self._edit(self.read(index), index)
            self._count(index, self._messages(index, index))
        return self.state.tokens()

    def _in_context(self, position: int, leaf: int) -> bool:
        state = self.state
        if position > leaf:
            return False
        if state.compaction < 0 or position >= state.compaction:
            return True
        return position >= state.kept_from and not is_system_message(self.path[position])

    def _messages(self, position: int, leaf: int) -> list[Any]:
        """The messages path[position] gives in the context at `leaf`, edits applied."""
        if not self._in_context(position, leaf):
            return []
        entry = self.path[position]
        state = self.state
        if entry.type == "compaction" and position != state.compaction:
            return []  # an older compaction inside the kept range gives nothing
        messages = entry_messages(self.read(position))
        edit = state.edits.get(entry.id)
        return apply_edit(messages, edit) if edit is not None else messages

    def _count(self, position: int, messages: list[Any], sign: int = 1) -> None:
        """Add (or, with sign -1, take back from the chars/4 sum) what an entry gives."""
        state = self.state
        systems = [message for message in messages if is_system(message)]
        if sign > 0:
            for message in messages:
                usage = assistant_usage(message)
                if usage is not None:
                    state.usage, state.trailing = context_tokens_of_usage(usage), 0
                else:
                    state.trailing += estimate_tokens(message)
        state.others += sign * sum(estimate_tokens(message) for message in messages if not is_system(message))
        if systems or position in state.systems:
            if sign > 0 and systems:
                state.systems[position] = systems
            else:
                state.systems.pop(position, None)
            state.folded = None

    def _edit(self, edit: Entry, index: int) -> None:
        """A context_edit: swap its target's messages, and trust no usage before it."""
        state = self.state
        state.usage, state.trailing = None, 0
        target = edit.get("targetId")
        if not isinstance(target, str):
            return
        position = self.at.get(target)
        if position is not None and position < index:
            self._count(position, self._messages(position, index), -1)
        state.edits[target] = edit
        if position is not None and position < index:
            self._count_again(position, index)

    def _count_again(self, position: int, leaf: int) -> None:
        # Only the chars/4 sum and the system messages: the usage is void after an edit anyway.
        state = self.state
        usage, trailing = state.usage, state.trailing
        self._count(position, self._messages(position, leaf))
        state.usage, state.trailing = usage, trailing

    def _start_context(self, index: int) -> None:
        """A compaction: its summary first, then the entries it keeps, each with the edits among them."""
        first_kept = self.read(index).get("firstKeptEntryId")
        kept_from = next((position for position in range(index) if self.path[position].id == first_kept), index)
        state = self.state = _State(compaction=index, kept_from=kept_from)
        kept = [position for position in range(kept_from, index) if not is_system_message(self.path[position])]
        for position in kept:
            entry = self.path[position]
            if entry.type == "context_edit" and isinstance(target := (edit := self.read(position)).get("targetId"), str):
                state.edits[target] = edit
        for position in [index, *kept]:
            self._count(position, self._messages(position, index))
        state.usage, state.trailing = None, 0  # a compaction voids every usage before it


def _read(entry: Entry) -> Entry:
    """The entry with its fields, without keeping them on it: a walk reads every entry of a
    path once, and keeping them all parsed would hold a whole long session in memory."""
    if entry.is_parsed or entry.raw is None:
        return entry
    return Entry.from_data(entry.peek(), entry.line, entry.id)


YIELD_EVERY = 64


class WalkStopped(Exception):
    """A walk given up because its answer is no longer wanted; the rows it made are kept."""


class Timeline:
    """pi's estimate for every entry of a path, remembered across selections of one session.

    A row depends only on the path to its entry, so rows are kept by id. Walker
    states are saved every STRIDE entries of depth and at the end of each walk;
    a new path resumes from the deepest saved state on it.
    """

    STRIDE = 256

    def __init__(self, session: Session) -> None:
        self.session = session
        self._rows: dict[str, TimelineRow] = {}
        self._states: dict[str, _State] = {}

    def has(self, leaf: str) -> bool:
        """The rows to `leaf` are known: asking for them walks nothing."""
        return leaf in self._rows

    def rows(self, leaf: str, *, in_background: bool = False, stop: Callable[[], bool] | None = None) -> list[TimelineRow]:
        """One row per entry from the root to `leaf`.

        `in_background`: the walk runs beside a GUI thread, and lets it have the
        interpreter every few dozen entries so the window stays quick; there it
        asks `stop` too, and raises WalkStopped when told to (a walk of 100,000
        entries takes a second or two, and would share the interpreter with the
        clicks that made its answer stale). A later walk resumes from its rows.
        """
        path = [self.session.entries[key] for key in self.session.path_to(leaf)]
        if path and path[-1].id in self._rows:
            return [self._rows[entry.id] for entry in path]
        with gc_paused():  # the walk parses entries and frees nothing: collecting would double its time
            self._walk(path, in_background, stop)
        return [self._rows[entry.id] for entry in path]

    def _walk(self, path: list[Entry], in_background: bool, stop: Callable[[], bool] | None = None) -> None:
        start, state = self._resume_point(path)
        walk = _Walk(path, state)
        for index in range(start, len(path)):
            if in_background and not index % YIELD_EVERY:
                if stop is not None and stop():
                    raise WalkStopped
                time.sleep(0)  # gives up the GIL: a waiting GUI thread runs now, not after the switch interval
            entry = path[index]
            tokens = walk.add(index)
            recorded = input_tokens(walk.read(index)) if entry.role == "assistant" else None
            self._rows[entry.id] = TimelineRow(entry.id, entry.type, tokens, recorded, entry.type == "compaction")
            if (index + 1) % self.STRIDE == 0:
                self._states[entry.id] = walk.state.copy()
        if path:
            self._states[path[-1].id] = walk.state.copy()

    def _resume_point(self, path: list[Entry]) -> tuple[int, _State]:
        for index in range(len(path) - 1, -1, -1):
            saved = self._states.get(path[index].id)
            if saved is not None:
                return index + 1, saved.copy()
        return 0, _State()


CSV_COLUMNS = ("id", "type", "tokens_estimate", "input_tokens", "compaction")


def timeline_json(rows: list[TimelineRow]) -> bytes:
    """One JSON array of row objects."""
    return dump_json([row.to_json() for row in rows])


def timeline_csv(rows: list[TimelineRow]) -> str:
    """A header and one line per row; an unrecorded input_tokens is an empty cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        cells = row.to_json()
        writer.writerow([_csv_cell(cells[column]) for column in CSV_COLUMNS])
    return out.getvalue()


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return js_stringify(value) or ""
