"""Usage and cost recorded on a path, as pi's session statistics sum them.

Usage totals follow pi's session statistics: every assistant message's
`usage`, every `usage` entry, and the `usage` of tool results, branch summaries
and compactions; cost is `usage.cost.total`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..session.line_fields import message_usage

if TYPE_CHECKING:
    from ..session.entry import Entry
    from ..session.session import Session


def usage_number(usage: dict[str, Any], key: str) -> float:
    value = usage.get(key)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


_NUMBER = (int, float)


@dataclass(slots=True)
class UsageTotals:
    input: float = 0
    output: float = 0
    cache_read: float = 0
    cache_write: float = 0
    cost: float = 0
    records: int = 0

    @property
    def tokens(self) -> float:
        return self.input + self.output + self.cache_read + self.cache_write

    def add(self, usage: dict[str, Any]) -> None:
        # Inlined: a long path adds tens of thousands of records. `type(x) in` leaves bools out.
        get: Callable[[str], Any] = usage.get  # Any: the type checker cannot read `type(x) in _NUMBER`
        value = get("input")
        if type(value) in _NUMBER:
            self.input += value
        value = get("output")
        if type(value) in _NUMBER:
            self.output += value
        value = get("cacheRead")
        if type(value) in _NUMBER:
            self.cache_read += value
        value = get("cacheWrite")
        if type(value) in _NUMBER:
            self.cache_write += value
        cost = get("cost")
        if type(cost) is dict and type(value := cost.get("total")) in _NUMBER:
            self.cost += value
        self.records += 1

    def merge(self, other: UsageTotals) -> None:
        self.input += other.input
        self.output += other.output
        self.cache_read += other.cache_read
        self.cache_write += other.cache_write
        self.cost += other.cost
        self.records += other.records


@dataclass(slots=True)
class PathUsage:
    """Usage recorded on a path, in all and by where it was recorded.

    `by_model` follows pi's cost breakdown: assistant messages under
    provider/model, usage entries under their provider/model, tool results and
    summaries under "Tools/summaries".
    """

    total: UsageTotals = field(default_factory=UsageTotals)
    assistant: UsageTotals = field(default_factory=UsageTotals)
    usage_entries: UsageTotals = field(default_factory=UsageTotals)
    other: UsageTotals = field(default_factory=UsageTotals)  # tool results, branch summaries, compactions
    by_model: dict[str, UsageTotals] = field(default_factory=dict)


TOOLS_AND_SUMMARIES = "Tools/summaries"


def _recorded_usage(entry: Entry) -> tuple[str, str, dict[str, Any]] | None:
    """(bucket, breakdown key, usage) for an entry that records usage."""
    kind = entry.type
    if kind == "message":
        return _message_usage(entry)
    if kind == "usage":
        usage = entry.get("usage")
        if isinstance(usage, dict):
            return "usage_entries", f"{entry.get('provider', None)}/{entry.get('model', None)}", usage
        return None
    if kind in ("branch_summary", "compaction"):
        usage = entry.get("usage")
        if isinstance(usage, dict):
            return "other", TOOLS_AND_SUMMARIES, usage
    return None


def _message_usage(entry: Entry) -> tuple[str, str, dict[str, Any]] | None:
    if entry.records_no_usage:
        return None
    if not entry.is_parsed:
        # Not parsed yet: decode only the fields summed (a long path holds tens of thousands
        # of assistant messages; parsing each whole would take seconds), and keep nothing.
        raw = entry.raw  # read once: it may come from the file
        decoded = message_usage(raw) if raw is not None else None
        if decoded is not None:
            return _message_record(decoded.role, decoded.provider, decoded.responseModel or decoded.model, decoded.usage)
    message = entry.message
    if not isinstance(message, dict):
        return None
    get = message.get
    return _message_record(get("role"), get("provider"), get("responseModel") or get("model"), get("usage"))


def _message_record(role: Any, provider: Any, model: Any, usage: Any) -> tuple[str, str, dict[str, Any]] | None:
    if not isinstance(usage, dict):
        return None
    if role == "assistant":
        return "assistant", f"{provider}/{model}", usage
    if role == "toolResult":
        return "other", TOOLS_AND_SUMMARIES, usage
    return None


def path_usage(path: Sequence[Entry], memo: UsageMemo | None = None) -> PathUsage:
    """Usage and cost recorded by the entries of a path (summarized ones included)."""
    if memo is not None:
        return memo.path_usage(path)
    state = PathUsage()
    for entry in path:
        _accumulate(state, entry)
    return _finished(state)


def _accumulate(state: PathUsage, entry: Entry) -> None:
    found = _recorded_usage(entry)
    if found is None:
        return
    bucket, key, usage = found
    getattr(state, bucket).add(usage)
    totals = state.by_model.get(key)
    if totals is None:
        totals = state.by_model[key] = UsageTotals()
    totals.add(usage)


def _finished(state: PathUsage) -> PathUsage:
    result = _copy_usage(state)
    for part in (result.assistant, result.usage_entries, result.other):
        result.total.merge(part)
    return result


def _copy_usage(state: PathUsage) -> PathUsage:
    return PathUsage(
        replace(state.total),
        replace(state.assistant),
        replace(state.usage_entries),
        replace(state.other),
        {key: replace(totals) for key, totals in state.by_model.items()},
    )


class UsageMemo:
    """Usage summed down a session's paths, remembered every STRIDE entries of depth.

    A path's usage is the sum over every entry on it, 100,000 deep in a long
    session; walking the tree one node at a time would re-add them all at each
    step. Entries never change once written, so sums at ancestors stay valid
    for the life of a loaded session (appends only add new paths).
    """

    # A step along a path re-adds up to STRIDE entries (some 5 µs each): 128 keeps ↑ and ↓ under
    # a millisecond, and the sums kept for a 100,000-deep path to under a thousand.
    STRIDE = 128

    def __init__(self) -> None:
        self._at: dict[str, PathUsage] = {}

    def warm(self, session: Session, stop: Callable[[], bool] = lambda: False, pace: Callable[[], None] = lambda: None) -> None:
        """Sum down every path deeper than STRIDE once (in the background, after a load), so the
        first selection in a branch adds at most STRIDE entries instead of walking from the root.

        Nothing is kept for a path shallower than STRIDE, so a session of mostly shallow leaves
        (a root with a million children) is left alone rather than walked for nothing.
        `pace` is called every STRIDE entries (see courtesy.py).
        """
        if not self.worth_warming(session):
            return
        entries, children = session.entries, session.children
        path: list[Entry] = []
        for visited, (key, depth) in enumerate(session.walk()):
            if stop():
                return
            if not visited % self.STRIDE:
                pace()
            del path[depth:]
            path.append(entries[key])
            if depth + 1 >= self.STRIDE and not children(key):
                self.path_usage(path)

    @classmethod
    def worth_warming(cls, session: Session) -> bool:
        """Whether the session's paths are deep on average (more than STRIDE entries a leaf):
        a session of mostly shallow leaves (a root with a million children) has short paths and
        short contexts, which cost a selection nothing worth working out ahead."""
        return session.leaf_count() * cls.STRIDE <= len(session)

    def path_usage(self, path: Sequence[Entry]) -> PathUsage:
        start, state = 0, PathUsage()
        for index in range(len(path) - 1, -1, -1):
            saved = self._at.get(path[index].id)
            if saved is not None:
                start, state = index + 1, _copy_usage(saved)
                break
        for index in range(start, len(path)):
            _accumulate(state, path[index])
            if (index + 1) % self.STRIDE == 0:
                self._at[path[index].id] = _copy_usage(state)
        return _finished(state)
