"""The trace as one row per entry, for the `trace` command (json and an aligned text table).

Each row: the entry, its run and turn, its kind, when it started and how long it
took (docs/trace.md), the model and thinking level of a reply, the usage its
entry recorded, the stop reason, the error, and for a tool result the call it
answers (name, arguments on one line, the result's size in characters).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any, cast

import msgspec

from ..js.date import js_iso
from ..js.stringify import dump_json_array, ready_raw_number
from ..text.amounts import format_cost, format_count, usage_text
from ..text.plural import counted
from ..text.terminal_text import one_line, pad, table_lines
from ..text.timefmt import format_duration
from .facts import Facts, Usage
from .spans import ERROR_NO_RESULT, Event, Run, ToolCall, Totals, Trace, Turn

FactsOf = Callable[[str], Facts]  # an entry's facts with their texts, by id

# Prompts and steering are delivered in the turn after the turns before them.
_INJECTED = ("user", "custom_message", "system")


@dataclass(slots=True)
class TraceRow:
    entry: str
    run: int | None
    turn: int | None
    kind: str
    start: float | None
    duration_ms: float | None
    model: str | None
    thinking: str | None
    usage: tuple[float, float, float, float, float] | None
    stop_reason: str | None
    error: str | None
    tool: dict[str, Any] | None

    def to_json(self, number: Callable[[Any], Any] = lambda value: value) -> dict[str, Any]:
        """The row as the `trace` command's JSON holds it; `number` gives each figure's value."""
        usage, duration = self.usage, self.duration_ms
        figures = tuple(map(number, usage)) if usage else _NO_USAGE
        return msgspec.structs.asdict(self._json(figures, duration if duration is None else number(duration)))

    def ready_struct(self) -> JsonRow:
        """The row's JSON as dump_json_array's `ready_struct` writes it (numbers ready_raw_number's),
        a usage's figures made ready once (a path's usages repeat)."""
        usage, duration = self.usage, self.duration_ms
        figures = (_READY_USAGE.get(usage) or _ready_usage(usage)) if usage else _NO_USAGE
        return self._json(figures, duration if duration is None else ready_raw_number(duration))

    def _json(self, figures: tuple[Any, ...], duration: Any) -> JsonRow:
        return JsonRow(
            self.entry, self.run, self.turn, self.kind, start_iso(self.start), duration, self.model, self.thinking,
            figures[0], figures[1], figures[2], figures[3], figures[4], self.stop_reason, self.error, self.tool,
        )  # fmt: skip


class JsonRow(msgspec.Struct, gc=False):
    """A row as the `trace` command's JSON holds it: its fields are the object's keys, in order."""

    entry: Any
    run: Any
    turn: Any
    kind: Any
    start: Any
    duration_ms: Any
    model: Any
    thinking: Any
    input: Any
    output: Any
    cache_read: Any
    cache_write: Any
    cost: Any
    stop_reason: Any
    error: Any
    tool: Any


_NO_USAGE = (None, None, None, None, None)
# Usages with their figures as ready_raw_number makes them, by the usage: figures equal as numbers
# are written alike (0.0 and -0.0 both 0), so a usage equal to one seen is written as that one was.
_READY_USAGE: dict[tuple[float, float, float, float, float], tuple[Any, ...]] = {}


def _ready_usage(usage: tuple[float, float, float, float, float]) -> tuple[Any, ...]:
    if len(_READY_USAGE) >= 1 << 16:
        _READY_USAGE.clear()
    ready = _READY_USAGE[usage] = tuple(map(ready_raw_number, usage))
    return ready


def trace_rows(trace: Trace, facts_of: FactsOf) -> list[TraceRow]:
    """One row per entry of the trace's path, in path order."""
    return list(each_row(trace, facts_of))


def each_row(trace: Trace, facts_of: FactsOf) -> Iterator[TraceRow]:
    """trace_rows one at a time: a long path's rows are written as they are made, not held."""
    nodes = trace.nodes
    for key in trace.entries:
        node = nodes[key]
        kind = node.__class__
        if kind is Turn:
            yield _reply_row(trace, cast(Turn, node), facts_of)
        elif kind is ToolCall:
            yield _result_row(trace, cast(ToolCall, node), facts_of)
        elif kind is Run:
            yield _prompt_row(trace, cast(Run, node), facts_of)
        else:
            yield _event_row(trace, cast(Event, node), facts_of)


def _prompt_row(trace: Trace, run: Run, facts_of: FactsOf) -> TraceRow:
    turns = run.totals.turns
    return TraceRow(run.entry, run.number, 1 if turns else None, run.kind, run.start, None, None, None, None, None, None, None)


def _reply_row(trace: Trace, turn: Turn, facts_of: FactsOf) -> TraceRow:
    return TraceRow(
        turn.entry,
        turn.run,
        turn.number,
        "assistant",
        turn.start,
        turn.model_ms,
        turn.model,
        turn.thinking,
        trace.usage(turn),
        turn.stop_reason,
        reply_error(turn, facts_of),
        None,
    )


def reply_error(turn: Turn, facts_of: FactsOf) -> str | None:
    """What went wrong in a turn's reply: its error message, or the calls the path never answers."""
    if turn.error_kind:
        facts = facts_of(turn.entry)
        return facts.error_message or f"the reply stopped: {turn.stop_reason}"
    missing = [call for call in turn.calls if call.error_kind == ERROR_NO_RESULT]
    if missing:
        return "; ".join(f"{call.name} call {call.id or '(no id)'}: {call.note}" for call in missing)
    return None


def call_arguments(call: ToolCall, facts_of: FactsOf) -> str:
    """A call's arguments on one line (read again from its reply)."""
    calls = facts_of(call.turn.entry).calls
    index = call.turn.calls.index(call)
    return calls[index].arguments if index < len(calls) else ""


def result_error(call: ToolCall | Event, facts_of: FactsOf) -> str | None:
    if isinstance(call, ToolCall) and call.error_kind and call.result is None:
        return call.note
    if call.error_kind:
        key = call.result if isinstance(call, ToolCall) else call.entry
        assert key is not None, "a failed call without its result is answered above"
        return facts_of(key).text or "the tool failed"
    return None


def _result_row(trace: Trace, call: ToolCall, facts_of: FactsOf) -> TraceRow:
    tool = {
        "name": call.name,
        "call_id": call.id,
        "arguments": call_arguments(call, facts_of),
        "result_chars": call.result_chars,
        "measured": call.measured,
    }
    turn = call.turn
    return TraceRow(
        call.result or "", turn.run, turn.number, "toolResult", call.start, call.duration, None, None,
        trace.usage(call), None, result_error(call, facts_of), tool,
    )  # fmt: skip


def _event_row(trace: Trace, event: Event, facts_of: FactsOf) -> TraceRow:
    turn = event.turn + 1 if event.kind in _INJECTED else event.turn or None
    model = thinking = None
    if event.kind in ("model_change", "thinking_level_change", "usage"):
        facts = facts_of(event.entry)
        model, thinking = facts.model, facts.thinking
    return TraceRow(
        event.entry, event.run or None, turn if event.run else None, event.kind, event.time, None, model, thinking,
        trace.usage(event), None, result_error(event, facts_of), None,
    )  # fmt: skip


def rows_json(rows: Iterable[TraceRow]) -> Iterator[bytes]:
    """One JSON array of row objects, in pieces (a long path's JSON is written as it is made). A row's
    figures are the only values orjson would not write as JSON.stringify does: only they are made ready."""
    return dump_json_array(rows, plain=TraceRow.to_json, ready_struct=TraceRow.ready_struct)


# ---- the text table ------------------------------------------------------------------------

_COLUMNS = (
    ("entry", 10),
    ("run", 4),
    ("turn", 4),
    ("kind", 21),
    ("start", 12),
    ("took", 9),
    ("model", 36),
    ("in", 6),
    ("out", 6),
    ("c.read", 6),
    ("c.write", 7),
    ("cost", 8),
    ("stop", 8),
)


COLUMN_NAMES = (*(name for name, _ in _COLUMNS), "tool / error")
_WIDTHS = tuple(width for _, width in _COLUMNS)


def rows_text(trace: Trace, rows: list[TraceRow]) -> str:
    """An aligned table of the rows, then the totals of each run and of the path."""
    return "".join(rows_text_pieces(trace, rows))


def rows_text_pieces(trace: Trace, rows: Iterable[TraceRow], chunk: int = 4096) -> Iterator[str]:
    """rows_text in pieces of `chunk` rows: a long path's table is written as it is made."""
    yield "  ".join(pad(name, width) for name, width in _COLUMNS) + "  tool / error\n"
    rows = iter(rows)
    while batch := list(islice(rows, chunk)):
        yield "\n".join(table_lines(list(map(row_cells, batch)), _WIDTHS)) + "\n"
    yield "\n" + "\n".join(totals_lines(trace)) + "\n"


def totals_lines(trace: Trace) -> list[str]:
    """The totals of each run, then of the path."""
    return [*(f"run {run.number}: {totals_text(run.totals)}" for run in trace.runs), f"path: {totals_text(trace.totals)}"]


class _Texts(dict[Any, str]):
    """Figures as text, each value written once: a trace's figures repeat over 100,000 rows.
    Zero is written apart: 0 and -0 are one key, and read "0" and "-0"."""

    def __init__(self, write: Callable[[Any], str]) -> None:
        super().__init__()
        self.write = write
        self.zero = write(0)

    def __missing__(self, value: Any) -> str:
        if value == 0:  # never kept: -0 would be found for 0
            return self.zero_or(value)
        text = self.write(value)
        if len(self) < 65_536:
            self[value] = text
        return text

    def zero_or(self, value: Any) -> str:
        """The text of a value that is not true: zero (or -0), or None."""
        if value is None:
            return self[None]
        return self.zero if math.copysign(1, value) > 0 else self.write(value)


_COUNTS, _COSTS, _DURATIONS = _Texts(format_count), _Texts(format_cost), _Texts(format_duration)
_CHARS = _Texts(lambda count: counted(count, "char"))
_NO_FIGURES = ("", "", "", "", "")


# A usage's five cells, by its figures' bytes (0 and -0 apart): a path's usages repeat.
_FIGURES: dict[bytes, tuple[str, str, str, str, str]] = {}
_PACK_USAGE = struct.Struct("5d").pack


def _figure_cells(key: bytes, usage: Usage) -> tuple[str, str, str, str, str]:
    counts = _COUNTS
    cells = (counts[usage[0]], counts[usage[1]], counts[usage[2]], counts[usage[3]], _COSTS[usage[4]])
    if len(_FIGURES) >= 1 << 16:
        _FIGURES.clear()
    _FIGURES[key] = cells
    return cells


def row_cells(row: TraceRow) -> list[str]:
    """The row's cells as the text table shows them (before padding): one per column of
    COLUMN_NAMES, the last the tool call and the error."""
    model, thinking = row.model, row.thinking
    model = f"{model} ({thinking})" if model and thinking else model or thinking or ""
    tool, error = row.tool, row.error
    if tool:
        last = f"{tool['name']} {tool['arguments']} → {_CHARS[tool['result_chars']]}"
        if error:
            last = f"{last} · ERROR: {error}"
    else:
        last = f"ERROR: {error}" if error else ""
    usage = row.usage
    figures = (_FIGURES.get(key := _PACK_USAGE(*usage)) or _figure_cells(key, usage)) if usage else _NO_FIGURES
    run, turn, start, duration = row.run, row.turn, row.start, row.duration_ms
    return [
        row.entry,
        str(run) if run else "",
        str(turn) if turn else "",
        row.kind,
        _clock(start),
        _DURATIONS[duration] if duration else _DURATIONS.zero_or(duration),
        model,
        *figures,
        row.stop_reason or "",
        last,
    ]


def start_iso(start: float | None) -> str | None:
    """A start to the nearest millisecond as an ISO time; None for none or a date JS cannot hold."""
    return js_iso(round(start)) if start is not None and math.isfinite(start) else None


def _clock(start: float | None) -> str:
    """The time of day of a start, to the millisecond ("" as start_iso gives None)."""
    iso = start_iso(start)
    return iso[-13:-1] if iso is not None else ""


def totals_text(totals: Totals | None) -> str:
    """A run's or the path's totals on one line."""
    if totals is None:
        return ""
    usage = totals.usage
    parts = [
        f"wall {format_duration(totals.wall_ms) or '0 ms'}",
        f"model {format_duration(totals.model_ms) or '0 ms'}",
    ]
    if totals.tool_ms:
        tools = ", ".join(
            f"{one_line(name, 40)} {format_duration(ms) or '0 ms'} ×{totals.tool_calls[name]:,}"
            for name, ms in sorted(totals.tool_ms.items(), key=lambda item: -item[1])
        )
        parts.append(f"tools {tools}")
    parts.append(f"{totals.turns:,} turn{'s' if totals.turns != 1 else ''}")
    parts.append(usage_text(usage.input, usage.output, usage.cache_read, usage.cache_write, None))
    ratio = totals.cache_hit_ratio
    if ratio is not None:
        parts.append(f"cache hits {ratio:.0%}")
    parts.append(format_cost(usage.cost))
    parts.append(f"{totals.errors:,} error{'s' if totals.errors != 1 else ''}")
    return " · ".join(parts)
