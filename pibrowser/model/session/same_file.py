"""Is this still the file I read? Every reader that comes back to a file asks here.

Three answers, from the cheapest, by what a reader can take:

- `Stamp`: what a stat says a write changes, the size and the modification time: the session
  list's cache and the search index tell a file they need not read again by it;
- `unchanged(seen, now)`: the very file (device and inode), with the stamp it had: a rewrite
  that renames the old file away, or writes it anew, is a change (an upgrade's last look);
- `appended_only(fd, consumed, tail, head)`: the bytes read before are still where they were,
  so all that follows them was appended (pi only ever appends): following a session, the
  search index reading a file's next chunk. pi's lines carry random ids and timestamps, so a
  rewrite that kept the last bytes read is not a practical worry. A reader that keeps where it
  stopped across runs (the search index, the usage cache) keeps it as a `ReadMark`.

Before a write the whole of what was read is hashed again (follow.check_unchanged): a rewrite
in place of the same size would otherwise let a label name entries that are gone.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import NamedTuple

HEAD_SIZE = 256  # a file's first bytes, kept to tell a rewrite from an append
FINGERPRINT_SIZE = 256  # the bytes just before where a reader stopped, kept to tell an append from a rewrite
FileIdentity = tuple[int, int]  # device, inode


class Stamp(NamedTuple):
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, stats: os.stat_result) -> Stamp:
        return cls(stats.st_size, stats.st_mtime_ns)


def identity(stats: os.stat_result) -> FileIdentity:
    return stats.st_dev, stats.st_ino


def unchanged(seen: os.stat_result, now: os.stat_result) -> bool:
    """`now` is the file `seen` was, not written since."""
    return identity(now) == identity(seen) and Stamp.of(now) == Stamp.of(seen)


def appended_only(fd: int, consumed: int, tail: bytes, head: bytes = b"") -> str | None:
    """None when the file open as `fd` still holds what was read of it: at least `consumed` bytes,
    `head` at its start and `tail` just before `consumed`; else why not, in a few words."""
    if os.fstat(fd).st_size < consumed:
        return "it is shorter than when it was read"
    if os.pread(fd, len(head), 0) != head or os.pread(fd, len(tail), consumed - len(tail)) != tail:
        return "bytes read before have changed since"
    return None


@dataclass(slots=True)
class ReadMark:
    """Where a reader stopped in a file, and the bytes that tell an append from a rewrite."""

    consumed: int = 0
    head: bytes = b""
    fingerprint: bytes = b""

    def advance(self, taken: bytes) -> None:
        """`taken`, the bytes just read from `consumed` on, are behind the reader now."""
        self.fingerprint = (self.fingerprint + taken[-FINGERPRINT_SIZE:])[-FINGERPRINT_SIZE:]  # (only the ends copied)
        if len(self.head) < HEAD_SIZE:
            self.head = (self.head + taken[:HEAD_SIZE])[:HEAD_SIZE]
        self.consumed += len(taken)

    def still_there(self, fd: int) -> bool:
        """True when the bytes read are still there (checked at both ends): only appends happened."""
        return appended_only(fd, self.consumed, self.fingerprint, self.head) is None
