"""Old-format files (issue 25, item 2): ids that stay the same, labels refused, and the upgrade.

A version 1 file has no ids; pi gives its entries random ones when it rewrites the file. We
make them from the session's id and the line (`stable_id`), so every load, the command line,
the search index and an upgrade agree. tests/test_against_pi.py compares the upgrade with
pi's own migration.
"""

from __future__ import annotations

import os
import re

import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.js.stringify import dump_json
from pibrowser.model.js.value import MISSING
from pibrowser.model.session.migration import stable_id
from pibrowser.model.library.search_index import SearchIndex
from pibrowser.model.session.problems import SessionLoadError
from pibrowser.model.writing.label_writer import append_label
from pibrowser.model.writing.upgrade import UpgradeError, upgrade

from .cli_run import run as in_process
from .cli_run import run_process
from .old_files import OLD_FILES, old_files


def run(*args: object):
    return in_process(*args, text=True)


@pytest.fixture(params=sorted(old_files()))
def old_file(request, tmp_path):
    path = tmp_path / f"{request.param}.jsonl"
    path.write_bytes(old_files()[request.param])
    return path


def test_a_version_1_file_shows_the_same_ids_on_every_load(tmp_path):
    path = tmp_path / "v1.jsonl"
    path.write_bytes(OLD_FILES["v1-every-case"])
    first, second = Session.load(path), Session.load(path)
    assert list(first.entries) == list(second.entries)
    assert all(re.fullmatch(r"[0-9a-f]{8}", key) for key in first.entries)
    # Made from the session's id and the line: the entry on line 3 has the id of line 3.
    assert first.file_order[0].line == 3 and first.file_order[0].id == stable_id("s1", 3)
    assert run("tree", path, "--format", "json").stdout == run("tree", path, "--format", "json").stdout


def test_stable_ids_differ_by_line_and_by_session():
    ids = {stable_id("s1", line) for line in range(1, 100_001)}
    assert len(ids) == 100_000
    assert stable_id("s1", 7) != stable_id("s2", 7)


def test_an_id_printed_by_the_tree_is_one_the_next_command_knows(tmp_path):
    path = tmp_path / "v1.jsonl"
    path.write_bytes(OLD_FILES["v1-every-case"])
    key = Session.load(path).leaf_id
    assert key in run("tree", path).stdout
    shown = run("context", path, "--leaf", key)
    assert shown.returncode == 0, shown.stderr


def test_a_label_on_an_old_file_is_refused_with_one_line_saying_why(tmp_path):
    for name, version in (("v1-every-case", "1"), ("v2", "2")):
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(OLD_FILES[name])
        before = path.read_bytes()
        key = Session.load(path).leaf_id
        with pytest.raises(SessionLoadError) as refused:
            append_label(path, key, "x")
        assert f"version {version}" in str(refused.value) and "pibrowser upgrade" in str(refused.value)
        assert "\n" not in str(refused.value)
        result = run("label", path, key, "x")
        assert result.returncode == 1 and result.stderr.count("\n") == 1 and "upgrade" in result.stderr
        assert path.read_bytes() == before


def test_the_upgrade_keeps_every_id_and_context_and_the_original_beside_it(old_file):
    original = old_file.read_bytes()
    before = Session.load(old_file, lazy=False)
    done = upgrade(old_file)
    assert done.backup.read_bytes() == original
    assert done.backup.name == old_file.name + (".v2.bak" if old_file.stem.startswith("v2") else ".v1.bak")
    after = Session.load(old_file, lazy=False)
    assert after.header["version"] == 3
    if "array" in old_file.stem:
        # pi gives an array an id in memory that no JSON shows: read again, the line is an entry without one.
        arrays = {entry.line for entry in before.file_order if entry.type is MISSING}
        assert arrays and [(e.line, e.id if e.line not in arrays else None) for e in after.file_order] == [
            (e.line, e.id if e.line not in arrays else None) for e in before.file_order
        ]
    else:
        assert list(after.entries) == list(before.entries)
    keys = list(before.entries)
    if "array" not in old_file.stem:  # our view has no place for an array (pi's invisible id)
        # Every entry as the migration in memory made it (its id and parent too): a context is made
        # of its path's entries alone, so every context is as before. A spread of them shows it.
        assert [dump_json(entry.data) for entry in after.entries.values()] == [dump_json(entry.data) for entry in before.entries.values()]
        for key in keys[:: max(1, len(keys) // 20)] + keys[-1:]:
            assert dump_json(resolve(after, key).to_pi()) == dump_json(resolve(before, key).to_pi())
    assert not [name for name in os.listdir(old_file.parent) if name.endswith(".upgrade")]


def test_a_label_names_the_same_entry_after_the_upgrade(tmp_path):
    path = tmp_path / "v1.jsonl"
    path.write_bytes(OLD_FILES["v1-every-case"])
    key = list(Session.load(path).entries)[2]
    result = run("upgrade", path)
    assert result.returncode == 0, result.stderr
    assert "v1.jsonl.v1.bak" in result.stdout
    assert run("label", path, key, "kept").returncode == 0
    session = Session.load(path)
    assert session.labels == {key: "kept"} and not [p for p in session.problems if "names no entry" in p.reason]


def test_upgrade_refuses_what_it_should_not_rewrite(tmp_path):
    current = tmp_path / "v3.jsonl"
    current.write_bytes(b'{"type":"session","version":3,"id":"s","cwd":"/"}\n')
    with pytest.raises(UpgradeError, match="already in pi's current format"):
        upgrade(current)
    primitive = tmp_path / "primitive.jsonl"  # pi throws on it (it cannot give 42 an id)
    primitive.write_bytes(OLD_FILES["v1-crlf"] + b"42\n")
    with pytest.raises(UpgradeError, match="line 3 holds a number"):
        upgrade(primitive)
    taken = tmp_path / "taken.jsonl"
    taken.write_bytes(OLD_FILES["v1-crlf"])
    (tmp_path / "taken.jsonl.v1.bak").write_bytes(b"mine")
    with pytest.raises(UpgradeError, match="already exists"):
        upgrade(taken)
    assert taken.read_bytes() == OLD_FILES["v1-crlf"] and (tmp_path / "taken.jsonl.v1.bak").read_bytes() == b"mine"
    assert sorted(os.listdir(tmp_path)) == ["primitive.jsonl", "taken.jsonl", "taken.jsonl.v1.bak", "v3.jsonl"]


def test_search_hits_in_an_old_file_carry_its_ids(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    path = folder / "v1.jsonl"
    path.write_bytes(OLD_FILES["v1-every-case"])
    with SearchIndex(tmp_path / "index.sqlite3") as index:
        index.sync(folder)
        hits = index.search("hi", folder)
    assert hits and all(hit.entry == stable_id("s1", hit.line) for hit in hits)
    assert {hit.entry for hit in hits} <= set(Session.load(path).entries)


def test_upgrade_refuses_a_fifo_and_a_device_at_once(tmp_path):
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.jsonl"
    zero.symlink_to("/dev/zero")
    for path, kind in ((fifo, "a FIFO"), (zero, "a device")):
        result = run_process("upgrade", path, text=True, timeout=30)
        assert result.returncode == 1 and result.stderr == f"pibrowser: {path}: is {kind}, not a session file\n"
    assert sorted(os.listdir(tmp_path)) == ["fifo.jsonl", "zero.jsonl"]


def test_upgrade_refuses_what_is_no_session_in_the_header_parsers_words(tmp_path):
    for name, data in (
        ("message-first", b'{"type":"message","id":"m"}\n'),
        ("no-id", b'{"type":"session"}\n{"type":"message"}\n'),
        ("empty", b""),
        ("falsy", b"null\n0\n"),
        ("garbage", b"{not json\n"),
    ):
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(data)
        with pytest.raises(SessionLoadError) as loading:
            Session.load(path)
        with pytest.raises(UpgradeError) as upgrading:
            upgrade(path)
        assert upgrading.value.reason == loading.value.reason, name
        assert path.read_bytes() == data


def test_a_backup_that_cannot_be_written_whole_leaves_nothing_and_the_next_upgrade_works(tmp_path, monkeypatch):
    # A filesystem without hard links copies the original; a full disk fails the copy: no cut
    # FILE.v1.bak may stay behind, or every later upgrade would refuse over it.
    path = tmp_path / "v1.jsonl"
    path.write_bytes(OLD_FILES["v1-every-case"])

    def no_link(*args):
        raise PermissionError(1, "Operation not permitted")

    real_fsync = os.fsync

    def full_disk_under_the_backup(fd):
        if ".bak" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "link", no_link)
    monkeypatch.setattr(os, "fsync", full_disk_under_the_backup)
    with pytest.raises(UpgradeError, match="No space left on device"):
        upgrade(path)
    assert os.listdir(tmp_path) == ["v1.jsonl"] and path.read_bytes() == OLD_FILES["v1-every-case"]
    monkeypatch.setattr(os, "fsync", real_fsync)
    done = upgrade(path)
    assert done.backup.read_bytes() == OLD_FILES["v1-every-case"] and sorted(os.listdir(tmp_path)) == ["v1.jsonl", "v1.jsonl.v1.bak"]
