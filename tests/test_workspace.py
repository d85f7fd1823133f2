"""The workspace without Qt: one way in for new lines, every change a value naming what it changed."""

import os

import orjson
import pytest

from pibrowser.model import Problem, Session, SessionLoadError
from pibrowser.model.session.follow import read_appended
from pibrowser.model.workspace import APPEND_IN_PLACE_LIMIT, Change, Workspace, WriteFailed
from pibrowser.model.writing.label_writer import append_label_to

from .conftest import FIXTURES
from .sessions import chain, entry, message, write


def write_label(workspace: Workspace, key: str, label: str | None):
    """A label written through the workspace's one way for new lines, as pi's /label writes it."""
    return workspace.append(lambda session: append_label_to(session, key, label or None))


def opened(path) -> Workspace:
    workspace = Workspace()
    workspace.replace(Session.load(path))
    return workspace


def pi_appends(path, *items) -> list[str]:
    with open(path, "ab") as handle:
        for item in items:
            handle.write(orjson.dumps(item) + b"\n")
    return [item["id"] for item in items]


def big_reply(id, parent, size=APPEND_IN_PLACE_LIMIT + 1024):
    return message(id, parent, "assistant", [{"type": "text", "text": "x" * size}], second=30)


# ---- opening --------------------------------------------------------------------------------------------


def replaced(workspace: Workspace, path) -> tuple[Change, str | None, tuple[str, str] | None]:
    """Replace the session with a fresh read of `path`: the Change, then where selection and comparison are."""
    change = workspace.replace(Session.load(path))
    return change, workspace.selected, workspace.compared


def test_a_new_file_selects_its_leaf_and_drops_the_comparison(tmp_path):
    workspace = opened(write(tmp_path / "a.jsonl", *chain(3)))
    workspace.set_compare("m0", "m2")
    other = write(tmp_path / "b.jsonl", *chain(2, prefix="n"))
    assert replaced(workspace, other) == (Change(replaced=True, selection=True, compare=True), "n1", None)


def test_a_reload_keeps_the_selection_and_the_comparison_that_still_exist(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(4))
    workspace = opened(path)
    workspace.select("m1")
    workspace.set_compare("m1", "m3")
    assert replaced(workspace, path) == (Change(replaced=True, same_file=True), "m1", ("m1", "m3"))
    write(path, *chain(2))  # rewritten shorter: m3 is gone
    assert replaced(workspace, path) == (Change(replaced=True, same_file=True, compare=True), "m1", None)


def test_a_reload_that_lost_the_selection_selects_the_leaf(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(4))
    workspace = opened(path)
    workspace.select("m3")
    write(path, *chain(2))
    assert replaced(workspace, path) == (Change(replaced=True, same_file=True, selection=True), "m1", None)


# ---- following the file ---------------------------------------------------------------------------------


def test_follow_names_every_new_entry_and_the_selection_follows_the_head(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    workspace = opened(path)
    session = workspace.session
    new = pi_appends(path, message("m3", "m2", "user", second=5), message("m4", "m3", "assistant", second=6))
    change = workspace.follow()
    assert change == Change(appended=("m3", "m4"), leaf_before="m2", selection=True)
    assert workspace.session is session and list(session.entries)[-2:] == new
    assert workspace.selected == "m4"
    assert not workspace.follow()  # nothing new: an empty change


def test_a_selection_off_the_leaf_stays_when_pi_appends(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    workspace = opened(path)
    workspace.select("m0")
    pi_appends(path, message("m3", "m2", "user", second=5))
    assert workspace.follow() == Change(appended=("m3",), leaf_before="m2")
    assert workspace.selected == "m0"


def test_a_broken_line_pi_appends_is_a_change_though_it_links_no_entry(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2))
    workspace = opened(path)
    with open(path, "ab") as handle:
        handle.write(b'{"type":"message","id":\n')
    assert workspace.follow() == Change(problems_appended=True)
    assert [problem.line for problem in workspace.session.problems] == [4]
    pi_appends(path, message("m2", "m1", "user", second=5))
    assert workspace.follow() == Change(appended=("m2",), leaf_before="m1", selection=True)


def test_a_half_written_line_waits_for_its_newline(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2))
    workspace = opened(path)
    line = orjson.dumps(message("m2", "m1", "user", second=5))
    with open(path, "ab") as handle:
        handle.write(line[:20])
    assert not workspace.follow()
    with open(path, "ab") as handle:
        handle.write(line[20:] + b"\n")
    assert workspace.follow().appended == ("m2",)


def test_a_rewritten_file_asks_for_a_reload(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    workspace = opened(path)
    write(path, *chain(2))
    change = workspace.follow()
    assert change.reload and not change.appended and not change.strict
    assert len(workspace.session) == 3  # nothing changed until the caller reloads


@pytest.mark.parametrize("on_leaf", [True, False])
def test_a_big_append_read_in_full_ends_as_a_small_one_read_in_place(tmp_path, on_leaf):
    """Following: after more than APPEND_IN_PLACE_LIMIT new bytes the file is read again; the user sees the same."""
    states = []
    for name, limit in (("in-place", APPEND_IN_PLACE_LIMIT * 2), ("reloaded", APPEND_IN_PLACE_LIMIT)):
        path = write(tmp_path / f"{name}.jsonl", *chain(3))
        workspace = opened(path)
        if not on_leaf:
            workspace.select("m1")
        workspace.set_compare("m0", "m2")
        pi_appends(path, big_reply("m3", "m2"), message("m4", "m3", "user", second=31))
        change = workspace.follow(limit)
        if name == "reloaded":
            assert change.reload and not change.appended
            change = workspace.replace(Session.load(path))
            assert change.replaced and change.same_file
        else:
            assert change.appended == ("m3", "m4")
        assert change.selection == on_leaf
        states.append((workspace.selected, workspace.compared, list(workspace.session.entries), workspace.session.leaf_id))
    assert states[0] == states[1]
    assert states[0][0] == ("m4" if on_leaf else "m1")


# ---- writing through the workspace ---------------------------------------------------------------------


def test_a_label_after_pi_appended_names_pi_s_entries_and_the_label(tmp_path):
    """The bug this design fixes: pi's lines, read to write the label, were linked but never announced."""
    path = write(tmp_path / "s.jsonl", *chain(3))
    workspace = opened(path)
    session = workspace.session
    pi = pi_appends(path, message("m3", "m2", "user", "pi wrote this", second=9))
    label_id, change = write_label(workspace, "m0", "first")
    assert change.appended == (*pi, label_id) and change.leaf_before == "m2"
    written = orjson.loads(path.read_bytes().splitlines()[-1])
    assert written["id"] == label_id and written["parentId"] == "m3" and written["label"] == "first"
    assert list(session.entries)[-2:] == ["m3", label_id] and session.labels == {"m0": "first"}
    assert workspace.selected == "m3"  # it was on the head, and follows pi's head (a label is not conversation)
    assert not workspace.follow()  # nothing is left to announce later
    fresh = Session.load(path)
    assert list(fresh.entries) == list(session.entries) and fresh.labels == session.labels


def test_labelling_the_selected_leaf_leaves_the_selection_on_it_and_it_still_follows_pi(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    workspace = opened(path)
    assert workspace.selected == "m2"
    label_id, change = write_label(workspace, "m2", "checkpoint")
    assert change == Change(appended=(label_id,), leaf_before="m2")
    assert workspace.selected == "m2" and workspace.session.leaf_id == label_id
    _, change = write_label(workspace, "m2", None)  # Clear Label acts on the entry the user labelled
    assert workspace.selected == "m2" and workspace.session.labels == {}
    pi_appends(path, message("m3", change.appended[0], "user", second=9))
    assert workspace.follow().selection and workspace.selected == "m3"


def test_an_empty_label_clears(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2))
    workspace = opened(path)
    write_label(workspace, "m0", "x")
    label_id, change = write_label(workspace, "m0", "")
    assert change.appended == (label_id,) and workspace.session.labels == {}
    assert "label" not in orjson.loads(path.read_bytes().splitlines()[-1])


def test_a_failed_write_still_hands_out_what_was_read_before_it(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2))
    workspace = opened(path)
    pi_appends(path, message("m2", "m1", "user", second=5))
    before = path.read_bytes()

    def catch_up_then_fail(session):
        read_appended(session)
        raise OSError("the disk is full")

    with pytest.raises(WriteFailed) as failed:
        workspace.append(catch_up_then_fail)
    assert isinstance(failed.value.error, OSError) and "disk is full" in str(failed.value)
    assert failed.value.change == Change(appended=("m2",), leaf_before="m1", selection=True)
    assert "m2" in workspace.session.entries and path.read_bytes() == before


def test_a_label_for_no_entry_is_refused_before_anything_is_read(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2))
    workspace = opened(path)
    with pytest.raises(WriteFailed, match="nosuch") as failed:
        write_label(workspace, "nosuch", "x")
    assert isinstance(failed.value.error, SessionLoadError) and not failed.value.change
    with pytest.raises(SessionLoadError, match="nosuch"):
        workspace.label_write("nosuch", "x")


def test_a_label_into_a_file_replaced_underneath_is_not_written_and_asks_for_a_reload(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    workspace = opened(path)
    other = write(tmp_path / "other.jsonl", *chain(2))
    replaced = other.read_bytes()
    other.replace(path)
    with pytest.raises(WriteFailed) as failed:
        write_label(workspace, "m0", "kept")
    assert "replaced" in str(failed.value) and failed.value.change.reload
    assert path.read_bytes() == replaced


def test_any_writer_goes_through_the_same_pipeline(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2))
    workspace = opened(path)
    pi = pi_appends(path, message("m2", "m1", "user", second=5))

    def two_lines(session):
        read_appended(session)  # a writer catches up first, so its parent is pi's last entry
        assert session.leaf_id == "m2"
        pi_appends(path, entry("custom", "c1", "m2", 6, customType="x"), entry("custom", "c2", "c1", 7, customType="x"))
        return "done"

    result, change = workspace.append(two_lines)
    assert result == "done" and change.appended == (*pi, "c1", "c2")


def test_writing_without_a_session_is_refused():
    with pytest.raises(SessionLoadError):
        write_label(Workspace(), "x", "y")


# ---- selection, comparison, answers -------------------------------------------------------------------


def test_select_reports_only_real_moves(tmp_path):
    workspace = opened(write(tmp_path / "s.jsonl", *chain(3)))
    assert workspace.select("m0") == Change(selection=True)
    assert not workspace.select("m0")
    assert not workspace.select("nosuch") and workspace.selected == "m0"
    assert workspace.select(None) == Change(selection=True) and workspace.selected is None


def test_compare_pairs_and_stops(tmp_path):
    workspace = opened(write(tmp_path / "s.jsonl", *chain(3)))
    assert workspace.comparison() is None
    assert workspace.set_compare("m0", "m2") == Change(compare=True)
    assert not workspace.set_compare("m0", "m2")
    assert workspace.comparison().common_ancestor == "m0"
    assert workspace.set_compare(None, None) == Change(compare=True) and workspace.compared is None


def test_answers_are_kept_for_one_version_of_a_session(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    workspace = opened(path)
    context, provenance, stats = workspace.context("m2"), workspace.provenance("m2"), workspace.stats("m2")
    assert workspace.context("m2") is context and workspace.provenance("m2") is provenance and workspace.stats("m2") is stats
    assert len(context.messages) == 3 and list(provenance) == ["m0", "m1", "m2"] and stats.messages == 3
    pi_appends(path, message("m3", "m2", "user", second=5))
    workspace.follow()
    # An append is a new version: answers are worked out again (the same), the new leaf's too.
    assert workspace.context("m2") is not context and workspace.context("m2").messages == context.messages
    assert workspace.context("m3").messages[:3] == context.messages
    workspace.replace(Session.load(path))
    assert workspace.provenance("m3") is not None and workspace.stats("m3").messages == 4


def test_a_background_check_adds_problems_or_asks_for_a_strict_reload(tmp_path):
    cut = b'{"type":"message","id":"x","parentId":"m1","timestamp":"2026-10-30T09:00:09.000Z","message":{"role":"user","content":{"a":1}'
    path = write(tmp_path / "s.jsonl", *chain(2), cut, message("m2", "m1", "user", second=5))
    workspace = opened(path)
    session = workspace.session
    assert not workspace.validated(Session.load(path), *session.validate())  # a session no longer shown
    change = workspace.validated(session, *session.validate())
    assert change.reload and change.strict
    workspace = opened(write(tmp_path / "c.jsonl", *chain(2)))
    assert workspace.validated(workspace.session, *workspace.session.validate()) == Change()
    found = Problem(workspace.session.path, 2, "odd")
    assert workspace.validated(workspace.session, [found], []) == Change(problems=True)
    assert workspace.session.problems == [found]


def test_changes_add_up(tmp_path):
    first = Change(appended=("a",), leaf_before="x", selection=True)
    assert first.then(Change(appended=("b",), leaf_before="a", reload="why")) == Change(
        appended=("a", "b"), leaf_before="x", selection=True, reload="why"
    )
    assert Change().then(Change(replaced=True, same_file=True)) == Change(replaced=True, same_file=True)
    assert not Change() and Change(problems=True)


def test_a_fixture_followed_line_by_line_is_announced_entry_by_entry(tmp_path):
    lines = (FIXTURES / "generated-s3.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(lines[:5]))
    workspace = opened(path)
    announced = list(workspace.session.entries)
    for start in range(5, len(lines), 23):
        with open(path, "ab") as handle:
            handle.write(b"".join(lines[start : start + 23]))
        announced += workspace.follow().appended
    assert announced == list(Session.load(path).entries) == list(workspace.session.entries)
    assert workspace.selected == workspace.session.leaf_id


def test_a_file_that_vanished_asks_for_a_reload(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(2))
    workspace = opened(path)
    os.remove(path)
    assert workspace.follow().reload
    assert Workspace().follow().reload  # nothing shown: the caller retries the file it was asked for


def test_the_composition_of_each_node_is_the_full_statements_whatever_was_asked_before():
    """The window asks the workspace what a context is made of; it adds up only what differs from
    the context asked before (steps along a path, jumps across branches), and answers as the full
    statement does."""
    from pibrowser.model import resolve
    from pibrowser.model.tokens.composition import context_composition

    workspace = Workspace()
    session = Session.load(FIXTURES / "generated-s4.jsonl")
    workspace.replace(session)
    leaf = session.leaf_id
    keys = session.path_to(leaf)[::-1][:60] + list(session.entries)[::7]
    for key in keys:
        assert workspace.composition(key) == context_composition(resolve(session, key)), key
