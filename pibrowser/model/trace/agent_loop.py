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

One pass, totals added up as it goes: a path runs to 100,000 entries, and the
Trace tab builds a trace whenever the selection leaves the path shown. A walk
starts at the root, where another path's trace leaves off (`spine`), or where a
run surely starts (`starts_a_run`, `lead_in`: a stretch of a long path, traced
before the whole of it is read; stretch.py).

(Over 400 lines as one file: those three starts and the rules above are one
walk's, and share its state.)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from ..session.entry import Entry
from ..session.sequences import equal_prefix
from .facts import Facts, entry_facts, lines_columns
from .spans import ERROR_NO_RESULT, ERROR_RESULT, ERROR_STOP, Event, Run, ToolCall, Totals, Trace, Turn
from .table import CUSTOM_MESSAGE, MESSAGE, FactsTable

if TYPE_CHECKING:
    from ..session.path_index import IndexedPath

# A message's own time must lie between the entry before it and its own entry (both stamped by
# the same clock) to be believed; this much either way allows for a clock set back a little.
SLACK_MS = 1000
FAILED_STOPS = ("error", "aborted")
NEVER_RUN = "never run: the reply stopped before its calls ran"
NO_RESULT = "no result on this path"
PENDING = "no result yet: the path ends here"
_MESSAGE_TYPES = ("message", "custom_message")


def build_trace(
    path: Sequence[Entry],
    table: FactsTable | None = None,
    spine: Trace | None = None,
    lead_in: Sequence[Entry] = (),
    goes_on: bool = False,
) -> Trace:
    """The trace of `path` (root first), from `table`, which must have read every entry of it
    (a FactsTable that has not, or None, reads them now).

    `spine`: the trace of another path of the session built from the same table. The runs both
    paths share, whole, are taken from it, and only what follows is walked: a branch that leaves
    a 90,000-entry path near its end costs its last runs. Where sharing could differ in the least
    (a result on the new path answering a call of a shared run), the whole path is walked instead.

    `lead_in`: when `path` is a stretch of a longer path, one that starts where a run starts
    (`starts_a_run`), the entries before it that the walk's state at its start depends on
    (`lead_in`, read by `table` too): its runs are then the longer path's, numbered from 1.
    `goes_on`: the longer path goes on after the stretch (its last reply's calls without a result
    are not waiting for one: they have none).
    """
    if table is None:
        table = FactsTable()
        table.ensure([*lead_in, *path])
    ids = [entry.id for entry in path]
    lines = [entry.line for entry in path]
    if lead_in or goes_on:
        builder = _Builder(table)
        builder.lead(lead_in)
        builder.walk(ids, lines)
        builder.turn_followed = builder.turn_followed or goes_on
        return builder.finish(ids[-1] if ids else None, ids)
    if spine is not None and spine.table is table:
        builder = _Builder(table)
        try:
            start = builder.resume(spine, ids)
            builder.walk(ids, lines, start)
            return builder.finish(ids[-1] if ids else None, ids)
        except _Unshareable:
            pass  # the spine's trace cannot be continued for this path: it is walked whole below
    return trace_lines(ids, lines, table)


def trace_lines(ids: list[str], lines: Sequence[int], table: FactsTable) -> Trace:
    """The trace of the path whose entries are `ids`, root first, their facts on `lines` of
    `table` (which has read every one of them)."""
    builder = _Builder(table)
    builder.walk(ids, lines)
    return builder.finish(ids[-1] if ids else None, ids)


def lead_in(path: Sequence[Entry], first: int) -> list[Entry]:
    """The entries before `path[first]` whose facts the walk needs to start there: the last
    thinking-level change (the level in force) and every entry from the last message on (the
    role and the time before)."""
    recent = _since_last_message(path, first)
    level = next((at for at in range(recent - 1, -1, -1) if path[at].type == "thinking_level_change"), None)
    return ([path[level]] if level is not None else []) + list(path[recent:first])


def starts_a_run(path: Sequence[Entry], place: int, table: FactsTable) -> bool:
    """Whether `path[place]` starts a run whatever went on before it: a user prompt that neither
    steers a loop (a tool result before it) nor may have been queued as a follow-up in the run
    going on. That run's start is not known here, but it is no earlier than the path's first
    entry (less SLACK_MS): pi appends an entry after its parent, so a path's times run forward.
    Reads what it needs into `table`."""
    entry = path[place]
    if entry.type != "message" or entry.role != "user":
        return False
    recent = path[_since_last_message(path, place) : place]
    table.ensure([path[0], *recent, entry])
    builder = _Builder(table)
    builder.lead(recent)
    earliest = table.time[path[0].line] - SLACK_MS  # NaN (no time) makes every queued time possible
    run_start = earliest if earliest == earliest else -math.inf
    return table.strings[table.kind[entry.line]] == "user" and not builder.delivered(entry.line, "user", run_start, True)


def _since_last_message(path: Sequence[Entry], first: int) -> int:
    return next((at for at in range(first - 1, -1, -1) if path[at].type in _MESSAGE_TYPES), 0)


class _Unshareable(Exception):
    """The spine's runs cannot be shared as they are: walk the whole path."""


def trace_with_facts(path: Sequence[Entry]) -> tuple[Trace, dict[str, Facts]]:
    """The trace of `path`, and every entry's facts with their texts (for the rows of the command
    line, which reads each entry once and shows every row)."""
    table = FactsTable()
    facts: dict[str, Facts] = {}
    if path:
        table.grow_to(max(entry.line for entry in path))
    for entry in path:
        facts[entry.id] = found = entry_facts(entry)
        table.put(entry.line, found)
    return build_trace(path, table), facts


def trace_of_path(path: IndexedPath) -> tuple[Trace, Callable[[str], Facts]]:
    """trace_with_facts of a path of an index (the command line's, for a clean file): each line is
    decoded once, in C a stretch of the file at a time, and not kept, so a long path's 150 MB of
    lines are never held. The facts of its replies that made calls are kept, for the rows (their
    calls' arguments); those of any other entry are read again when asked (a failed result's text)."""
    from ..session.path_index import views_utf8

    ids, kinds = path.ids(), path.types_and_roles()
    table = FactsTable()
    replies: dict[str, Facts] = {}
    done = 0
    for lines in path.lines():
        end = done + len(lines)
        found = lines_columns(ids[done:end], kinds[done:end], lines, views_utf8(lines))
        table.extend(found)  # the entry `done + i` on line `done + i`
        replies.update(found.replies)
        done = end

    def facts_of(key: str) -> Facts:
        facts = replies.get(key)
        return facts if facts is not None else entry_facts(path[path.position(key, len(path))])

    return trace_lines(ids, range(len(ids)), table), facts_of


class _Builder:
    def __init__(self, table: FactsTable) -> None:
        self.table = table
        self.failed = {table.code(stop) for stop in FAILED_STOPS}
        self.runs: list[Run] = []
        self.before: list[Event] = []
        self.nodes: dict[str, Run | Turn | ToolCall | Event] = {}
        self.errors: list[tuple[float, Turn | ToolCall | Event]] = []  # (place on the path, error)
        self.run: Run | None = None
        self.looping = False  # the run's loop goes on: its last reply called tools, or a prompt waits for one
        self.turn: Turn | None = None  # the run's latest turn
        self.turns = 0  # turns of the run so far
        self.turn_followed = False  # an entry other than its results came after the latest turn
        self.calls: dict[str, ToolCall] = {}  # calls waiting for a result, by id
        self.previous_time: float | None = None  # when the entry before was appended
        self.previous_role: str | None = None  # the role of the message entry before
        self.thinking = "off"  # the level in force (pi's default until a thinking_level_change)
        self.place = 0  # of the entry being read, on the path
        self.shared = 0  # runs taken whole from a spine (see resume)

    def lead(self, entries: Sequence[Entry]) -> None:
        """Start from what walking `entries` (lead_in's) leaves known; what they show is not kept."""
        scout = _Builder(self.table)
        scout.walk([entry.id for entry in entries], [entry.line for entry in entries])
        self.previous_time, self.previous_role, self.thinking = scout.previous_time, scout.previous_role, scout.thinking

    def resume(self, spine: Trace, ids: list[str]) -> int:
        """Take the runs `spine` shares whole with the path `ids`; the place to walk on from."""
        fork = equal_prefix(spine.entries, ids)
        runs = spine.runs
        # The run going on where the paths part is walked again, with every run after it.
        again = next((number for number, run in enumerate(runs) if run.first_place >= fork), len(runs)) - 1
        if again < 1:
            return 0
        start = runs[again].first_place
        shared = runs[:again]
        if max(run.last_place for run in shared) >= start:
            raise _Unshareable  # a result after the restart answered a call of a shared run
        # The calls waiting for a result where the walk goes on: under each id, the last call made
        # with it, unless that one was answered (a result takes the latest call with its id).
        latest: dict[str, ToolCall] = {}
        for run in shared:
            for item in run.items:
                if item.__class__ is Turn:
                    for call in item.calls:
                        if call.id is not None:
                            latest[call.id] = call
        self.calls = {key: call for key, call in latest.items() if call.result is None}
        self.runs, self.before, self.shared = list(shared), list(spine.before), again
        nodes = spine.nodes
        self.nodes = {key: nodes[key] for key in ids[:start]}
        self.errors = [(place, error) for place, error in zip(spine.error_places, spine.errors) if place < start]
        self.previous_time, self.previous_role, self.thinking = runs[again].resume
        return start

    # ---- entry by entry ----------------------------------------------------------------

    def walk(self, ids: Sequence[str], lines: Sequence[int], start: int = 0) -> None:
        """Read the entries `ids` on `lines` of the table, from `start` on."""
        table = self.table
        kinds, times, strings, types = table.kind, table.time, table.strings, table.entry_type
        kind_names = cast("list[str]", strings)  # a kind's code names a str: FactsTable.put codes one
        assistant, result = table.code("assistant"), table.code("toolResult")
        for place in range(start, len(ids)):
            key = ids[place]
            self.place = place
            line = lines[place]
            kind = kinds[line]
            time: float | None = times[line]
            if time != time:  # NaN: not a time
                time = None
            if kind == assistant:
                self._reply(key, line, time)
            elif kind == result:
                self._result(key, line, time)
            else:
                name = kind_names[kind]
                entry_type = types[line]
                if entry_type == CUSTOM_MESSAGE or (entry_type == MESSAGE and name in ("user", "custom")):
                    self._prompt(key, line, name, time)
                else:
                    self._event(key, line, name, time)
                self.turn_followed = True
            if time is not None:
                self.previous_time = time
            if types[line]:  # a message or a custom message
                self.previous_role = strings[kind]

    def _prompt(self, key: str, line: int, kind: str, time: float | None) -> None:
        run = self.run
        if run is not None and self.delivered(line, kind, run.start, self.looping):
            self._event(key, line, kind, time)
        else:
            self.nodes[key] = self._new_run(key, kind, time)
        self.looping = True

    def delivered(self, line: int, kind: str, run_start: float | None, looping: bool) -> bool:
        """Whether a prompt is delivered in the run going on (started at `run_start`, its loop
        `looping`) rather than starting a run of its own."""
        if kind != "user":
            return looping
        if self.previous_role == "toolResult":
            return True  # steering
        queued = self.table.message_time[line]  # typed then; delivered when the entry was appended
        # A follow-up: typed while the run went on, delivered when it would have stopped.
        return queued == queued and run_start is not None and self.previous_time is not None and run_start <= queued < self.previous_time

    def _new_run(self, key: str, kind: str, time: float | None) -> Run:
        run = self.run = Run(
            len(self.runs) + 1, key, kind, time, time, totals=Totals(runs=1), first_place=self.place, last_place=self.place,
            resume=(self.previous_time, self.previous_role, self.thinking),
        )  # fmt: skip
        self.runs.append(run)
        self.turn, self.turns = None, 0
        return run

    def _reply(self, key: str, line: int, time: float | None) -> None:
        table = self.table
        run = self.run if self.run is not None else self._new_run(key, "assistant", None)  # the path starts mid-run
        duration = table.duration[line]
        measured = duration == duration
        start, end = self._reply_span(table.message_time[line], duration if measured else None, time)
        if run.start is None:
            run.start = start
        stop = table.stop[line]
        strings = table.strings
        turn = Turn(
            key, run.number, self.turns + 1, strings[table.model[line]] or "?", strings[table.thinking[line]] or self.thinking,
            start, end, measured, strings[stop], line, end,
        )  # fmt: skip
        totals = run.totals
        totals.turns += 1
        if start is not None and end is not None:
            totals.model_ms += end - start
        _count_usage(totals, table, line)
        if table.call_count[line]:
            tool_calls, tool_ms = totals.tool_calls, totals.tool_ms
            for call_id, name in table.calls(line):
                call = ToolCall(call_id, name, turn, start=end)
                turn.calls.append(call)
                tool_calls[name] = tool_calls.get(name, 0) + 1
                tool_ms.setdefault(name, 0)
                if call_id is not None:
                    self.calls[call_id] = call
        turn.place = self.place
        failed = stop in self.failed
        if failed:
            turn.error_kind = ERROR_STOP
            self._error(self.place, turn, run)
        self.looping = bool(turn.calls) and not failed
        run.items.append(turn)
        run.last_place = self.place
        if end is not None and (run.end is None or end > run.end):
            run.end = end
        self.nodes[key] = turn
        self.turn, self.turn_followed = turn, False
        self.turns += 1

    def _reply_span(self, sent: float, duration: float | None, appended: float | None) -> tuple[float | None, float | None]:
        """(request started, reply complete): the message's time and durationMs where believable."""
        previous = self.previous_time
        believable = (
            sent == sent  # not NaN: the message has a time
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
                self._error(self.place, event, self.run)
            return
        if call.turn.run <= self.shared:
            raise _Unshareable  # checked before the call is touched: it belongs to the spine's trace
        call.result = key
        call.result_chars = table.result_chars[line]
        call.result_line = line
        duration = table.duration[line]
        if duration == duration:
            call.duration, call.measured = duration, True
        elif call.start is not None and time is not None:
            call.duration = max(0.0, time - call.start)
        if call.start is None and time is not None:
            call.start = time - (call.duration or 0)
        turn = call.turn
        run = self.runs[turn.run - 1]
        run.last_place = self.place
        totals = run.totals
        totals.tool_ms[call.name] = totals.tool_ms.get(call.name, 0) + (call.duration or 0)
        _count_usage(totals, table, line)
        if table.is_error[line]:
            call.error_kind = ERROR_RESULT
            self._error(self.place, call, run)
        for moment in (time, call.end):
            if moment is not None:
                if turn.end is None or moment > turn.end:
                    turn.end = moment
                if run.end is None or moment > run.end:
                    run.end = moment
        self.nodes[key] = call

    def _event(self, key: str, line: int, kind: str, time: float | None) -> Event:
        if kind == "thinking_level_change":
            self.thinking = self.table.strings[self.table.thinking[line]] or self.thinking
        run = self.run
        event = Event(key, kind, time, line=line)
        if run is None:
            self.before.append(event)
        else:
            event.run, event.turn = run.number, self.turns
            run.items.append(event)
            run.last_place = self.place
            _count_usage(run.totals, self.table, line)
        self.nodes[key] = event
        return event

    # ---- the whole path ----------------------------------------------------------------

    def finish(self, leaf: str | None, ids: list[str]) -> Trace:
        last_turn = self.turn if not self.turn_followed else None
        totals = Totals(runs=len(self.runs))
        for event in self.before:
            _count_usage(totals, self.table, event.line)
        for number, run in enumerate(self.runs):
            if number >= self.shared:  # a shared run is finished as the spine finished it
                self._unanswered(run, last_turn)
                run.totals.wall_ms = run.wall_ms
            _add_totals(totals, run.totals)
        self.errors.sort(key=lambda error: error[0])
        errors = [error for _, error in self.errors]
        totals.errors = len(errors)
        times = [time for run in self.runs for time in (run.start, run.end) if time is not None]
        times += [event.time for event in self.before if event.time is not None]
        return Trace(
            leaf, ids, self.runs, self.before, totals, self.nodes, errors, self.table, min(times, default=None),
            max(times, default=None), [place for place, _ in self.errors],
        )  # fmt: skip

    def _unanswered(self, run: Run, last_turn: Turn | None) -> None:
        """Say why the run's calls without a result have none (see _explain_missing)."""
        for item in run.items:
            if item.__class__ is Turn:
                for call in item.calls:
                    if call.result is None and _explain_missing(call, item, last_turn):
                        self._error(item.place + 0.5, call, run)  # after its reply, before what came next

    def _error(self, place: float, node: Turn | ToolCall | Event, run: Run | None) -> None:
        self.errors.append((place, node))
        if run is not None:
            run.totals.errors += 1


def _explain_missing(call: ToolCall, turn: Turn, last_turn: Turn | None) -> bool:
    """Why a call has no result: its reply failed (it never ran), pi is still at it, or it is
    missing (an error: True)."""
    if turn.error_kind == ERROR_STOP:
        call.note = NEVER_RUN  # the reply's own error says it all: not an error of its own
    elif turn is last_turn:
        call.note = PENDING
    else:
        call.note = NO_RESULT
        call.error_kind = ERROR_NO_RESULT
        return True
    return False


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
