"""A session file's lines, read a chunk at a time: the one way every reader goes over a file's bytes.

A file is never held whole (a session runs to 175 MB): it is read CHUNK bytes at a time,
and each chunk is cut after its last newline, so no line is split between two batches
(a line longer than a chunk makes its batch longer). Lines are what pi's split("\\n")
gives, without their newlines. At the end of the file, a last line without its newline
comes too, marked: pi parses it, yet it may be a line pi is still writing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import add
from typing import BinaryIO

CHUNK = 1 << 20


@dataclass(slots=True)
class LineBatch:
    """Consecutive lines of a file, from file offset `base`: the first `size` bytes of `read` are
    whole lines, each with its newline but maybe the last (`unterminated`: the file ends there
    without one); whatever follows in `read` is the start of the next batch's first line."""

    base: int
    read: bytes
    size: int
    unterminated: bool

    @property
    def data(self) -> bytes:
        """The batch's bytes (a copy when the read went past them)."""
        return self.read if self.size == len(self.read) else self.read[: self.size]

    @property
    def lines(self) -> list[bytes]:
        """The lines, without newlines (split in C, the read's bytes copied once)."""
        lines = self.read.split(b"\n")
        if not self.unterminated:
            lines.pop()  # the nothing after the last newline, or the start of the next batch's line
        return lines

    @property
    def end(self) -> int:
        """The file offset just after the batch."""
        return self.base + self.size

    @property
    def consumed(self) -> int:
        """The file offset just after the batch's last newline (where a later read takes up)."""
        return self.base + self.read.rfind(b"\n", 0, self.size) + 1


def line_starts(base: int, lines: list[bytes]) -> Iterator[int]:
    """Where each of these consecutive lines starts in the file, the first at `base` (in C)."""
    return accumulate(map(add, map(len, lines[:-1]), repeat(1)), initial=base)


def scan_lines(file: BinaryIO | int, start: int = 0, chunk: int = CHUNK) -> Iterator[LineBatch]:
    """The file's lines from offset `start` on, a batch of whole lines at a time (read through
    its descriptor, or the handle's: the handle's own position is left alone). Each read starts
    at the line the last one cut: nothing is copied to join two reads."""
    fd = file if isinstance(file, int) else file.fileno()
    base, want = start, chunk
    while True:
        read = os.pread(fd, want, base)
        if not read:
            return
        cut = read.rfind(b"\n") + 1
        if len(read) < want:  # the end of the file
            yield LineBatch(base, read, len(read), cut < len(read))
            return
        if not cut:
            want *= 2  # a line longer than the read: read it whole
            continue
        yield LineBatch(base, read, cut, False)
        base, want = base + cut, chunk


def read_from(file: BinaryIO | int, start: int, chunk: int = CHUNK) -> bytes:
    """Everything from `start` to the end of the file (appends are small)."""
    return b"".join(batch.data for batch in scan_lines(file, start, chunk))
