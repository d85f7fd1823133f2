"""Following a session file that pi is still appending to.

pi only ever appends whole lines, so what is new since the last read can be read
and linked into the tree on its own; anything else (the file shrank, earlier
bytes changed, an old-format file, an entry that rewires existing ones) asks
for a full reload instead.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .entry import Entry
from .migration import needs_migration
from .problems import NeedsReload, Problem
from .lines import read_from
from .read_digest import read_digest
from .reader import entry_from_data, read_lines
from .same_file import appended_only, identity
from .regular_file import open_regular

if TYPE_CHECKING:
    from .session import Session


def read_appended(session: Session, fd: int | None = None) -> list[Entry]:
    """Entries appended since the session was read, linked into it; [] when nothing is new.

    Read through `fd` when given (a descriptor already checked to be the session's
    file), else through the path.
    """
    if needs_migration(session.header):
        raise NeedsReload("old-format files are migrated as a whole")
    tail = _new_bytes(session, fd)
    if not tail:
        return []
    lines = tail.split(b"\n")
    complete = lines[:-1]  # the last piece has no newline yet: pi is still writing it
    if not complete:
        return []
    problems: list[Problem] = []
    # Appends are small: parse them in full, so a broken line is skipped as pi skips it.
    records = read_lines(session.path, complete, session.next_line, problems, terminated=True)
    entries = [entry_from_data(session.path, *record, problems) for record in records]
    session.extend(entries, problems, read=tail[: len(tail) - len(lines[-1])], next_line=session.next_line + len(complete))
    return entries


def _new_bytes(session: Session, fd: int | None) -> bytes:
    try:
        if fd is None:
            with open_regular(session.path) as handle:
                return _new_bytes(session, handle.fileno())
        check_same_file(session, fd)
        return read_from(fd, session.consumed)
    except OSError as error:
        raise NeedsReload(str(error)) from None


def check_same_file(session: Session, fd: int) -> None:
    """Raise NeedsReload unless `fd` is the file the session read (the same device and inode: not
    another file renamed over the path), grown by appends only (same_file.appended_only)."""
    if identity(os.fstat(fd)) != session.identity:
        raise NeedsReload("it was replaced by another file since it was read")
    reason = appended_only(fd, session.consumed, session.fingerprint)
    if reason is not None:
        raise NeedsReload(reason)


def check_unchanged(session: Session, fd: int) -> None:
    """Raise NeedsReload unless every byte the session read is still as it was.

    check_same_file compares the last bytes only, which is enough to follow appends;
    before a write the whole of what was read is hashed again and compared with the
    digest kept since load (a rewrite in place of the same size would otherwise make
    the write name entries that are gone).
    """
    digest, offset = read_digest(), 0
    while offset < session.consumed:
        chunk = os.pread(fd, min(_BLOCK, session.consumed - offset), offset)
        if not chunk:
            raise NeedsReload("it is shorter than when it was read")
        digest.update(chunk)
        offset += len(chunk)
    if digest.digest() != session.digest.digest():
        raise NeedsReload("bytes read before have changed since")


_BLOCK = 1 << 23
