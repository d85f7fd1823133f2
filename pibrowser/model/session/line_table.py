"""Where the lines a lazy load only skimmed lie in the file, so an entry can read its line back."""

from __future__ import annotations

import os
import weakref
from array import array
from bisect import bisect_right
from operator import sub
from threading import get_ident
from typing import cast


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
        # Not at exit: the system closes it then, and a background job still reading an entry
        # must not find its descriptor gone (or, worse, another file under its number).
        weakref.finalize(self, os.close, self.fd).atexit = False


_NO_BLOCK = (0, b"")
UNKNOWN = -1  # the no_text column's value where loading did not decide it


class LineTable:
    """The lines of one file from line number `first` on: where each one lies, and what loading
    learned of it while it had its bytes. Every entry skimmed from the file holds this one
    table and reads its line back through it by its line number.

    Holding every line of a 160 MB session in memory would cost as much again as the file, and
    an object per line about 90 bytes a line; here a line costs ten bytes, in typed columns:
      breaks     where the newline before the line is (its start - 1); one number more at the
                 end, where the last line ends (`finish`)
      no_usage   1: a tool result's line without a usage field, which records none (see usage.py)
      no_text    whether an assistant message has no text, so pi's tree leaves it out (see tree_filter.py): 1 or 0, or
                 UNKNOWN where loading did not decide it
    pi only appends, so a line stays where it was; should the file have been rewritten in
    place (the window reloads it then), a line whose newlines moved reads as None.
    """

    __slots__ = ("file", "first", "breaks", "no_usage", "no_text")

    def __init__(self, file: SessionFile, first: int) -> None:
        self.file = file
        self.first = first  # the number of the line the table starts with
        self.breaks = array("q")
        self.no_usage = array("b")
        self.no_text = array("b")

    def finish(self, end: int) -> None:
        """Close the table: the last line ends at `end` (its newline, or the end of the file)."""
        self.breaks.append(end)

    def records_no_usage(self, line: int) -> bool:
        return self.no_usage[line - self.first] == 1

    def textless(self, line: int) -> bool | None:
        """Whether an assistant message's line has no text (pi's tree leaves it out); None when not known."""
        textless = self.no_text[line - self.first]
        return None if textless == UNKNOWN else textless == 1

    def read(self, line: int) -> bytes | None:
        """Line number `line` as it is in the file now; None when it no longer lies there."""
        # Called for every entry of a long path in turn: kept to one call, without slicing to check.
        index = line - self.first
        breaks, file = self.breaks, self.file
        before = breaks[index]
        length = breaks[index + 1] - before - 1
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
        return block[at + 1 : end] if block[at] == 10 else None

    STRETCH = 4 << 20  # bytes read at a time by `read_run`

    def read_run(self, line: int, count: int) -> list[bytes | None]:
        """Lines `line` … `line + count - 1` as `read` gives each, read a stretch of the file at a time
        (a long path's lines one read per line took a second per million)."""
        found: list[bytes | None] = []
        index, stop = line - self.first, line - self.first + count
        breaks = self.breaks
        while index < stop:
            end = bisect_right(breaks, breaks[index] + self.STRETCH, index + 2, stop + 1) - 1  # at least one line
            found += self._stretch(index, end)
            index = end
        return found

    def _stretch(self, index: int, end: int) -> list[bytes | None]:
        """The lines of indexes index … end - 1, cut out of one read; each read alone where the file's
        newlines are not all where they were (or the last line has none)."""
        breaks = self.breaks
        before, after = breaks[index], breaks[end]
        block = os.pread(self.file.fd, after - before + 1, before)
        if len(block) == after - before + 1 and block[0] == 10 and block[-1] == 10:
            lines = block[1:-1].split(b"\n")
            lengths = list(map(sub, breaks[index + 1 : end + 1], breaks[index:end]))
            if len(lines) == end - index and lengths == [length + 1 for length in map(len, lines)]:
                return cast("list[bytes | None]", lines)
        return [self.read(at + self.first) for at in range(index, end)]
