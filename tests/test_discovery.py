"""Finding pi's sessions: PI_CODING_AGENT_DIR, every file, header and first message as the session list reads them."""

import os

from pibrowser.model.library.discovery import initial_path, sessions_dir, start_target
from pibrowser.model.library.session_list import SummaryCache, scan_sessions

from .sessions import HEADER, chain, write


def test_sessions_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    assert sessions_dir() == tmp_path / "agent" / "sessions"
    monkeypatch.delenv("PI_CODING_AGENT_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert sessions_dir() == tmp_path / ".pi" / "agent" / "sessions"


def listed(root):
    return scan_sessions(root, cache=SummaryCache(root.parent / "list.json"))


def test_every_session_file_with_cwd_and_first_message(tmp_path):
    folder = tmp_path / "sessions" / "--home-me-proj--"
    folder.mkdir(parents=True)
    old = write(folder / "2026-01-01T00-00-00-000Z_a.jsonl", *chain(3), header={**HEADER, "cwd": "/home/me/proj"})
    new = write(folder / "2026-02-01T00-00-00-000Z_b.jsonl", *chain(1))
    os.utime(old, (1000, 1000))
    (folder / "notes.txt").write_text("not a session")
    found = {info.file: info for info in listed(tmp_path / "sessions")}
    assert set(found) == {str(new), str(old)}
    assert found[str(old)].cwd == "/home/me/proj" and found[str(old)].first_message == "say 0"
    assert found[str(old)].created == HEADER["timestamp"]


def test_lines_that_are_not_objects_do_not_hide_the_first_message(tmp_path):
    folder = tmp_path / "sessions" / "--proj--"
    folder.mkdir(parents=True)
    write(folder / "s.jsonl", b"[1]", b"7", b"not json", *chain(2))
    [info] = listed(tmp_path / "sessions")
    assert info.cwd == HEADER["cwd"] and info.first_message == "say 0"


def test_missing_folder_has_no_sessions(tmp_path):
    assert listed(tmp_path / "none") == []


def test_newest_session_uses_file_times(tmp_path):
    from pibrowser.model.library.discovery import newest_session

    folder = tmp_path / "sessions" / "--p--"
    folder.mkdir(parents=True)
    old = write(folder / "a.jsonl", *chain(1))
    new = write(folder / "b.jsonl", *chain(1))
    os.utime(old, (5000, 5000))
    os.utime(new, (1000, 1000))
    assert newest_session(tmp_path / "sessions") == old
    assert newest_session(tmp_path / "nothing") is None
    assert newest_session(new) == new


def test_what_opens_at_start(monkeypatch, tmp_path):
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    folder = tmp_path / "agent" / "sessions" / "--home-me-proj--"
    folder.mkdir(parents=True)
    demo = tmp_path / "demo.jsonl"
    # No session anywhere: the demo, asked for only now; a folder given gets no demo.
    assert initial_path(None, lambda: demo) == start_target(None, lambda: demo) == demo
    assert initial_path(None) is None and initial_path(folder.parent, lambda: demo) is None
    old = write(folder / "a.jsonl", *chain(1))
    new = write(folder / "b.jsonl", *chain(1))
    os.utime(old, (2000, 2000))
    os.utime(new, (1000, 1000))
    assert initial_path(None, lambda: demo) == start_target(None) == old  # the newest of pi's own sessions
    assert initial_path(folder.parent) == old  # the newest in a folder given
    assert start_target(folder.parent) == folder.parent  # a folder opens as itself: the dock lists it
    assert initial_path(new) == start_target(new) == new  # a file given is the file
