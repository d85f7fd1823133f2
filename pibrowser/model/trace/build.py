"""Building the trace of a path: pi's agent loop read back from the entries it appended.

The file does not record where a run starts or which results a reply waited for;
it records entries in the order pi appended them, each with the time it was
appended, and messages with times of their own. docs/trace.md says what each
of those times is and which rules below follow from pi 1.6.0's loop. In short:

- a user message starts a run, unless it steers a running loop (it comes right
  after a tool result) or was queued as a follow-up while the run went on (its
  own time lies inside the run, before the entry before it was appended);
- a custom message starts a run when no loop is going, else it is delivered in one;
- every reply belongs to the run going on (a retry or a continuation after a
  compaction has no prompt of its own);
- a tool result answers the latest call on the path with its toolCallId.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..session.entry import Entry
from .facts import Facts, entry_facts
from .spans import ERROR_NO_RESULT, ERROR_RESULT, ERROR_STOP, Event, Run, ToolCall, Totals, Trace, Turn
from .table import FactsTable

# A message's own time must lie between the entry before it and its own entry (both stamped by
# the same clock) to be believed; this much either way allows for a clock set back a little.
SLACK_MS = 1000
FAILED_STOPS = ("error", "aborted")
NEVER_RUN = "never run: the reply stopped before its calls ran"
NO_RESULT = "no result on this path"
PENDING = "no result yet: the path ends here"


def build_trace(path: Sequence[Entry], table: FactsTable | None = None) -> Trace:
    """The trace of `path` (root first), from `table`, which must have read every entry of it
    (a FactsTable that has not, or None, reads them now)."""
    if table is None:
        table = FactsTable()
        table.ensure(path)
    builder = _Builder(table)
    for entry in path:
        builder.add(entry)
    return builder.finish(path[-1].id if path else None, [entry.id for entry in path])


def _time(value: float) -> float | None:
    return None if value != value else value  # NaN: no time


class _Builder:
    def __init__(self, table: FactsTable) -> None:
        self.table = table
        strings = table.strings
        self.failed = {code for code, text in enumerate(strings) if text in FAILED_STOPS}
        self.runs: list[Run] = []
        self.before: list[Event] = []
        self.nodes: dict[str, Run | Turn | ToolCall | Event] = {}
        self.run: Run | None = None
        self.looping = False  # the run's loop goes on: its last reply called tools, or a prompt waits for one
        self.turn: Turn | None = None  # the run's latest turn
        self.turns = 0  # turns of the run so far
        self.turn_followed = False  # an entry other than its results came after the latest turn
        self.calls: dict[str, ToolCall] = {}  # calls waiting for a result, by id
        self.previous_time: float | None = None  # when the entry before was appended
        self.previous_role: str | None = None  # the role of the message entry before
        self.thinking = "off"  # the level in force (pi's default until a thinking_level_change)

    # ---- entry by entry ----------------------------------------------------------------

    def add(self, entry: Entry) -> None:
        line = entry.line
        table = self.table
        kind = table.strings[table.kind[line]]
        time = _time(table.time[line])
        if kind == "assistant":
            self._reply(entry.id, line, time)
        elif kind == "toolResult":
            self._result(entry.id, line, time)
        else:
            if entry.type == "custom_message" or (entry.type == "message" and kind in ("user", "custom")):
                self._prompt(entry.id, line, kind, time)
            else:
                self._event(entry.id, line, kind, time)
            self.turn_followed = True
        if time is not None:
            self.previous_time = time
        if entry.type in ("message", "custom_message"):
            self.previous_role = kind

    def _prompt(self, key: str, line: int, kind: str, time: float | None) -> None:
        run = self.run
        if kind == "user":
            steering = self.previous_role == "toolResult"
            queued = _time(self.table.message_time[line])  # typed then; delivered when the entry was appended
            follow_up = (
                run is not None
                and queued is not None
                and run.start is not None
                and self.previous_time is not None
                and run.start <= queued < self.previous_time
            )
            delivered = run is not None and (steering or follow_up)
        else:
            delivered = run is not None and self.looping
        if delivered:
            self._event(key, line, kind, time)
        else:
            run = self.run = Run(len(self.runs) + 1, key, kind, time, time)
            self.runs.append(run)
            self.nodes[key] = run
            self.turn, self.turns = None, 0
        self.looping = True

    def _reply(self, key: str, line: int, time: float | None) -> None:
        table = self.table
        run = self.run
        if run is None:
            # A reply with no prompt before it on the path (the path starts mid-run): a run of its own.
            run = self.run = Run(len(self.runs) + 1, key, "assistant", None)
            self.runs.append(run)
            self.turns = 0
        duration = _time(table.duration[line])
        start, end = self._reply_span(_time(table.message_time[line]), duration, time)
        if run.start is None:
            run.start = start
        stop = table.stop[line]
        strings = table.strings
        turn = Turn(
            key,
            run.number,
            self.turns + 1,
            strings[table.model[line]] or "?",
            strings[table.thinking[line]] or self.thinking,
            start,
            end,
            duration is not None,
            strings[stop],
            line,
            end,
        )
        calls = table.calls(line) if table.call_count[line] else ()
        for call_id, name in calls:
            call = ToolCall(call_id, name, turn, start=end)
            turn.calls.append(call)
            if call_id is not None:
                self.calls[call_id] = call
        failed = stop in self.failed
        if failed:
            turn.error_kind = ERROR_STOP
        self.looping = bool(calls) and not failed
        run.items.append(turn)
        if end is not None and (run.end is None or end > run.end):
            run.end = end
        self.nodes[key] = turn
        self.turn, self.turn_followed = turn, False
        self.turns += 1

    def _reply_span(self, sent: float | None, duration: float | None, appended: float | None) -> tuple[float | None, float | None]:
        """(request started, reply complete): the message's time and durationMs where believable."""
        previous = self.previous_time
        believable = (
            sent is not None
            and (previous is None or sent >= previous - SLACK_MS)
            and (appended is None or sent <= appended + SLACK_MS)
        )
        if believable:
            end = sent + duration if duration is not None else appended if appended is not None else sent
            return sent, max(sent, end)
        if duration is not None and appended is not None:
            return appended - duration, appended
        start = previous if previous is not None and appended is not None and previous <= appended else appended
        return start, appended

    def _result(self, key: str, line: int, time: float | None) -> None:
        table = self.table
        answers = table.answers[line]
        call = self.calls.pop(answers, None) if answers is not None else None
        if call is None:
            # A result the path holds no call for: shown where it is, as an event.
            event = self._event(key, line, "toolResult", time)
            if table.is_error[line]:
                event.error_kind = ERROR_RESULT
            return
        call.result = key
        call.result_chars = table.result_chars[line]
        call.result_line = line
        duration = _time(table.duration[line])
        if duration is not None:
            call.duration, call.measured = duration, True
        elif call.start is not None and time is not None:
            call.duration = max(0.0, time - call.start)
        if call.start is None and time is not None:
            call.start = time - (call.duration or 0)
        if table.is_error[line]:
            call.error_kind = ERROR_RESULT
        turn = call.turn
        run = self.runs[turn.run - 1]
        for moment in (time, call.end):
            if moment is not None:
                if turn.end is None or moment > turn.end:
                    turn.end = moment
                if run.end is None or moment > run.end:
                    run.end = moment
        self.nodes[key] = call

    def _event(self, key: str, line: int, kind: str, time: float | None) -> Event:
        table = self.table
        if kind == "thinking_level_change":
            self.thinking = table.strings[table.thinking[line]] or self.thinking
        run = self.run
        event = Event(key, kind, time, line=line)
        if run is None:
            self.before.append(event)
        else:
            event.run, event.turn = run.number, self.turns
            run.items.append(event)
        self.nodes[key] = event
        return event

    # ---- the whole path ----------------------------------------------------------------

    def finish(self, leaf: str | None, ids: list[str]) -> Trace:
        last_turn = self.turn if not self.turn_followed else None
        errors: list[Turn | ToolCall | Event] = []
        totals = Totals(runs=len(self.runs))
        table = self.table
        for event in self.before:
            _count_usage(totals, table, event.line)
            if event.error_kind:
                errors.append(event)
        for run in self.runs:
            run.totals = _run_totals(run, table, last_turn, errors)
            _add_totals(totals, run.totals)
        totals.errors = len(errors)  # a failed result before the first prompt counts too
        times = [time for run in self.runs for time in (run.start, run.end) if time is not None]
        times += [event.time for event in self.before if event.time is not None]
        return Trace(leaf, ids, self.runs, self.before, totals, self.nodes, errors, table, min(times, default=None), max(times, default=None))


def _run_totals(run: Run, table: FactsTable, last_turn: Turn | None, errors: list[Turn | ToolCall | Event]) -> Totals:
    totals = Totals(runs=1, wall_ms=run.wall_ms)
    found_before = len(errors)
    tool_ms, tool_calls = totals.tool_ms, totals.tool_calls
    for item in run.items:
        if item.__class__ is Event:
            _count_usage(totals, table, item.line)
            if item.error_kind:
                errors.append(item)
            continue
        totals.turns += 1
        if item.start is not None and item.model_end is not None:
            totals.model_ms += item.model_end - item.start
        _count_usage(totals, table, item.line)
        if item.error_kind:
            errors.append(item)
        for call in item.calls:
            if call.result is None:
                _explain_missing(call, item, last_turn)
            name = call.name
            tool_ms[name] = tool_ms.get(name, 0) + (call.duration or 0)
            tool_calls[name] = tool_calls.get(name, 0) + 1
            if call.result_line >= 0:
                _count_usage(totals, table, call.result_line)
            if call.error_kind:
                errors.append(call)
    totals.errors = len(errors) - found_before
    return totals


def _explain_missing(call: ToolCall, turn: Turn, last_turn: Turn | None) -> None:
    """Why a call has no result: its reply failed (it never ran), pi is still at it, or it is missing."""
    if turn.error_kind == ERROR_STOP:
        call.note = NEVER_RUN  # the reply's own error says it all: not an error of its own
    elif turn is last_turn:
        call.note = PENDING
    else:
        call.note = NO_RESULT
        call.error_kind = ERROR_NO_RESULT


def _count_usage(totals: Totals, table: FactsTable, line: int) -> None:
    """Add the usage the entry on `line` recorded (as pi's session statistics add it up)."""
    columns = table.usage_columns
    first = columns[0][line]
    if first == first:  # NaN: no usage
        into = totals.usage
        into.input += first
        into.output += columns[1][line]
        into.cache_read += columns[2][line]
        into.cache_write += columns[3][line]
        into.cost += columns[4][line]
        into.records += 1


def _add_totals(into: Totals, part: Totals) -> None:
    into.wall_ms += part.wall_ms
    into.model_ms += part.model_ms
    for name, ms in part.tool_ms.items():
        into.tool_ms[name] = into.tool_ms.get(name, 0) + ms
    for name, count in part.tool_calls.items():
        into.tool_calls[name] = into.tool_calls.get(name, 0) + count
    into.turns += part.turns
    into.errors += part.errors
    into.usage.merge(part.usage)


def trace_with_facts(path: Sequence[Entry]) -> tuple[Trace, dict[str, Facts]]:
    """The trace of `path`, and every entry's facts with their texts (for the rows of the command
    line, which reads each entry once and shows every row)."""
    table = FactsTable()
    facts: dict[str, Facts] = {}
    for entry in path:
        facts[entry.id] = found = entry_facts(entry)
        table.put(entry.line, found)
    return build_trace(path, table), facts
