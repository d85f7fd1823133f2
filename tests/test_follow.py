"""Reading what pi appended since the last read gives the same session as a fresh load."""

import orjson
import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.session.follow import read_appended
from pibrowser.model.session.problems import NeedsReload
from pibrowser.model.text.tree_json import tree_json

from .conftest import FIXTURES
from .sessions import append, chain, entry, message, write


def same_as_fresh(session):
    fresh = Session.load(session.path)
    assert orjson.loads(tree_json(session)) == orjson.loads(tree_json(fresh))
    assert [str(p) for p in session.problems] == [str(p) for p in fresh.problems]
    assert session.branch_points() == fresh.branch_points()
    for key in fresh.entries:
        assert resolve(session, key).to_pi() == resolve(fresh, key).to_pi()


def test_appending_a_fixture_line_by_line_matches_fresh_loads(tmp_path):
    lines = (FIXTURES / "generated-s3.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(lines[:5]))
    session = Session.load(path)
    session.branch_points()  # asked before the appends: they keep it up
    for start in range(5, len(lines), 17):
        append(path, *lines[start : start + 17])
        added = read_appended(session)
        assert [e.line for e in added] == list(range(start + 1, min(start + 17, len(lines)) + 1))
    same_as_fresh(session)
    assert read_appended(session) == []


def test_a_line_still_being_written_waits_for_its_newline(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2))
    session = Session.load(path)
    line = orjson.dumps(message("m2", "m1", "user", "third", second=5)) + b"\n"
    append(path, line[:30])
    assert read_appended(session) == []
    append(path, line[30:])
    assert [e.id for e in read_appended(session)] == ["m2"]
    same_as_fresh(session)


def test_labels_names_and_sibling_order_follow(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    session = Session.load(path)
    assert not session.branch_points()
    append(
        path,
        message("b2", "m0", "assistant", [], second=1),  # same time as m1: after it
        {**message("b0", "m0", "assistant", []), "timestamp": "2026-10-30T08:59:00.000Z"},  # before all
        entry("label", "l1", "b0", 9, targetId="m1", label="kept"),
        entry("session_info", "n", "l1", 10, name=" Named "),
    )
    read_appended(session)
    assert session.children("m0") == ["b0", "m1", "b2"] and session.branch_points() == {"m0"}
    assert session.labels == {"m1": "kept"} and session.name == "Named" and session.leaf_id == "n"
    same_as_fresh(session)


@pytest.mark.parametrize("change", ["truncate", "rewrite", "orphan_parent", "forward_parent"])
def test_changes_that_are_not_appends_ask_for_a_reload(tmp_path, change):
    path = write(tmp_path / "s.jsonl", *chain(3), message("o", "ghost", "user", second=9))
    session = Session.load(path)
    data = path.read_bytes()
    if change == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif change == "rewrite":
        path.write_bytes(data.replace(b"say 2", b"SAY 2"))
    elif change == "orphan_parent":
        append(path, message("ghost", "m2", "user", second=10))
    else:
        append(path, message("x", "y", "user", second=10), message("y", "m2", "user", second=11))
    with pytest.raises(NeedsReload):
        read_appended(session)
