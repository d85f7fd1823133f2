"""The all-sessions index: exact hits for words and phrases, incremental tails, rewrites, deletions, safety."""

import os
import sqlite3
import subprocess
import sys

import orjson
import pytest

from pibrowser.model.library.search_index import SCHEMA_VERSION, SearchFilters, SearchIndex
from pibrowser.model.library.search_query import Term, fts_match, parse_query

from .session_tree import build
from .sessions import message, write


@pytest.fixture
def tree(tmp_path):
    return build(tmp_path / "sessions")


@pytest.fixture
def index(tmp_path):
    with SearchIndex(tmp_path / "cache" / "search.sqlite3") as opened:
        yield opened


def found(index, query, root=None, **filters):
    return {(os.path.basename(hit.file), hit.entry, hit.role) for hit in index.search(query, root, SearchFilters(**filters), limit=0)}


def test_words_must_all_occur_whole_and_in_any_case(tree, index):
    index.sync(tree.root)
    assert found(index, "PARSER") == {
        ("2026-11-01T10-00-00-000Z_p1.jsonl", "u1", "user"),
        ("2026-11-01T10-00-00-000Z_p1.jsonl", "a1", "assistant"),  # in its thinking
        ("2026-11-01T10-00-00-000Z_p1.jsonl", "a2", "assistant"),
        ("2026-11-01T10-00-00-000Z_p1.jsonl", "n1", "name"),
        ("2026-11-02T10-00-00-000Z_f1.jsonl", "u1", "user"),
    }
    assert found(index, "parser refactored") == {("2026-11-01T10-00-00-000Z_p1.jsonl", "a2", "assistant")}
    assert found(index, "parse") == set()  # a prefix of a word is not a hit
    assert found(index, "giraff") == set()
    assert found(index, "giraffe") == {("2026-11-03T10-00-00-000Z_o1.jsonl", "u1", "user")}  # not "giraffes"


def test_phrases_match_words_in_order(tree, index):
    index.sync(tree.root)
    assert found(index, '"refactor the parser"') == {
        ("2026-11-01T10-00-00-000Z_p1.jsonl", "u1", "user"),
        ("2026-11-02T10-00-00-000Z_f1.jsonl", "u1", "user"),
    }
    assert found(index, '"parser the refactor"') == set()
    assert found(index, '"refactor the parser" giraffes') == set()  # the phrase and the word in one entry


def test_tool_calls_results_bash_and_labels_are_indexed(tree, index):
    index.sync(tree.root)
    assert found(index, "tokenizer_state") == {("2026-11-01T10-00-00-000Z_p1.jsonl", "t1", "toolResult")}
    assert found(index, "tokenizer") == {("2026-11-01T10-00-00-000Z_p1.jsonl", "a1", "assistant")}  # the call's arguments
    assert found(index, "zebra") == {("2026-11-01T10-00-00-000Z_p1.jsonl", "u1", "label")}  # selects the labelled entry
    assert found(index, "savanna acacia") == {("2026-11-03T10-00-00-000Z_o1.jsonl", "b1", "bashExecution")}
    hit = index.search("tokenizer_state")[0]
    assert (hit.session, hit.tool, hit.line, hit.project) == ("p1", "bash", 4, "/home/me/alpha")
    assert hit.to_json() == {
        "file": str(tree.parent),
        "session": "p1",
        "entry": "t1",
        "role": "toolResult",
        "snippet": "src/lexer.py: def tokenizer_state()",
    }


def test_filters_narrow_by_role_tool_project_and_time(tree, index):
    index.sync(tree.root)
    assert found(index, "parser", roles=("user",)) == {
        ("2026-11-01T10-00-00-000Z_p1.jsonl", "u1", "user"),
        ("2026-11-02T10-00-00-000Z_f1.jsonl", "u1", "user"),
    }
    assert found(index, "tokenizer_state", roles=("tool",)) == {("2026-11-01T10-00-00-000Z_p1.jsonl", "t1", "toolResult")}
    assert found(index, "tokenizer", tools=("BASH",)) == {("2026-11-01T10-00-00-000Z_p1.jsonl", "a1", "assistant")}
    assert found(index, "tokenizer", tools=("read",)) == set()
    assert {name for name, *_ in found(index, "giraffes", project="BETA")} == {"2026-11-03T10-00-00-000Z_o1.jsonl"}
    # The fork's second message is a minute after the first.
    assert found(index, "giraffes", since=1793350800000 + 60_000) == {("2026-11-02T10-00-00-000Z_f1.jsonl", "u9", "user")}
    assert found(index, "parser", until=1793350800000 + 2_000) == {
        ("2026-11-01T10-00-00-000Z_p1.jsonl", "u1", "user"),
        ("2026-11-02T10-00-00-000Z_f1.jsonl", "u1", "user"),
    }


def test_broken_file_is_indexed_as_far_as_pi_reads_it(tree, index):
    index.sync(tree.root)
    assert found(index, "flamingos") == {
        ("2026-11-04T10-00-00-000Z_b1.jsonl", "u1", "user"),
        ("2026-11-04T10-00-00-000Z_b1.jsonl", "a1", "assistant"),
    }
    assert found(index, "walrus") == set()  # the half-written last line
    assert found(index, "ostrich") == set()  # a file without a header is not a session
    problems = {os.path.basename(path): problem for path, problem in index.indexed_files().items()}
    assert (
        problems["headerless.jsonl"]
        == 'not a pi session: line 1, its first JSON line, has type "message", where a session header has type "session"'
    )
    assert problems["empty.jsonl"] == "the file is empty: not a pi session"
    assert problems["2026-11-04T10-00-00-000Z_b1.jsonl"] is None
    # pi finishes the line: now it counts, and nothing before it is read twice.
    with open(tree.broken, "ab") as out:
        out.write(b'","provider":"p","model":"m1"}}\n')
    report = index.sync(tree.root)
    assert (report.updated, report.reindexed) == (1, 0)
    assert found(index, "walrus") == {("2026-11-04T10-00-00-000Z_b1.jsonl", "a2", "assistant")}
    assert len(index.search("flamingos", limit=0)) == 2


def test_appended_tail_is_indexed_alone(tree, index):
    first = index.sync(tree.root)
    assert (first.files, first.updated) == (7, 7)
    unchanged = index.sync(tree.root)
    assert (unchanged.updated, unchanged.bytes) == (0, 0)
    size = tree.other.stat().st_size
    tail = orjson.dumps(message("u2", "b1", "user", "A pelican joins the giraffe", second=90)) + b"\n"
    with open(tree.other, "ab") as out:
        out.write(tail)
    report = index.sync(tree.root)
    assert (report.updated, report.reindexed, report.bytes) == (1, 0, len(tail))
    assert tree.other.stat().st_size == size + len(tail)
    assert found(index, "pelican") == {("2026-11-03T10-00-00-000Z_o1.jsonl", "u2", "user")}
    assert found(index, "giraffe") == {
        ("2026-11-03T10-00-00-000Z_o1.jsonl", "u1", "user"),
        ("2026-11-03T10-00-00-000Z_o1.jsonl", "u2", "user"),
    }
    assert index.search("pelican")[0].line == 5


def test_rewritten_file_is_indexed_again(tree, index):
    index.sync(tree.root)
    data = tree.other.read_bytes()
    # Same length, one word changed: the bytes before the old end no longer match.
    tree.other.write_bytes(data.replace(b"giraffe eats", b"buffalo eats"))
    report = index.sync(tree.root)
    assert (report.updated, report.reindexed) == (1, 1)
    assert found(index, "buffalo") == {("2026-11-03T10-00-00-000Z_o1.jsonl", "u1", "user")}
    assert found(index, "giraffe") == set()
    assert len(index.search("savanna", limit=0)) == 1  # the old rows are gone, not doubled


def test_rewrite_that_keeps_the_tail_but_changes_the_start(tree, index):
    index.sync(tree.root)
    data = tree.other.read_bytes()
    tree.other.write_bytes(data.replace(b'"id":"o1"', b'"id":"o2"') + orjson.dumps(message("u3", "b1", "user", "heron")) + b"\n")
    report = index.sync(tree.root)
    assert report.reindexed == 1
    assert {hit.session for hit in index.search("giraffe", limit=0)} == {"o2"}
    assert found(index, "heron") == {("2026-11-03T10-00-00-000Z_o1.jsonl", "u3", "user")}


def test_deleted_file_is_removed(tree, index):
    index.sync(tree.root)
    tree.other.unlink()
    report = index.sync(tree.root)
    assert report.removed == 1
    assert found(index, "savanna") == set()
    assert str(tree.other) not in index.indexed_files()


def test_search_is_limited_to_the_folder_asked_about(tree, index, tmp_path):
    index.sync(tree.root)
    elsewhere = build(tmp_path / "elsewhere")
    index.sync(elsewhere.root)
    assert len(index.search("giraffe", limit=0)) == 2
    assert [hit.file for hit in index.search("giraffe", tree.root)] == [str(tree.other)]
    index.sync(elsewhere.root / "--home-me-beta--")  # a sub-folder: files elsewhere stay indexed
    assert len(index.search("giraffe", limit=0)) == 2


def test_session_files_are_never_written(tree, index):
    before = {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in tree.root.rglob("*") if path.is_file()}
    index.sync(tree.root)
    index.search("parser")
    after = {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in tree.root.rglob("*") if path.is_file()}
    assert after == before


def test_a_corrupt_index_is_rebuilt(tree, tmp_path):
    location = tmp_path / "cache" / "search.sqlite3"
    location.parent.mkdir()
    location.write_bytes(b"this is not a database" * 100)
    with SearchIndex(location) as index:
        index.sync(tree.root)
        assert found(index, "zebra") == {("2026-11-01T10-00-00-000Z_p1.jsonl", "u1", "label")}


SCHEMA_DAMAGE = [
    "DROP TABLE rows",
    "DROP TABLE hits",
    "DROP TABLE files",
    "ALTER TABLE rows RENAME COLUMN role TO kind",
    "ALTER TABLE files DROP COLUMN problem",
    "DROP TABLE rows; CREATE TABLE rows (id INTEGER PRIMARY KEY)",
]


@pytest.mark.parametrize("while_open", [False, True], ids=["between-runs", "while-open"])
@pytest.mark.parametrize("damage", SCHEMA_DAMAGE)
def test_an_index_whose_schema_was_damaged_is_rebuilt(tree, tmp_path, damage, while_open):
    location = tmp_path / "search.sqlite3"
    with SearchIndex(location) as index:
        index.sync(tree.root)
        if not while_open:
            index.close()  # the next question opens it again
        other = sqlite3.connect(location)
        other.executescript(damage)
        other.close()
        write(tree.root / "new.jsonl", message("n1", None, "user", "okapi"))  # something to index, too
        index.sync(tree.root)
        assert found(index, "zebra") == {("2026-11-01T10-00-00-000Z_p1.jsonl", "u1", "label")}
        assert found(index, "zebra", roles=("label",)) == {("2026-11-01T10-00-00-000Z_p1.jsonl", "u1", "label")}
        assert found(index, "okapi") == {("new.jsonl", "n1", "user")}


def test_an_index_of_another_version_is_rebuilt(tree, tmp_path):
    location = tmp_path / "search.sqlite3"
    old = sqlite3.connect(location)
    old.execute("CREATE TABLE files (path TEXT)")
    old.execute("INSERT INTO files VALUES ('stale')")
    old.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    old.commit()
    old.close()
    with SearchIndex(location) as index:
        assert index.indexed_files() == {}
        index.sync(tree.root)
        assert len(index.search("giraffe")) == 1


def test_two_processes_indexing_at_once_agree(tree, tmp_path):
    location = tmp_path / "shared.sqlite3"
    code = (
        "import sys; from pathlib import Path; from pibrowser.model.library.search_index import SearchIndex\n"
        "with SearchIndex(Path(sys.argv[1])) as index:\n"
        "    for _ in range(3): index.sync(Path(sys.argv[2]))\n"
    )
    workers = [subprocess.Popen([sys.executable, "-c", code, str(location), str(tree.root)], stderr=subprocess.PIPE) for _ in range(2)]
    for worker in workers:
        assert worker.wait(timeout=120) == 0, worker.stderr.read().decode()
    with SearchIndex(location) as index:
        assert index.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert len(index.search("parser", limit=0)) == 5  # each entry once, not once per process
        assert index.db.execute("SELECT count(*) FROM files").fetchone()[0] == 7


def test_queries_are_never_fts5_syntax():
    assert parse_query('parser "refactor the" NEAR(x) -y') == [
        Term("parser", False),
        Term("refactor the", True),
        Term("NEAR(x)", False),
        Term("-y", False),
    ]
    assert fts_match(parse_query('a*  "b""c" OR')) == '"a*" "b" "c" "OR"'
    assert parse_query('unclosed "quote here') == [Term("unclosed", False), Term('"quote', False), Term("here", False)]
    assert fts_match(parse_query('"..." ***')) is None


def test_syntax_looking_queries_are_plain_words(tree, index):
    index.sync(tree.root)
    assert found(index, "parser*") == found(index, "parser")
    assert found(index, "parser OR giraffe") == set()  # OR is a word that must occur
    assert found(index, "NEAR(parser refactor)") == set()  # "near" is a word like any other, and occurs nowhere
    assert found(index, "(parser) refactor:") == found(index, "parser refactor")
    assert found(index, '"') == set() and found(index, "") == set()


def test_search_cli_json_and_text(tree, tmp_path):
    run = lambda *args: subprocess.run([sys.executable, "-m", "pibrowser", "search", *map(str, args)], capture_output=True, timeout=120)  # noqa: E731
    result = run('"refactor the parser"', tree.root, "--format", "json")
    assert result.returncode == 0, result.stderr.decode()
    hits = [orjson.loads(line) for line in result.stdout.splitlines()]
    assert {(os.path.basename(hit["file"]), hit["entry"]) for hit in hits} == {
        ("2026-11-01T10-00-00-000Z_p1.jsonl", "u1"),
        ("2026-11-02T10-00-00-000Z_f1.jsonl", "u1"),
    }
    assert set(hits[0]) == {"file", "session", "entry", "role", "snippet"}
    text = run("tokenizer_state", tree.root, "--role", "toolResult").stdout.decode()
    assert f"{tree.parent}:4  #t1  toolResult bash" in text and "def **tokenizer_state**()" in text
    assert run("x", tree.root, "--since", "yesterday-ish").returncode == 2
    empty = run("  ", tree.root)
    assert empty.returncode == 2 and empty.stderr.decode().splitlines() == ["pibrowser: search: give the words to look for"]


def test_snippets_show_the_first_hit_with_every_hit_marked():
    from pibrowser.model.library.search_query import mark_snippet, term_patterns

    text = "start " + "filler " * 40 + "the Parser_state and the parser; parsers too " + "tail " * 60
    snippet = mark_snippet(text, term_patterns(parse_query('parser "and the"')), "[", "]")
    assert snippet.startswith("…") and snippet.endswith("…")
    assert "Parser_state [and the] [parser]; parsers too" in snippet  # whole words only, any case
    assert len(snippet) < 260
    assert mark_snippet("short text", term_patterns(parse_query("absent")), "[", "]") == "short text"


def test_a_cancelled_sync_stops_between_transactions_and_resumes_later(tree, index, monkeypatch):
    import pibrowser.model.library.search_index as search_index

    monkeypatch.setattr(search_index, "BATCH_BYTES", 1)  # one file a transaction
    asked = []
    index.sync(tree.root, cancelled=lambda: asked.append(1) or len(asked) > 2)
    assert len(index.indexed_files()) == 2
    report = index.sync(tree.root)
    assert (report.updated, report.reindexed) == (5, 0)
    assert len(index.indexed_files()) == 7
    assert found(index, "parser refactored") == {("2026-11-01T10-00-00-000Z_p1.jsonl", "a2", "assistant")}
    assert len(index.search("giraffe", limit=0)) == 1


def test_opening_waits_out_a_lock_that_skips_the_busy_handler(tmp_path, monkeypatch):
    # Turning WAL on or recovering a WAL can answer SQLITE_BUSY at once, whatever the timeout:
    # opening retries that instead of failing the other process's search.
    answers = iter([sqlite3.OperationalError("database is locked"), sqlite3.OperationalError("database is locked")])
    real = SearchIndex._connect

    def connect(self):
        for error in answers:
            raise error
        return real(self)

    monkeypatch.setattr(SearchIndex, "_connect", connect)
    with SearchIndex(tmp_path / "index.sqlite3") as index:
        assert index.indexed_files() == {}


def test_opening_does_not_retry_what_is_not_a_lock(tmp_path, monkeypatch):
    calls = []

    def connect(self):
        calls.append(1)
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(SearchIndex, "_connect", connect)
    with pytest.raises(sqlite3.OperationalError):
        _ = SearchIndex(tmp_path / "index.sqlite3").db
    assert len(calls) == 1
