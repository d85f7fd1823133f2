"""One pass over a session file in pi's usual shape: enough to give the path of any entry.

`pibrowser context` needs only the path of its leaf. A full Session (an object
per entry, the tree, pi's child order) costs several times the file in memory;
this index keeps, per entry, only its id, its parent's position, its type,
role and timestamp and where its line lies in the file, and reads a line back
only when an entry's fields are asked for. The file itself is read in chunks
and never held whole.

Every line is still validated whole, as pi's JSON.parse would reject it:
msgspec's decoder, typed to the few fields kept, checks the syntax of the
entire line while building only those fields. A file that is not in the usual
shape — a line that does not decode, anything Session would report as a
problem (a duplicate id, a parent that is missing or comes later, a second
header, a label that names no entry), an old format — makes `scan` answer None
and the caller loads the full Session instead, which says what is wrong.

One thing is not checked: whether the bytes inside strings the decoder skips are
valid UTF-8 (checking costs as much as the rest of the pass). pi reads such a
line with replacement characters and so does Entry, so the output is the same;
only the note naming the line, which the full load prints, is left out.
"""

from __future__ import annotations

import os
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from io import BufferedReader
from pathlib import Path
from typing import Any, BinaryIO, overload

import msgspec

from .entry import Entry
from .jsonline import parse_line
from ..js.value import MISSING
from .migration import needs_migration
from .reader import open_session_file

_CHUNK = 1 << 23  # bytes read at a time; a longer line grows the buffer


class _Message(msgspec.Struct):
    role: Any = msgspec.UNSET


class _Lead(msgspec.Struct):
    """The fields an entry's place in the tree needs; all else in the line is checked, not kept."""

    type: Any = msgspec.UNSET
    id: Any = msgspec.UNSET
    parentId: Any = msgspec.UNSET
    timestamp: Any = msgspec.UNSET
    message: _Message | None = None  # anything but an object or null: not the usual shape
    targetId: Any = msgspec.UNSET


_decode_lead = msgspec.json.Decoder(_Lead).decode


class FileLine:
    """An entry's line, read back from the file when its fields are first needed."""

    __slots__ = ("_handle", "_offset", "_span")

    def __init__(self, handle: BinaryIO, offset: int, span: int) -> None:
        self._handle = handle
        self._offset = offset
        self._span = span  # up to the next entry's line: this line, its newline, maybe blank lines

    def read(self, line: int) -> bytes:
        # One per entry (only a path's entries get one), so it knows its line without `line`.
        text = os.pread(self._handle.fileno(), self._span, self._offset)
        end = text.find(b"\n")
        return text if end < 0 else text[:end]

    def records_no_usage(self, line: int) -> bool:
        return False  # not known: the usage is read from the line

    def silence(self, line: int) -> bool | None:
        return None  # not known: read from the line


class PathIndex:
    """Every entry's id, parent and line position, from one checked pass over a clean file."""

    def __init__(self, path: Path, handle: BinaryIO, header: dict[str, Any]) -> None:
        self.path = path
        self.header = header
        self._handle = handle
        # Per entry, in file order; compact arrays, as a file can hold a million entries.
        self._position: dict[str, int] = {}  # id → its place in this order
        self._keys: list[str] = []
        self._parents = array("i")  # the parent's place; -1 for a root
        self._kinds = array("H")  # into `_kind_table`: (type, role)
        self._kind_table: list[tuple[str, Any]] = []
        self._stamps: list[str] = []
        self._offsets = array("q")  # where the line starts in the file
        self._size = 0  # of the file as read
        # Line numbers are counted, not stored: the header's, and where blank lines came.
        self._header_line = 0
        self._blanks = array("i")  # for each blank line after the header, the place of the next entry

    @classmethod
    def scan(cls, path: str | Path) -> PathIndex | None:
        """The index of a file in pi's usual shape; None for any other file (load a Session)."""
        path = Path(path)
        handle = open_session_file(path)
        try:
            index = _scan(path, handle)
        except BaseException:
            handle.close()
            raise
        if index is None:
            handle.close()
        return index

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> PathIndex:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, key: object) -> bool:
        return key in self._position

    @property
    def leaf_id(self) -> str | None:
        """pi's current leaf: the last entry in the file."""
        return self._keys[-1] if self._keys else None

    def path_entries(self, key: str) -> IndexedPath:
        """The entries from the root down to `key` (pi's buildSessionPath)."""
        positions = array("i")
        at = self._position[key]
        parents = self._parents
        while at >= 0:
            positions.append(at)
            at = parents[at]
        positions.reverse()
        return IndexedPath(self, positions)

    def entry(self, at: int) -> Entry:
        """The entry in place `at`; its line is read from the file when its fields are asked for."""
        parent = self._parents[at]
        kind, role = self._kind_table[self._kinds[at]]
        offset = self._offsets[at]
        end = self._offsets[at + 1] if at + 1 < len(self._offsets) else self._size
        return Entry(
            self._keys[at],
            self._keys[parent] if parent >= 0 else None,
            kind,
            self._stamps[at],
            role,
            self._header_line + 1 + at + bisect_right(self._blanks, at),
            raw=FileLine(self._handle, offset, end - offset),
        )


class IndexedPath(Sequence[Entry]):
    """A path whose Entry objects are made when first looked at: resolving a leaf at
    the end of a 100,000-entry path reads only what follows the last compaction."""

    def __init__(self, index: PathIndex, positions: array) -> None:
        self._index = index
        self._positions = positions
        self._made: dict[int, Entry] = {}

    def __len__(self) -> int:
        return len(self._positions)

    @overload
    def __getitem__(self, at: int) -> Entry: ...
    @overload
    def __getitem__(self, at: slice) -> list[Entry]: ...
    def __getitem__(self, at: int | slice) -> Entry | list[Entry]:
        if isinstance(at, slice):
            return [self[i] for i in range(*at.indices(len(self)))]
        if at < 0:
            at += len(self)
        made = self._made.get(at)
        if made is None:
            made = self._made[at] = self._index.entry(self._positions[at])
        return made

    def position(self, key: Any, stop: int) -> int:
        """Where the entry `key` is in self[:stop], or `stop` when it is not there."""
        at = self._index._position.get(key) if isinstance(key, str) else None
        if at is None:
            return stop
        # A clean file's parents come before their children: positions increase along a path.
        found = bisect_left(self._positions, at, 0, stop)
        return found if found < stop and self._positions[found] == at else stop


def _scan(path: Path, handle: BufferedReader) -> PathIndex | None:
    """The single pass: chunks of the file, line by line, into a PathIndex (or None)."""
    buffer = bytearray(_CHUNK)
    filled = 0  # bytes of `buffer` holding file data
    base = 0  # file offset of buffer[0]
    index: PathIndex | None = None
    lines_before = 0  # blank lines in chunks before the header's
    label_targets: list[str] = []
    kind_codes: dict[tuple[str, Any], int] = {}
    decode = _decode_lead
    errors = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)
    unset = msgspec.UNSET
    while True:
        view = memoryview(buffer)
        got = handle.readinto(view[filled:])
        filled += got
        start = 0
        last = buffer.rfind(b"\n", 0, filled)
        if not got and last < filled - 1:
            last = filled  # the last line may lack its newline and still counts
        while start <= last:
            end = buffer.find(b"\n", start, last)
            if end < 0:
                end = last
            try:
                lead = decode(view[start:end])
            except errors:
                if start == end or bytes(view[start:end]).isspace():
                    # A blank line is skipped, as pi does (but counted).
                    if index is not None:
                        index._blanks.append(len(index._keys))
                    start = end + 1
                    continue
                return None
            if index is None:
                index = _header(path, handle, bytes(view[start:end]), lines_before + buffer.count(b"\n", 0, start) + 1)
                if index is None:
                    return None
                position, kind_table = index._position, index._kind_table
                add_key, add_parent, add_kind = index._keys.append, index._parents.append, index._kinds.append
                add_stamp, add_offset = index._stamps.append, index._offsets.append
                start = end + 1
                continue
            key, parent, kind, stamp = lead.id, lead.parentId, lead.type, lead.timestamp
            if type(key) is not str or not key or type(kind) is not str or type(stamp) is not str:
                return None
            at = len(position)
            if position.setdefault(key, at) is not at:
                return None  # a duplicate id
            if parent is None:
                parent_at = -1
            elif type(parent) is not str or (parent_at := position.get(parent, at)) == at:
                return None  # a parent that is missing, not a string, after its child, or itself
            message = lead.message
            role = MISSING if message is None or message.role is unset else message.role
            code = kind_codes.get((kind, role))
            if code is None:
                if kind == "session" or type(role) not in (str, type(MISSING)) or len(kind_table) > 60_000:
                    return None
                code = kind_codes[(kind, role)] = len(kind_table)
                kind_table.append((kind, role))
            if kind == "label":
                if type(lead.targetId) is not str:
                    return None
                label_targets.append(lead.targetId)
            add_key(key)
            add_parent(parent_at)
            add_kind(code)
            add_stamp(stamp)
            add_offset(base + start)
            start = end + 1
        view.release()
        if not got:
            break
        if index is None:
            lines_before += buffer.count(b"\n", 0, start)
        base += start
        if start == 0 and filled == len(buffer):
            buffer += bytes(len(buffer))  # a line longer than the buffer
        else:
            buffer[: filled - start] = buffer[start:filled]
            filled -= start
    if index is None or not all(target in index._position for target in label_targets):
        return None
    index._size = base + filled
    return index


def _header(path: Path, handle: BinaryIO, raw: bytes, line: int) -> PathIndex | None:
    value, note = parse_line(raw)
    if note or not isinstance(value, dict) or value.get("type") != "session" or not isinstance(value.get("id"), str):
        return None
    if needs_migration(value):
        return None
    index = PathIndex(path, handle, value)
    index._header_line = line
    return index
