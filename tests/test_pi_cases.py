"""Cases where pibrowser once differed from pi 1.6.0, each on the smallest file that shows it.

Every expected value below is what pi 1.6.0 returns for that file (its SessionManager,
getTree and buildSessionContext, run on Node 22), hard-coded so the test needs no pi.
"""

from __future__ import annotations

import json
import time

import orjson
import pytest

from pibrowser.cli.main import main
from pibrowser.model import Session, resolve
from pibrowser.model.fold.path_fold import PathFold
from pibrowser.model.text.tree_json import tree_json
from pibrowser.model.tokens.context_estimate import projected_context_tokens

from .hostile import reply
from .sessions import HEADER, entry, message, write

ROOT = message("r", None, "user", "hi")


def custom(key: str, parent: str, timestamp: object) -> dict:
    return {
        "type": "custom_message",
        "id": key,
        "parentId": parent,
        "timestamp": timestamp,
        "customType": "n",
        "content": "x",
        "display": True,
    }


def context(path, leaf=None) -> dict:
    session = Session.load(path, lazy=False)
    return orjson.loads(orjson.dumps(resolve(session, session.leaf_id if leaf is None else leaf).to_pi()))


def tree(path) -> dict:
    return orjson.loads(tree_json(Session.load(path, lazy=False)))


@pytest.fixture
def time_zone(monkeypatch):
    """Run in a given local time zone (what `new Date("…T01:30:00")` depends on)."""

    def use(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield use
    monkeypatch.undo()
    time.tzset()


def test_entry_timestamps_parse_as_v8_parses_them(tmp_path):
    stamps = [
        "-000001-01-01T00:00:00Z",  # a negative year: we were a day off
        "2026-10-30 09:00:00Z",  # V8's fallback parser, with a zone
        "2026-10-30T9:00:00Z",  # a one-digit hour after T: V8 refuses it
        "\uff12\uff10\uff12\uff16-10-30 00:00Z",  # fullwidth digits are not digits to V8
        "Thu, 30 Oct 2026 09:00:00 GMT",
        "Oct 30 2026 10:00 PM GMT+0100",
        ["2026-10-30"],  # an array is read as its string
    ]
    items = [ROOT]
    for index, stamp in enumerate(stamps):
        items.append(custom(f"c{index}", items[-1]["id"], stamp))
    path = write(tmp_path / "dates.jsonl", *items)
    got = [m["timestamp"] for m in context(path)["messages"]]
    # pi 1.6.0: the custom messages' timestamps
    assert got == [1793350800000, -62198755200000, 1793350800000, None, 1004400000000, 1793350800000, 1793394000000, 1793318400000]


def test_local_times_at_clock_changes_take_the_earlier_offset(tmp_path, time_zone):
    time_zone("America/New_York")
    # 01:30 happens twice on 1 November 2026; 02:30 never happens on 8 March 2026.
    path = write(tmp_path / "dst.jsonl", ROOT, custom("a", "r", "2026-11-01T01:30:00"), custom("b", "a", "2026-03-08T02:30:00"))
    got = [m["timestamp"] for m in context(path)["messages"][1:]]
    assert got == [1793511000000, 1772955000000]  # pi 1.6.0 under TZ=America/New_York


def test_many_siblings_with_bad_timestamps_keep_v8s_sort_order(tmp_path):
    # Over 64 children, V8 merges sorted runs; a NaN comparison makes the result depend on every step.
    kids = []
    for index in range(70):
        stamp = "not a date" if index % 7 == 3 else f"2026-10-30T09:{(70 - index) % 60:02d}:{index % 13:02d}.000Z"
        kids.append({**message(f"k{index}", "r", "user", "hi"), "timestamp": stamp})
    path = write(tmp_path / "siblings.jsonl", ROOT, *kids)
    got = [node["id"] for node in tree(path)["tree"][0]["children"]]
    order = [
        9,
        8,
        7,
        6,
        5,
        4,
        2,
        1,
        0,
        3,
        10,
        34,
        33,
        32,
        30,
        29,
        28,
        27,
        26,
        25,
        23,
        22,
        21,
        20,
        19,
        18,
        16,
        15,
        14,
        13,
        12,
        11,
        17,
        24,
        31,
        69,
        68,
        67,
        65,
        64,
        63,
        62,
        61,
        60,
        58,
        57,
        56,
        55,
        54,
        53,
        51,
        50,
        49,
        48,
        47,
        46,
        44,
        43,
        42,
        41,
        40,
        39,
        37,
        36,
        35,
        38,
        45,
        52,
        59,
        66,
    ]
    assert got == [f"k{index}" for index in order]  # pi 1.6.0's getTree order


@pytest.mark.parametrize(
    "version, role",
    [("0o2", "custom"), ("0b1", "custom"), ([2], "custom"), ("0_1", "hookMessage"), ("\u0662", "hookMessage")],
    ids=["octal", "binary", "array", "underscore", "arabic-digit"],
)
def test_header_version_compares_as_a_js_number(tmp_path, version, role):
    # Number("0o2") is 2 and Number([2]) is 2 (so v2 → v3 renames hookMessage); "0_1" and "٢" are NaN.
    hook = message("h", None, "hookMessage", "c", customType="k", display=True)
    path = write(tmp_path / "version.jsonl", hook, header={**HEADER, "version": version})
    assert context(path)["messages"][0]["role"] == role  # pi 1.6.0


def test_labels_with_targets_that_are_not_strings(tmp_path):
    path = write(
        tmp_path / "labels.jsonl",
        message("5", None, "user", "hi"),
        entry("label", "l1", "5", 1, targetId=5, label="number"),
        entry("label", "l2", "l1", 2, targetId=None, label="null"),
        entry("label", "l3", "l2", 3, label="absent"),
    )
    got = tree(path)
    # pi 1.6.0 keys its label map 5, null and undefined: no entry's getLabel finds one (entry "5"
    # is not 5), so the labels listed entry by entry, as the fixtures' answers list them, are none
    assert got["labels"] == {}
    assert got["tree"][0]["id"] == "5" and got["tree"][0]["label"] is None


def test_an_empty_id_is_not_a_leaf_and_an_empty_parent_ends_the_path(tmp_path):
    path = write(
        tmp_path / "empty.jsonl",
        ROOT,
        message("", "r", "user", "empty id", second=1),
        message("c", "", "user", "child", second=2),
        message("z", "r", "user", "last", second=3),
    )
    contents = {key: [m["content"] for m in context(path, key)["messages"]] for key in ("r", "", "c", "z")}
    # pi 1.6.0: the leaf "" is falsy, so pi takes its default (the last entry); c's path stops at parentId ""
    assert contents == {"r": ["hi"], "": ["hi", "last"], "c": ["child"], "z": ["hi", "last"]}
    # ...while getTree still hangs c under the entry whose id is ""
    assert tree(path)["tree"][0]["children"][0] == {"id": "", "label": None, "children": [{"id": "c", "label": None, "children": []}]}


def test_json_output_holds_the_values_json_stringify_writes(tmp_path, capsysbinary):
    line = (
        '{"type":"message","id":"n","parentId":null,"timestamp":"2026-10-30T09:00:00.000Z","message":{"role":"user",'
        '"content":"lone \\ud800","big":12345678901234567890123,"safe":9007199254740993,"inf":1e400,"timestamp":1}}'
    )
    path = write(tmp_path / "numbers.jsonl", line)
    assert main(["context", str(path), "--format", "json"]) == 0
    out = capsysbinary.readouterr().out
    got = json.loads(out.decode("utf-8"))  # valid UTF-8: the lone surrogate is escaped
    got.pop("leaf")
    # pi 1.6.0 (the JSON text it prints, parsed)
    want = json.loads(
        '{"messages":[{"role":"user","content":"lone \\ud800","big":1.2345678901234568e+22,"safe":9007199254740992,'
        '"inf":null,"timestamp":1}],"thinkingLevel":"off","model":null}'
    )
    assert got == want and type(got["messages"][0]["safe"]) is int


def test_nesting_deeper_than_our_parsers_allow(tmp_path, capsysbinary):
    nest = "[" * 1100 + "]" * 1100
    line = (
        '{"type":"message","id":"m","parentId":null,"timestamp":"2026-10-30T09:00:00.000Z",'
        '"message":{"role":"user","content":"deep","nest":' + nest + ',"timestamp":1}}'
    )
    path = write(tmp_path / "deep.jsonl", line, message("m2", "m", "user", "after", second=1))
    assert main(["context", str(path), "--leaf", "m2", "--format", "json"]) == 0
    out = capsysbinary.readouterr().out.decode("utf-8")
    # pi 1.6.0 keeps the line (JSON.parse has no depth limit) and prints this context
    want = (
        '{"messages":[{"role":"user","content":"deep","nest":' + nest + ',"timestamp":1},'
        '{"role":"user","content":"after","timestamp":1793350801000}],"thinkingLevel":"off","model":null}'
    )
    assert out == '{"leaf":"m2",' + want[1:] + "\n"


def test_the_tree_lists_labels_entry_by_entry_in_file_order(tmp_path, capsys):
    # pi 1.6.0 (the fixtures' answers): getLabel of each entry in file order, not the label Map's order.
    path = write(
        tmp_path / "labels.jsonl",
        message("a", None, "user", "one"),
        message("b", "a", "user", "two", 1),
        entry("label", "l1", "b", 2, targetId="b", label="second"),
        entry("label", "l2", "l1", 3, targetId="a", label="first"),
        entry("label", "l3", "l2", 4, targetId="gone", label="names no entry"),
    )
    assert list(tree(path)["labels"].items()) == [("a", "first"), ("b", "second")]
    assert main(["tree", str(path), "--format", "json"]) == 0  # a clean file: read through its one-pass index
    assert list(json.loads(capsys.readouterr().out)["labels"].items()) == [("a", "first"), ("b", "second")]


def test_a_repeated_id_shows_its_last_entry_under_each_of_its_lines_parents(tmp_path):
    # pi 1.6.0's getTree makes a node per line, keyed by id: the last one stands for the id at each
    # place a line with that id hangs. A line written twice shows twice, with its children each time.
    twice = message("b", "a", "user", "again", 1)
    path = write(tmp_path / "repeated.jsonl", message("a", None, "user", "one"), twice, twice, message("c", "b", "user", "three", 2))
    got = tree(path)["tree"]
    assert [node["id"] for node in got[0]["children"]] == ["b", "b"]
    assert [[kid["id"] for kid in node["children"]] for node in got[0]["children"]] == [["c"], ["c"]]
    assert any("duplicate id 'b'" in problem.reason for problem in Session.load(path).problems)


def test_an_entry_without_an_id_is_estimated_without_the_usage_on_the_path_it_answers_with(tmp_path):
    # pi 1.6.0: branch(undefined) projects the default leaf's path (the last entry's, "r") but
    # getBranch() is empty, so estimateProjectedContextTokens finds no usage to trust: chars/4 of
    # each message (2 + 2), where "r" itself counts its usage's 1,010.
    answer = reply("r", "u", [{"type": "text", "text": "x" * 8}], input=1000, output=10, totalTokens=1010)
    path = write(tmp_path / "idless.jsonl", message("u", None, "user", "y" * 8), b"[]", answer)
    session = Session.load(path, lazy=False)
    idless = session.file_order[1].id
    assert projected_context_tokens(resolve(session, "r")).tokens == 1010
    assert projected_context_tokens(resolve(session, idless)).tokens == 4
    fold = PathFold(session)
    fold.fold_spine()
    assert (fold.figures(idless).estimate.tokens, fold.row(idless).tokens_estimate) == (4, 4)
    assert (fold.figures("r").estimate.tokens, fold.row("r").tokens_estimate) == (1010, 1010)


@pytest.mark.parametrize("lazy", [True, False])
def test_an_edit_without_a_replacement_is_reported_on_its_line(tmp_path, lazy):
    # pi 1.6.0's projectContextEntry reads `edit.replacement.content` of an edit that is not null:
    # with no replacement at all it throws on a path where the edit applies to a message.
    edit = entry("context_edit", "e", "a", 1, targetId="a")
    path = write(tmp_path / "edit.jsonl", message("a", None, "user", "hi"), edit, message("b", "e", "user", "after", 2))
    reasons = {problem.line: problem.reason for problem in Session.load(path, lazy=lazy).problems}
    assert "context_edit without a replacement" in reasons[3] and "TypeError" in reasons[3]
