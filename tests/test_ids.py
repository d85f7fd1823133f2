"""Ids that are not strings, keyed as pi keys them (issue 30, item 3): every reader gives pi's answers.

pi keeps its entries in a Map by `entry.id`, whatever its type: `parentId: 123` names the entry whose
id is the number 123 (never the string "123"), every entry without an id is keyed `undefined`, an
object id is a key no lookup finds, and a real entry whose id is "@line8" is an entry like any other.
pi's tree (getTree) looks every parentId but null up; its path walk stops at a falsy one (0, "",
false, a missing one). tests/fixtures/ids/non-string-ids.jsonl holds one entry for each case (see
mk_non_string_ids below) and pi 1.6.0's own answers beside it; test_against_pi.py asks pi again.
"""

from __future__ import annotations


import orjson
import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.js.map_key import JsKey, js_key
from pibrowser.model.js.stringify import dump_json
from pibrowser.model.js.value import MISSING
from pibrowser.model.fold.path_fold import PathFold
from pibrowser.model.session.follow import read_appended
from pibrowser.model.session.path_index import PathIndex
from pibrowser.model.session.problems import NeedsReload
from pibrowser.model.text.tree_json import tree_json

from .cli_run import run
from .conftest import FIXTURES
from .sessions import append, entry, message, write

CASES = FIXTURES / "ids" / "non-string-ids.jsonl"
EXPECTED = orjson.loads((FIXTURES / "ids" / "non-string-ids.expected.json").read_bytes())
PI_ALL = (FIXTURES / "ids" / "non-string-ids.pi-all.ndjson").read_bytes()


def test_every_context_is_pis_bytes():
    ours = run("context", CASES, "--all", "--format", "json")
    assert ours.returncode == 0, ours.stderr.decode()
    assert ours.stdout == PI_ALL


def test_the_current_leafs_context_and_the_tree_are_pis():
    ours = orjson.loads(run("context", CASES).stdout)
    assert ours.pop("leaf") == EXPECTED["leaf"] and ours == EXPECTED["contexts"]["__default__"]
    tree = orjson.loads(run("tree", CASES, "--format", "json").stdout)
    assert tree == {key: EXPECTED[key] for key in ("leaf", "name", "labels", "tree")}


def test_numbers_name_numbers_and_strings_strings():
    session = Session.load(CASES)
    assert [entry.id for entry in session.path_entries("x")] == ["a", js_key(123), "x"]
    assert [entry.id for entry in session.path_entries("y")] == ["a", "123", "y"]
    assert [entry.id for entry in session.path_entries("u")][-2:] == [js_key(1), "u"]  # parentId 1 names id 1.0
    # 12345678901234567891 and ...890 are one double in JS: the same key.
    assert [entry.id for entry in session.path_entries("s")][-2:] == [js_key(12345678901234567890), "s"]
    assert session.labels[js_key(123)] == "numeric" and session.labels["123"] == "string"
    assert session.parent("r") is None  # an object parentId is a key no lookup finds


def test_an_entry_without_an_id_and_a_real_at_line_id_are_two_entries():
    session = Session.load(CASES)
    real, missing = session.entries["@line8"], session.entries[js_key(MISSING)]
    assert (real.line, missing.line) == (7, 8) and real is not missing
    assert session.path_to("z") == ["a", "@line8", "z"]  # pi's context holds the real entry
    assert not [problem for problem in session.problems if "duplicate" in problem.reason]
    # pi's tree hangs an entry without a parentId under the entry without an id; its path stops there.
    assert session.parent("q") == js_key(MISSING) and session.path_to("q") == ["q"]


def test_a_falsy_parent_is_linked_in_the_tree_but_ends_the_path():
    session = Session.load(CASES)
    assert session.parent("w") == js_key(0) and session.path_to("w") == ["w"]
    assert session.parent("v") == js_key(True) and session.path_to("v") == ["a", js_key(True), "v"]
    assert resolve(session, js_key(None)).messages == []  # an entry whose id is null is pi's null leaf


def test_the_full_and_the_lazy_load_agree():
    lazy, full = Session.load(CASES), Session.load(CASES, lazy=False)
    assert orjson.loads(tree_json(lazy)) == orjson.loads(tree_json(full))
    # An object id is a key of its own in each load (as each JSON.parse makes a new object): walk both in file order.
    contexts = [[dump_json(resolve(session, entry.id).to_pi()) for entry in session.file_order] for session in (lazy, full)]
    assert contexts[0] == contexts[1]


def test_the_one_path_index_leaves_such_a_file_to_the_full_load():
    assert PathIndex.scan(CASES) is None


@pytest.mark.parametrize("cut", [2, 9, 17, 25])
def test_following_appends_gives_what_a_fresh_load_gives(tmp_path, cut):
    lines = CASES.read_bytes().splitlines(keepends=True)
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(lines[:cut]))
    session = Session.load(path)
    for line in lines[cut:]:
        append(path, line)
        try:
            read_appended(session)
        except NeedsReload:  # an append that rewires the tree is read again, as the window does
            session = Session.load(path)
    fresh = Session.load(path)
    assert (
        orjson.loads(tree_json(session))
        == orjson.loads(tree_json(fresh))
        == {key: EXPECTED[key] for key in ("leaf", "name", "labels", "tree")}
    )
    assert [
        dump_json({"leaf": key, **resolve(session, key).to_pi()}) for key in (entry.id for entry in session.file_order)
    ] == PI_ALL.splitlines()


def test_a_non_string_id_never_equals_its_text():
    assert js_key(123) != "123" and "123" != js_key(123) and js_key(123) == js_key(123.0)
    assert len({js_key(123), "123", js_key(MISSING), "undefined", js_key(None), "null"}) == 6
    assert isinstance(js_key(7), JsKey) and js_key("7") == "7" and type(js_key("7")) is str


def entries_without_ids_and_a_missing_parent(tmp_path):
    """An entry with no parentId, then two entries with no id (pi keys both `undefined`, the later one's node)."""
    ask, first, second = (message(key, None, "user", text, second) for key, text, second in (("ask", "is the kettle on", 1),
                          ("no-id", "a line an editor left without its id", 2), ("no-id", "and a second one", 3)))  # fmt: skip
    del ask["parentId"], first["id"], second["id"]
    return write(tmp_path / "s.jsonl", ask, first, second)


def test_where_ids_repeat_a_missing_parent_is_still_the_entry_without_an_id(tmp_path):
    # pi's getTree looks the missing parentId up as undefined: "ask" hangs under the last entry
    # without an id, which stands at both of their lines' places (two roots, null parentIds).
    session = Session.load(entries_without_ids_and_a_missing_parent(tmp_path))
    undefined = js_key(MISSING)
    assert session.tree_with_repeats() == ([undefined, undefined], {undefined: ["ask"]})
    under_it = {"label": None, "children": [{"id": "ask", "label": None, "children": []}]}
    assert orjson.loads(tree_json(session))["tree"] == [under_it, under_it]


def a_branch_whose_path_stops_at_a_missing_parent(tmp_path):
    """'lone' has no parentId: pi's tree hangs it under the reply without an id, its path is itself alone.
    The file's last entry, the default leaf, is elsewhere, so 'lone' is on a branch of the fold."""
    lone = message("lone", None, "user", "where is the map", 1)
    reply = message("no-id", None, "assistant", [{"type": "text", "text": "in the drawer"}], 2, stopReason="stop",
                    usage={"input": 40, "output": 2, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 42})  # fmt: skip
    del lone["parentId"], reply["id"]
    return write(tmp_path / "s.jsonl", lone, reply, message("last", None, "user", "thanks", 3))


def test_the_fold_walks_a_branch_up_its_path_not_up_the_tree(tmp_path):
    # Were the reply above 'lone', its usage (42) would anchor the estimate: pi counts 'lone' alone, chars/4.
    session = Session.load(a_branch_whose_path_stops_at_a_missing_parent(tmp_path))
    fold = PathFold(session)
    fold.fold_spine()
    assert session.parent("lone") == js_key(MISSING) and session.path_to("lone") == ["lone"]
    assert [entry.id for entry in fold.path("lone")] == ["lone"]
    assert fold.row("lone").tokens_estimate == fold.figures("lone").estimate.tokens == 4  # "where is the map": 16 chars


def test_an_append_under_an_empty_id_starts_its_own_path_in_the_fold(tmp_path):
    # The tip's id is "": the tree links a child with parentId "" to it, pi's path walk stops there.
    tip = message("", None, "assistant", [{"type": "text", "text": "ready"}], 1, stopReason="stop",
                  usage={"input": 30, "output": 2, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 32})  # fmt: skip
    path = write(tmp_path / "s.jsonl", tip)
    session = Session.load(path)
    fold = PathFold(session)
    fold.fold_spine()
    append(path, message("next", "", "user", "go on then", 2))
    fold.appended(read_appended(session))
    fold.fold_spine()
    assert [entry.id for entry in fold.path("next")] == session.path_to("next") == ["next"]
    assert fold.row("next").tokens_estimate == 3  # "go on then" alone, chars/4; not on the tip's usage (32)


def a_number_id_repeated_after_its_text(tmp_path):
    """The entry 123 on two lines, the entry "123" between them, each labelled: pi's answers are JS objects
    keyed String(id), written for every line in file order, so both entries' answers go to one key "123",
    and the later line's (123, the number) is the one it keeps."""
    number = message(123, None, "user", "one", 1)
    text = message("123", None, "user", "a much longer second question", 2)
    labels = (entry("label", "l1", "123", 3, targetId=123, label="numeric"), entry("label", "l2", "l1", 4, targetId="123", label="string"))
    return write(tmp_path / "s.jsonl", number, text, number, *labels)


def test_where_a_number_id_repeats_after_its_text_the_labels_keep_the_later_lines(tmp_path):
    session = Session.load(a_number_id_repeated_after_its_text(tmp_path))
    assert session.labels == {js_key(123): "numeric", "123": "string"}
    assert session.labels_json() == {"123": "numeric"}  # the label of 123's last line, written after "123"'s
    assert orjson.loads(tree_json(session))["labels"] == {"123": "numeric"}
