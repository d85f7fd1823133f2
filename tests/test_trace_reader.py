"""The command line's reader of a trace (a clean file's path read a stretch at a time, each line
decoded once: trace.agent_loop.trace_of_path) pinned to the answer of the reader the window uses
(each entry of a loaded session read on its own: facts.entry_facts, FactsTable.put), on every
fixture, the demo, the hostile files and single-field mutations of the fixtures."""

from __future__ import annotations

import pytest

from pibrowser.model import Session
from pibrowser.model.session.path_index import PathIndex, views_utf8
from pibrowser.model.trace.agent_loop import trace_of_path, trace_with_facts
from pibrowser.model.trace.facts import entry_facts, lines_columns
from pibrowser.model.trace.rows import row_cells, rows_json, rows_text, trace_rows
from pibrowser.model.trace.table import FactsTable

from .cli_run import run
from .conftest import DEMO, FIXTURES
from .hostile import LOADABLE, make, mutations

SOURCES = [DEMO, *sorted(FIXTURES.rglob("*.jsonl"))]


def hostile(tmp_path):
    return [make(tmp_path, name) for name in sorted(LOADABLE)]


def every_entry_read_both_ways(path, in_parts=(3,)):
    """(the entries, a table of each entry's facts read on its own, the same read from the lines as
    a batch, and the facts the batch kept of each reply that made calls), in file order. The lines
    are views of one buffer, as IndexedPath.lines gives them, read in parts (cut at `in_parts`)."""
    session = Session.load(path)  # lazy: entries hold their lines, as an index's do
    entries = [entry for entry in session.file_order if entry.raw is not None]
    alone = FactsTable()
    for line, entry in enumerate(entries):
        alone.put(line, entry_facts(entry))
    together = FactsTable()
    replies = {}
    cuts = [0, *(cut for cut in in_parts if cut < len(entries)), len(entries)]
    for first, end in zip(cuts, cuts[1:]):
        part = entries[first:end]
        buffer = memoryview(b"\n".join(entry.raw for entry in part))
        views, at = [], 0
        for entry in part:
            views.append(buffer[at : at + len(entry.raw)])
            at += len(entry.raw) + 1
        found = lines_columns([e.id for e in part], [(e.type, e.role) for e in part], views, views_utf8(views))
        together.extend(found)
        replies.update(found.replies)
    return entries, alone, together, replies


def columns(table: FactsTable, lines: list[int]) -> dict[str, list]:
    """Every column of the table at `lines`, strings by their text (codes depend on the order read)."""
    strings = table.strings
    found = {}
    for name in ("kind", "stop", "model", "thinking", "tool"):
        found[name] = [strings[getattr(table, name)[line]] for line in lines]
    for name in ("read", "entry_type", "is_error", "result_chars", "answers", "call_count"):
        found[name] = [getattr(table, name)[line] for line in lines]
    for name, column in (("time", table.time), ("message_time", table.message_time), ("duration", table.duration)):
        found[name] = [repr(column[line]) for line in lines]
    found["usage"] = [table.usage(line) and repr(table.usage(line)) for line in lines]
    found["calls"] = [table.calls(line) if table.call_count[line] else [] for line in lines]
    found["file_calls"] = [table.file_calls.get(line) for line in lines]
    return found


def same_reading(path, in_parts=(3,)):
    """The batch's table holds what a table of each entry read on its own holds (but the calls pi's
    compaction counts), and it kept the calls and error of every reply that made calls."""
    entries, alone, together, replies = every_entry_read_both_ways(path, in_parts)
    every = list(range(len(entries)))
    expected = columns(alone, every)
    expected["file_calls"] = [None] * len(entries)
    assert len(together) == len(entries)
    assert columns(together, every) == expected
    for entry in entries:
        facts = entry_facts(entry)
        kept = replies.get(entry.id)
        if facts.calls:
            assert kept is not None and kept.error_message == facts.error_message
            assert [(c.id, c.name, c.arguments) for c in kept.calls] == [(c.id, c.name, c.arguments) for c in facts.calls]
        else:
            assert kept is None


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.stem)
def test_lines_read_as_a_batch_give_each_entrys_facts(path):
    same_reading(path)


def test_hostile_lines_read_as_a_batch_give_each_entrys_facts(tmp_path):
    for path in hostile(tmp_path):
        same_reading(path, in_parts=())


def test_a_reply_whose_text_is_not_utf8_is_read_as_each_entry_reads_it(tmp_path):
    """The batch is then not told UTF-8, and its replies' texts are decoded (so checked) as
    entry_facts decodes them: the reply is read whole, its calls' arguments written again."""
    lines = (FIXTURES / "blog-example.jsonl").read_bytes().splitlines()
    reply = next(at for at, line in enumerate(lines) if b'"role":"assistant"' in line and b'"type":"text","text":"' in line)
    lines[reply] = lines[reply].replace(b'"type":"text","text":"', b'"type":"text","text":"\xff', 1)
    path = tmp_path / "not-utf8.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    entries, _, _, _ = every_entry_read_both_ways(path, in_parts=())
    assert not views_utf8([memoryview(b"\n".join(entry.raw for entry in entries))])
    same_reading(path)


def test_the_batch_leaves_out_only_the_calls_pi_compaction_counts():
    _, alone, together, _ = every_entry_read_both_ways(DEMO)
    assert alone.file_calls and not together.file_calls


def leaves_and_answers(path, reader):
    """The rows of every entry's path (as JSON, and the text table's cells), read by `reader`."""
    session = Session.load(path, lazy=False)
    answers = {}
    with PathIndex.scan(path) as index:
        for key in [*session.entries, None]:
            trace, facts_of = reader(session, index, key if key is not None else session.leaf_id)
            rows = trace_rows(trace, facts_of)
            answers[key] = ([row.to_json() for row in rows], [row_cells(row) for row in rows], rows_text(trace, rows))
    return answers


def read_whole(session, index, leaf):
    trace, facts = trace_with_facts(session.path_entries(leaf))
    return trace, facts.__getitem__


def read_from_index(session, index, leaf):
    return trace_of_path(index.path_entries(leaf, lines_kept=False))


CLEAN = [path for path in SOURCES if PathIndex.scan(path) is not None]


@pytest.mark.parametrize("path", CLEAN, ids=lambda path: path.stem)
def test_a_clean_files_path_traces_as_the_loaded_session_does(path):
    assert leaves_and_answers(path, read_from_index) == leaves_and_answers(path, read_whole)


def test_a_stretch_of_a_few_lines_at_a_time_reads_the_same(monkeypatch):
    whole = leaves_and_answers(DEMO, read_from_index)
    monkeypatch.setattr("pibrowser.model.session.path_index._STRETCH", 1)
    assert leaves_and_answers(DEMO, read_from_index) == whole


def cli_answers(path, leaves):
    return [run("trace", path, "--format", form, *(["--leaf", leaf] if leaf else [])) for form in ("json", "text") for leaf in leaves]


def test_the_command_writes_what_it_wrote_from_the_loaded_session(tmp_path, monkeypatch):
    """`pibrowser trace` of a clean file (the index's reader, rows written as made) and of the same
    file loaded whole (the window's reader), for the hostile files and a sample of mutated fixtures."""
    files = [*SOURCES, *hostile(tmp_path)]
    for source in sorted(FIXTURES.glob("*.jsonl")):
        files += [mutation.apply(source, tmp_path / f"{number}-{source.name}") for number, mutation in enumerate(mutations(source, 30, 6))]
    indexed = [cli_answers(path, [None]) for path in files]
    assert any(PathIndex.scan(path) is not None for path in files)
    monkeypatch.setattr(PathIndex, "scan", classmethod(lambda cls, path: None))  # every file loaded whole
    assert [cli_answers(path, [None]) for path in files] == indexed


def test_a_reply_is_traced_from_its_kept_facts_and_any_other_entry_is_read_again(monkeypatch):
    from pibrowser.model.trace import agent_loop

    read_again = []
    original = agent_loop.entry_facts

    def counted(entry):
        read_again.append(entry.id)
        return original(entry)

    monkeypatch.setattr(agent_loop, "entry_facts", counted)
    with PathIndex.scan(DEMO) as index:
        trace, facts_of = trace_of_path(index.path_entries(index.leaf_id, lines_kept=False))
        written = b"".join(rows_json(trace_rows(trace, facts_of)))
    session = Session.load(DEMO, lazy=False)
    assert read_again and all(session.entries[key].role != "assistant" for key in read_again)
    assert written == b"".join(rows_json(trace_rows(*read_whole(session, None, session.leaf_id))))
