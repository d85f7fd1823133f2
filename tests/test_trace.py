"""The trace of a path: runs, turns and tool calls read back from the entries pi appended (docs/trace.md)."""

from __future__ import annotations

import re
import subprocess
import sys

import orjson
import pytest

from pibrowser.model import Session
from pibrowser.model.js.date import js_iso
from pibrowser.model.trace.agent_loop import NEVER_RUN, NO_RESULT, PENDING, build_trace, lead_in, starts_a_run, trace_with_facts
from pibrowser.model.trace.facts import entry_facts
from pibrowser.model.trace.rows import row_cells, rows_text, trace_rows
from pibrowser.model.trace.spans import ERROR_NO_RESULT, ERROR_RESULT, ERROR_STOP, Event, Run, ToolCall, Turn
from pibrowser.model.trace.stretch import stretch_around
from pibrowser.model.trace.table import FactsTable

from .conftest import DEMO, FIXTURES
from .sessions import write

T0 = 1_793_350_800_000  # 2026-10-30T09:00:00Z


class Writer:
    """A session in one line of descent, each entry stamped `at` ms after T0 (its message at `sent`)."""

    def __init__(self) -> None:
        self.items: list[dict] = []

    def add(self, key: str, at: int, kind: str = "message", **fields) -> str:
        parent = self.items[-1]["id"] if self.items else None
        self.items.append({"type": kind, "id": key, "parentId": parent, "timestamp": js_iso(T0 + at), **fields})
        return key

    def message(self, key: str, at: int, role: str, sent: int | None = None, **fields) -> str:
        body = {"role": role, "content": fields.pop("content", "text"), **fields, "timestamp": T0 + (at if sent is None else sent)}
        return self.add(key, at, message=body)

    def user(self, key, at, text="go", sent=None):
        return self.message(key, at, "user", sent, content=text)

    def reply(self, key, at, sent, calls=(), stop=None, usage=None, duration=None, **fields):
        content = [{"type": "text", "text": "ok"}] + [
            {"type": "toolCall", "id": call_id, "name": name, "arguments": {"path": f"{call_id}.txt"}} for call_id, name in calls
        ]
        extra = {"durationMs": duration} if duration is not None else {}
        return self.message(
            key, at, "assistant", sent, content=content, provider="anthropic", model="claude", stopReason=stop or ("toolUse" if calls else "stop"),
            usage=usage or {"input": 10, "output": 5, "cacheRead": 30, "cacheWrite": 0, "cost": {"total": 0.5}}, **extra, **fields,
        )  # fmt: skip

    def result(self, key, at, call_id, name="read", error=False, duration=None, text="data"):
        extra = {"durationMs": duration} if duration is not None else {}
        return self.message(
            key, at, "toolResult", at, toolCallId=call_id, toolName=name, isError=error, content=[{"type": "text", "text": text}], **extra
        )

    def trace(self, tmp_path, leaf: str | None = None):
        session = Session.load(write(tmp_path / "s.jsonl", *self.items), lazy=False)
        return build_trace(session.path_entries(leaf or session.leaf_id)), session


def test_a_run_is_a_prompt_and_the_turns_it_set_going(tmp_path):
    w = Writer()
    w.user("u1", 0)
    w.reply("a1", 2000, sent=100, calls=[("c1", "read")], duration=1500)
    w.result("t1", 2300, "c1", duration=250)
    w.reply("a2", 3400, sent=2400)  # no durationMs: request start to appended
    w.user("u2", 60_000, "again")
    w.reply("a3", 61_000, sent=60_100)
    trace, _ = w.trace(tmp_path)
    assert [run.entry for run in trace.runs] == ["u1", "u2"]
    first = trace.runs[0]
    assert [(turn.entry, turn.number) for turn in first.turns] == [("a1", 1), ("a2", 2)]
    a1, a2 = first.turns
    assert (a1.start, a1.model_end, a1.measured) == (T0 + 100, T0 + 1600, True)
    assert (a2.start, a2.model_end, a2.measured, a2.model_ms) == (T0 + 2400, T0 + 3400, False, 1000)
    call = a1.calls[0]
    assert (call.start, call.duration, call.measured, call.result) == (T0 + 1600, 250, True, "t1")
    assert (first.start, first.end, first.wall_ms) == (T0, T0 + 3400, 3400)
    assert trace.gaps() == [(T0 + 3400, T0 + 60_000)]  # idle between the runs
    assert trace.totals.wall_ms == 3400 + 1000  # idle time left out
    assert trace.totals.model_ms == 1500 + 1000 + 900
    assert trace.totals.tool_ms == {"read": 250} and trace.totals.tool_calls == {"read": 1}
    assert trace.totals.usage.input == 30 and trace.totals.usage.cost == 1.5
    assert trace.totals.cache_hit_ratio == 90 / 120
    assert trace.nodes["u2"] is trace.runs[1] and trace.nodes["t1"] is call and trace.errors == []


def test_an_aborted_turn_is_an_error_and_its_calls_never_ran(tmp_path):
    w = Writer()
    w.user("u1", 0)
    w.reply("a1", 900, sent=100, calls=[("c1", "bash")], stop="aborted", errorMessage="Request was aborted")
    w.user("u2", 5000)  # a new prompt: the aborted loop had ended
    w.reply("a2", 6000, sent=5100)
    trace, session = w.trace(tmp_path)
    turn = trace.nodes["a1"]
    assert turn.error_kind == ERROR_STOP and len(trace.runs) == 2
    assert turn.calls[0].note == NEVER_RUN and turn.calls[0].error_kind is None  # the reply's error says it
    assert trace.errors == [turn] and trace.runs[0].totals.errors == 1 and trace.totals.errors == 1
    trace, facts = trace_with_facts(session.path_entries("a2"))
    row = trace_rows(trace, facts.__getitem__)[1]
    assert (row.kind, row.stop_reason, row.error) == ("assistant", "aborted", "Request was aborted")


def test_a_failed_tool_result_is_an_error_with_its_first_line(tmp_path):
    w = Writer()
    w.user("u1", 0)
    w.reply("a1", 900, sent=100, calls=[("c1", "bash")])
    w.result("t1", 1400, "c1", name="bash", error=True, text="\n  exit code 2\nmore")
    w.reply("a2", 2000, sent=1500)
    trace, session = w.trace(tmp_path)
    call = trace.nodes["t1"]
    assert isinstance(call, ToolCall) and call.error_kind == ERROR_RESULT and trace.errors == [call]
    assert (call.measured, call.duration) == (False, 500)  # no durationMs: up to the result, from the reply's end
    trace, facts = trace_with_facts(session.path_entries("a2"))
    row = trace_rows(trace, facts.__getitem__)[2]
    assert row.error == "exit code 2 more" and row.tool["name"] == "bash" and row.tool["arguments"] == '{"path":"c1.txt"}'


def test_a_call_without_a_result_is_an_error_unless_the_path_ends_there(tmp_path):
    w = Writer()
    w.user("u1", 0)
    w.reply("a1", 900, sent=100, calls=[("c1", "read"), ("c2", "read")])
    w.result("t1", 1000, "c1")
    w.reply("a2", 2000, sent=1100, calls=[("c3", "edit")])
    trace, _ = w.trace(tmp_path)
    missing, pending = trace.nodes["a1"].calls[1], trace.nodes["a2"].calls[0]
    assert (missing.error_kind, missing.note) == (ERROR_NO_RESULT, NO_RESULT)
    assert (pending.error_kind, pending.note) == (None, PENDING)  # pi may still be running it
    assert trace.errors == [missing]


def test_parallel_calls_start_when_the_reply_ends_and_take_their_own_time(tmp_path):
    w = Writer()
    w.user("u1", 0)
    w.reply("a1", 1000, sent=100, calls=[("c1", "read"), ("c2", "bash"), ("c3", "read")], duration=900)
    # pi makes the results of a parallel batch together, in call order, once the slowest is done.
    w.result("t1", 1400, "c1", duration=120)
    w.result("t2", 1401, "c2", name="bash", duration=390)
    w.result("t3", 1402, "c3", duration=60)
    w.reply("a2", 2000, sent=1450)
    trace, _ = w.trace(tmp_path)
    turn = trace.nodes["a1"]
    assert [(call.start, call.end) for call in turn.calls] == [(T0 + 1000, T0 + 1120), (T0 + 1000, T0 + 1390), (T0 + 1000, T0 + 1060)]
    assert turn.end == T0 + 1402  # the last result appended
    assert trace.totals.tool_ms == {"read": 180, "bash": 390} and trace.totals.tool_calls == {"read": 2, "bash": 1}
    assert trace.runs[0].totals.turns == 2


def test_a_compaction_inside_a_run_and_the_reply_after_it_stay_in_that_run(tmp_path):
    w = Writer()
    w.user("u1", 0)
    w.reply("a1", 900, sent=100, stop="error", errorMessage="prompt is too long")
    w.add("k1", 5000, "compaction", summary="before", firstKeptEntryId="u1", tokensBefore=9000,
          usage={"input": 100, "output": 50, "cacheRead": 0, "cacheWrite": 0, "cost": {"total": 0.25}})  # fmt: skip
    w.reply("a2", 6000, sent=5100)  # pi continues the run after compacting: no prompt of its own
    trace, _ = w.trace(tmp_path)
    assert len(trace.runs) == 1
    run = trace.runs[0]
    assert [type(item).__name__ for item in run.items] == ["Turn", "Event", "Turn"]
    assert trace.nodes["k1"].run == 1 and trace.nodes["a2"].number == 2
    assert run.totals.usage.cost == 0.5 + 0.25 + 0.5  # the compaction's own usage counts
    assert run.end == T0 + 6000


def test_a_branch_summary_sits_between_runs_and_does_not_stretch_the_run_before(tmp_path):
    w = Writer()
    w.user("u1", 0)
    w.reply("a1", 900, sent=100)
    w.add("b1", 90_000, "branch_summary", fromId="x", summary="tried another way",
          usage={"input": 7, "output": 3, "cacheRead": 0, "cacheWrite": 0, "cost": {"total": 0.1}})  # fmt: skip
    w.user("u2", 95_000)
    w.reply("a2", 96_000, sent=95_100)
    trace, _ = w.trace(tmp_path)
    summary = trace.nodes["b1"]
    assert isinstance(summary, Event) and summary.kind == "branch_summary" and summary.run == 1
    assert trace.runs[0].end == T0 + 900 and len(trace.runs) == 2
    assert trace.totals.usage.input == 10 + 7 + 10


def test_steering_and_follow_ups_are_delivered_in_the_run_a_new_prompt_is_not(tmp_path):
    w = Writer()
    w.user("u1", 0)
    w.reply("a1", 1000, sent=100, calls=[("c1", "read")])
    w.result("t1", 1200, "c1")
    w.user("s1", 1300, "also this", sent=800)  # steering: right after a tool result
    w.reply("a2", 2000, sent=1400)
    w.user("f1", 2100, "and then", sent=1500)  # a follow-up: typed during the run, before a2 was appended
    w.reply("a3", 3000, sent=2200)
    w.user("u2", 9000, "new", sent=8900)
    trace, session = w.trace(tmp_path)
    assert [run.entry for run in trace.runs] == ["u1", "u2"]
    assert [turn.entry for turn in trace.runs[0].turns] == ["a1", "a2", "a3"]
    trace, facts = trace_with_facts(session.path_entries("u2"))
    rows = {row.entry: row for row in trace_rows(trace, facts.__getitem__)}
    assert (rows["s1"].run, rows["s1"].turn) == (1, 2) and (rows["f1"].run, rows["f1"].turn) == (1, 3)


def test_message_times_that_cannot_be_true_give_way_to_the_entries_times(tmp_path):
    # A generator that writes `timestamp: 2` (1970): the reply ends when appended, and started
    # when the entry before it was appended (or durationMs before its end).
    w = Writer()
    w.user("u1", 0, sent=-T0 + 1)
    w.reply("a1", 800, sent=-T0 + 2)
    w.reply("a2", 1500, sent=-T0 + 3, duration=200)
    trace, _ = w.trace(tmp_path)
    a1, a2 = trace.nodes["a1"], trace.nodes["a2"]
    assert (a1.start, a1.model_end) == (T0, T0 + 800)
    assert (a2.start, a2.model_end) == (T0 + 1300, T0 + 1500)
    assert len(trace.runs) == 1  # a 1970 "queued" time is no follow-up


def test_rows_json_has_one_row_per_entry_with_the_issues_keys(tmp_path):
    w = Writer()
    w.add("m0", 0, "model_change", provider="anthropic", modelId="claude")
    w.user("u1", 10)
    w.reply("a1", 900, sent=100, calls=[("c1", "read")], duration=700)
    w.result("t1", 1000, "c1", duration=40)
    path = write(tmp_path / "s.jsonl", *w.items)
    result = subprocess.run([sys.executable, "-m", "pibrowser", "trace", str(path), "--format", "json"], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    rows = orjson.loads(result.stdout)
    assert [row["entry"] for row in rows] == ["m0", "u1", "a1", "t1"]
    assert list(rows[2]) == [
        "entry", "run", "turn", "kind", "start", "duration_ms", "model", "thinking", "input", "output",
        "cache_read", "cache_write", "cost", "stop_reason", "error", "tool",
    ]  # fmt: skip
    assert rows[0]["run"] is None and rows[0]["model"] == "anthropic/claude"
    assert rows[2] == {
        "entry": "a1", "run": 1, "turn": 1, "kind": "assistant", "start": "2026-10-30T09:00:00.100Z", "duration_ms": 700,
        "model": "anthropic/claude", "thinking": "off", "input": 10, "output": 5, "cache_read": 30, "cache_write": 0,
        "cost": 0.5, "stop_reason": "toolUse", "error": None, "tool": None,
    }  # fmt: skip
    assert rows[3]["tool"] == {"name": "read", "call_id": "c1", "arguments": '{"path":"c1.txt"}', "result_chars": 4, "measured": True}
    assert (rows[3]["start"], rows[3]["duration_ms"]) == ("2026-10-30T09:00:00.800Z", 40)
    text = subprocess.run([sys.executable, "-m", "pibrowser", "trace", str(path), "--format", "text"], capture_output=True, timeout=60)
    lines = text.stdout.decode().splitlines()
    assert lines[0].split()[:4] == ["entry", "run", "turn", "kind"] and lines[3].startswith("a1 ")
    assert lines[-1].startswith("path: wall 990 ms · model 700 ms · tools read 40 ms ×1 · 1 turn")


@pytest.mark.parametrize(
    "path", [DEMO, *sorted(FIXTURES.glob("*.jsonl")), *sorted((FIXTURES / "bytes").glob("*.jsonl"))], ids=lambda path: path.stem
)
def test_every_fixture_traces_each_entry_once_and_the_runs_add_up_to_the_path(path):
    session = Session.load(path, lazy=False)
    table = FactsTable()
    table.ensure(session.entries.values())
    for leaf in session.leaves():
        trace = build_trace(session.path_entries(leaf), table)
        ids = session.path_to(leaf)
        assert trace.entries == ids and set(trace.nodes) == set(ids) - {None}
        assert sum(run.totals.turns for run in trace.runs) == trace.totals.turns
        before = sum(1 for event in trace.before if event.error_kind)
        assert sum(run.totals.errors for run in trace.runs) + before == trace.totals.errors == len(trace.errors)
        assert trace.totals.wall_ms == sum(run.wall_ms for run in trace.runs)
        assert trace.totals.usage.records == sum(
            1 for key in ids if trace.usage(trace.nodes[key]) is not None and not isinstance(trace.nodes[key], Run)
        )
        for run in trace.runs:
            for turn in run.turns:
                assert turn.start <= turn.model_end <= turn.end
        # the path's replies with a failed stop are exactly the stop errors
        failed = {
            key
            for key in ids
            if session.entries[key].role == "assistant" and session.entries[key].message.get("stopReason") in ("error", "aborted")
        }
        assert {item.entry for item in trace.errors if isinstance(item, Turn)} == failed


def test_the_demo_trace_as_text_names_runs_and_errors():
    session = Session.load(DEMO, lazy=False)
    trace, facts = trace_with_facts(session.path_entries(session.leaf_id))
    text = rows_text(trace, trace_rows(trace, facts.__getitem__))
    assert "ERROR: ENOENT" in text and text.count("\nrun ") == len(trace.runs) and "path: wall" in text


def test_a_sessions_summary_says_the_time_spent_in_runs_and_the_errors(tmp_path):
    from pibrowser.model.library.session_list import summarize

    w = Writer()
    w.user("u1", 0)
    w.reply("a1", 900, sent=100, calls=[("c1", "bash")])
    w.result("t1", 1400, "c1", name="bash", error=True)
    w.reply("a2", 2000, sent=1500)
    w.user("u2", 3_600_000)  # an hour idle: not in the time
    w.reply("a3", 3_601_000, sent=3_600_100, stop="error", errorMessage="overloaded")
    path = write(tmp_path / "s.jsonl", *w.items)
    summary = summarize(path, path.stat().st_size, path.stat().st_mtime_ns)
    assert (summary.wall_ms, summary.errors) == (2000 + 1000, 2)


def test_the_waterfalls_axis_squeezes_idle_time_and_maps_both_ways():
    from pibrowser.ui.trace.axis import TimeAxis

    axis = TimeAxis(0, 100_000, [(10_000, 90_000), (95_000, 96_000)])  # the second is too short to squeeze
    busy = 100_000 - 80_000
    gap = axis.gaps[0]
    assert len(axis.gaps) == 1 and gap.width == busy * 0.2 / 0.8  # idle at most a fifth of the axis
    assert axis.length == busy + gap.width
    for time in (0, 5_000, 10_000, 50_000, 90_000, 95_500, 100_000):
        assert axis.to_time(axis.to_axis(time)) == pytest.approx(time)
    assert axis.to_axis(90_000) == 10_000 + gap.width
    assert axis.gaps_between(0, 9_000) == [] and axis.gaps_between(9_000, 11_000) == [gap]


@pytest.mark.parametrize("span", [60_000.0, 86_400_000.0 * 400, 2.5e14, 1.728e16])
@pytest.mark.parametrize("width", [300, 1200])
def test_the_rulers_ticks_are_a_few_whatever_the_span(span, width):
    # One timestamp in year 9999: the ruler drew a tick for every day of the span (40 s a repaint).
    from pibrowser.ui.trace.axis import TICK_ROOM, tick_label, tick_step, ticks_between

    start = -8.64e15 if span > 1e16 else 1_793_350_800_000.0
    step = tick_step(width / span)
    ticks = list(ticks_between(start, start + span, step))
    assert 1 <= len(ticks) <= width // TICK_ROOM + 2
    assert all(start <= tick <= start + span for tick in ticks)
    labels = [tick_label(tick, step) for tick in ticks]
    assert all(labels) and len(set(labels)) == len(labels)


def test_the_rulers_labels_read_as_the_step_asks():
    from pibrowser.ui.trace.axis import DAY, YEAR, tick_label

    assert tick_label(8.64e15, YEAR) == "275760" and tick_label(-8.64e15, YEAR) == "-271821"
    assert tick_label(-62_167_219_200_000, DAY) == "0"  # year 0: before what a datetime holds, the year reads
    assert len(tick_label(1_793_350_800_000, 7 * DAY)) == len("2026-10-30")


def random_session(tmp_path, seed: int, turns: int = 300):
    """A pi-like session with branches: prompts, steering, replies with calls (some failing, some
    aborted, some unanswered), compactions, custom messages, thinking changes; ids unique."""
    import random

    rnd = random.Random(seed)
    w = Writer()
    at = [0]

    def tick(ms: int) -> int:
        at[0] += ms
        return at[0]

    w.user("first", 0, "start")
    for turn in range(turns):
        # Now and then pi goes on from an earlier entry: a branch.
        branch_from = w.items[rnd.randrange(len(w.items))]["id"] if rnd.random() < 0.08 else None
        kind = rnd.random()
        key = f"n{turn}"
        if kind < 0.25:
            w.user(key, tick(rnd.randint(1000, 90_000)), f"prompt {turn}")
        elif kind < 0.3:
            w.add(key, tick(100), "custom_message", customType="note", content=f"note {turn}", display=True)
        elif kind < 0.33:
            w.add(key, tick(100), "compaction", summary="s", firstKeptEntryId=w.items[-1]["id"], tokensBefore=10)
        elif kind < 0.35:
            w.add(key, tick(10), "thinking_level_change", thinkingLevel=rnd.choice(["low", "high"]))
        elif kind < 0.75:
            # Ids are the provider's: now and then one repeats (a result takes the latest call with its id).
            calls = [
                (rnd.choice(["dup1", "dup2"]) if rnd.random() < 0.15 else f"c{turn}_{index}", rnd.choice(["read", "bash"]))
                for index in range(rnd.randint(0, 3))
            ]
            stop = rnd.choice([None, None, None, "aborted", "error"])
            sent = at[0] + rnd.randint(1, 50)
            w.reply(key, tick(rnd.randint(200, 5000)), sent=sent, calls=calls, stop=stop, duration=rnd.choice([None, 150]))
            if stop is None:
                for call_id, name in calls:
                    if rnd.random() < 0.9:
                        w.result(
                            f"r{call_id}",
                            tick(rnd.randint(1, 400)),
                            call_id,
                            name,
                            error=rnd.random() < 0.1,
                            duration=rnd.choice([None, 30]),
                        )
        else:
            w.user(key, tick(50), f"steer {turn}", sent=at[0] - rnd.randint(0, 4000))
        if branch_from is not None:
            w.items[-1]["parentId"] = branch_from
    return w.trace(tmp_path)[1]


def _same_trace(a, b, facts_of) -> None:
    assert [row.to_json() for row in trace_rows(a, facts_of)] == [row.to_json() for row in trace_rows(b, facts_of)]
    assert a.totals == b.totals and [run.totals for run in a.runs] == [run.totals for run in b.runs]
    assert [trace_rows_key(error) for error in a.errors] == [trace_rows_key(error) for error in b.errors]
    assert (a.start, a.end, a.gaps()) == (b.start, b.end, b.gaps())


def trace_rows_key(node):
    from pibrowser.ui.trace.lanes import entry_of

    return type(node).__name__, entry_of(node), getattr(node, "note", None)


@pytest.mark.parametrize("seed", range(8))
def test_a_trace_built_from_another_paths_trace_equals_one_built_whole(tmp_path, seed, monkeypatch):
    from pibrowser.model.trace import agent_loop
    from pibrowser.model.trace.facts import entry_facts

    starts = []
    walk = agent_loop._Builder.walk
    monkeypatch.setattr(
        agent_loop._Builder, "walk", lambda self, ids, lines, start=0: (starts.append(start), walk(self, ids, lines, start))[1]
    )

    session = random_session(tmp_path, seed)
    table = FactsTable()
    table.ensure(session.entries.values())
    leaves = session.leaves()
    assert len(leaves) > 3

    def facts_of(key):
        return entry_facts(session.entries[key])

    for spine_leaf in leaves[:4]:
        spine = build_trace(session.path_entries(spine_leaf), table)
        for leaf in leaves:
            path = session.path_entries(leaf)
            _same_trace(build_trace(path, table, spine=spine), build_trace(path, table), facts_of)
    assert any(start > 0 for start in starts)  # runs were shared, not only walked again


def _run_shape(run):
    """A run as a trace shows it, without the numbers a stretch of the path does not know."""
    items = [
        (type(item).__name__, item.entry, item.start, item.end, item.model, item.thinking, item.error_kind,
         [(call.id, call.result, call.start, call.duration, call.error_kind, call.note) for call in item.calls])
        if isinstance(item, Turn)
        else (type(item).__name__, item.entry, item.kind, item.time, item.turn, item.error_kind)
        for item in run.items
    ]  # fmt: skip
    return run.entry, run.kind, run.start, run.end, run.totals, items


def _stretch_trace(path, place, table, least):
    begin, end = stretch_around(path, place, table, least)
    before = lead_in(path, begin)
    table.ensure([*before, *path[begin:end]])
    return begin, end, build_trace(path[begin:end], table, lead_in=before, goes_on=end < len(path))


def test_a_stretch_starts_where_a_run_surely_starts_and_traces_its_runs_as_the_whole_path_does(tmp_path):
    w = Writer()
    w.user("p1", 0)
    w.reply("a1", 2000, sent=100, calls=[("c1", "read")])
    w.result("r1", 2100, "c1")
    w.reply("a2", 3000, sent=2150)
    w.add("high", 3100, "thinking_level_change", thinkingLevel="high")
    w.user("p2", 60_000, "next", sent=59_000)  # typed after the entry before: a new run, whatever came before
    w.reply("a3", 61_000, sent=60_100, calls=[("c2", "read")])
    w.result("r2", 61_100, "c2")
    w.user("s1", 61_200, "steer", sent=60_500)  # steering: after a tool result
    w.reply("a4", 62_000, sent=61_300)
    w.user("f1", 62_100, "and then", sent=61_800)  # may be a follow-up: typed before a4 was appended
    w.reply("a5", 63_000, sent=62_200, calls=[("c3", "read")])  # c3 never answered: p3 comes next
    w.user("p3", 120_000, "last", sent=119_000)
    w.reply("a6", 121_000, sent=120_100)
    whole, session = w.trace(tmp_path)
    path = session.path_entries(session.leaf_id)
    table = FactsTable()
    places = {entry.id: at for at, entry in enumerate(path)}
    assert [key for key in places if starts_a_run(path, places[key], table)] == ["p1", "p2", "p3"]
    assert [run.entry for run in whole.runs] == ["p1", "p2", "p3"]

    begin, end, last = _stretch_trace(path, places["a6"], table, least=1)
    assert (begin, end) == (places["p3"], len(path))
    assert [_run_shape(run) for run in last.runs] == [_run_shape(whole.runs[2])]
    assert last.nodes["a6"].thinking == "high"  # the level set before the stretch is in force in it

    begin, end, middle = _stretch_trace(path, places["f1"], table, least=1)
    assert (begin, end) == (places["p2"], places["p3"])  # the selection's run, whole
    assert [_run_shape(run) for run in middle.runs] == [_run_shape(whole.runs[1])]
    assert middle.nodes["a5"].calls[0].note == NO_RESULT and len(middle.errors) == 1  # the path goes on: not pending

    begin, end, both = _stretch_trace(path, places["a6"], table, least=len(path) - places["p2"])
    assert begin == places["p2"] and [run.entry for run in both.runs] == ["p2", "p3"]
    assert [run.number for run in both.runs] == [1, 2]  # numbered within the stretch


@pytest.mark.parametrize("seed", range(6))
def test_every_stretch_traces_its_runs_as_the_whole_path_does(tmp_path, seed):
    import random

    session = random_session(tmp_path, seed)
    table = FactsTable()
    rnd = random.Random(seed)
    checked = 0
    for leaf in session.leaves():
        path = session.path_entries(leaf)
        table.ensure(path)
        times = [table.time[entry.line] for entry in path]
        if times != sorted(times):
            continue  # a repeated id joined branches out of time order: pi's paths run forward in time
        whole = build_trace(path, table)
        checked += 1
        for place in rnd.sample(range(len(path)), min(8, len(path))):
            begin, end, stretch = _stretch_trace(path, place, table, least=rnd.choice([1, 20, 60]))
            assert begin <= place < end and path[place].id in stretch.nodes
            first = whole.nodes[path[begin].id]
            assert isinstance(first, Run) or begin == 0
            offset = first.number - 1 if isinstance(first, Run) else 0
            assert end == len(path) or isinstance(whole.nodes[path[end].id], Run)
            assert [_run_shape(run) for run in stretch.runs] == [_run_shape(run) for run in whole.runs[offset : offset + len(stretch.runs)]]
    assert checked >= 3


def test_the_text_trace_shows_hostile_names_and_extreme_figures_readably(tmp_path):
    # A tool name that would retitle the terminal, set its clipboard and clear it; usage of 1e300,
    # 1e308 and Infinity (1e400); a reply whose time is 1e300 ms; an entry time at JS's last day.
    name = "ev\u001b]0;PWNED\u0007\u001b]52;c;aGk=\u0007\u001b[2Jil"
    usage = b'"usage":{"input":1e400,"output":1e308,"cacheRead":1e300,"cacheWrite":0,"cost":{"total":1e400}}'
    reply = (
        b'{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-10-30T09:00:01.000Z","message":{"role":"assistant",'
        b'"content":[{"type":"toolCall","id":"c1","name":' + orjson.dumps(name) + b',"arguments":{}}],' + usage + b","
        b'"stopReason":"toolUse","provider":"p","model":"m","timestamp":1e300}}'
    )
    result = (
        b'{"type":"message","id":"r1","parentId":"a1","timestamp":"+275760-09-13T00:00:00.000Z","message":{"role":"toolResult",'
        b'"toolCallId":"c1","toolName":'
        + orjson.dumps(name)
        + b',"content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":-1e300}}'
    )
    user = b'{"type":"message","id":"u1","parentId":null,"timestamp":"2026-10-30T09:00:00.000Z","message":{"role":"user","content":"go","timestamp":1}}'
    path = write(tmp_path / "extreme.jsonl", user, reply, result)
    shown = subprocess.run([sys.executable, "-m", "pibrowser", "trace", str(path), "--format", "text"], capture_output=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout.decode()
    assert "\x1b" not in text and "\x07" not in text and "PWNED" not in text
    assert "inf" not in text.replace("info", "") and "nan" not in text.lower()
    assert not re.search(r"\d{16}", text), text  # no figure written out in hundreds of digits
    assert "∞" in text and "1e308" in text and "evil" in text
    assert max(len(line) for line in text.splitlines()) < 400
    rows = orjson.loads(subprocess.run([sys.executable, "-m", "pibrowser", "trace", str(path)], capture_output=True, timeout=120).stdout)
    assert all(row["start"] is None or re.fullmatch(r"[+-]?\d{4,6}-\d\d-\d\dT[\d:.]+Z", row["start"]) for row in rows)


def test_the_text_trace_writes_minus_zero_and_zero_apart_however_often_each_comes(tmp_path):
    # The table writes each figure once and takes it again after: -0 and 0 are one key to it.
    w = Writer()
    w.user("u1", 0)
    for number in range(4):
        zero = -0.0 if number % 2 else 0
        figures = {"input": zero, "output": 5, "cacheRead": 0, "cacheWrite": 0, "cost": {"total": -0.0}}
        w.reply(f"a{number}", 1000 * number + 900, sent=1000 * number + 100, calls=[(f"c{number}", "read")], usage=figures)
        w.result(f"t{number}", 1000 * number + 950, f"c{number}", duration=zero)
    trace, session = w.trace(tmp_path)
    rows = {row.entry: row_cells(row) for row in trace_rows(trace, lambda key: entry_facts(session.entries[key]))}
    assert [rows[f"a{number}"][7] for number in range(4)] == ["0", "-0", "0", "-0"]
    assert [rows[f"t{number}"][5] for number in range(4)] == ["0 ms", "-0 ms", "0 ms", "-0 ms"]
    assert {rows[f"a{number}"][11] for number in range(4)} == {"$0"}
