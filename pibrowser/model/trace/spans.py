"""A path as pi ran it: runs, their turns, each turn's tool calls, and the entries between.

The vocabulary is pi's agent loop (docs/trace.md says what each time means):

- a **run** is what one prompt set going: it starts at a user prompt (or a custom
  message that triggers a turn) and holds the turns pi's loop took until it stopped;
- a **turn** is one assistant reply and the results of its tool calls;
- a **tool call** is a toolCall block of the reply and, where there is one, the
  toolResult that answers it;
- an **event** is any other entry on the path: a steering message, a compaction,
  a model change, a bash run, a branch summary, a label.

Times are epoch milliseconds. `end` ≥ `start` for spans; an event has one time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..tokens.usage import UsageTotals
from .facts import Usage

if TYPE_CHECKING:
    from .table import FactsTable

# Why a span is marked as an error (what "next error" steps through).
ERROR_STOP = "stop"  # a reply that ended with stopReason "error" or "aborted"
ERROR_RESULT = "result"  # a tool result with isError
ERROR_NO_RESULT = "no result"  # a tool call the path never answers, though the loop went on


@dataclass(slots=True)
class Event:
    """An entry on the path that is not a reply or a tool result."""

    entry: str
    kind: str  # the message's role, or the entry's type
    time: float | None
    run: int = 0  # 1-based; 0 before the first run
    turn: int = 0  # turns of its run before it
    line: int = -1  # the entry's line: where the trace's table keeps its usage
    error_kind: str | None = None  # ERROR_RESULT: a failed tool result the path holds no call for


@dataclass(slots=True)
class ToolCall:
    """A toolCall block of a reply, and its result when the path holds one."""

    id: str | None
    name: str
    turn: Turn
    result: str | None = None  # the toolResult entry
    start: float | None = None  # when the reply ended: pi runs the calls of a reply from there
    duration: float | None = None  # durationMs of the result when recorded, else up to the result (see docs)
    measured: bool = False  # duration is the result's durationMs (time spent in the tool)
    result_chars: int = 0
    result_line: int = -1
    error_kind: str | None = None
    note: str | None = None  # why there is no result, where the trace can tell

    @property
    def end(self) -> float | None:
        return self.start + self.duration if self.start is not None and self.duration is not None else None


@dataclass(slots=True)
class Turn:
    """One reply of the model and its tool calls."""

    entry: str  # the assistant message
    run: int
    number: int  # within its run, from 1
    model: str
    thinking: str  # the level asked for: the reply's own, else the one in force on the path
    start: float | None  # the request started (the message's timestamp)
    model_end: float | None  # the reply was complete
    measured: bool  # model_end - start is the reply's durationMs
    stop_reason: str | None
    line: int
    end: float | None = None  # the last of the reply and its results
    calls: list[ToolCall] = field(default_factory=list)
    error_kind: str | None = None  # ERROR_STOP: the reply stopped with "error" or "aborted"
    place: int = -1  # the reply's place on the path

    @property
    def model_ms(self) -> float | None:
        return self.model_end - self.start if self.start is not None and self.model_end is not None else None


@dataclass(slots=True)
class Run:
    number: int  # from 1
    entry: str  # the entry that started it (prompt, custom message, or a reply with none before it)
    kind: str
    start: float | None
    end: float | None = None
    items: list[Turn | Event] = field(default_factory=list)  # in path order
    totals: Totals = field(default_factory=lambda: Totals())  # (a lambda: Totals is defined below)
    # Where it lies on the path and what the walk knew when it began: a trace of another path
    # through the same runs starts from here (agent_loop.py, `spine`).
    first_place: int = 0
    last_place: int = 0  # the last entry that belongs to it (a late result included)
    resume: tuple[float | None, str | None, str] = (None, None, "off")  # previous time, previous role, thinking level

    @property
    def turns(self) -> list[Turn]:
        return [item for item in self.items if isinstance(item, Turn)]

    @property
    def wall_ms(self) -> float:
        return self.end - self.start if self.start is not None and self.end is not None else 0


@dataclass(slots=True)
class Totals:
    """What a run, or the whole path, took and cost."""

    wall_ms: float = 0  # the runs' spans added up: idle time between runs is not in it
    model_ms: float = 0
    tool_ms: dict[str, float] = field(default_factory=dict)  # by tool name
    tool_calls: dict[str, int] = field(default_factory=dict)
    runs: int = 0
    turns: int = 0
    errors: int = 0
    usage: UsageTotals = field(default_factory=UsageTotals)  # as pi's session statistics add usage up

    @property
    def cache_hit_ratio(self) -> float | None:
        """Cache reads as a share of all the prompt tokens the provider counted."""
        usage = self.usage
        prompt = usage.input + usage.cache_read + usage.cache_write
        return usage.cache_read / prompt if prompt else None


@dataclass(slots=True)
class Trace:
    """The trace of one path, root first."""

    leaf: str | None
    entries: list[str]  # the path's ids
    runs: list[Run]
    before: list[Event]  # entries before the first run
    totals: Totals
    nodes: dict[str, Run | Turn | ToolCall | Event]  # entry id → what shows it (a result → its call)
    errors: list[Turn | ToolCall | Event]  # in path order
    table: FactsTable
    start: float | None = None
    end: float | None = None
    error_places: list[float] = field(default_factory=list)  # each error's place on the path

    def usage(self, node: Run | Turn | ToolCall | Event) -> Usage | None:
        """The usage its entry recorded: a reply's, a tool result's own, a summary's."""
        line = node.result_line if node.__class__ is ToolCall else getattr(node, "line", -1)  # (a row's each: no subclass)
        return self.table.usage(line) if line >= 0 else None

    def release(self) -> None:
        """Let go of the trace at once: a turn and its calls hold each other, so a long path's trace
        (100,000 objects in such rings) would otherwise wait for the cycle collector to walk them
        all. The trace is not to be read after."""
        for run in self.runs:
            for item in run.items:
                if item.__class__ is Turn:
                    item.calls = []

    def run_of(self, number: int) -> Run | None:
        return self.runs[number - 1] if 0 < number <= len(self.runs) else None

    def gaps(self) -> list[tuple[float, float]]:
        """The idle stretches: between the entries before the first run and it, and between runs
        (end of one, start of the next, where the next starts later)."""
        found = []
        ends = [self.start] if self.before else []
        ends += [run.end for run in self.runs]
        starts = [run.start for run in self.runs[1:]] if not self.before else [run.start for run in self.runs]
        for end, start in zip(ends, starts):
            if end is not None and start is not None and start > end:
                found.append((end, start))
        return found
