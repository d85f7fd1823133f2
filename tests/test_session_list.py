"""`pibrowser sessions` and the scan behind it: every file under a folder, forks linked, newest first, cached."""

import os
import subprocess
import sys

import orjson
import pytest

from pibrowser.model.library import session_list
from pibrowser.model.library.session_list import CACHE_VERSION, SummaryCache, scan_sessions
from pibrowser.model.library.session_list_text import sessions_text

from .cli_run import run
from .hostile import refuse_to_read
from .session_tree import ALPHA, BETA, build


@pytest.fixture
def tree(tmp_path):
    return build(tmp_path / "sessions")


def test_json_lists_every_file_newest_first_with_forks_and_problems(tree):
    result = run("sessions", tree.root, "--format", "json")
    assert result.returncode == 0, result.stderr.decode()
    rows = orjson.loads(result.stdout)
    assert [row["file"] for row in rows] == [
        str(path) for path in (tree.fork, tree.broken, tree.parent, tree.other, tree.headerless, tree.empty, tree.garbage)
    ]
    parent = rows[2]
    assert parent == {
        "file": str(tree.parent),
        "id": "p1",
        "cwd": ALPHA,
        "name": "Parser work",
        "first_message": "Please refactor the parser module",
        "created": "2026-10-30T09:00:00.000Z",
        "modified": "2026-10-30T09:00:04.000Z",  # pi's rule: the last user or assistant message
        "entries": 6,
        "messages": 4,
        "leaves": 1,
        "size": tree.parent.stat().st_size,
        "parentSession": None,
        "forks": [str(tree.fork)],
    }
    fork = rows[0]
    assert fork["parentSession"] == str(tree.parent) and fork["forks"] == [] and fork["leaves"] == 1
    broken = rows[1]
    # pi skips the garbled line and the half-written one: two entries, two messages.
    assert (broken["entries"], broken["messages"], "problem" in broken) == (2, 2, False)
    problems = {row["file"]: row.get("problem") for row in rows[4:]}
    assert problems == {
        str(
            tree.headerless
        ): 'not a pi session: line 1, its first JSON line, has type "message", where a session header has type "session"',
        str(tree.empty): "the file is empty: not a pi session",
        str(tree.garbage): "not a pi session: no line parses as JSON",
    }
    assert all(row["id"] is None and row["forks"] == [] for row in rows[4:])


def test_text_groups_by_project_with_forks_under_their_parent(tree):
    result = run("sessions", tree.root)
    assert result.returncode == 0
    text = result.stdout.decode()
    lines = text.splitlines()
    alpha = lines.index(next(line for line in lines if line.startswith(ALPHA)))
    assert "(2 sessions, 120 tokens, $0.50)" in lines[alpha]
    assert "Parser work" in lines[alpha + 1] and "  ↳ " in lines[alpha + 2] and "giraffes" not in lines[alpha + 2]
    assert lines[alpha + 2].lstrip().startswith("↳") and tree.fork.name in lines[alpha + 2]
    assert any(line.startswith(BETA) and "$0.25" in line for line in lines)
    assert "empty.jsonl  ⚠ the file is empty: not a pi session" in text
    assert any(line.startswith(BETA) and "(2 sessions, 1 other file," in line for line in lines)


def test_text_never_prints_control_characters_from_a_session(tmp_path):
    from .sessions import message, write

    root = tmp_path / "s"
    root.mkdir()
    write(root / "evil.jsonl", message("u1", None, "user", "title\x1b]0;pwned\x07 \x1b[2Jcleared\u202eevil\rX"))
    text = run("sessions", root).stdout.decode()
    assert not any(char in text for char in "\x1b\x07\r\u202e")
    assert "title cleared evil X" in text


def test_second_scan_reads_only_changed_files(tree, tmp_path, monkeypatch):
    cache = SummaryCache(tmp_path / "cache" / "sessions.json")
    first = scan_sessions(tree.root, cache=cache)
    read = []
    import pibrowser.model.library.session_list as session_list

    original = session_list.summarize
    monkeypatch.setattr(session_list, "summarize", lambda path, *rest: read.append(path) or original(path, *rest))
    again = scan_sessions(tree.root, cache=SummaryCache(tmp_path / "cache" / "sessions.json"))
    assert read == [] and [s.to_json() for s in again] == [s.to_json() for s in first]
    with open(tree.other, "ab") as out:
        out.write(
            orjson.dumps({"type": "session_info", "id": "n2", "parentId": "b1", "timestamp": "2026-10-30T09:10:00.000Z", "name": "Savanna"})
            + b"\n"
        )
    renamed = scan_sessions(tree.root, cache=SummaryCache(tmp_path / "cache" / "sessions.json"))
    assert read == [tree.other]
    assert next(s for s in renamed if s.file == str(tree.other)).name == "Savanna"


def test_the_cache_is_never_beside_the_sessions(tree, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    before = sorted(path for path in tree.root.rglob("*"))
    scan_sessions(tree.root)
    assert sorted(path for path in tree.root.rglob("*")) == before
    assert (tmp_path / "xdg" / "pibrowser" / SummaryCache.FILE_NAME).is_file()
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    scan_sessions(tree.root)
    assert (tmp_path / "home" / ".cache" / "pibrowser" / SummaryCache.FILE_NAME).is_file()


def test_a_damaged_cache_is_ignored(tree, tmp_path):
    location = tmp_path / "cache.json"
    location.write_bytes(b"{not json")
    summaries = scan_sessions(tree.root, cache=SummaryCache(location))
    assert len(summaries) == 7
    assert orjson.loads(location.read_bytes())["version"] == CACHE_VERSION


def _entry(**changes):
    def damage(saved):
        if "drop" in changes:
            return {key: value for key, value in saved.items() if key != changes["drop"]}
        return {**saved, **changes}

    return damage


@pytest.mark.parametrize(
    "damage",
    [
        lambda saved: 5,
        lambda saved: None,
        lambda saved: "text",
        lambda saved: [saved],
        _entry(name=7),
        _entry(file=5),
        _entry(entries="many"),
        _entry(tokens=[1]),
        _entry(drop="id"),
        _entry(extra="a field no version wrote"),
    ],
    ids=["number", "null", "string", "list", "name-number", "file-number", "entries-string", "tokens-list", "missing-key", "extra-key"],
)
def test_a_cache_entry_of_another_shape_is_read_again(tree, tmp_path, monkeypatch, damage):
    location = tmp_path / "cache.json"
    first = [summary.to_json() for summary in scan_sessions(tree.root, cache=SummaryCache(location))]
    data = orjson.loads(location.read_bytes())
    data["files"][str(tree.parent)] = damage(data["files"][str(tree.parent)])
    location.write_bytes(orjson.dumps(data))
    read = []
    real = session_list.summarize
    monkeypatch.setattr(session_list, "summarize", lambda path, *args: read.append(path) or real(path, *args))
    again = [summary.to_json() for summary in scan_sessions(tree.root, cache=SummaryCache(location))]
    assert again == first
    assert read == [tree.parent]  # that entry alone was built again
    assert orjson.loads(location.read_bytes())["files"][str(tree.parent)]["id"] == "p1"  # and saved


def test_unreadable_file_is_listed_with_its_problem(tree, monkeypatch):
    refuse_to_read(monkeypatch, tree.other)
    summaries = scan_sessions(tree.root, cache=SummaryCache(None))
    assert next(s for s in summaries if s.file == str(tree.other)).problem == "cannot be read: permission denied"


def test_sessions_defaults_to_pis_folder(tree, tmp_path):
    agent = tmp_path / "agent"
    agent.mkdir()
    os.symlink(tree.root, agent / "sessions")
    env = {**os.environ, "PI_CODING_AGENT_DIR": str(agent)}
    result = subprocess.run([sys.executable, "-m", "pibrowser", "sessions", "--format", "json"], capture_output=True, env=env, timeout=120)
    assert len(orjson.loads(result.stdout)) == 7
    empty = {**os.environ, "PI_CODING_AGENT_DIR": str(tmp_path / "nothing")}
    result = subprocess.run([sys.executable, "-m", "pibrowser", "sessions"], capture_output=True, env=empty, timeout=120)
    assert result.returncode == 0 and "No session files under" in result.stdout.decode()


def test_sessions_text_of_nothing_says_where_it_looked(tmp_path):
    assert sessions_text([], tmp_path) == f"No session files under {tmp_path}\n"


def test_json_writes_a_date_js_cannot_hold_as_null_as_json_stringify_does(tmp_path):
    # pi's `modified` is new Date(1e300): an invalid Date, which JSON.stringify writes as null
    # (toJSON gives null where toISOString would throw); a year of 300 digits is no date at all.
    header = b'{"type":"session","version":3,"id":"s","timestamp":"2026-10-30T09:00:00.000Z","cwd":"/w"}\n'
    line = b'{"type":"message","id":"u","parentId":null,"timestamp":"2026-10-30T09:00:00.000Z","message":{"role":"user","content":"hi","timestamp":%s}}\n'
    (tmp_path / "far.jsonl").write_bytes(header + line % b"1e300")
    (tmp_path / "last.jsonl").write_bytes(header + line % b"8640000000000000")  # JS's last moment still is one
    listed = {row["file"].rsplit("/", 1)[1]: row for row in orjson.loads(run("sessions", str(tmp_path), "--format", "json").stdout)}
    assert listed["far.jsonl"]["modified"] is None and listed["far.jsonl"]["created"] == "2026-10-30T09:00:00.000Z"
    assert listed["last.jsonl"]["modified"] == "+275760-09-13T00:00:00.000Z"
