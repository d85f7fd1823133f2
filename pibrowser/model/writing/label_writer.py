"""Writing a label the way pi's appendLabelChange does: one appended line, nothing else touched.

The line goes through one descriptor, opened once and checked to be the file the
session was read from. Four things could otherwise cost pi its data or misplace the label:
- another file renamed over the path, before or while the write waits: the label would
  land in a session where its parent and target do not exist, or in a file nobody will
  open again (`check_same_file`, and the path checked again just before writing);
- bytes read before rewritten in place: the label would name entries that are gone
  (`check_unchanged`, against a digest of everything read);
- pi in the middle of a line: a newline of ours would split pi's entry in two, so
  the write waits, bounded, for pi's newline; a half line is repaired as pi repairs it
  only when it stayed the same through the wait and no process holds the file open
  for writing (`LabelWrite.attempt`);
- a full disk: half a line would swallow pi's next entry, so what was written is
  taken back, but only while it is still the end of the file (`_write_whole`).
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, UTC
from collections.abc import Container
from pathlib import Path
from typing import Any, NoReturn
from collections.abc import Callable

from ..session.entry import Entry
from ..session.follow import check_unchanged, read_appended
from ..session.line_layout import entry_line, entry_object
from ..session.same_file import identity
from ..session.problems import NeedsReload, SessionLoadError
from ..session.session import Session
from .open_writers import held_for_writing


class FileChanged(SessionLoadError):
    """The file is not the one the session read, or changed other than by appends: read it again."""


class OldFormat(SessionLoadError):
    """A version 1 or 2 file, which pi rewrites when it next opens it: no label goes into it."""


def old_format_reason(version: int) -> str:
    """Why a label is not written into a file of pi's format 1 or 2, and what to do, on one line."""
    if version == 1:
        why = "pi rewrites it with new ids when it next opens it, so a label would name an entry that is gone"
    else:
        why = "pi rewrites it when it next opens it"
    return (
        f"label not written: the file is in pi's version {version} format and {why}; "
        "upgrade it first (File ▸ Upgrade to pi's Current Format, or `pibrowser upgrade FILE`)"
    )


@dataclass(frozen=True)
class Patience:
    """How long to wait for pi to finish the line it is writing, and how (injectable for tests)."""

    seconds: float = 2.0
    step: float = 0.02
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    wall_clock: Callable[[], float] = time.time  # compared with the file's modification time
    on_wait: Callable[[str], None] | None = None  # told WAITING_FOR_PI once when a write has to wait


WAITING_FOR_PI = "Waiting for pi to finish writing its last line before adding the label…"
STILL_WRITING = "label not written: pi is still writing this session; try again"


PATIENCE = Patience()


def append_label(path: str | Path, target_id: str, label: str | None = None, *, patience: Patience = PATIENCE) -> str:
    """Append a label entry for `target_id` (None clears the label) and return its id.

    The file is read again first, because pi may have appended since we loaded it:
    the new entry's parent is whatever is the last entry now, as in pi.
    """
    return append_label_to(Session.load(Path(path)), target_id, label, patience=patience)


def append_label_to(session: Session, target_id: str, label: str | None = None, *, patience: Patience = PATIENCE) -> str:
    """Append to the file `session` was read from, waiting (blocking) while pi finishes a line."""
    with LabelWrite(session, target_id, label, patience) as write:
        while (entry_id := write.attempt()) is None:
            if patience.on_wait is not None and write.polls == 1:
                patience.on_wait(WAITING_FOR_PI)
            patience.sleep(patience.step)
    return entry_id


class LabelWrite:
    """One label on its way into the file: call `attempt()` until it returns the new entry's id.

    The caller chooses how to wait between attempts (a sleep on the command line, a
    timer in the window, which stays responsive). Entries pi completes meanwhile are
    linked into the session first (`caught_up`), so the label's parent is the last
    entry in the file, as in pi. `waiting` says the write is held back for pi.
    """

    def __init__(self, session: Session, target_id: str, label: str | None, patience: Patience = PATIENCE) -> None:
        if session.migrated_from is not None:
            raise OldFormat(session.path, old_format_reason(session.migrated_from))
        if target_id not in session.entries:
            raise SessionLoadError(session.path, f"no entry with id {target_id!r} to label")
        self.session, self.target_id, self.label, self.patience = session, target_id, label, patience
        self.caught_up: list[Entry] = []
        self.waiting = False
        self.polls = 0
        self._deadline: float | None = None
        self._half_line_seen = b""  # the unfinished last line when the wait began
        self._fd: int | None = _open_for_append(session.path)

    def __enter__(self) -> LabelWrite:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @property
    def _open_fd(self) -> int:
        """The file, for the steps of `attempt` (which refuses a closed write before any)."""
        assert self._fd is not None, "attempt checks first"
        return self._fd

    def attempt(self) -> str | None:
        """Write the label now if the file ends a line; None while pi may still be finishing one."""
        if self._fd is None:
            raise ValueError("the label write is closed")
        self.polls += 1
        self._catch_up()
        size = os.fstat(self._fd).st_size
        unfinished = size > 0 and os.pread(self._fd, 1, size - 1) != b"\n"
        if unfinished:
            if self._keep_waiting(size):
                return None
            self._refuse_unless_abandoned()
        self._check_still_ours()
        entry = label_entry(self.session, self.target_id, self.label)
        line = entry_line(entry)
        # pi's own repair of a line it never finished (loadEntriesFromFile appends "\n").
        _write_whole(self._fd, self.session.path, b"\n" + line if unfinished else line)
        self.close()
        return entry["id"]

    def _catch_up(self) -> None:
        try:
            self.caught_up += read_appended(self.session, self._fd)
        except NeedsReload as reason:
            self.close()
            raise FileChanged(self.session.path, f"label not written: {reason}; read it again and retry") from None

    def _keep_waiting(self, size: int) -> bool:
        """Whether to wait longer for pi's newline; raises when the half line changed during the wait."""
        patience = self.patience
        if self._deadline is None:
            # Unfinished for longer than we would wait: it did not change for a whole wait already.
            if patience.wall_clock() - os.fstat(self._open_fd).st_mtime > patience.seconds:
                return False
            self._deadline, self._half_line_seen, self.waiting = patience.clock() + patience.seconds, self._half_line(size), True
            return True
        if patience.clock() < self._deadline:
            return True
        if self._half_line(size) != self._half_line_seen:
            self._fail(STILL_WRITING)
        return False

    def _half_line(self, size: int) -> bytes:
        return os.pread(self._open_fd, size - self.session.consumed, self.session.consumed)

    def _refuse_unless_abandoned(self) -> None:
        """A half line that stayed the same through the wait is pi's to repair only if nobody
        still holds the file open for writing (where the system can tell)."""
        if held_for_writing(self._open_fd):
            self._fail(STILL_WRITING)

    def _check_still_ours(self) -> None:
        """The path still names the file we opened, and every byte read is as it was."""
        try:
            at_path = os.stat(self.session.path)
        except FileNotFoundError:
            self._fail("label not written: the file is gone")
        stats = os.fstat(self._open_fd)
        if identity(at_path) != identity(stats):
            self._fail("label not written: the file was replaced by another one meanwhile; read it again and retry")
        try:
            check_unchanged(self.session, self._open_fd)
        except NeedsReload as reason:
            self.close()
            raise FileChanged(self.session.path, f"label not written: {reason}; read it again and retry") from None

    def _fail(self, reason: str) -> NoReturn:
        self.close()
        raise SessionLoadError(self.session.path, reason)


def label_entry(session: Session, target_id: str, label: str | None) -> dict[str, str | None]:
    fields = {"targetId": target_id} if label is None else {"targetId": target_id, "label": label}
    return entry_object("label", new_entry_id(session.entries), session.leaf_id, iso_now(), **fields)


def new_entry_id(used: Container[Any]) -> str:
    """pi's generateId: 8 random hex digits, none of the ids in `used`."""
    while True:
        candidate = secrets.token_hex(4)
        if candidate not in used:
            return candidate


def iso_now() -> str:
    # JS toISOString(): milliseconds and a Z.
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def _open_for_append(path: Path) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC)
    except FileNotFoundError:
        raise SessionLoadError(path, "label not written: the file is gone") from None
    except PermissionError:
        raise SessionLoadError(path, "label not written: the file cannot be written (permission denied)") from None
    except OSError as error:
        raise SessionLoadError(path, f"label not written: {error.strerror or error}") from None


def _write_whole(fd: int, path: Path, line: bytes) -> None:
    """Append `line` whole, or leave the file as it was without removing a byte pi wrote since.

    One write on an O_APPEND descriptor puts the line at the end even while pi
    appends. If the filesystem takes only part of it, the rest is tried once more;
    if that fails too, our part is cut off again, but only while the file still
    ends exactly with it.
    """
    _check_space(fd, path, len(line))
    try:
        written = os.write(fd, line)
    except OSError as error:
        raise SessionLoadError(path, f"label not written: {error.strerror or error}") from None
    if written == 0:
        raise SessionLoadError(path, "label not written: the disk is full; the file is as it was")
    start = os.lseek(fd, 0, os.SEEK_CUR) - written  # O_APPEND: where our bytes landed
    while written < len(line):
        if not _ends_with(fd, start, line[:written]):
            raise SessionLoadError(path, _left_behind(start, written, len(line)))
        try:
            more = os.write(fd, line[written:])
        except OSError as error:
            more, reason = 0, error.strerror or str(error)
        else:
            reason = "the disk is full"
        if more == 0:
            _take_back(fd, path, start, line[:written], reason)
        written += more


def _check_space(fd: int, path: Path, size: int) -> None:
    stats = os.fstatvfs(fd)
    # Some filesystems report no sizes at all (f_blocks 0): then only the write can tell.
    free = stats.f_bavail * stats.f_frsize
    if stats.f_blocks and free < size + stats.f_bsize:
        raise SessionLoadError(path, f"label not written: the disk is full ({free:,} bytes free)")


def _ends_with(fd: int, start: int, ours: bytes) -> bool:
    return os.fstat(fd).st_size == start + len(ours) and os.pread(fd, len(ours), start) == ours


def _take_back(fd: int, path: Path, start: int, ours: bytes, reason: str) -> None:
    if ours and not _ends_with(fd, start, ours):
        raise SessionLoadError(path, _left_behind(start, len(ours), None))
    if ours:
        os.ftruncate(fd, start)
    raise SessionLoadError(path, f"label not written: {reason}; the file is as it was")


def _left_behind(start: int, written: int, total: int | None) -> str:
    # pi's bytes now follow ours: cutting ours off would take pi's with them.
    of = f" of {total}" if total is not None else ""
    return (
        f"label not written: the disk filled up after {written}{of} bytes of it, and pi appended after them, "
        f"so they stay at byte {start:,} (the line there does not parse)"
    )
