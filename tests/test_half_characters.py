"""Half an emoji — a lone surrogate, what JS writes after slicing a string — or a file name that is
not UTF-8 never breaks the session list, its cache or the search index: the session is listed and
found, its ids come back exactly as pi wrote them."""

import os
import subprocess
import sys

import pytest

from pibrowser.model.library.search_index import SearchFilters, SearchIndex
from pibrowser.model.library import session_list
from pibrowser.model.library.session_list import SummaryCache, scan_sessions

from .hostile import HALF, half_character_sessions


@pytest.fixture
def root(tmp_path):
    return half_character_sessions(tmp_path / "sessions")


def test_the_list_holds_every_session_and_its_cache_reads_back_the_same(root, tmp_path, monkeypatch):
    cache_file = tmp_path / "cache" / "sessions.json"
    first = scan_sessions(root, cache=SummaryCache(cache_file))
    assert cache_file.exists()
    by_name = {os.path.basename(summary.file): summary for summary in first}
    half = by_name["half.jsonl"]
    assert (half.id, half.cwd, half.name, half.first_message) == (f"s{HALF}", f"/work/{HALF}", f"named {HALF}", f"hello x {HALF}")
    assert os.fsdecode(b"odd-\xff.jsonl") in by_name and by_name["plain.jsonl"].problem is None
    monkeypatch.setattr(session_list, "summarize", lambda *args: pytest.fail("read again, not taken from the cache"))
    again = scan_sessions(root, cache=SummaryCache(cache_file))
    assert [summary.to_json() for summary in again] == [summary.to_json() for summary in first]


def test_the_index_finds_every_session_and_gives_ids_back_exactly(root, tmp_path):
    with SearchIndex(tmp_path / "search.sqlite3") as index:
        index.sync(root)
        hits = {(os.path.basename(hit.file), hit.entry) for hit in index.search("zebra", root, limit=0)}
        assert hits == {("half.jsonl", "b"), ("plain.jsonl", "p1"), (os.fsdecode(b"odd-\xff.jsonl"), "o1")}
        hello = {hit.entry: hit for hit in index.search("hello", root, limit=0)}
        assert set(hello) == {f"a{HALF}", "p1", "o1"}
        assert hello[f"a{HALF}"].session == f"s{HALF}"
        assert index.search("hello", root, SearchFilters(project="/work/"), limit=0)
        index.sync(root)  # nothing changed: nothing is indexed again, nothing is lost
        assert len(index.search("hello", root, limit=0)) == 3


def test_removing_a_file_with_an_odd_name_removes_its_rows(root, tmp_path):
    with SearchIndex(tmp_path / "search.sqlite3") as index:
        index.sync(root)
        os.remove(os.fsdecode(bytes(root) + b"/odd-\xff.jsonl"))
        assert index.sync(root).removed == 1
        assert {hit.entry for hit in index.search("hello", root, limit=0)} == {f"a{HALF}", "p1"}


@pytest.mark.parametrize(
    "command", [("sessions",), ("sessions", "--format", "json"), ("search", "hello"), ("search", "hello", "--format", "json")]
)
def test_the_commands_list_and_search_every_session(root, tmp_path, command):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    name, *options = command
    args = [name, *options[:1], str(root), *options[1:]] if name == "search" else [name, str(root), *options]
    result = subprocess.run([sys.executable, "-m", "pibrowser", *args], capture_output=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr.decode()
    assert b"Traceback" not in result.stderr
    out = result.stdout
    assert out.count(b"half.jsonl") >= 1 and out.count(b"plain.jsonl") >= 1 and out.count(b"odd-") >= 1
    out.decode("utf-8")  # what reaches the terminal is UTF-8
