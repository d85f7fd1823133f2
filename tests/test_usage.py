"""The usage across a folder (model/usage/): totals equal what pi recorded in the files, copies counted once.

The expected figures are summed here straight from the files' JSON, by pi's getSessionStats
rules (every assistant reply's usage; usage entries; tool results, branch summaries and
compactions that carry one), never from our own output.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import msgspec
import orjson
import pytest

from pibrowser.model.js.value import MISSING
from pibrowser.model.usage.cache import UsageCache, scan_usage
from pibrowser.model.usage.grouping import group
from pibrowser.model.usage.ledger import Filters, Ledger
from pibrowser.model.usage.periods import Calendar, zone_named
from pibrowser.model.usage.reading import LEVEL_TAIL, read_usage
from pibrowser.model.usage.report import usage_csv, usage_json, usage_text

from .conftest import FIXTURES
from .sessions import HEADER, append, entry, message, write

FIXTURE_FILES = sorted([*FIXTURES.glob("*.jsonl"), FIXTURES / "bytes" / "js-numbers.jsonl"])
FIELDS = ("input", "output", "cacheRead", "cacheWrite")
EVERYTHING = Filters()
encode = msgspec.msgpack.encode  # a FileUsage as bytes, to compare two whole (NaN included)


def recorded(path: Path) -> dict[str, float]:
    """What pi's session statistics add up for a file, read from its lines here."""
    totals = {"replies": 0, "records": 0, "input": 0.0, "output": 0.0, "cacheRead": 0.0, "cacheWrite": 0.0, "cost": 0.0}
    for raw in path.read_bytes().splitlines():
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(value, dict):
            continue
        message = value.get("message") if isinstance(value.get("message"), dict) else {}
        usage = None
        if value.get("type") == "message" and message.get("role") == "assistant":
            totals["replies"] += 1
            totals["records"] += 1
            usage = message.get("usage")
        elif value.get("type") == "message" and message.get("role") == "toolResult":
            usage = message.get("usage")
        elif value.get("type") in ("usage", "compaction", "branch_summary"):
            usage = value.get("usage")
        if isinstance(usage, dict):
            totals["records"] += message.get("role") != "assistant"
            for name in FIELDS:
                totals[name] += usage[name]
            totals["cost"] += usage["cost"]["total"]
    return totals


def as_recorded(row) -> dict[str, float]:
    figures = row.to_json(with_key=False)
    return {
        "replies": figures["replies"],
        "records": row.records,
        "input": figures["input"],
        "output": figures["output"],
        "cacheRead": figures["cache_read"],
        "cacheWrite": figures["cache_write"],
        "cost": pytest.approx(figures["cost"], rel=1e-12),
    }


def table(root: Path, by: str = "session", zone: str | None = None, filters: Filters | None = None):
    ledger = Ledger(scan_usage(root, cache=UsageCache.in_memory()))
    calendar = Calendar(zone_named(zone))
    return group(ledger.cells(calendar, filters or Filters()), by, ledger, calendar), ledger


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda path: path.stem)
def test_each_fixture_totals_what_pi_recorded(tmp_path, path):
    shutil.copyfile(path, tmp_path / path.name)
    result, _ = table(tmp_path)
    assert as_recorded(result.total) == recorded(path)
    assert result.total.replies > 0


def folder_of_fixtures(root: Path) -> dict[str, Path]:
    copies = {}
    for path in FIXTURE_FILES:
        target = root / "--project--" / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        copies[path.stem] = target
    return copies


def expected_sum(paths) -> dict[str, float]:
    total = {"replies": 0, "records": 0, "input": 0.0, "output": 0.0, "cacheRead": 0.0, "cacheWrite": 0.0, "cost": 0.0}
    for path in paths:
        for key, value in recorded(path).items():
            total[key] += value
    return total


def fork_of(source: Path, target: Path) -> Path:
    """What pi's SessionManager.forkFrom writes: a new header naming its parent, then every entry as it was."""
    lines = source.read_bytes().splitlines(keepends=True)
    header = {
        "type": "session",
        "version": 3,
        "id": "forked",
        "timestamp": "2027-01-01T00:00:00.000Z",
        "cwd": "/elsewhere",
        "parentSession": str(source),
    }
    target.write_bytes(orjson.dumps(header) + b"\n" + b"".join(lines[1:]))
    return target


def extracted_branch(name: str, source: Path, target: Path) -> Path:
    """What pi's createBranchedSession wrote for one of the fixture's entries (its answers file), under a new header."""
    branches = json.loads((FIXTURES / f"{name}.branches.json").read_text())
    entries = max((entries for entries in branches.values() if entries), key=len)
    header = {
        "type": "session",
        "version": 3,
        "id": "branch",
        "timestamp": "2027-02-01T00:00:00.000Z",
        "cwd": "/home/user/project",
        "parentSession": str(source),
    }
    target.write_bytes(b"".join(orjson.dumps(item) + b"\n" for item in [header, *entries]))
    return target


def test_a_folder_with_a_fork_and_an_extracted_branch_counts_each_reply_once(tmp_path):
    copies = folder_of_fixtures(tmp_path)
    (tmp_path / "--elsewhere--").mkdir()
    fork = fork_of(copies["generated-s3"], tmp_path / "--elsewhere--" / "fork.jsonl")
    branch = extracted_branch("generated-s5", copies["generated-s5"], tmp_path / "--project--" / "branch.jsonl")
    assert recorded(fork)["replies"] > 0 and recorded(branch)["replies"] > 0  # they do hold copies of replies
    result, ledger = table(tmp_path)
    assert as_recorded(result.total) == expected_sum(copies.values())
    assert ledger.copies == sum(recorded(path)["records"] for path in (fork, branch))
    assert {row.key for row in result.rows} == {str(path) for path in copies.values()}  # the copies own nothing


def test_what_a_fork_adds_after_forking_is_its_own(tmp_path):
    copies = folder_of_fixtures(tmp_path)
    fork = fork_of(copies["generated-s2"], tmp_path / "--project--" / "fork.jsonl")
    usage = {"input": 7, "output": 5, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 12, "cost": {"total": 0.5}}
    append(fork, message("new1", None, "assistant", [{"type": "text", "text": "mine"}], provider="p", model="m", usage=usage))
    result, _ = table(tmp_path)
    rows = {row.key: row for row in result.rows}
    assert (rows[str(fork)].replies, rows[str(fork)].figures) == (1, [7.0, 5.0, 0.0, 0.0, 0.5])
    assert result.total.replies == expected_sum(copies.values())["replies"] + 1


def test_groupings_split_the_same_total(tmp_path):
    folder_of_fixtures(tmp_path)
    totals = set()
    for by in ("day", "week", "month", "project", "model", "session"):
        result, _ = table(tmp_path, by)
        costs = [row.cost for row in result.rows]
        assert costs == sorted(costs, reverse=True)  # by cost, largest first
        assert sum(row.replies for row in result.rows) == result.total.replies
        assert sum(row.figures[2] for row in result.rows) == result.total.figures[2]
        totals.add((result.total.replies, *result.total.figures[:4]))
    assert len(totals) == 1


def test_models_follow_pis_cost_breakdown(tmp_path):
    write(
        tmp_path / "s.jsonl",
        message(
            "a1", None, "assistant", [], provider="anthropic", model="claude", responseModel="claude-2", usage=usage_of(1, 1, 0, 0, 0.1)
        ),
        message("a2", "a1", "assistant", [], provider="openai", model="gpt", responseModel=None, usage=usage_of(2, 2, 0, 0, 0.2)),
        entry("usage", "u1", "a2", 3, provider="openai", model="side", usage=usage_of(3, 3, 0, 0, 0.3)),
        message("t1", "u1", "toolResult", [], toolCallId="x", usage=usage_of(4, 4, 0, 0, 0.4)),
        entry("compaction", "c1", "t1", 5, summary="s", firstKeptEntryId="t1", tokensBefore=1, usage=usage_of(5, 5, 0, 0, 0.5)),
    )
    result, _ = table(tmp_path, "model")
    assert {row.key: (row.replies, row.figures[0]) for row in result.rows} == {
        "anthropic/claude-2": (1, 1.0),
        "openai/gpt": (1, 2.0),
        "openai/side": (0, 3.0),
        "Tools/summaries": (0, 9.0),
    }


def usage_of(input, output, cache_read, cache_write, cost, **extra):
    return {"input": input, "output": output, "cacheRead": cache_read, "cacheWrite": cache_write, "cost": {"total": cost}, **extra}


def test_incomplete_usage_adds_up_as_javascripts_plus(tmp_path):
    write(
        tmp_path / "s.jsonl",
        message("a1", None, "assistant", [], provider="p", model="m", usage=usage_of(10, 1, 5, 0, 0.5)),
        message(
            "a2",
            "a1",
            "assistant",
            [],
            provider="p",
            model="m",
            usage={"input": 10, "output": 1, "cacheRead": None, "cost": {"total": 0.25}},
        ),
        message(
            "a3",
            "a2",
            "assistant",
            [],
            provider="p",
            model="m",
            usage={"input": 10, "output": "2", "cacheRead": 1, "cacheWrite": 0, "cost": {}},
        ),
        message("a4", "a3", "assistant", [], provider="p", model="m"),  # no usage at all: a reply, adding nothing
    )
    result, _ = table(tmp_path, "model")
    row = result.rows[0].to_json()
    # input 10+10+10; output 1+1 then +"2" is the string "22"; cacheRead 5+null+1; cacheWrite 0+undefined is NaN;
    # cost 0.5+0.25+undefined is NaN: as pi's addUsageToTotals would have them.
    assert (row["replies"], row["input"], row["output"], row["cache_read"]) == (4, 30.0, "22", 6.0)
    assert math.isnan(row["cache_write"]) and math.isnan(row["cost"])
    printed = json.loads(usage_json(result))
    assert printed["rows"][0]["cache_write"] is None and printed["total"]["output"] == "22"  # NaN is null in JSON, as JS writes it


def test_thinking_levels_follow_each_replys_path(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        message("u1", None, "user", "hi"),
        entry("thinking_level_change", "t1", "u1", 1, thinkingLevel="high"),
        message(
            "a1",
            "t1",
            "assistant",
            [{"type": "toolCall", "id": "c", "name": "read", "arguments": {}}],
            provider="p",
            model="m",
            usage=usage_of(1, 1, 0, 0, 0),
        ),
        entry("thinking_level_change", "t2", "u1", 3, thinkingLevel="low"),  # a branch from u1
        message("a2", "t2", "assistant", [], provider="p", model="m", usage=usage_of(1, 1, 0, 0, 0)),
        message("a3", "u1", "assistant", [], provider="p", model="m", usage=usage_of(1, 1, 0, 0, 0)),
    )
    usage = read_usage(path)
    assert [usage.names[index] for index in usage.column("thinking")] == ["high", "low", "off"]
    assert list(usage.column("tool_calls")) == [1, 0, 0] and [usage.names[index] for index in usage.column("tool_names")] == ["read"]
    assert usage.first_message == "hi"


def test_a_grown_file_is_read_on_from_where_it_was(tmp_path):
    path = write(
        tmp_path / "s.jsonl", message("u1", None, "user", "hi"), entry("thinking_level_change", "t1", "u1", 1, thinkingLevel="high")
    )
    first = read_usage(path)
    read_to = first.consumed
    append(path, message("a1", "t1", "assistant", [], provider="p", model="m", usage=usage_of(3, 4, 0, 0, 0.1)))
    second = read_usage(path, first)
    assert second is first and len(second) == 1 and second.consumed > read_to  # read on, not again
    assert second.names[second.column("thinking")[0]] == "high"  # its parent's level, kept from the first read
    assert encode(second) == encode(read_usage(path))


def test_a_reply_to_an_old_entry_appended_reads_the_file_again(tmp_path):
    items = [message("u0", None, "user", "hi"), entry("thinking_level_change", "t0", "u0", 1, thinkingLevel="high")]
    items += [message(f"u{n}", items[-1]["id"], "user", "more", second=n) for n in range(1, LEVEL_TAIL + 5)]
    path = write(tmp_path / "s.jsonl", *items)
    first = read_usage(path)
    append(path, message("a1", "t0", "assistant", [], provider="p", model="m", usage=usage_of(1, 1, 0, 0, 0)))  # /tree back to t0
    second = read_usage(path, first)
    assert second.names[second.column("thinking")[0]] == "high"
    assert encode(second) == encode(read_usage(path))


def test_a_file_rewritten_in_place_is_read_again(tmp_path):
    path = write(tmp_path / "s.jsonl", message("a1", None, "assistant", [], provider="p", model="m", usage=usage_of(1, 1, 0, 0, 0)))
    first = read_usage(path)
    write(path, message("a1", None, "assistant", [], provider="q", model="m", usage=usage_of(9, 1, 0, 0, 0)))  # same size, other bytes
    second = read_usage(path, first)
    assert second is not first and second.record_figures(0)[0] == 9.0 and second.names[second.column("providers")[0]] == "q"


def test_the_cache_keeps_files_beside_the_session_list_and_reads_only_what_changed(tmp_path):
    root = tmp_path / "sessions"
    copies = folder_of_fixtures(root)
    cache_file = tmp_path / "cache" / UsageCache.FILE_NAME
    scan_usage(root, cache=UsageCache(cache_file))
    assert cache_file.exists()
    append(copies["blog-example"], message("late", "e13", "assistant", [], provider="p", model="m", usage=usage_of(1, 2, 3, 4, 5)))
    copies["generated-s1"].unlink()
    cache = UsageCache(cache_file)
    again = {usage.file: cache.records(usage) for usage in scan_usage(root, cache=cache)}
    assert str(copies["generated-s1"]) not in again
    assert again[str(copies["blog-example"])].column("figures")[-1] == 5.0
    fresh = {usage.file: usage for usage in scan_usage(root, cache=UsageCache.in_memory())}
    assert {key: encode(value) for key, value in again.items()} == {key: encode(value) for key, value in fresh.items()}
    cache_file.write_bytes(b"not msgpack")
    assert len(scan_usage(root, cache=UsageCache(cache_file))) == len(fresh)  # a damaged cache is read anew


def test_days_are_counted_in_the_zone_asked_for_and_filters_apply(tmp_path):
    late = {
        "type": "message",
        "id": "a1",
        "parentId": None,
        "timestamp": "2026-03-01T23:30:00.000Z",
        "message": {"role": "assistant", "content": [], "provider": "p", "model": "m", "usage": usage_of(1, 0, 0, 0, 1.0)},
    }
    write(tmp_path / "s.jsonl", late, header={**HEADER, "cwd": "/work/alpha"})
    assert [row.key for row in table(tmp_path, "day")[0].rows] == ["2026-03-01"]
    assert [row.key for row in table(tmp_path, "day", "Europe/Berlin")[0].rows] == ["2026-03-02"]
    assert [row.key for row in table(tmp_path, "week", "+01:00")[0].rows] == ["2026-W10"]
    march = Calendar(zone_named("Europe/Berlin")).start_of("2026-03-02")
    assert table(tmp_path, "day", "Europe/Berlin", Filters(since=march))[0].total.replies == 1
    assert table(tmp_path, "day", None, Filters(until=march))[0].total.replies == 0
    assert table(tmp_path, "day", None, Filters(project="ALPHA"))[0].total.replies == 1
    assert table(tmp_path, "day", None, Filters(project="beta"))[0].rows == []
    with pytest.raises(ValueError):
        zone_named("Nowhere/At All")


def test_text_and_csv_say_the_same_and_csv_cells_cannot_run(tmp_path):
    write(
        tmp_path / "s.jsonl",
        message("a1", None, "assistant", [], provider='=HYPERLINK("http://x")', model="m", usage=usage_of(1200, 3, 0, 0, 1.5)),
        header={**HEADER, "cwd": "@SUM(A1)"},
    )
    result, ledger = table(tmp_path, "model")
    lines = usage_csv(result).splitlines()
    assert lines[0] == "key,replies,input,output,cache_read,cache_write,cost"
    assert lines[1] == '"\'=HYPERLINK(""http://x"")/m",1,1200,3,0,0,1.5'
    projects = usage_csv(table(tmp_path, "project")[0]).splitlines()
    assert projects[1].startswith("'@SUM(A1),")
    text = usage_text(result, ledger, "UTC")
    assert "1,200" in text and "$1.50" in text and text.count("Total") == 1


def test_a_file_that_is_not_a_session_records_nothing(tmp_path):
    (tmp_path / "notes.jsonl").write_text('{"hello": 1}\n')
    (tmp_path / "empty.jsonl").write_text("")
    usages = scan_usage(tmp_path, cache=UsageCache.in_memory())
    assert all(usage.problem for usage in usages) and len(usages) == 2
    assert Ledger(usages).files == []


def test_odd_values_survive_the_cache(tmp_path):
    write(tmp_path / "s.jsonl", message("a1", None, "assistant", [], provider=None, model=["x"], usage={"input": True, "output": None}))
    cache_file = tmp_path / "cache.msgpack"
    scan_usage(tmp_path, cache=UsageCache(cache_file))
    cache = UsageCache(cache_file)
    (loaded,) = (cache.records(usage) for usage in scan_usage(tmp_path, cache=cache))
    assert loaded.record_figures(0) == (True, None, MISSING, MISSING, MISSING)
    assert loaded.names[loaded.column("model_keys")[0]] == "null/x"


def test_a_reply_whose_provider_and_model_are_null_is_filed_as_pi_files_it(tmp_path):
    write(tmp_path / "s.jsonl", message("a1", None, "assistant", [], provider=None, model=None, usage=usage_of(1, 1, 0, 0, 0.1)))
    assert [row.key for row in table(tmp_path, "model")[0].rows] == ["null/null"]


def test_a_time_filter_inside_a_session_takes_its_records_one_by_one(tmp_path):
    items = [
        message(
            f"a{n}", f"a{n - 1}" if n else None, "assistant", [], second=n * 60, provider="p", model="m", usage=usage_of(n, 1, 0, 0, 0.5)
        )
        for n in range(10)
    ]
    write(tmp_path / "s.jsonl", *items)
    middle = Calendar().start_of("2026-10-30") + 9 * 3_600_000 + 5 * 60_000  # 09:05: the records of minutes 5 to 9
    since = table(tmp_path, "day", None, Filters(since=middle))[0].total
    until = table(tmp_path, "day", None, Filters(until=middle))[0].total
    assert (since.replies, since.figures[0], until.replies, until.figures[0]) == (5, 5 + 6 + 7 + 8 + 9, 5, 0 + 1 + 2 + 3 + 4)


def test_records_kept_apart_by_the_cache_come_back_when_a_fork_needs_them(tmp_path):
    root = tmp_path / "sessions"
    copies = folder_of_fixtures(root)
    fork = fork_of(copies["generated-s3"], root / "--project--" / "fork.jsonl")
    cache_file = tmp_path / "cache" / UsageCache.FILE_NAME
    scan_usage(root, cache=UsageCache(cache_file))
    for lost in (False, True):
        if lost:
            with closing(sqlite3.connect(cache_file)) as db, db:
                db.execute("UPDATE usage SET apart = x'c1'")  # damaged: the sessions are read again
        cache = UsageCache(cache_file)
        usages = scan_usage(root, cache=cache)
        assert all(not usage.records_held for usage in usages if len(usage))  # the index alone was read
        ledger = Ledger(usages, records=cache.records)
        calendar = Calendar()
        total = group(ledger.cells(calendar, Filters(since=1)), "session", ledger, calendar).total
        assert as_recorded(total) == expected_sum(copies.values()) and str(fork) not in ledger.kept.values()


def test_a_large_first_read_on_every_core_reads_what_one_reads(tmp_path, monkeypatch):
    from pibrowser.model.usage import cache as usage_cache

    root = tmp_path / "sessions"
    folder_of_fixtures(root)
    alone = {usage.file: encode(usage) for usage in scan_usage(root, cache=UsageCache.in_memory())}
    monkeypatch.setattr(usage_cache, "PARALLEL_BYTES", 0)  # as if the folder were a gigabyte
    monkeypatch.setattr(usage_cache, "PARALLEL_BATCH", 2)
    shared = UsageCache.in_memory()
    together = {usage.file: encode(usage) for usage in scan_usage(root, cache=shared)}
    assert together == alone and shared._read == set(alone)  # the workers read every file


def test_workers_keep_the_records_apart_themselves(tmp_path, monkeypatch):
    from pibrowser.model.usage import cache as usage_cache

    root = tmp_path / "sessions"
    folder_of_fixtures(root)
    alone = {usage.file: encode(usage) for usage in scan_usage(root, cache=UsageCache.in_memory())}
    monkeypatch.setattr(usage_cache, "PARALLEL_BYTES", 0)
    cache_file = tmp_path / "cache" / UsageCache.FILE_NAME
    scan_usage(root, cache=UsageCache(cache_file))
    cache = UsageCache(cache_file)
    again = {usage.file: encode(cache.records(usage)) for usage in scan_usage(root, cache=cache)}
    assert again == alone


def _whole(ledger: Ledger) -> tuple[dict[str, float], int]:
    calendar = Calendar()
    return as_recorded(group(ledger.cells(calendar), "session", ledger, calendar).total), ledger.copies


def test_the_store_reads_a_grown_file_on_a_changed_one_anew_and_finds_copies_again(tmp_path, monkeypatch):
    from pibrowser.model.usage import reading
    from pibrowser.model.usage.ledger import folder_ledger

    root = tmp_path / "sessions"
    copies = folder_of_fixtures(root)
    cache_file = tmp_path / "cache" / UsageCache.FILE_NAME
    starts: list[tuple[int, int]] = []  # (the inode, the offset) of each read
    scan = reading.scan_lines
    monkeypatch.setattr(
        reading,
        "scan_lines",
        lambda fd, start, chunk: (starts.append((os.fstat(fd).st_ino, start)), scan(fd, start, chunk))[1],
    )

    def ledger() -> Ledger:
        starts.clear()
        return folder_ledger(root, UsageCache(cache_file))  # a new process's cache: only what the store kept

    assert _whole(ledger()) == (expected_sum(copies.values()), 0)
    assert _whole(ledger()) == (expected_sum(copies.values()), 0) and starts == []  # nothing read: the store holds every file
    grown, cut = copies["blog-example"], copies["generated-s2"]
    size = grown.stat().st_size
    append(grown, message("late", "e13", "assistant", [], provider="p", model="m", usage=usage_of(1, 2, 3, 4, 5)))
    cut.write_bytes(b"\n".join(cut.read_bytes().split(b"\n")[:40]) + b"\n")  # truncated: read again from the start
    assert _whole(ledger()) == (expected_sum(copies.values()), 0)
    assert sorted(starts) == sorted([(grown.stat().st_ino, size), (cut.stat().st_ino, 0)])
    kept, fresh, calendar = ledger(), Ledger(scan_usage(root, cache=UsageCache.in_memory())), Calendar()
    days = [[row.to_json() for row in group(each.cells(calendar), "day", each, calendar).rows] for each in (kept, fresh)]
    assert days[0] == days[1]  # the day cells kept, and the grown file's added up again, are what a fresh read adds up
    fork = fork_of(copies["generated-s3"], root / "--project--" / "fork.jsonl")
    total, counted_once = _whole(ledger())  # a fork appeared since the memo of copies: found from scratch
    assert total == expected_sum(copies.values()) and counted_once == len(reading.read_usage(fork))
    append(fork, message("own", None, "assistant", [], provider="p", model="m", usage=usage_of(7, 0, 0, 0, 1)))
    want = expected_sum(copies.values())
    want.update(replies=want["replies"] + 1, records=want["records"] + 1, input=want["input"] + 7, cost=want["cost"] + 1)
    assert _whole(ledger()) == (want, counted_once)  # grown, the fork's own reply counts and its copies still do not
    fork.unlink()
    assert _whole(ledger()) == (expected_sum(copies.values()), 0)  # gone: its parent's replies are counted once, in the parent


@pytest.mark.parametrize("grown_kept", [8, 0], ids=["kept-later", "kept-each-time"])
def test_a_folder_that_only_grew_takes_its_kept_cells_which_are_what_adding_up_again_gives(tmp_path, monkeypatch, grown_kept):
    from pibrowser.model.usage import folder_cells as kept_cells
    from pibrowser.model.usage.report import usage_json

    monkeypatch.setattr(kept_cells, "GROWN_KEPT", grown_kept)  # the files grown since, past which a run keeps its cells

    root = tmp_path / "sessions"
    copies = folder_of_fixtures(root)
    fork = fork_of(copies["generated-s3"], root / "--project--" / "fork.jsonl")  # holds copies
    (root / "--project--" / "notes.jsonl").write_bytes(b"not a session\n")
    cache_file = tmp_path / "cache" / UsageCache.FILE_NAME
    added_up: list[Path] = []
    folder_ledger = kept_cells.folder_ledger
    monkeypatch.setattr(kept_cells, "folder_ledger", lambda root, *rest: (added_up.append(root), folder_ledger(root, *rest))[1])
    calendar = Calendar(zone_named("+05:30"))

    def answers(filters: Filters = EVERYTHING) -> list[bytes]:
        """Every grouping of the kept cells (a new process's cache), and of the folder added up from scratch."""
        found = [kept_cells.folder_cells(root, UsageCache(cache_file), calendar, filters)]
        fresh = Ledger(scan_usage(root, cache=UsageCache.in_memory()))
        found.append((fresh, fresh.cells(calendar, filters)))
        return [usage_json(group(cells, by, ledger, calendar)) for ledger, cells in found for by in ("day", "project", "model", "session")]

    def same(filters: Filters = EVERYTHING) -> bool:
        both = answers(filters)
        return both[:4] == both[4:]

    assert same() and len(added_up) == 1  # the first time: added up, and kept
    assert same() and same(Filters(project="NOWHERE")) and len(added_up) == 1  # nothing changed: the kept cells
    append(copies["blog-example"], message("late", "e13", "assistant", [], provider="p", model="m", usage=usage_of(1, 2, 3, 4, 5)))
    append(copies["generated-s3"], message("later", None, "assistant", [], provider="p", model="n", usage=usage_of(6, 7, 8, 9, 1)))
    assert same() and len(added_up) == 1  # grown by replies found nowhere else: the kept cells, the new ones in place
    append(copies["blog-example"], message("latest", None, "assistant", [], provider="p", model="m", usage=usage_of(2, 0, 0, 0, 1)))
    assert same() and len(added_up) == 1  # and again: from what was kept, or what the last run kept
    assert json.loads(answers()[0])["total"]["replies"] == expected_sum(copies.values())["replies"]  # (the two new ones)
    append(fork, message("own", None, "assistant", [], provider="p", model="m", usage=usage_of(7, 0, 0, 0, 1)))
    assert same() and len(added_up) == 2  # the fork holds copies: added up again
    reply = next(line for line in copies["generated-s1"].read_bytes().splitlines() if b'"role":"assistant"' in line)
    append(copies["blog-example"], reply + b"\n")
    assert same() and len(added_up) == 3  # a copy of another file's reply appended: added up again, counted once
    append(copies["generated-s2"], reply.replace(b'"parentId":', b'"parentId":null,"x":', 1) + b"\n")
    assert same(Filters(since=0)) and len(added_up) == 4  # a time filter adds up the records it takes, and finds the copy
    assert same() and len(added_up) == 5  # the copies found since the cells were kept: added up again, not taken
    (root / "--project--" / "notes.jsonl").write_bytes(copies["generated-s2"].read_bytes())
    assert same() and len(added_up) == 6  # what was no session is one now
