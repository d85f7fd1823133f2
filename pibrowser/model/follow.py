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
from .reader import FINGERPRINT_SIZE, entry_from_data, read_lines

if TYPE_CHECKING:
    from .session import Session

class NeedsReload(Exception):
    """The file changed in a way that appending cannot describe."""


def read_appended(session: Session) -> list[Entry]:
    """Entries appended since the session was read, linked into it; [] when nothing is new."""
    if needs_migration(session.header):
        raise NeedsReload("old-format files are migrated as a whole")
    tail = _new_bytes(session)
    if not tail:
        return []
    lines = tail.split(b"\n")
    complete = lines[:-1]  # the last piece has no newline yet: pi is still writing it
    if not complete:
        return []
    problems: list = []
    # Appends are small: parse them in full, so a broken line is skipped as pi skips it.
    records = read_lines(session.path, complete, 0, problems, lazy=False, terminated=True, first_number=session.next_line)
    entries = [record if isinstance(record, Entry) else entry_from_data(session.path, *record, problems) for record in records]
    consumed = session.consumed + len(tail) - len(lines[-1])
    fingerprint = (session.fingerprint + tail[: len(tail) - len(lines[-1])])[-FINGERPRINT_SIZE:]
    session.extend(entries, problems, consumed=consumed, next_line=session.next_line + len(complete), fingerprint=fingerprint)
    return entries


def _new_bytes(session: Session) -> bytes:
    try:
        size = os.stat(session.path).st_size
        if size < session.consumed:
            raise NeedsReload("the file is shorter than before")
        with open(session.path, "rb") as handle:
            start = max(0, session.consumed - FINGERPRINT_SIZE)
            handle.seek(start)
            if handle.read(session.consumed - start) != session.fingerprint:
                raise NeedsReload("earlier bytes of the file changed")
            return handle.read()
    except OSError as error:
        raise NeedsReload(str(error)) from None
