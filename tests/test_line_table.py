"""A lazy load keeps, per line, where it lies and what loading learned of it, in named columns;
every entry reads its own line back through the table."""

import orjson
import pytest

from pibrowser.model import Session
from pibrowser.model.session import reader
from pibrowser.model.session.entry import parse_lines_of
from pibrowser.model.session.line_table import UNKNOWN, LineTable
from pibrowser.model.session.lines import line_starts, scan_lines
from pibrowser.model.session.follow import read_appended

from .sessions import HEADER, append, chain, message, write


def file_lines(path):
    return path.read_bytes().split(b"\n")


def assert_every_entry_reads_its_line(session, path):
    lines = file_lines(path)
    skimmed = [entry for entry in session.file_order if not entry.is_parsed]
    assert skimmed, "the load skimmed nothing: the test would check nothing"
    for entry in skimmed:
        assert entry.raw == lines[entry.line - 1], entry


@pytest.mark.parametrize("chunk", [None, 64, 97, 300])
def test_each_skimmed_entry_reads_back_its_own_line(tmp_path, monkeypatch, chunk):
    # Skimmed lines among blank ones, CRLF endings, lines that do not parse, a line parsed
    # at once (the label) and garbage before the header; read in one go and in chunks.
    items = chain(8)
    path = write(
        tmp_path / "s.jsonl",
        b"garbage before the header",
        HEADER,
        items[0],
        b"",
        items[1],
        *[orjson.dumps(item) + b"\r" for item in items[2:5]],
        b"   ",
        b"{not json at all}",
        b'{"type":"message","id":"cut","parentId":"m4","timestamp":"2026',
        {"type": "label", "id": "l1", "parentId": "m4", "timestamp": "2026-10-30T09:00:05.500Z", "targetId": "m1", "label": "x"},
        items[5],
        b"\t",
        items[6],
        items[7],
        header=None,
        newline_at_end=False,
    )
    if chunk is not None:
        monkeypatch.setattr(reader, "CHUNK", chunk)
    session = Session.load(path)
    assert set(session.entries) == {"m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "l1"}
    assert session.entries["m2"].raw.endswith(b"}\r")
    assert_every_entry_reads_its_line(session, path)
    assert session.entries["m3"].get("message")["content"] == [{"type": "text", "text": "said 3"}]
    assert session.entries["m7"].raw == file_lines(path)[-1]  # the last line, without its newline


def test_lines_read_back_the_same_after_pi_appends(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(6))
    session = Session.load(path)
    append(path, message("n1", "m5", "user", "more", 9), b"\n", message("n2", "n1", "assistant", [{"type": "text", "text": "ok"}], 10))
    assert [entry.id for entry in read_appended(session)] == ["n1", "n2"]
    assert_every_entry_reads_its_line(session, path)
    lines = file_lines(path)
    assert [entry.raw for entry in session.path_entries("n2")[:6]] == lines[1:7]
    assert session.entries["n2"].line == 10 and session.entries["n2"].get("message")["content"][0]["text"] == "ok"


def test_a_table_tells_what_loading_learned_of_each_line(tmp_path):
    usage = {"input": 7, "output": 2, "cacheRead": 0, "cacheWrite": 0, "cost": {"total": 0.5}}
    path = write(
        tmp_path / "s.jsonl",
        message("u", None, "user", "hi"),
        b"",
        message("r1", "u", "toolResult", [{"type": "text", "text": "x"}], 2, toolCallId="c1", usage=usage),
        message("r2", "r1", "toolResult", [{"type": "text", "text": "y"}], 3, toolCallId="c1"),
        message("a", "r2", "assistant", [{"type": "text", "text": "z"}], 4, provider="p", model="m"),
        message("t", "a", "assistant", [{"type": "toolCall", "id": "c2", "name": "ls", "arguments": {}}], 5, provider="p", model="m"),
    )
    session = Session.load(path)
    quiet = {key for key, entry in session.entries.items() if entry.records_no_usage}
    assert quiet == {"r2"}
    assert {key: entry.textless for key, entry in session.entries.items()} == {"u": None, "r1": None, "r2": None, "a": False, "t": True}
    assert_every_entry_reads_its_line(session, path)
    # The numbers themselves: per line after the header (the empty one after the last newline
    # too), where the newline before it is, and the end of the file; and the flags.
    table = session.entries["r2"]._raw
    assert isinstance(table, LineTable) and table.first == 2
    data = path.read_bytes()
    newlines = [at for at, byte in enumerate(data) if byte == 10]
    assert list(table.breaks) == newlines + [len(data)]
    # Lines u, (blank), r1, r2, a, t and the nothing after the last newline.
    assert list(table.no_usage) == [0, 0, 0, 1, 0, 0, 0]
    assert list(table.no_text) == [UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, 0, 1, UNKNOWN]


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 20])
def test_the_scanner_gives_every_line_once_whole_and_where_it_lies(tmp_path, chunk):
    data = b"first\n\nsecond line\r\n" + b"x" * 200 + b"\n" + b"last, without a newline"
    path = tmp_path / "lines.txt"
    path.write_bytes(data)
    with open(path, "rb") as handle:
        batches = list(scan_lines(handle, chunk=chunk))
    assert b"".join(batch.data for batch in batches) == data
    assert [line for batch in batches for line in batch.lines] == data.split(b"\n")
    assert all(batch.data.endswith(b"\n") for batch in batches[:-1]) and batches[-1].unterminated
    starts = [start for batch in batches for start in line_starts(batch.base, batch.lines)]
    assert [data[start:].split(b"\n")[0] for start in starts] == data.split(b"\n")
    path.write_bytes(data + b"\n")
    with open(path, "rb") as handle:
        whole = list(scan_lines(handle, chunk=chunk))
    assert not whole[-1].unterminated and whole[-1].consumed == len(data) + 1
    assert [line for batch in whole for line in batch.lines] == data.split(b"\n")
    with open(path, "rb") as handle:
        assert [batch.base for batch in scan_lines(handle, start=6, chunk=chunk)][0] == 6


def _skimmed_runs(session):
    """The skimmed entries' line numbers, as (table, first, count) runs of consecutive lines."""
    runs, table = [], None
    for entry in session.file_order:
        source = entry._raw
        if not isinstance(source, LineTable):
            continue
        if runs and source is table and entry.line == runs[-1][1] + runs[-1][2]:
            runs[-1][2] += 1
        else:
            runs.append([source, entry.line, 1])
        table = source
    return runs


@pytest.mark.parametrize("stretch", [1, 40, 1 << 20])
def test_a_run_of_lines_reads_what_each_line_reads_alone(tmp_path, monkeypatch, stretch):
    # CRLF endings, a blank line, a line that does not parse, no newline at the end; read in
    # stretches smaller than a line, of a few lines, and of the whole file.
    items = chain(12)
    path = write(
        tmp_path / "s.jsonl",
        *items[:3],
        orjson.dumps(items[3]) + b"\r",
        b"",
        *items[4:8],
        b"{not json at all}",
        *items[8:],
        newline_at_end=False,
    )
    monkeypatch.setattr(LineTable, "STRETCH", stretch)
    session = Session.load(path)
    runs = _skimmed_runs(session)
    assert runs and max(count for _, _, count in runs) > 1, "no run of lines to read: the test would check little"
    for table, first, count in runs:
        assert table.read_run(first, count) == [table.read(line) for line in range(first, first + count)]


def test_a_run_of_lines_moved_by_a_rewrite_reads_none_where_each_line_does(tmp_path):
    # The file rewritten in place, one line longer and one shorter by the same bytes: a line
    # whose newlines moved is no longer there, for a run as for one line.
    items = chain(6)
    path = write(tmp_path / "s.jsonl", *items)
    session = Session.load(path)
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"said 1"', b'"said 1+"').replace(b'"said 2"', b'"said "'))
    for table, first, count in _skimmed_runs(session):
        alone = [table.read(line) for line in range(first, first + count)]
        assert None in alone
        assert table.read_run(first, count) == alone


def test_entries_parsed_a_run_at_a_time_hold_what_each_parses_alone(tmp_path):
    # Invalid UTF-8 (repaired as pi reads it), a lone surrogate escape orjson refuses, and a line
    # no longer where it was (the file cut short): each as Entry.data makes it.
    items = chain(8)
    lines = [orjson.dumps(item) for item in items]
    lines[3] = lines[3].replace(b"said 3", b"said \xff3")
    lines[5] = lines[5].replace(b"said 5", b"said \\ud8005")
    path = write(tmp_path / "s.jsonl", *lines)
    alone, together = Session.load(path), Session.load(path)
    path.write_bytes(path.read_bytes()[: -len(lines[-1]) - 1])
    expected = [entry.data for entry in alone.file_order]
    parse_lines_of(together.file_order)
    assert all(entry.is_parsed for entry in together.file_order)
    assert [entry._data for entry in together.file_order] == expected
    assert expected[-1] == {} and expected[3]["message"]["content"][0]["text"] == "said \ufffd3"
    assert expected[5]["message"]["content"][0]["text"] == "said \ud8005"


def test_an_entry_another_thread_parses_meanwhile_is_left_as_it_parsed_it(tmp_path):
    # The pool works out a context (parse_lines_of) while the window's thread reads entries: an entry
    # gathered into a run can be parsed before the run is read. That stopped the context with an
    # AssertionError (a million-entry session's screenshot showed "Working out…" one time in three).
    path = write(tmp_path / "s.jsonl", *(orjson.dumps(item) for item in chain(8)))
    session, alone = Session.load(path), Session.load(path)
    entries = session.file_order
    assert all(entry._raw.__class__ is LineTable for entry in entries[:4])

    def gathered_while_the_first_is_parsed():
        yield entries[0]
        yield entries[1]
        assert entries[0].data  # the other thread: entries[0] is parsed, its line let go
        yield entries[3]  # not the next line: the run of the first two is read now

    parse_lines_of(gathered_while_the_first_is_parsed())
    assert [entries[at]._data for at in (0, 1, 3)] == [alone.file_order[at].data for at in (0, 1, 3)]
    assert not entries[2].is_parsed
