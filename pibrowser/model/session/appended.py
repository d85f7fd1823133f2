"""Whether a file read up to an offset has only grown since, for the readers that take up where they stopped.

pi only appends whole lines, so a reader that keeps where it stopped (`consumed`), the file's
first bytes (`head`) and the bytes just before that offset (`fingerprint`) can read on from
there while the file is at least that long and both are as they were. Anything else (a
rewrite, a shorter file) means reading it again from the start. The search index and the
usage cache both keep such a mark per file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .reader import FINGERPRINT_SIZE

HEAD_SIZE = 256  # a file's first bytes, kept to tell a rewrite from an append


@dataclass(slots=True)
class ReadMark:
    """Where a reader stopped in a file, and the bytes that tell an append from a rewrite."""

    consumed: int = 0
    head: bytes = b""
    fingerprint: bytes = b""

    def advance(self, taken: bytes) -> None:
        """`taken`, the bytes just read from `consumed` on, are behind the reader now."""
        self.fingerprint = (self.fingerprint + taken)[-FINGERPRINT_SIZE:]
        if len(self.head) < HEAD_SIZE:
            self.head = (self.head + taken)[:HEAD_SIZE]
        self.consumed += len(taken)

    def still_there(self, fd: int, size: int) -> bool:
        """True when the bytes read are still there (checked at both ends): only appends happened."""
        if size < self.consumed:
            return False
        if os.pread(fd, len(self.head), 0) != self.head:
            return False
        start = self.consumed - len(self.fingerprint)
        return os.pread(fd, len(self.fingerprint), start) == self.fingerprint
