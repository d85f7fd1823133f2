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
from itertools import chain, count, repeat
from operator import attrgetter, lt
from pathlib import Path
from typing import Annotated, Any, BinaryIO, overload

import msgspec

from .entry import Entry
from .header import find_header
from ..js.value import MISSING
from .lines import line_starts, scan_lines
from .migration import needs_migration
from .problems import Problem
from .reader import open_session_file

_CHUNK = (
    1 << 20
)  # bytes read at a time (lines.scan_lines): a batch's lines and leads stay in the caches; a longer line makes a longer batch


class _Message(msgspec.Struct, gc=False):  # decoded JSON holds no cycles: the collector need not track a batch's leads
    role: str | msgspec.UnsetType = msgspec.UNSET  # anything but a string: not the usual shape


class _Lead(msgspec.Struct, gc=False):
    """The fields an entry's place in the tree needs, typed as pi writes them: a line whose
    fields are not (a missing or empty id, a parentId neither a string nor null, a message that
    is not an object) does not decode, and the file is left to the full load."""

    id: Annotated[str, msgspec.Meta(min_length=1)]
    type: str
    parentId: str | None
    timestamp: str
    message: _Message | None = None
    targetId: Any = msgspec.UNSET


_decode_lead = msgspec.json.Decoder(_Lead).decode
_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)
_ID, _TYPE, _PARENT = attrgetter("id"), attrgetter("type"), attrgetter("parentId")


class PathIndex:
    """Every entry's id, parent and line position, from one checked pass over a clean file."""

    def __init__(self, path: Path, handle: BinaryIO, header: dict[str, Any], header_line: int) -> None:
        self.path = path
        self.header = header
        self._handle = handle
        # Per entry, in file order, in typed columns: a file can hold a million entries.
        self._position: dict[Any, int] = {}  # id → its place in this order
        self._keys: list[str] = []
        self._parents = array("i")  # the parent's place; -1 for a root
        self._kinds = array("H")  # into `_kind_table`: (type, role)
        self._kind_table: list[tuple[str, Any]] = []
        self._offsets = array("q")  # where the line starts in the file
        self._size = 0  # of the file as read
        # Line numbers are counted, not stored: the header's, and where blank lines came.
        self._header_line = header_line
        self._blanks = array("i")  # for each blank line after the header, the place of the next entry

    @classmethod
    def scan(cls, path: str | Path) -> PathIndex | None:
        """The index of a file in pi's usual shape; None for any other file (load a Session).
        A file whose first kept line is not a header is refused as the load refuses it."""
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
        raw = os.pread(self._handle.fileno(), end - offset, offset)  # this line, its newline, maybe blank lines
        newline = raw.find(b"\n")
        raw = raw if newline < 0 else raw[:newline]
        return Entry(
            self._keys[at],
            self._keys[parent] if parent >= 0 else None,
            kind,
            _decode_lead(raw).timestamp,  # not kept per entry: read with the line
            role,
            self._header_line + 1 + at + bisect_right(self._blanks, at),
            raw=raw,
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

    def kinds(self) -> tuple[list[Any], list[Any]]:
        """Every entry's type and role, without making the entries."""
        table, codes = self._index._kind_table, self._index._kinds
        pairs = [table[code] for code in map(codes.__getitem__, self._positions)]
        return [kind for kind, _ in pairs], [role for _, role in pairs]

    def position(self, key: Any, stop: int) -> int:
        """Where the entry `key` is in self[:stop], or `stop` when it is not there."""
        at = self._index._position.get(key) if isinstance(key, str) else None
        if at is None:
            return stop
        # A clean file's parents come before their children: positions increase along a path.
        found = bisect_left(self._positions, at, 0, stop)
        return found if found < stop and self._positions[found] == at else stop


def _scan(path: Path, handle: BinaryIO) -> PathIndex | None:
    """The single pass: the file's lines a batch at a time, each batch decoded and checked in C."""
    batches = scan_lines(handle, chunk=_CHUNK)
    lines_before = 0  # lines before the batch at hand
    for batch in batches:
        lines = batch.lines
        problems: list[Problem] = []
        found = find_header(path, lines, problems, lines_before + 1)
        if problems:
            return None  # a line pi skips: the full load says so
        if found is not None:
            break
        lines_before += len(lines)
    else:
        return None
    header, line, at = found
    if needs_migration(header):
        return None
    index = PathIndex(path, handle, header, line)
    indexer = _Batches(index)
    rest = ((later, later.lines, 0) for later in batches)
    for part, part_lines, start in chain([(batch, lines, at + 1)], rest):
        if not indexer.add(part_lines, part.base, start):
            return None
        index._size = part.end
    return index if indexer.finished() else None


class _Batches:
    """Adds batches of lines to an index; answers False on the first line the full load would
    report on (a line that does not decode, a duplicate id, a parent missing or after its child,
    a second header, a label naming no entry)."""

    def __init__(self, index: PathIndex) -> None:
        self.index = index
        self.kind_codes: dict[tuple[str, Any], int] = {}
        self.label_targets: list[Any] = []

    def add(self, lines: list[bytes], base: int, start: int) -> bool:
        starts = array("q", line_starts(base, lines))[start:]
        lines = lines[start:]
        try:
            leads = list(map(_decode_lead, lines))  # every line decoded in C; a blank one raises too
        except _ERRORS:
            return self._add_line_by_line(lines, starts)
        return self._add(leads, starts)

    def _add_line_by_line(self, lines: list[bytes], starts: array) -> bool:
        """A batch with blank lines (counted, as pi skips them) or a line that does not decode."""
        run: list[_Lead] = []
        run_starts = array("q")
        for raw, at in zip(lines, starts):
            if not raw.strip():
                if not self._add(run, run_starts):
                    return False
                run, run_starts = [], array("q")
                self.index._blanks.append(len(self.index._keys))
                continue
            try:
                run.append(_decode_lead(raw))
            except _ERRORS:
                return False
            run_starts.append(at)
        return self._add(run, run_starts)

    def _add(self, leads: list[_Lead], starts: array) -> bool:
        if not leads:
            return True
        index = self.index
        position, first = index._position, len(index._keys)
        keys = list(map(_ID, leads))
        position.update(zip(keys, count(first)))
        if len(position) != first + len(keys):
            return False  # a duplicate id
        position[None] = -1  # a root's parent, for the one lookup below
        parents = list(map(position.get, map(_PARENT, leads), repeat(-2)))
        del position[None]
        if -2 in parents or not all(map(lt, parents, count(first))):
            return False  # a parent missing, after its child, or itself
        codes = self._codes(leads)
        if codes is None:
            return False
        self.label_targets += [lead.targetId for lead in leads if lead.type == "label"]
        index._keys += keys
        index._parents.extend(parents)
        index._kinds.extend(codes)
        index._offsets.extend(starts)
        return True

    def _codes(self, leads: list[_Lead]) -> list[int] | None:
        """Each entry's (type, role) as a code into the index's table; None for a second header."""
        kinds = list(zip(map(_TYPE, leads), map(_role, leads)))
        codes = list(map(self.kind_codes.get, kinds, repeat(-1)))
        if -1 in codes:
            table = self.index._kind_table
            for at, kind in enumerate(kinds):
                code = self.kind_codes.get(kind, -1)
                if code < 0:
                    if kind[0] == "session" or len(table) > 60_000:
                        return None
                    code = self.kind_codes[kind] = len(table)
                    table.append(kind)
                codes[at] = code
        return codes

    def finished(self) -> bool:
        """Every label names an entry of the file."""
        position = self.index._position
        return all(type(target) is str and target in position for target in self.label_targets)


def _role(lead: _Lead) -> Any:
    message = lead.message
    return MISSING if message is None or message.role is msgspec.UNSET else message.role
