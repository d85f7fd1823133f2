"""Finding pi's sessions: PI_CODING_AGENT_DIR, newest first, header and first message."""

import os

from pibrowser.model.discovery import find_sessions, sessions_dir

from .sessions import HEADER, chain, write


def test_sessions_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    assert sessions_dir() == tmp_path / "agent" / "sessions"
    monkeypatch.delenv("PI_CODING_AGENT_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert sessions_dir() == tmp_path / ".pi" / "agent" / "sessions"


def test_find_sessions_newest_first_with_cwd_and_first_message(tmp_path):
    folder = tmp_path / "sessions" / "--home-me-proj--"
    folder.mkdir(parents=True)
    old = write(folder / "2026-01-01T00-00-00-000Z_a.jsonl", *chain(3), header={**HEADER, "cwd": "/home/me/proj"})
    new = write(folder / "2026-02-01T00-00-00-000Z_b.jsonl", *chain(1))
    os.utime(old, (1000, 1000))
    (folder / "notes.txt").write_text("not a session")
    found = find_sessions(tmp_path / "sessions")
    assert [info.path for info in found] == [new, old]
    assert found[1].cwd == "/home/me/proj" and found[1].first_message == "say 0"
    assert found[1].started == HEADER["timestamp"]


def test_missing_folder_has_no_sessions(tmp_path):
    assert find_sessions(tmp_path / "none") == []


def test_newest_session_uses_file_times(tmp_path):
    from pibrowser.model.discovery import newest_session

    folder = tmp_path / "sessions" / "--p--"
    folder.mkdir(parents=True)
    old = write(folder / "a.jsonl", *chain(1))
    new = write(folder / "b.jsonl", *chain(1))
    os.utime(old, (5000, 5000))
    os.utime(new, (1000, 1000))
    assert newest_session(tmp_path / "sessions") == old
    assert newest_session(tmp_path / "nothing") is None
    assert newest_session(new) == new
