"""One path folded: per depth, in typed columns, what pi would answer were that entry the leaf.

A spine holds its path's entries and where each id lies on it. Two kinds of figures
are kept per depth:
- its structure (structure.py), read off the entries' types alone (no line is read):
  where the compactions, the thinking-level and model setters and the context edits
  are, as sorted arrays of depths;
- its content, worked out by folding the entries one by one (state.Folder), once,
  usually in the background: pi's estimate, the chars/4 of the context, the usage
  recorded so far (prefix sums), each entry's own messages and recorded input. One
  number per column and depth, no object per entry (see Columns).

A branch is a spine of its own that hangs under another (`base`) from depth `start`:
it holds only its own entries, and its first state is its base's at the fork.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Iterator, Sequence, Set as AbstractSet
from itertools import count
from operator import attrgetter
from typing import Any

from ..context.resolve import DEFAULT_SETTINGS, Context, first_kept, settings_from
from ..session.entry import Entry, entry_id
from ..js.value import js_add
from ..tokens.composition import GROUPS
from ..tokens.context_estimate import ContextEstimate, anchored_estimate, chars_estimate, estimate_number
from ..tokens.message_tokens import Tokens
from ..tokens.timeline import TimelineRow, input_tokens
from ..tokens.usage import UsageTotals
from .state import Folder, FoldState
from .structure import Structure, context_from, last_at

_TYPE, _ROLE = attrgetter("type"), attrgetter("role")
_EXACT = 2**53  # an integer past this is not what JavaScript holds: kept as it is (Columns.odd_usage)
ODD_OWN = -2  # own_tokens of an entry whose one message's estimate is not a count: worked out when asked


class Columns:
    """The content figures of a spine's own depths, in typed arrays.

    One number per depth (index: depth - start):
      anchor_at      where the usage pi trusts at that leaf is (-1: none)
      trailing       chars/4 after it; without one, the chars/4 estimate itself
      tokens         pi's estimate as a number to draw (estimate_number; the JS value: Spine.estimate)
      own_tokens     chars/4 of the one message the entry gives of itself, unedited (-1: not one;
                     ODD_OWN: one whose estimate is not a count, message_tokens.OddParts)
    A trailing figure that is not a count (NaN where pi took the length of a number) is kept in
    `odd_trailing` by its place, 0 in the column.
    What the context is made of (FoldState.composition), len(GROUPS) numbers per depth in one
    flat column: groups[(depth - start) * len(GROUPS) + g] is group g's characters there.
    One number per depth where something was recorded, beside those depths (sorted):
      anchors, anchor_usage, anchor_message   a reply's usage pi trusts: its context tokens, its message's place
    pi computes a usage's context tokens with JavaScript's `||` and `+` (context_tokens_of_usage):
    almost always an integer, which anchor_usage holds; any other JS value (a fraction, NaN, a
    string, true, an integer past 2**53) is kept as it is in `odd_usage`, by its place in anchors.
      inputs, input                           the input tokens a reply recorded
      usages, usage_input … usage_records     the usage recorded from the root to there, summed
    """

    __slots__ = (
        "anchor_at", "trailing", "tokens", "own_tokens",
        "anchors", "anchor_usage", "anchor_message", "inputs", "input",
        "usages", "usage_input", "usage_output", "usage_cache_read", "usage_cache_write", "usage_cost", "usage_records",
        "odd_usage", "odd_trailing", "groups",
    )  # fmt: skip

    def __init__(self) -> None:
        self.anchor_at, self.trailing, self.tokens, self.own_tokens = array("i"), array("q"), array("d"), array("q")
        self.anchors, self.anchor_usage, self.anchor_message = array("i"), array("q"), array("i")
        self.inputs, self.input = array("i"), array("d")
        self.usages, self.usage_records = array("i"), array("i")
        self.usage_input, self.usage_output, self.usage_cache_read = array("d"), array("d"), array("d")
        self.usage_cache_write, self.usage_cost = array("d"), array("d")
        self.odd_usage: dict[int, Any] = {}
        self.odd_trailing: dict[int, float] = {}
        self.groups = array("i")  # a context's characters: fewer than its file's bytes

    def __len__(self) -> int:
        return len(self.own_tokens)

    def record(self, state: FoldState, own: tuple[int, Tokens], input_tokens: float | None, records_before: int) -> None:
        """The figures of the state just folded (the next depth). `own_tokens` goes last: the
        length of the columns is read as how far they are filled (by a reader in another thread)."""
        depth = state.depth
        anchored = state.anchor_at >= 0
        if anchored and state.anchor_at == depth:
            self.anchors.append(depth)
            tokens = state.anchor_usage
            if type(tokens) is not int or not -_EXACT <= tokens <= _EXACT:
                self.odd_usage[len(self.anchor_usage)] = tokens
                tokens = 0
            self.anchor_usage.append(tokens)
            self.anchor_message.append(state.anchor_message)
        if input_tokens is not None:
            self.inputs.append(depth)
            self.input.append(input_tokens)
        usage = state.usage
        if usage.records != records_before:
            self.usages.append(depth)
            self.usage_input.append(usage.input)
            self.usage_output.append(usage.output)
            self.usage_cache_read.append(usage.cache_read)
            self.usage_cache_write.append(usage.cache_write)
            self.usage_cost.append(usage.cost)
            self.usage_records.append(usage.records)
        trailing = state.trailing if anchored else state.chars_tokens()
        self.anchor_at.append(state.anchor_at)
        if type(trailing) is int:
            self.trailing.append(trailing)
            self.tokens.append(estimate_number(js_add(state.anchor_usage, trailing)) if anchored else trailing)
        else:
            self.odd_trailing[len(self.trailing)] = trailing
            self.trailing.append(0)
            self.tokens.append(estimate_number(js_add(state.anchor_usage, trailing) if anchored else trailing))
        self.groups.extend(state.composition())
        self.own_tokens.append((own[1] if type(own[1]) is int else ODD_OWN) if own[0] == 1 else -1)


class Spine:
    """A path (or a branch under another spine's path) and its figures per depth.

    `entries`: the spine's own entries, at depths start, start + 1, …; `base`: the spine its
    first entry hangs under (at depth start - 1), None for a path from a root.
    """

    STRIDE = 256  # a copy of the state is kept every STRIDE depths: a branch folds from the nearest
    ASK_EVERY = 64  # entries folded between two calls of `pace` and `stop`

    def __init__(self, entries: list[Entry], base: Spine | None = None, start: int = 0) -> None:
        self.base, self.start = base, start
        self.entries = entries
        self.places: dict[str, int] = dict(zip(map(entry_id, entries), count(start)))
        self.structure = Structure()
        self.structure.add(list(map(_TYPE, entries)), list(map(_ROLE, entries)), start)
        self.columns = Columns()
        self.states: dict[int, FoldState] = {}  # depth → a copy of the state after it
        self._state_depths = array("i")  # the keys of `states`, sorted
        self._keep_state: AbstractSet[str] = set()
        self._tip: FoldState | None = None  # the state after the last depth folded
        self._settings: tuple[int, int, tuple[Any, Any]] | None = None  # the last setters asked for, and what they set

    # ---- the path ---------------------------------------------------------------------

    @property
    def end(self) -> int:
        """The depth after the spine's last entry."""
        return self.start + len(self.entries)

    @property
    def folded(self) -> int:
        """The depth after the last one folded: every own depth before it has its figures."""
        return self.start + len(self.columns)

    @property
    def under(self) -> Spine:
        """The spine this one hangs under: where its depths before `start` lie (a spine from a root
        has no depth before its start, so this is never asked of one)."""
        assert self.base is not None, "a depth before a root's spine"
        return self.base

    def entry(self, depth: int) -> Entry:
        spine = self
        while depth < spine.start:
            spine = spine.under
        return spine.entries[depth - spine.start]

    def __getitem__(self, depth: Any) -> Any:
        """The entry at a depth (a FoldPath for the Folder), or a slice of the path to the tip."""
        if isinstance(depth, slice):
            return self.path(self.end - 1)[depth]
        return self.entry(depth)

    def __len__(self) -> int:
        return self.end

    def path(self, depth: int) -> list[Entry]:
        """The entries from the root to `depth`."""
        if depth < self.start:
            return self.under.path(depth)
        own = self.entries[: depth - self.start + 1]
        return self.base.path(self.start - 1) + own if self.base is not None else own

    def span(self, low: int, high: int) -> list[Entry]:
        """The entries at depths low … high - 1 of the path (sliced in C, a spine at a time)."""
        if high <= self.start:
            return self.under.span(low, high)
        own = self.entries[max(low, self.start) - self.start : high - self.start]
        return self.under.span(low, self.start) + own if low < self.start else own

    def path_view(self, depth: int) -> PathView:
        """The entries from the root to `depth`, read in place (a step along a path copies nothing)."""
        return PathView(self, depth)

    def position(self, key: Any, stop: int) -> int:
        """Where `key` lies on the path above `stop`; `stop` when it does not (resolve.position_on)."""
        spine: Spine | None = self
        limit: float = math.inf
        while spine is not None:
            at = spine.places.get(key) if isinstance(key, str) else None
            if at is not None and at < limit:
                return at if at < stop else stop
            limit = spine.start
            spine = spine.base
        return stop

    def extend(self, entries: list[Entry]) -> None:
        """Entries appended under the spine's last one (an append at pi's leaf)."""
        start = self.end
        self.entries.extend(entries)
        self.places.update(zip(map(entry_id, entries), count(start)))
        self.structure.add(list(map(_TYPE, entries)), list(map(_ROLE, entries)), start)

    # ---- structure: read off the types ---------------------------------------------------

    def _last(self, name: str, depth: int) -> int:
        spine: Spine | None = self
        while spine is not None:
            found = last_at(getattr(spine.structure, name), depth)
            if found >= 0 or spine.base is None:
                return found
            depth = min(depth, spine.start - 1)
            spine = spine.base
        return -1

    def compaction_at(self, depth: int) -> int:
        return self._last("compactions", depth)

    def settings(self, depth: int) -> tuple[Any, Any]:
        """thinkingLevel and model in force at `depth`."""
        setters = self._last("thinking", depth), self._last("models", depth)
        known = self._settings
        if known is not None and known[:2] == setters:
            return known[2]  # the next depth mostly has the same setters: their entries are not read again
        settings = settings_from(self, *setters)
        self._settings = (*setters, settings)
        return settings

    def structure_column(self, name: str, depth: int) -> list[int]:
        """The depths a structure array holds from the root to `depth`, as one list."""
        if depth < self.start:
            return self.under.structure_column(name, depth)
        own = getattr(self.structure, name)
        own = own[: bisect_right(own, depth)].tolist()
        return self.base.structure_column(name, self.start - 1) + own if self.base is not None else own

    def context(self, key: str | None, depth: int) -> Context:
        """The context at `depth` (named `key`): pi's steps, given where the compaction and the setters are."""
        if depth < 0:
            return Context(key, [], None, [], [], *DEFAULT_SETTINGS)
        path = self.path_view(depth)  # read in place: the context needs only what its compaction keeps
        at = self.compaction_at(depth)
        kept = first_kept(self, path[at], at) if at >= 0 else 0
        return context_from(key, path, at, kept, self._last("thinking", depth), self._last("models", depth))

    # ---- content: folded ---------------------------------------------------------------

    def fold(self, until: int | None = None, stop: Callable[[], bool] = lambda: False, pace: Callable[[], None] = lambda: None) -> bool:
        """Fold the own entries not folded yet, up to depth `until` (all by default); False when
        `stop` said to stop first (asked every ASK_EVERY entries, after `pace`: see pacer.py)."""
        folder = Folder(self, self._start_state())
        keep, record, entries, start = self._keep_state, self.columns.record, self.entries, self.start
        depth = self.folded
        # The end read afresh each time: entries appended meanwhile (PathFold.appended) are folded too.
        while depth < (start + len(entries) if until is None else min(until + 1, start + len(entries))):
            if not depth % self.ASK_EVERY:
                pace()
                if stop():
                    return False
            entry = entries[depth - start]
            records = folder.state.usage.records
            full = folder.add(entry)
            record(folder.state, folder.own, input_tokens(full), records)
            if not (depth + 1) % self.STRIDE or entry.id in keep:
                self._keep(depth, folder.state.copy())
            self._tip = folder.state
            depth += 1
        if self._tip is not None and self._tip.depth not in self.states:
            self._keep(self._tip.depth, self._tip.copy())  # the next branch or append starts here
        return True

    def keep_states_at(self, keys: AbstractSet[str]) -> None:
        """Keep a copy of the state after each of these entries (where branches leave, say)."""
        self._keep_state = keys

    def _keep(self, depth: int, state: FoldState) -> None:
        self.states[depth] = state
        if not self._state_depths or self._state_depths[-1] < depth:
            self._state_depths.append(depth)
        else:
            insort(self._state_depths, depth)

    def _start_state(self) -> FoldState:
        if self._tip is not None:
            return self._tip
        return self.state_after(self.start - 1) if self.start else FoldState()

    def state_after(self, depth: int) -> FoldState:
        """A copy of the state after `depth`: from the nearest kept one, folding what lies between."""
        if depth < self.start:
            return self.base.state_after(depth) if self.base is not None else FoldState()
        found = bisect_right(self._state_depths, depth)
        if found:
            state = self.states[self._state_depths[found - 1]].copy()
        else:
            state = self.base.state_after(self.start - 1) if self.base is not None else FoldState()
        folder = Folder(self, state)
        while state.depth < depth:
            folder.add(self.entry(folder.state.depth + 1))
            state = folder.state
        return state

    def ready(self, depth: int) -> bool:
        """The figures at `depth` are worked out."""
        spine = self
        while depth < spine.start:
            spine = spine.under
        return depth < spine.folded

    def _holding(self, depth: int) -> Spine:
        spine = self
        while depth < spine.start:
            spine = spine.under
        return spine

    def _cell(self, name: str, depth: int) -> Any:
        spine = self._holding(depth)
        return getattr(spine.columns, name)[depth - spine.start]

    def _recorded(self, depths: str, name: str, depth: int) -> Any:
        """The value recorded at exactly `depth` in a sparse column; None when nothing was."""
        columns = self._holding(depth).columns
        found = bisect_right(getattr(columns, depths), depth) - 1
        return getattr(columns, name)[found] if found >= 0 and getattr(columns, depths)[found] == depth else None

    def estimate(self, depth: int) -> ContextEstimate:
        """pi's estimateProjectedContextTokens at `depth`."""
        spine = self._holding(depth)
        at = depth - spine.start
        anchor = spine.columns.anchor_at[at]
        trailing: Tokens = spine.columns.trailing[at]
        if spine.columns.odd_trailing:
            trailing = spine.columns.odd_trailing.get(at, trailing)
        if anchor < 0:
            return chars_estimate(trailing)
        columns = self._holding(anchor).columns
        at = bisect_right(columns.anchors, anchor) - 1  # the anchor is recorded at exactly its depth
        usage = columns.odd_usage.get(at, columns.anchor_usage[at])
        return anchored_estimate(usage, trailing, columns.anchor_message[at])

    def usage(self, depth: int) -> UsageTotals:
        """The usage recorded from the root to `depth`: the last sums recorded at or above it."""
        spine: Spine | None = self
        while spine is not None:
            columns = spine.columns
            found = bisect_right(columns.usages, depth) - 1
            if found >= 0:
                return UsageTotals(
                    columns.usage_input[found], columns.usage_output[found], columns.usage_cache_read[found],
                    columns.usage_cache_write[found], columns.usage_cost[found], columns.usage_records[found],
                )  # fmt: skip
            depth = min(depth, spine.start - 1)
            spine = spine.base
        return UsageTotals()

    def row(self, depth: int) -> TimelineRow:
        entry = self.entry(depth)
        recorded = self._recorded("inputs", "input", depth)
        return TimelineRow(entry.id, entry.type, self.estimate(depth).tokens, recorded, entry.type == "compaction")

    def composition(self, depth: int) -> list[int]:
        """What the context at `depth` is made of: characters by group (composition.GROUPS)."""
        spine = self._holding(depth)
        at = (depth - spine.start) * len(GROUPS)
        return spine.columns.groups[at : at + len(GROUPS)].tolist()

    def own_tokens(self, depth: int) -> int:
        """chars/4 of the one message the entry at `depth` gives of itself, unedited; -1 when it gives
        none or several, ODD_OWN when its estimate is not a count."""
        return self._cell("own_tokens", depth)

    def recorded_column(self, depths: str, name: str, depth: int, low: int = 0) -> list[tuple[int, Any]]:
        """A sparse column from `low` (the root) to `depth`: (depth, value) where something was recorded."""
        if depth < self.start:
            return self.under.recorded_column(depths, name, depth, low)
        at, values = getattr(self.columns, depths), getattr(self.columns, name)
        first, stop = bisect_left(at, low), bisect_right(at, depth)
        own = list(zip(at[first:stop], values[first:stop]))
        if self.base is None or low >= self.start:
            return own
        return self.base.recorded_column(depths, name, self.start - 1, low) + own

    def column_range(self, name: str, low: int, high: int) -> list[Any]:
        """One column over the depths low … high - 1, as one list."""
        if high <= self.start:
            return self.under.column_range(name, low, high)
        own = getattr(self.columns, name)[max(low, self.start) - self.start : high - self.start].tolist()
        return self.under.column_range(name, low, self.start) + own if low < self.start else own

    def barrier_after(self, low: int, high: int) -> bool:
        """A compaction or a context edit lies in the depths low + 1 … high."""
        return self._last("barriers", high) > low

    def column(self, name: str, depth: int) -> list[Any]:
        """One column from the root to `depth`, as one list (the strip draws a whole path)."""
        if depth < self.start:
            return self.under.column(name, depth)
        own = getattr(self.columns, name)[: depth - self.start + 1].tolist()
        return self.base.column(name, self.start - 1) + own if self.base is not None else own


class PathView(Sequence[Entry]):
    """The path from the root to a depth of a spine, read in place: what a context built by a step
    holds as its path. A step copying its path would make a walk over every node of a
    100,000-entry path copy billions of entries."""

    __slots__ = ("_spine", "_end")

    def __init__(self, spine: Spine, depth: int) -> None:
        self._spine, self._end = spine, depth + 1

    def __len__(self) -> int:
        return self._end

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._end)
            if step == 1 and start >= stop:
                return []
            if start == 0 and step == 1:
                return PathView(self._spine, stop - 1)
            if step == 1:
                return self._spine.span(start, stop)
            return [self._spine.entry(at) for at in range(start, stop, step)]
        at = index + self._end if index < 0 else index
        if not 0 <= at < self._end:
            raise IndexError(index)
        return self._spine.entry(at)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._spine.path(self._end - 1))

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, Sequence) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, so unhashable as one
