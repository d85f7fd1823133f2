"""Usage and cost recorded on a path, as pi's session statistics sum them.

Usage totals follow pi's session statistics: every assistant message's
`usage`, every `usage` entry, and the `usage` of tool results, branch summaries
and compactions; cost is `usage.cost.total`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..js.value import js_add
from ..session.line_fields import message_usage

if TYPE_CHECKING:
    from ..session.entry import Entry


def usage_number(usage: dict[str, Any], key: str) -> float:
    value = usage.get(key)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


_NUMBER = (int, float)


def usage_figures(usage: dict[str, Any], keys: Iterable[str]) -> list[Any]:
    """usage_number of each of `keys`, in one pass (the trace reads four of every reply's). Parsed
    JSON holds no subclass of int or float but bool, which `type(x) in` leaves out."""
    return [value if type(value) in _NUMBER else 0 for value in map(usage.get, keys)]


def js_plus(total: Any, value: Any) -> Any:
    """`total + value` as pi's addUsageToTotals adds one figure of a usage to a sum: doubles while both
    are numbers (a count past 2**53 rounds as in JS), JavaScript's + for anything else (undefined makes
    NaN, null adds nothing, a string concatenates). A sum that stays a number is a float."""
    if type(total) is float and type(value) in _NUMBER:
        try:
            return total + float(value)
        except OverflowError:
            pass  # an integer past a double's range: JS reads it as Infinity
    result = js_add(total, value)
    return float(result) if type(result) is int else result


@dataclass(slots=True)
class UsageTotals:
    """Sums as pi's addUsageToTotals makes them: JavaScript numbers (doubles), one record after
    the other. A count past 2**53 rounds as it does in pi, not as Python's exact integers would."""

    input: float = 0.0
    output: float = 0.0
    cache_read: float = 0.0
    cache_write: float = 0.0
    cost: float = 0.0
    records: int = 0

    @property
    def tokens(self) -> float:
        return self.input + self.output + self.cache_read + self.cache_write

    def add(self, usage: dict[str, Any]) -> None:
        # Inlined: a long path adds tens of thousands of records. `type(x) in` leaves bools out.
        get: Callable[[str], Any] = usage.get  # Any: the type checker cannot read `type(x) in _NUMBER`
        value = get("input")
        if type(value) in _NUMBER:
            self.input += float(value)
        value = get("output")
        if type(value) in _NUMBER:
            self.output += float(value)
        value = get("cacheRead")
        if type(value) in _NUMBER:
            self.cache_read += float(value)
        value = get("cacheWrite")
        if type(value) in _NUMBER:
            self.cache_write += float(value)
        cost = get("cost")
        if type(cost) is dict and type(value := cost.get("total")) in _NUMBER:
            self.cost += float(value)
        self.records += 1

    def merge(self, other: UsageTotals) -> None:
        """Add the sums of other records (the trace's runs add up their turns)."""
        self.input += other.input
        self.output += other.output
        self.cache_read += other.cache_read
        self.cache_write += other.cache_write
        self.cost += other.cost
        self.records += other.records


@dataclass(slots=True)
class PathUsage:
    """Usage recorded on a path, in all (summed one record after the other, as pi's session
    statistics do) and by where it was recorded.

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


def recorded_usage(entry: Entry) -> tuple[str, str, dict[str, Any]] | None:
    """(bucket, breakdown key, usage) for an entry that records usage; None for any other.
    Reads nothing but the type of entries of other types."""
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
    usage = get("usage")
    if not isinstance(usage, dict):
        return None  # (most messages: a million-entry fold asked for the rest of each first)
    return _message_record(get("role"), get("provider"), get("responseModel") or get("model"), usage)


def _message_record(role: Any, provider: Any, model: Any, usage: Any) -> tuple[str, str, dict[str, Any]] | None:
    if not isinstance(usage, dict):
        return None
    if role == "assistant":
        return "assistant", f"{provider}/{model}", usage
    if role == "toolResult":
        return "other", TOOLS_AND_SUMMARIES, usage
    return None


def path_usage(path: Iterable[Entry]) -> PathUsage:
    """Usage and cost recorded by the entries of a path (summarized ones included), in path
    order: the full statement (the fold keeps the same sums along a path, model/fold/)."""
    state = PathUsage()
    for entry in path:
        add_recorded(state, recorded_usage(entry))
    return state


def add_recorded(state: PathUsage, found: tuple[str, str, dict[str, Any]] | None) -> None:
    """Add one entry's record (recorded_usage) to the sums: the total as pi sums it, one record
    after the other, and the bucket and breakdown it falls in."""
    if found is None:
        return
    bucket, key, usage = found
    state.total.add(usage)
    getattr(state, bucket).add(usage)
    totals = state.by_model.get(key)
    if totals is None:
        totals = state.by_model[key] = UsageTotals()
    totals.add(usage)
