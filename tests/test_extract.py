"""A branch written as a session of its own, checked against what pi's createBranchedSession wrote."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import orjson
import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.writing.extract import ExtractError, branch_of, extract_branch
from pibrowser.model.js.stringify import dump_json

from .conftest import FIXTURES
from .sessions import entry, message, write

WITH_BRANCHES = sorted(FIXTURES.glob("*.branches.json")) + sorted((FIXTURES / "bytes").glob("*.branches.json"))
NAMES = [path.name.removesuffix(".branches.json") for path in WITH_BRANCHES]
FILE_NAME = re.compile(
    r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_([0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})\.jsonl"
)


def _answers(path: Path) -> tuple[bytes, dict]:
    raw = path.read_bytes()
    return raw, json.loads(raw)


def _session_file(answers: Path) -> Path:
    return answers.with_name(answers.name.removesuffix(".branches.json") + ".jsonl")


def test_fixtures_cover_the_cases_the_rules_are_about():
    """Paths through labels, compactions whose first kept entry is a label, and branch summaries."""
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    _, answers = _answers(FIXTURES / "generated-s5.branches.json")
    through = {"label": 0, "compaction->label": 0, "branch_summary": 0}
    for node, entries in answers.items():
        if entries is None:
            continue
        for item in (session.entries[key] for key in session.path_to(node)):
            if item.type == "label":
                through["label"] += 1
            elif item.type == "branch_summary":
                through["branch_summary"] += 1
            elif item.type == "compaction" and session.entries.get(item.get("firstKeptEntryId")) is not None:
                through["compaction->label"] += session.entries[item.get("firstKeptEntryId")].type == "label"
    assert all(through.values()), through


@pytest.mark.parametrize("answers_path", WITH_BRANCHES, ids=NAMES)
def test_entries_are_the_bytes_pi_wrote(answers_path):
    assert_branches_are_pis(Session.load(_session_file(answers_path)), answers_path.read_bytes())


def assert_branches_are_pis(session: Session, raw: bytes, known_only: bool = False) -> None:
    """Every line after the header is JSON.stringify's bytes of pi's entry; minted label ids aside.

    `raw` is pi's answers as JSON.stringify wrote them, {node: [entries] | null}, so pi's
    entries for a node appear in it verbatim, in the order json.loads gives the nodes: each is
    looked for after the one before (a search of the whole answer per node would read it n times).
    """
    at = 0
    for node, expected in json.loads(raw).items():
        if known_only and node not in session.entries:
            continue  # (an id that is not a string, keyed by its String(), or one pi minted)
        branch = branch_of(session, node)
        if expected is None:
            assert not branch.has_conversation, node
            continue
        assert branch.has_conversation, node
        lines = [line.rstrip(b"\n") for line in branch.lines()[1:]]
        shown = [
            dump_json({**item, "id": None, "parentId": None}) if item.get("type") == "label" else line
            for item, line in zip(branch.entries, lines, strict=True)
        ]
        segment = dump_json(node) + b":[" + b",".join(shown) + b"]"  # the key as JSON.stringify writes it (escapes too)
        found = raw.find(segment, at)
        assert found >= 0, node
        at = found + len(segment)
        _assert_labels_chained(branch.entries)


def _assert_labels_chained(entries: list[dict]) -> None:
    path = [item for item in entries if item.get("type") != "label"]
    labels = entries[len(path) :]
    assert all(item.get("type") == "label" for item in labels)
    ids = {item["id"] for item in path}
    parent = path[-1]["id"]
    for label in labels:
        assert re.fullmatch(r"[0-9a-f]{8}", label["id"]) and label["id"] not in ids
        assert label["parentId"] == parent
        ids.add(label["id"])
        parent = label["id"]
    for before, after in zip(path, path[1:]):
        assert after["parentId"] == before["id"]
    assert path[0]["parentId"] is None


@pytest.mark.parametrize("answers_path", WITH_BRANCHES, ids=NAMES)
def test_written_file_gives_the_nodes_context(answers_path, tmp_path):
    _, answers = _answers(answers_path)
    original = _session_file(answers_path)
    before = original.read_bytes()
    session = Session.load(original)
    out = tmp_path / "out"
    for node, expected in answers.items():
        written = extract_branch(session, node, out)
        if expected is None:
            assert written is None
            continue
        assert written.parent == out and FILE_NAME.fullmatch(written.name), written
        copy = Session.load(written, lazy=False)
        assert not copy.problems, copy.problems
        header = copy.header
        assert list(header) == ["type", "version", "id", "timestamp", "cwd", "parentSession"]
        assert header["type"] == "session" and header["version"] == 3
        assert written.name.endswith(f"_{header['id']}.jsonl")
        assert header["timestamp"].replace(":", "-").replace(".", "-") == written.name.split("_")[0]
        cwd = session.header["cwd"]  # pi resolves a relative one (a Windows path, here) against its own folder
        assert header["cwd"] == (cwd if cwd.startswith("/") else os.path.normpath(os.path.join(os.getcwd(), cwd)))
        assert header["parentSession"] == str(original)
        # Compared as JSON.stringify prints them: 2**64 and its rounded spelling are one JS number.
        assert dump_json(resolve(copy, copy.leaf_id).to_pi()) == dump_json(resolve(session, node).to_pi()), node
        assert copy.labels == {key: label for key, label in session.labels.items() if key in copy.entries}
    assert original.read_bytes() == before
    assert not [path for path in out.iterdir() if not FILE_NAME.fullmatch(path.name)]


def test_default_folder_is_the_originals(tmp_path):
    original = tmp_path / "project" / "blog.jsonl"
    original.parent.mkdir()
    shutil.copyfile(FIXTURES / "blog-example.jsonl", original)
    session = Session.load(original)
    written = extract_branch(session, session.leaf_id)
    assert written.parent == original.parent
    assert sorted(path.name for path in original.parent.iterdir()) == sorted(["blog.jsonl", written.name])


def test_nothing_written_before_the_conversation(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        entry("model_change", "a", None, provider="p", modelId="m"),
        message("b", "a", "system", "be brief"),
        message("c", "b", "user", "hello"),
    )
    session = Session.load(path)
    assert extract_branch(session, "b", tmp_path / "out") is None
    assert not (tmp_path / "out").exists()
    # A user message is enough for pi to write the file.
    assert extract_branch(session, "c", tmp_path / "out") is not None


def test_relative_and_home_cwd_resolved_as_pi_does(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    for cwd, expected in (("~/code/app/", tmp_path / "home/code/app"), ("rel/../dir", tmp_path / "dir")):
        header = {"type": "session", "version": 3, "id": "s", "timestamp": "2026-10-30T09:00:00.000Z", "cwd": cwd}
        path = write(tmp_path / "s.jsonl", message("a", None, "user", "hi"), header=header)
        assert branch_of(Session.load(path), "a").header["cwd"] == str(expected)


def test_unknown_node_is_refused(tmp_path):
    session = Session.load(FIXTURES / "blog-example.jsonl")
    with pytest.raises(ExtractError, match="no entry with id 'nope'"):
        extract_branch(session, "nope", tmp_path)
    assert not list(tmp_path.iterdir())


def test_unwritable_folder_leaves_nothing(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    session = Session.load(FIXTURES / "blog-example.jsonl")
    with pytest.raises(ExtractError, match="cannot write the new session here"):
        extract_branch(session, session.leaf_id, blocker / "sub")
    assert [path.name for path in tmp_path.iterdir()] == ["a-file"]


def test_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    session = Session.load(FIXTURES / "generated-s3.jsonl")

    def refuse(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", refuse)
    with pytest.raises(ExtractError, match="No space left on device"):
        extract_branch(session, session.leaf_id, tmp_path)
    assert not list(tmp_path.iterdir())


def _taken_meanwhile(monkeypatch, folder, theirs):
    """Another program creates a file under the new name once ours is written, before it is named."""
    real_fsync = os.fsync
    taken = []

    def fsync_then_take_the_name(fd):
        real_fsync(fd)
        temporary = next(folder.glob(".*.tmp"))
        taken.append(folder / temporary.name[1:].rsplit(".", 2)[0])
        taken[-1].write_bytes(theirs)

    monkeypatch.setattr(os, "fsync", fsync_then_take_the_name)
    return taken


@pytest.mark.parametrize("links", [True, False], ids=["hard-links", "no-hard-links"])
def test_a_file_that_takes_the_new_name_meanwhile_is_never_overwritten(tmp_path, monkeypatch, links):
    session = Session.load(FIXTURES / "generated-s3.jsonl")
    if not links:  # a filesystem without hard links (FAT, some network shares)
        monkeypatch.setattr(os, "link", lambda *args: (_ for _ in ()).throw(OSError(1, "Operation not permitted")))
    taken = _taken_meanwhile(monkeypatch, tmp_path, b"theirs\n")
    with pytest.raises(ExtractError, match="exists already; nothing written"):
        extract_branch(session, session.leaf_id, tmp_path)
    assert list(tmp_path.iterdir()) == taken and taken[0].read_bytes() == b"theirs\n"


def test_without_hard_links_the_new_file_is_written_whole(tmp_path, monkeypatch):
    session = Session.load(FIXTURES / "generated-s3.jsonl")
    expected = extract_branch(session, session.leaf_id, tmp_path / "with").read_bytes()
    monkeypatch.setattr(os, "link", lambda *args: (_ for _ in ()).throw(OSError(1, "Operation not permitted")))
    written = extract_branch(session, session.leaf_id, tmp_path / "without")
    assert list(written.parent.iterdir()) == [written]
    assert [orjson.loads(line)["id"] for line in written.read_bytes().splitlines()[1:]] == [
        orjson.loads(line)["id"] for line in expected.splitlines()[1:]
    ]


def test_label_entries_keep_their_timestamps_and_order(tmp_path):
    """Labels follow the path in pi's label-map order: a cleared and set-again label moves last."""
    path = write(
        tmp_path / "s.jsonl",
        message("a", None, "user", "hi", second=1),
        message("b", "a", "assistant", [{"type": "text", "text": "yo"}], second=2),
        entry("label", "l1", "b", 3, targetId="a", label="first"),
        entry("label", "l2", "l1", 4, targetId="b", label="second"),
        entry("label", "l3", "l2", 5, targetId="a"),
        entry("label", "l4", "l3", 6, targetId="a", label="again"),
        message("c", "l4", "user", "more", second=7),
        entry("compaction", "k", "c", 8, summary="s", firstKeptEntryId="l2", tokensBefore=5),
    )
    branch = branch_of(Session.load(path), "k")
    assert [item["id"] for item in branch.entries[:4]] == ["a", "b", "c", "k"]
    assert branch.entries[2]["parentId"] == "b"
    assert branch.entries[3]["firstKeptEntryId"] == "c"  # the label it named is gone; the next kept entry
    labels = branch.entries[4:]
    assert [(item["targetId"], item["label"], item["timestamp"]) for item in labels] == [
        ("b", "second", "2026-10-30T09:00:04.000Z"),
        ("a", "again", "2026-10-30T09:00:06.000Z"),
    ]
    assert orjson.loads(branch.lines()[-1]) == labels[-1]


def test_new_file_gets_the_usual_permissions(tmp_path):
    session = Session.load(FIXTURES / "blog-example.jsonl")
    mask = os.umask(0o022)
    try:
        written = extract_branch(session, session.leaf_id, tmp_path)
    finally:
        os.umask(mask)
    assert written.stat().st_mode & 0o777 == 0o644  # as pi's own files: readable, not private
