"""The trace as one row per entry, for the `trace` command (json and an aligned text table).

Each row: the entry, its run and turn, its kind, when it started and how long it
took (docs/trace.md), the model and thinking level of a reply, the usage its
entry recorded, the stop reason, the error, and for a tool result the call it
answers (name, arguments on one line, the result's size in characters).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..js.date import js_iso
from ..js.stringify import dump_json_array
from ..text.amounts import format_cost, format_count, usage_text
from ..text.plural import counted
from ..text.terminal_text import one_line, pad
from ..text.timefmt import format_duration
from .facts import Facts
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

    def to_json(self) -> dict[str, Any]:
        usage = self.usage
        return {
            "entry": self.entry,
            "run": self.run,
            "turn": self.turn,
            "kind": self.kind,
            "start": start_iso(self.start),
            "duration_ms": self.duration_ms,
            "model": self.model,
            "thinking": self.thinking,
            "input": usage[0] if usage else None,
            "output": usage[1] if usage else None,
            "cache_read": usage[2] if usage else None,
            "cache_write": usage[3] if usage else None,
            "cost": usage[4] if usage else None,
            "stop_reason": self.stop_reason,
            "error": self.error,
            "tool": self.tool,
        }


def trace_rows(trace: Trace, facts_of: FactsOf) -> list[TraceRow]:
    """One row per entry of the trace's path, in path order."""
    rows = []
    for key in trace.entries:
        node = trace.nodes[key]
        if isinstance(node, Run):
            rows.append(_prompt_row(trace, node, facts_of))
        elif isinstance(node, Turn):
            rows.append(_reply_row(trace, node, facts_of))
        elif isinstance(node, ToolCall):
            rows.append(_result_row(trace, node, facts_of))
        else:
            rows.append(_event_row(trace, node, facts_of))
    return rows


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


def rows_json(rows: list[TraceRow]) -> Iterator[bytes]:
    """One JSON array of row objects, in pieces (a long path's JSON is written as it is made)."""
    return dump_json_array(row.to_json() for row in rows)


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


def rows_text(trace: Trace, rows: list[TraceRow]) -> str:
    """An aligned table of the rows, then the totals of each run and of the path."""
    lines = ["  ".join(pad(name, width) for name, width in _COLUMNS) + "  tool / error"]
    for row in rows:
        lines.append(_text_row(row))
    lines.append("")
    lines.extend(totals_lines(trace))
    return "\n".join(lines) + "\n"


def totals_lines(trace: Trace) -> list[str]:
    """The totals of each run, then of the path."""
    return [*(f"run {run.number}: {totals_text(run.totals)}" for run in trace.runs), f"path: {totals_text(trace.totals)}"]


def _text_row(row: TraceRow) -> str:
    cells = row_cells(row)
    text = "  ".join(pad(one_line(cell, width), width) for cell, (_, width) in zip(cells, _COLUMNS))
    return (text + "  " + one_line(cells[-1])).rstrip()


def row_cells(row: TraceRow) -> list[str]:
    """The row's cells as the text table shows them (before padding): one per column of
    COLUMN_NAMES, the last the tool call and the error."""
    usage = row.usage
    model = f"{row.model} ({row.thinking})" if row.model and row.thinking else row.model or row.thinking or ""
    last = []
    if row.tool:
        last.append(f"{row.tool['name']} {row.tool['arguments']} → {counted(row.tool['result_chars'], 'char')}")
    if row.error:
        last.append(f"ERROR: {row.error}")
    return [
        row.entry,
        str(row.run or ""),
        str(row.turn or ""),
        row.kind,
        _clock(row.start),
        format_duration(row.duration_ms),
        model,
        *(format_count(value) if usage else "" for value in (usage or (0, 0, 0, 0))[:4]),
        format_cost(usage[4]) if usage else "",
        row.stop_reason or "",
        " · ".join(last),
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
