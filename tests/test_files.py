"""The files a path's tool calls touched, by pi's compaction rules (extractFileOpsFromMessage, computeFileLists)."""

from __future__ import annotations

from pathlib import Path

from pibrowser.model import Session
from pibrowser.model.compare.changed_files import compare_files
from pibrowser.model.context.file_lists import FileCall, file_operations, message_file_calls

from .sessions import linked, write

EDGE = Path(__file__).parent / "pi" / "files-edge.jsonl"


def call(name, path, id="c", **more):
    return {"type": "toolCall", "id": id, "name": name, "arguments": {"path": path, **more}}


def assistant(*blocks, stop="toolUse"):
    return {"role": "assistant", "content": list(blocks), "provider": "p", "model": "m", "stopReason": stop, "timestamp": 1}


def lists(session: Session, key: str) -> tuple[list[str], list[str]]:
    found = file_operations(session.path_entries(key))
    return found.read_files, found.modified_files


def test_the_edge_session_gives_pis_lists_at_every_node():
    # pi's own answers for this file (tests/pi/pi_files_answers.mjs), kept here so the rules are
    # checked without node: verbatim paths, names compared exactly, nested calls, JS's sort.
    session = Session.load(EDGE, lazy=False)
    assert lists(session, "u1") == ([], [])
    assert lists(session, "a1") == (["./b.txt", "Z.txt", "a.txt", "😀.txt"], ["b.txt", "！.txt"])
    assert lists(session, "t1") == (["./b.txt", "Z.txt", "a.txt", "😀.txt"], ["b.txt", "nested.txt", "！.txt"])
    assert lists(session, "a2") == (["./b.txt", "Z.txt", "😀.txt"], ["a.txt", "b.txt", "nested.txt", "！.txt"])
    assert lists(session, "br") == ([], [])  # a branch summary's details are not looked at
    # UTF-16 order: 😀 (0xD83D 0xDE00) before ￮ (0xFFEE); Python's code point order says the opposite.
    assert lists(session, "a3") == (["./b.txt", "Z.txt", "noid.txt", "😀.txt", "￮.txt"], ["a.txt", "b.txt", "nested.txt", "！.txt"])


def test_calls_say_which_entry_and_call_touched_each_file():
    session = Session.load(EDGE, lazy=False)
    found = file_operations(session.path_entries("t1"))
    assert found.calls_for("b.txt") == [FileCall("b.txt", "read", "a1", "c1"), FileCall("b.txt", "edit", "a1", "c3")]
    assert found.calls_for("nested.txt") == [FileCall("nested.txt", "write", "t1", "c1/1", nested=True)]
    assert found.to_json()["calls"][0] == {"path": "b.txt", "op": "read", "entry": "a1", "tool_call_id": "c1"}
    assert found.touched()[:3] == ["b.txt", "nested.txt", "！.txt"]  # modified first


def test_a_file_read_after_it_was_changed_is_modified_only(tmp_path):
    items = linked(
        [
            {"role": "user", "content": "go", "timestamp": 1},
            assistant(call("write", "new.txt", "w1")),
            assistant(call("read", "new.txt", "r1"), call("read", "old.txt", "r2"), stop="aborted"),  # never ran: still counts
            {"role": "toolResult", "toolCallId": "r2", "toolName": "edit", "content": "x", "isError": True, "timestamp": 2},
        ]
    )
    session = Session.load(write(tmp_path / "s.jsonl", *items), lazy=False)
    assert lists(session, "e3") == (["old.txt"], ["new.txt"])  # a result's toolName is never looked at


def test_what_pi_would_throw_on_counts_nothing_and_does_not_throw():
    odd = [
        None,
        "text",
        {"role": "toolResult", "nestedCalls": {"calls": {"name": "read"}}},
        {"role": "toolResult", "nestedCalls": {"calls": [None, {"name": "read", "arguments": {"path": "x"}}]}},
        {"role": "toolResult", "nestedCalls": {"calls": "read"}},
        {"role": "assistant", "content": "read x"},
        {"role": "assistant", "content": [{"type": "toolCall", "name": "read", "arguments": {"path": 5}}]},
        {"role": "assistant", "content": [{"type": "toolCall", "name": ["read"], "arguments": {"path": "x"}}]},
        {"role": "user", "content": [call("read", "x")]},
    ]
    assert [message_file_calls(message, "e") for message in odd] == [[]] * len(odd)


def test_compare_says_which_side_changed_what(tmp_path):
    items = [
        {
            "type": "message",
            "id": "u",
            "parentId": None,
            "timestamp": "2026-10-30T09:00:00.000Z",
            "message": {"role": "user", "content": "go", "timestamp": 1},
        },
        {
            "type": "message",
            "id": "a",
            "parentId": "u",
            "timestamp": "2026-10-30T09:00:01.000Z",
            "message": assistant(call("read", "shared.txt"), call("edit", "both.txt")),
        },
        {
            "type": "message",
            "id": "l",
            "parentId": "a",
            "timestamp": "2026-10-30T09:00:02.000Z",
            "message": assistant(call("edit", "left.txt"), call("read", "peek.txt")),
        },
        {
            "type": "message",
            "id": "r",
            "parentId": "a",
            "timestamp": "2026-10-30T09:00:03.000Z",
            "message": assistant(call("write", "right.txt"), call("edit", "peek.txt")),
        },
    ]
    session = Session.load(write(tmp_path / "s.jsonl", *items), lazy=False)
    comparison = compare_files(file_operations(session.path_entries("l")), file_operations(session.path_entries("r")))
    assert comparison.only_left == ["left.txt"]
    assert comparison.only_right == ["peek.txt", "right.txt"]  # left only read peek.txt: right changed it
    assert comparison.both == ["both.txt"]
    assert [row.path for row in comparison.rows] == ["both.txt", "left.txt", "peek.txt", "right.txt", "shared.txt"]
    assert [(row.left, row.right) for row in comparison.rows] == [
        ("modified", "modified"),
        ("modified", None),
        ("read", "modified"),
        (None, "modified"),
        ("read", "read"),
    ]


def test_the_facts_table_keeps_the_same_calls_as_the_messages_give():
    from pibrowser.model.trace.table import FactsTable, path_file_operations

    from .conftest import DEMO, FIXTURES

    for path in [EDGE, DEMO, *sorted(FIXTURES.glob("*.jsonl"))]:
        session = Session.load(path)  # lazily: the table decodes lines the typed way
        table = FactsTable()
        table.ensure(session.entries.values())
        for leaf in session.leaves():
            entries = session.path_entries(leaf)
            assert path_file_operations(entries, table) == file_operations(entries), (path.name, leaf)
