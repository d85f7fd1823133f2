"""Where the lines a lazy load only skimmed lie in the file, so an entry can read its line back."""

from __future__ import annotations

import os
import weakref
from array import array
from threading import get_ident


class SessionFile:
    """The file a session was read from, kept open while entries skimmed from it are alive.

    Its own descriptor: a file renamed over the path, or the path removed, does not
    change what it reads; the descriptor is closed when the last such entry goes.
    """

    __slots__ = ("fd", "blocks", "__weakref__")
    BLOCK = 1 << 16  # read at a time: passes over many entries go in file order, mostly

    def __init__(self, fd: int) -> None:
        self.fd = os.dup(fd)
        # Per thread, (where it starts, the bytes) of its last read: the background check
        # walks the whole file while the window reads paths, and one block would thrash.
        self.blocks: dict[int, tuple[int, bytes]] = {}
        weakref.finalize(self, os.close, self.fd)


_NO_BLOCK = (0, b"")


# What loading learned of a line, in the low bits of its number in SkimmedLines.starts.
QUIET = 1  # a tool result's line without a usage field: it records no usage (see usage.py)
SILENCE_KNOWN = 2  # an assistant message whose silence in pi's tree was decided (see tree_filter.py)
SILENT = 4  # … and it is silent
FLAG_BITS = 3


class SkimmedLines:
    """The lines of one file from `first` on, by line number: where each one starts, and
    what loading learned of it while it had the bytes: whether a tool result records no
    usage, and whether an assistant message is silent in pi's tree. Every entry skimmed from the file
    holds this one table and reads its line through it by its line number.

    Holding every line of a 160 MB session in memory would cost as much again as the file,
    and an object per line (where it is, how long) about 90 bytes a line; here a line costs
    one 8-byte number: the offset of the newline before it, shifted left by FLAG_BITS, and
    the flags above. A line ends where the next one's newline is, so the table ends with one
    more number, the end of the last line (`finish`). pi only appends, so a line stays where
    it was; should the file have been rewritten in place (the window reloads it then), a line
    whose newlines moved reads as None.
    """

    __slots__ = ("file", "first", "starts")

    def __init__(self, file: SessionFile, first: int) -> None:
        self.file = file
        self.first = first  # the number of the line the table starts with
        # Filled by the reader, one number per line in file order: (before << FLAG_BITS) | flags.
        self.starts = array("q")

    def finish(self, end: int) -> None:
        """Close the table: the last line ends at `end` (its newline, or the end of the file)."""
        self.starts.append(end << FLAG_BITS)

    def records_no_usage(self, line: int) -> bool:
        return bool(self.starts[line - self.first] & QUIET)

    def silence(self, line: int) -> bool | None:
        """Whether an assistant message's line is silent in pi's tree; None when not known."""
        flags = self.starts[line - self.first]
        return bool(flags & SILENT) if flags & SILENCE_KNOWN else None

    def read(self, line: int) -> bytes | None:
        """Line number `line` as it is in the file now; None when it no longer lies there."""
        # Called for every entry of a long path in turn: kept to one call, without slicing to check.
        index = line - self.first
        starts, file = self.starts, self.file
        before = starts[index] >> FLAG_BITS
        length = (starts[index + 1] >> FLAG_BITS) - before - 1
        start, block = file.blocks.get(get_ident(), _NO_BLOCK)
        at = before - start
        end = at + length + 1
        if at < 0 or end >= len(block):
            block = os.pread(file.fd, max(SessionFile.BLOCK, length + 2), before)
            file.blocks[get_ident()], at, end = (before, block), 0, length + 1
            if end > len(block) or (end < len(block) and block[end] != 10):
                return None
        elif block[end] != 10:
            return None
        return block[at + 1:end] if block[at] == 10 else None
