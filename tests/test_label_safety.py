"""A label write never costs pi a byte: full disks, lines pi is still writing, files renamed over.

Every test checks the file byte for byte: what was there stays, every line pi wrote parses,
pi's entries are all present.
"""

import errno
import json
import os

import orjson
import pytest

from pibrowser.model import Session, SessionLoadError
from pibrowser.model.session.follow import read_appended
from pibrowser.model.session.reader import FINGERPRINT_SIZE
from pibrowser.model.writing.label_writer import Patience, append_label, append_label_to

from .hostile import LOADABLE, REFUSED, digest, make
from .sessions import chain, message, write

PI_LINE = orjson.dumps(message("pi1", "m2", "user", "hello", second=9))
CUT = len(PI_LINE) - 7  # pi has written `…"content":"hel` so far


class FakeTime:
    """A clock that moves only when the writer sleeps; `on_sleep` plays pi meanwhile."""

    def __init__(self, on_sleep=None):
        self.now = 100.0
        self.sleeps = 0
        self.on_sleep = on_sleep

    def clock(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps += 1
        self.now += seconds
        if self.on_sleep is not None:
            self.on_sleep(self.sleeps)

    def patience(self, seconds=2.0):
        return Patience(seconds=seconds, clock=self.clock, sleep=self.sleep)


def pi_appends(path, data):
    with open(path, "ab") as handle:
        handle.write(data)


def lines_of(path):
    return path.read_bytes().split(b"\n")


def assert_pi_lines_parse(path, pi_ids):
    ids = []
    for raw in path.read_bytes().splitlines():
        if raw.strip():
            ids.append(orjson.loads(raw).get("id"))
    for key in pi_ids:
        assert key in ids


def short_writes(monkeypatch, path, *, first, then_error=errno.ENOSPC, between=None):
    """os.write to `path` writes only `first` bytes once, then fails with `then_error`."""
    real = os.write
    inode = os.stat(path).st_ino
    calls = []

    def fake(fd, data):
        try:
            ours = os.fstat(fd).st_ino == inode
        except OSError:
            ours = False
        if not ours:
            return real(fd, data)
        calls.append(len(data))
        if len(calls) == 1:
            written = real(fd, bytes(data[:first]))
            if between is not None:
                between()
            return written
        raise OSError(then_error, os.strerror(then_error))

    monkeypatch.setattr(os, "write", fake)
    return calls


# ---- 1. a full disk ---------------------------------------------------------------


def test_a_short_write_that_cannot_finish_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    path = write(tmp_path / "s.jsonl", *chain(3))
    before = path.read_bytes()
    calls = short_writes(monkeypatch, path, first=40)
    with pytest.raises(SessionLoadError, match="(?i)no space|full"):
        append_label(path, "m1", "x" * 3000)
    assert len(calls) == 2  # the remainder was tried once more before giving up
    assert path.read_bytes() == before
    # pi's next append lands on a line of its own and parses.
    pi_appends(path, PI_LINE + b"\n")
    assert Session.load(path, lazy=False).problems == []
    assert_pi_lines_parse(path, ["m0", "m1", "m2", "pi1"])


def test_a_short_write_is_completed_when_space_comes_back(tmp_path, monkeypatch):
    path = write(tmp_path / "s.jsonl", *chain(3))
    before = path.read_bytes()
    real = os.write
    inode = os.stat(path).st_ino
    calls = []

    def halves(fd, data):
        if os.fstat(fd).st_ino != inode:
            return real(fd, data)
        calls.append(len(data))
        return real(fd, bytes(data[: max(1, len(data) // 2)]))

    monkeypatch.setattr(os, "write", halves)
    new_id = append_label(path, "m1", "finished")
    assert len(calls) > 1
    after = path.read_bytes()
    assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1
    assert Session.load(path, lazy=False).labels == {"m1": "finished"}
    assert orjson.loads(after[len(before) :])["id"] == new_id


def test_bytes_pi_appended_after_a_partial_write_are_never_removed(tmp_path, monkeypatch):
    path = write(tmp_path / "s.jsonl", *chain(3))
    before = path.read_bytes()
    short_writes(monkeypatch, path, first=40, between=lambda: pi_appends(path, PI_LINE + b"\n"))
    with pytest.raises(SessionLoadError, match="pi appended"):
        append_label(path, "m1", "x" * 3000)
    after = path.read_bytes()
    assert after.startswith(before)
    assert after.endswith(PI_LINE + b"\n")  # pi's bytes stay, whatever else happens


def test_a_write_refused_at_once_changes_nothing(tmp_path, monkeypatch):
    path = write(tmp_path / "s.jsonl", *chain(3))
    before = path.read_bytes()
    short_writes(monkeypatch, path, first=0)
    with pytest.raises(SessionLoadError, match="(?i)no space|full"):
        append_label(path, "m1", "x")
    assert path.read_bytes() == before


def test_too_little_free_space_is_found_before_writing(tmp_path, monkeypatch):
    path = write(tmp_path / "s.jsonl", *chain(3))
    before = path.read_bytes()
    real = os.fstatvfs

    class Full:
        def __init__(self, fd):
            stats = real(fd)
            self.f_frsize, self.f_bsize = stats.f_frsize, stats.f_bsize
            self.f_bavail, self.f_blocks = 0, 1000

    monkeypatch.setattr(os, "fstatvfs", Full)
    calls = short_writes(monkeypatch, path, first=10**9)
    with pytest.raises(SessionLoadError, match="(?i)full"):
        append_label(path, "m1", "x")
    assert calls == []
    assert path.read_bytes() == before


# ---- 2. pi is in the middle of a line -------------------------------------------


def test_the_label_waits_for_pi_to_finish_its_line(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3), PI_LINE[:CUT], newline_at_end=False)
    before = path.read_bytes()
    time = FakeTime(on_sleep=lambda n: n == 3 and pi_appends(path, PI_LINE[CUT:] + b"\n"))
    new_id = append_label(path, "m1", "after pi", patience=time.patience())
    after = path.read_bytes()
    assert after.startswith(before + PI_LINE[CUT:] + b"\n")
    label = orjson.loads(after[len(before) + len(PI_LINE) - CUT + 1 :])
    assert label["id"] == new_id and label["parentId"] == "pi1"  # pi's finished entry is the leaf now
    session = Session.load(path, lazy=False)
    assert session.problems == [] and "pi1" in session.entries and session.labels == {"m1": "after pi"}


def test_a_line_that_stays_unfinished_gets_pis_repair_after_the_wait(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3), PI_LINE[:CUT], newline_at_end=False)
    before = path.read_bytes()
    time = FakeTime()
    append_label(path, "m1", "x", patience=time.patience(seconds=2.0))
    assert time.now - 100.0 >= 2.0  # it did wait the whole window
    after = path.read_bytes()
    assert after.startswith(before + b"\n{")  # pi's own repair: a newline ends the broken line
    assert Session.load(path).labels == {"m1": "x"}


def test_an_old_unfinished_line_is_repaired_without_waiting(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3), PI_LINE[:CUT], newline_at_end=False)
    os.utime(path, (1_000_000, 1_000_000))  # pi stopped writing long ago
    time = FakeTime()
    append_label(path, "m1", "x", patience=time.patience())
    assert time.sleeps == 0
    assert Session.load(path).labels == {"m1": "x"}


def test_a_line_pi_is_still_writing_after_the_wait_is_not_split(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3), PI_LINE[:20], newline_at_end=False)
    sent = [20]

    def slow_pi(n):
        if sent[0] < CUT:
            pi_appends(path, PI_LINE[sent[0] : sent[0] + 1])
            sent[0] += 1

    time = FakeTime(on_sleep=slow_pi)
    with pytest.raises(SessionLoadError, match="still writing"):
        append_label(path, "m1", "x", patience=time.patience(seconds=0.2))
    pi_appends(path, PI_LINE[sent[0] :] + b"\n")
    assert path.read_bytes().endswith(b"\n" + PI_LINE + b"\n")
    assert_pi_lines_parse(path, ["m0", "m1", "m2", "pi1"])


def _old(path):
    os.utime(path, (1_000_000, 1_000_000))  # unchanged for longer than any wait


@pytest.mark.skipif(not os.path.isdir("/proc/self/fdinfo"), reason="who holds a file open is known from /proc (Linux)")
@pytest.mark.parametrize("age", [lambda path: None, _old], ids=["fresh", "old"])
def test_a_half_line_that_a_process_holds_open_for_writing_is_not_repaired(tmp_path, age):
    # pi stalled past the wait but still has the file open: its line is not finished, and a
    # newline of ours would split it when pi goes on.
    path = write(tmp_path / "s.jsonl", *chain(3), PI_LINE[:CUT], newline_at_end=False)
    age(path)
    before = path.read_bytes()
    with open(path, "ab") as pi:
        with pytest.raises(SessionLoadError, match="pi is still writing this session; try again"):
            append_label(path, "m1", "x", patience=FakeTime().patience(seconds=0.2))
        assert path.read_bytes() == before
        pi.write(PI_LINE[CUT:] + b"\n")
    assert path.read_bytes() == before + PI_LINE[CUT:] + b"\n"
    assert_pi_lines_parse(path, ["m0", "m1", "m2", "pi1"])


def test_a_half_line_that_changed_during_the_wait_without_growing_is_not_repaired(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3), PI_LINE[:CUT], newline_at_end=False)
    start = len(path.read_bytes()) - CUT

    def rewrite_half_line(n):
        if n == 2:
            with open(path, "r+b") as handle:
                handle.seek(start)
                handle.write(PI_LINE[:CUT].replace(b"hel", b"HEL"))

    time = FakeTime(on_sleep=rewrite_half_line)
    with pytest.raises(SessionLoadError, match="pi is still writing this session; try again"):
        append_label(path, "m1", "x", patience=time.patience(seconds=0.2))
    assert not path.read_bytes().endswith(b"\n")


# ---- 3. the file at the path is another file now ----------------------------------


def _rename_over(path):
    os.replace(write(path.with_name("other.jsonl"), *chain(2, prefix="o")), path)


def _rewrite_in_place(path):
    with open(path, "r+b") as handle:  # same inode, same size, other bytes before the read position
        data = handle.read()
        handle.seek(0)
        handle.write(data.replace(b"say 2", b"SAY 2"))


def _cut_shorter(path):
    path.write_bytes(path.read_bytes()[:-40])


@pytest.mark.parametrize("change, reason", [(_rename_over, "replaced"), (_rewrite_in_place, "changed"), (_cut_shorter, "shorter")])
def test_a_file_that_is_not_the_one_read_gets_no_label(tmp_path, change, reason):
    path = write(tmp_path / "s.jsonl", *chain(3))
    session = Session.load(path)
    change(path)
    now = path.read_bytes()
    with pytest.raises(SessionLoadError, match=reason):
        append_label_to(session, "m1", "x")
    assert path.read_bytes() == now


def test_a_file_renamed_over_between_load_and_write_gets_no_label(tmp_path, monkeypatch):
    path = write(tmp_path / "s.jsonl", *chain(3))
    other = write(tmp_path / "other.jsonl", *chain(4, prefix="m"))  # the same ids, another file
    other_bytes = other.read_bytes()
    real_load = Session.load

    def load_then_rename(*args, **kwargs):
        session = real_load(*args, **kwargs)
        os.replace(other, path)
        return session

    monkeypatch.setattr(Session, "load", load_then_rename)
    with pytest.raises(SessionLoadError, match="replaced"):
        append_label(path, "m1", "x")
    assert path.read_bytes() == other_bytes


def test_a_file_renamed_over_the_path_during_the_wait_gets_no_label(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3), PI_LINE[:CUT], newline_at_end=False)
    other = write(tmp_path / "other.jsonl", *chain(4, prefix="m"))  # `mv T S` while the label waits
    other_bytes = other.read_bytes()
    time = FakeTime(on_sleep=lambda n: n == 2 and os.replace(other, path))
    with pytest.raises(SessionLoadError, match="replaced"):
        append_label(path, "m1", "x", patience=time.patience(seconds=0.2))
    assert path.read_bytes() == other_bytes


def test_the_command_line_fails_in_one_line_when_the_file_is_renamed_over_during_the_wait(tmp_path, monkeypatch, capsys):
    from pibrowser.cli.main import main
    from pibrowser.model.writing import label_writer

    path = write(tmp_path / "s.jsonl", *chain(3), PI_LINE[:CUT], newline_at_end=False)
    other = write(tmp_path / "other.jsonl", *chain(4, prefix="m"))
    other_bytes = other.read_bytes()
    time = FakeTime(on_sleep=lambda n: n == 2 and os.replace(other, path))
    monkeypatch.setattr(label_writer, "PATIENCE", time.patience(seconds=0.2))
    assert main(["label", str(path), "m1", "x"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 2  # the note that it waits, then why nothing was written
    assert err.splitlines()[1].startswith(f"pibrowser: {path}: label not written") and "replaced" in err
    assert path.read_bytes() == other_bytes


def _rewrite_early_bytes(path):
    # Same inode, same size, the last bytes as they were: only an early line differs (m1 becomes q1).
    data = path.read_bytes()
    changed = data.replace(b'"id":"m1"', b'"id":"q1"').replace(b'"parentId":"m1"', b'"parentId":"q1"')
    assert len(changed) == len(data) and changed[-FINGERPRINT_SIZE:] == data[-FINGERPRINT_SIZE:]
    with open(path, "r+b") as handle:
        handle.write(changed)


@pytest.mark.parametrize("followed", [False, True], ids=["as-loaded", "after-an-append"])
def test_a_same_size_rewrite_of_early_bytes_gets_no_label(tmp_path, followed):
    path = write(tmp_path / "s.jsonl", *chain(12))
    session = Session.load(path)
    if followed:  # the digest covers what was appended too
        pi_appends(path, PI_LINE.replace(b'"m2"', b'"m11"') + b"\n")
        assert [entry.id for entry in read_appended(session)] == ["pi1"]
    _rewrite_early_bytes(path)
    now = path.read_bytes()
    with pytest.raises(SessionLoadError, match="changed"):
        append_label_to(session, "m5", "x")
    assert path.read_bytes() == now


def test_a_session_followed_through_appends_is_still_labelled(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    session = Session.load(path)
    pi_appends(path, PI_LINE + b"\n")
    assert [entry.id for entry in read_appended(session)] == ["pi1"]
    append_label_to(session, "m1", "x")
    assert Session.load(path).labels == {"m1": "x"}


# ---- the hostile corpus ---------------------------------------------------------


@pytest.mark.parametrize("name", sorted(LOADABLE - {"huge_line"}))
def test_labelling_any_loadable_file_only_appends_one_line(tmp_path, name):
    path = make(tmp_path, name)
    before = path.read_bytes()
    session = Session.load(path)
    target = next(key for key in session.entries if not key.startswith("@line"))
    time = FakeTime()
    new_id = append_label(path, target, "corpus", patience=time.patience())
    after = path.read_bytes()
    assert after.startswith(before)
    added = after[len(before) :]
    if not before.endswith(b"\n"):
        assert added.startswith(b"\n")  # pi's repair of a line it never finished, after the wait
        assert time.sleeps > 0
    label = json.loads(added)  # the parent may hold a lone surrogate, as JSON.stringify writes it
    assert added.endswith(b"\n") and added.strip().count(b"\n") == 0
    assert label["id"] == new_id and label["targetId"] == target
    assert Session.load(path).labels[target] == "corpus"


@pytest.mark.parametrize("name", sorted(REFUSED - {"unreadable"}))
def test_a_file_that_is_no_session_gets_no_label(tmp_path, name):
    path = make(tmp_path, name)
    before = digest(path)
    with pytest.raises(SessionLoadError):
        append_label(path, "m1", "x", patience=FakeTime().patience())
    assert digest(path) == before


def test_the_command_line_says_why_it_pauses(tmp_path, monkeypatch, capsys):
    from pibrowser.cli.main import main
    from pibrowser.model.writing import label_writer

    path = write(tmp_path / "s.jsonl", *chain(3), PI_LINE[:CUT], newline_at_end=False)
    time = FakeTime(on_sleep=lambda n: n == 2 and pi_appends(path, PI_LINE[CUT:] + b"\n"))
    monkeypatch.setattr(label_writer, "PATIENCE", time.patience())
    assert main(["label", str(path), "m1", "after pi"]) == 0
    out, err = capsys.readouterr()
    assert err == label_writer.WAITING_FOR_PI + "\n"
    assert out == orjson.loads(path.read_bytes().splitlines()[-1])["id"] + "\n"
    assert Session.load(path, lazy=False).problems == []
