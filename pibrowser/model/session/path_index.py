"""One pass over a session file in pi's usual shape: enough to give the path of any entry.

`pibrowser context` needs only the path of its leaf. A full Session (an object
per entry, the tree, pi's child order) costs several times the file in memory;
this index keeps, per entry, only its id, its parent's place, a code for its type
and role and where its line lies in the file, and reads a line back only when an
entry's fields are asked for. The file itself is read in chunks and never held
whole. What is worked out per line is done in C (msgspec's decoder, maps over a
batch's lines): a Python step per line would cost more than the decoding.

Every line is still validated whole, as pi's JSON.parse would reject it:
msgspec's decoder, typed to the few fields kept, checks the syntax of the
entire line while building only those fields. A file that is not in the usual
shape — a line that does not decode, anything Session would report as a
problem (a duplicate id, a parent that is missing or comes later, a second
header, a label that names no entry), an old format — makes `scan` answer None
and the caller loads the full Session instead, which says what is wrong.

One thing is not checked unless asked for (`utf8`): whether the bytes inside
strings the decoder skips are valid UTF-8. pi reads such a line with replacement
characters and so does Entry, so a context is the same; only the note naming the
line, which the full load prints, is left out.

`pibrowser tree` asks for more of the same pass (`IndexTree`): each entry's timestamp
(pi orders children by it) and, for its text, a value worked out from each entry while
its line is at hand (its title): the decoder then builds, beside the role, what a
message's one-line preview reads (`previews`), so no line is decoded twice.
"""

from __future__ import annotations

import codecs
import os
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, compress, count, filterfalse, repeat
from operator import add, attrgetter, eq, getitem, is_, lt, sub
from pathlib import Path
from typing import Annotated, Any, BinaryIO, Literal, overload

import msgspec

from .entry import Entry
from .header import find_header
from .line_fields import PreviewMessage
from .line_layout import edit_without_replacement
from ..js.value import MISSING
from .lines import line_starts, scan_lines
from .migration import needs_migration
from .problems import Problem
from .regular_file import open_session_file

_CHUNK = (
    1 << 20
)  # bytes read at a time (lines.scan_lines): a batch's lines and leads stay in the caches; a longer line makes a longer batch
_STRETCH = 4 << 20  # bytes of a path's lines read again at a time (IndexedPath.lines)
_PREVIEW_CHUNK = 1 << 18  # the same with previews, whose messages' texts are built too: less keeps them in the caches (a tenth quicker)


class _Message(msgspec.Struct, frozen=True, gc=False):  # decoded JSON holds no cycles: the collector need not track a batch's leads
    role: str | msgspec.UnsetType = msgspec.UNSET  # anything but a string: not the usual shape


_NO_MESSAGE = _Message()  # an entry without a message: its role is read as a message's missing one


class _Place(msgspec.Struct, gc=False):
    """The fields an entry's place in the tree needs, typed as pi writes them: a line whose
    fields are not (a missing or empty id, a parentId neither a string nor null, a message that
    is not an object) does not decode, and the file is left to the full load."""

    id: Annotated[str, msgspec.Meta(min_length=1)]
    type: str
    parentId: str | None
    timestamp: str
    targetId: Any = msgspec.UNSET


class _Lead(_Place, gc=False):
    """An entry's place and its message's role."""

    message: _Message | None = _NO_MESSAGE  # None: `"message": null`


# The types and roles pi writes, as a hint for speed: decoded as these very strings (nothing
# built, nothing to hash again). A batch with any other is decoded again as _Lead.
_KnownType = Literal[
    "message", "model_change", "thinking_level_change", "compaction", "branch_summary", "custom",
    "custom_message", "label", "session_info", "context_edit", "usage",
]  # fmt: skip
_KnownRole = Literal["user", "assistant", "toolResult", "system", "bashExecution", "custom", "branchSummary", "compactionSummary"]


class _KnownMessage(_Message, frozen=True, gc=False):
    role: _KnownRole | msgspec.UnsetType = msgspec.UNSET


class _KnownLead(_Lead, gc=False):
    type: _KnownType
    message: _KnownMessage | None = _KnownMessage()


# With `previews`, a message is decoded as the plain dict of its role and what its preview reads
# (text/describe.message_preview), the role typed as above: one that is not a string does not decode.
class _PreviewMessage(PreviewMessage, total=False):
    role: str


class _PreviewKnownMessage(PreviewMessage, total=False):
    role: _KnownRole


def _no_message() -> Any:
    return {}  # an entry without a message: its role is read as a message's missing one


class _PreviewLead(_Place, gc=False):
    message: _PreviewMessage | None = msgspec.field(default_factory=_no_message)


class _PreviewKnownLead(_Place, gc=False):
    type: _KnownType
    message: _PreviewKnownMessage | None = msgspec.field(default_factory=_no_message)


_AnyLead = _Lead | _PreviewLead | _PreviewKnownLead


_decode_lead = msgspec.json.Decoder(_Lead).decode
_decode_known_lead = msgspec.json.Decoder(_KnownLead).decode
_decode_preview_lead = msgspec.json.Decoder(_PreviewLead).decode
_decode_known_preview_lead = msgspec.json.Decoder(_PreviewKnownLead).decode
_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)
_ID, _TYPE, _PARENT, _TARGET = attrgetter("id"), attrgetter("type"), attrgetter("parentId"), attrgetter("targetId")
_TIMESTAMP, _MESSAGE = attrgetter("timestamp"), attrgetter("message")
_ROLE = attrgetter("message.role")
_OBJ = attrgetter("obj")  # what a memoryview is a view of  # AttributeError for a message that is null

Kind = tuple[str, Any]  # an entry's type and its message's role (MISSING when it has none)
# What `previews` makes of a run of entries, one value each, in order, from: their lines, their (type,
# role), and their messages as the pass decoded them (a dict of what a preview reads; anything
# else where it did not: a line whose message does not decode so is read as a lead alone).
PreviewColumn = Callable[[list[bytes], list[Kind], list[Any]], Iterable[Any]]


class PathIndex:
    """Every entry's id, parent and line position, from one checked pass over a clean file."""

    def __init__(self, path: Path, handle: BinaryIO, header: dict[str, Any], header_line: int) -> None:
        self.path = path
        self.header = header
        self._handle = handle
        # Per entry, in file order, in typed columns: a file can hold a million entries.
        self._keys: list[str] = []
        self._parents = array("i")  # the parent's place; -1 for a root
        self._kinds = array("H")  # into `_kind_table`: (type, role)
        self._kind_table: list[tuple[str, Any]] = []
        self._offsets = array("q")  # where the line starts in the file
        self.times: list[str] | None = None  # each entry's timestamp, when scanned with `times`
        self.column: list[Any] | None = None  # what `previews` made of each entry, when scanned with it
        self._size = 0  # of the file as read
        # Line numbers are counted, not stored: the header's, and where blank lines came.
        self._header_line = header_line
        self._blanks = array("i")  # for each blank line after the header, the place of the next entry
        # Where ids are: `_places` maps the ids of the first `_placed` entries to their places;
        # `_others`, made when the scan ends, holds the rest. A batch whose parents are all
        # placed already (a million replies to one root) is left unplaced: a set costs half
        # the mapping, and an id's place is then looked for in `_keys` when asked.
        self._places: dict[str, int] = {}
        self._placed = 0
        self._others: set[str] | frozenset[str] = frozenset()

    @classmethod
    def scan(cls, path: str | Path, *, utf8: bool = False, times: bool = False, previews: PreviewColumn | None = None) -> PathIndex | None:
        """The index of a file in pi's usual shape; None for any other file (load a Session).
        A file whose first kept line is not a header is refused as the load refuses it.
        `utf8`: None for a file with an entry line that is not UTF-8 too. `times`: keep each
        entry's timestamp (`times`). `previews`: decode what a message's preview reads too, and
        keep what `previews` makes of each entry (`column`)."""
        path = Path(path)
        handle = open_session_file(path)
        try:
            index = _scan(path, handle, _Batches(utf8, times, previews))
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
        return key in self._places or key in self._others

    @property
    def leaf_id(self) -> str | None:
        """pi's current leaf: the last entry in the file."""
        return self._keys[-1] if self._keys else None

    @property
    def keys(self) -> list[str]:
        """Every entry's id, in file order (the index's own list: read it, do not change it)."""
        return self._keys

    @property
    def parents(self) -> array:
        """Each entry's parent's place in file order, -1 for a root (the index's own column)."""
        return self._parents

    def places_of(self, kind: str) -> list[int]:
        """The places of the entries of type `kind`, in file order (each found by a search in C)."""
        found: list[int] = []
        for code, (entry_type, _) in enumerate(self._kind_table):
            if entry_type == kind:
                found += places(self._kinds, code)
        return sorted(found)

    def place(self, key: str) -> int | None:
        """Where the entry `key` is in file order; None when there is none."""
        at = self._places.get(key)
        if at is None and key in self._others:
            keys = self._keys
            # Ids are unique: its one place (pi's leaf is the last; another is looked for in C).
            at = len(keys) - 1 if key == keys[-1] else keys.index(key, self._placed)
        return at

    def path_entries(self, key: str, lines_kept: bool = True) -> IndexedPath:
        """The entries from the root down to `key` (pi's buildSessionPath). Without `lines_kept`,
        an entry reads its line again each time its fields are asked for, instead of holding it:
        for a pass that reads every entry of a long path once (the trace), which would otherwise
        hold the whole file's lines."""
        positions = array("i")
        at = self.place(key)
        if at is None:
            raise KeyError(key)
        parents = self._parents
        while at >= 0:
            positions.append(at)
            at = parents[at]
        positions.reverse()
        return IndexedPath(self, positions, lines_kept)

    def entry(self, at: int, line_kept: bool = True) -> Entry:
        """The entry in place `at`; its fields are parsed from its line when asked for. Without
        `line_kept` the line is not held: the index reads it again (as a LineSource)."""
        return self._entry(at, self._line(at), line_kept)

    def _entry(self, at: int, raw: bytes, line_kept: bool) -> Entry:
        """The entry in place `at`, whose line is `raw`."""
        parent = self._parents[at]
        kind, role = self._kind_table[self._kinds[at]]
        return Entry(
            self._keys[at],
            self._keys[parent] if parent >= 0 else None,
            kind,
            _decode_lead(raw).timestamp,  # not kept per entry: read with the line
            role,
            self._header_line + 1 + at + bisect_right(self._blanks, at),
            raw=raw if line_kept else self,
        )

    def _lines(self, places: Sequence[int]) -> list[memoryview]:
        """The lines of the entries in `places` (ascending), read as one stretch of the file: views
        of it, not copies (a pass over a long path would copy 150 MB again)."""
        offsets, first, last = self._offsets, places[0], places[-1]
        begin = offsets[first]
        end = offsets[last + 1] if last + 1 < len(offsets) else self._size
        data = os.pread(self._handle.fileno(), end - begin, begin)
        view = memoryview(data)
        starts = list(map(sub, map(offsets.__getitem__, places), repeat(begin)))
        if bisect_left(self._blanks, first + 1) == bisect_right(self._blanks, last):
            # No blank line between them: each but the last ends where the next entry's starts, less its newline.
            ends = list(map(sub, map(offsets.__getitem__, map(add, places[:-1], repeat(1))), repeat(begin + 1)))
            ends.append(0)
        else:
            ends = [data.find(b"\n", start) for start in starts]
        newline = data.find(b"\n", starts[-1])  # the last may end the file, with or without a newline
        ends[-1] = newline if newline >= 0 else len(data)
        return list(map(view.__getitem__, map(slice, starts, ends)))

    def _line(self, at: int) -> bytes:
        offset = self._offsets[at]
        end = self._offsets[at + 1] if at + 1 < len(self._offsets) else self._size
        raw = os.pread(self._handle.fileno(), end - offset, offset)  # this line, its newline, maybe blank lines
        newline = raw.find(b"\n")
        return raw if newline < 0 else raw[:newline]

    # ---- a LineSource for the entries made without their lines -------------------------------------

    def read(self, line: int) -> bytes | None:
        """The line numbered `line` (entry's numbering: the header's counted, blank lines too)."""
        # An entry's line is header_line + 1 + its place + the blank lines before it: find the place.
        blanks, first = self._blanks, self._header_line + 1
        low, high = max(0, line - first - len(blanks)), min(len(self._keys) - 1, line - first)
        while low <= high:
            at = (low + high) // 2
            found = first + at + bisect_right(blanks, at)
            if found == line:
                return self._line(at)
            low, high = (at + 1, high) if found < line else (low, at - 1)
        return None

    def records_no_usage(self, line: int) -> bool:
        return False  # not known: the line is read

    def textless(self, line: int) -> bool | None:
        return None


class IndexedPath(Sequence[Entry]):
    """A path whose Entry objects are made when first looked at: resolving a leaf at
    the end of a 100,000-entry path reads only what follows the last compaction."""

    def __init__(self, index: PathIndex, positions: array, lines_kept: bool = True) -> None:
        self._index = index
        self._positions = positions
        self._lines_kept = lines_kept
        self._made: dict[int, Entry] = {}

    def __len__(self) -> int:
        return len(self._positions)

    @overload
    def __getitem__(self, at: int) -> Entry: ...
    @overload
    def __getitem__(self, at: slice) -> list[Entry]: ...
    def __getitem__(self, at: int | slice) -> Entry | list[Entry]:
        if isinstance(at, slice):
            start, stop, step = at.indices(len(self))
            if step == 1:
                return self._span(start, stop)
            return [self[i] for i in range(start, stop, step)]
        if at < 0:
            at += len(self)
        made = self._made.get(at)
        if made is None:
            made = self._made[at] = self._index.entry(self._positions[at], self._lines_kept)
        return made

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._span(0, len(self)))

    def _span(self, start: int, stop: int) -> list[Entry]:
        """The entries in places start … stop - 1, those not made yet made from their lines read a
        stretch of the file at a time (a context a million entries long read each line on its own)."""
        made, positions, index, kept = self._made, self._positions, self._index, self._lines_kept
        if all(map(made.__contains__, range(start, stop))):
            return list(map(made.__getitem__, range(start, stop)))
        offsets = index._offsets
        found: list[Entry] = []
        while start < stop:
            reach = offsets[positions[start]] + _STRETCH  # as far as the stretch goes; at least one line
            end = max(start + 1, bisect_left(positions, reach, start, stop, key=offsets.__getitem__))
            for at, line in zip(range(start, end), index._lines(positions[start:end])):
                entry = made.get(at)
                if entry is None:
                    entry = made[at] = index._entry(positions[at], bytes(line), kept)
                found.append(entry)
            start = end
        return found

    def ids(self) -> list[str]:
        """The entries' ids, root first, without making the entries."""
        return list(map(self._index._keys.__getitem__, self._positions))

    def types_and_roles(self) -> list[tuple[str, Any]]:
        """Each entry's (type, role), root first (the role MISSING for an entry that holds no message)."""
        index = self._index
        return list(map(index._kind_table.__getitem__, map(index._kinds.__getitem__, self._positions)))

    def lines(self) -> Iterator[list[memoryview]]:
        """The entries' lines, root first, a stretch of the file at a time (a few MB: a pass over a
        long path holds no more of it), without making the entries: views of one buffer a stretch
        (`views_utf8` tells them UTF-8 at once)."""
        positions, offsets = self._positions, self._index._offsets
        start = 0
        while start < len(positions):
            # As far as the stretch goes from the first; at least one line, however long.
            reach = offsets[positions[start]] + _STRETCH
            end = max(start + 1, bisect_left(positions, reach, start, key=offsets.__getitem__))
            yield self._index._lines(positions[start:end])
            start = end

    def kind_codes(self) -> tuple[Callable[[], Iterator[int]], list[tuple[str, Any]]]:
        """The entries' types and roles without making the entries: their codes from the leaf up,
        read as far as they are asked for, and the table of (type, role) pairs they index
        (fold/structure.py reads the rules off the table)."""
        kinds, positions = self._index._kinds, self._positions
        return lambda: map(kinds.__getitem__, reversed(positions)), self._index._kind_table

    def position(self, key: Any, stop: int) -> int:
        """Where the entry `key` is in self[:stop], or `stop` when it is not there."""
        at = self._index.place(key) if isinstance(key, str) else None
        if at is None:
            return stop
        # A clean file's parents come before their children: positions increase along a path.
        found = bisect_left(self._positions, at, 0, stop)
        return found if found < stop and self._positions[found] == at else stop


def _scan(path: Path, handle: BinaryIO, indexer: _Batches) -> PathIndex | None:
    """The single pass: the file's lines a batch at a time, each batch decoded and checked in C."""
    batches = scan_lines(handle, chunk=_CHUNK if indexer.previews is None else _PREVIEW_CHUNK)
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
    indexer.start(index)
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

    def __init__(self, utf8: bool = False, times: bool = False, previews: PreviewColumn | None = None) -> None:
        self.utf8, self.previews = utf8, previews
        self.keep_times = times
        self.decode_known: Callable[[bytes], _AnyLead] = _decode_known_preview_lead if previews else _decode_known_lead
        self.decode: Callable[[bytes], _AnyLead] = _decode_preview_lead if previews else _decode_lead
        self.roles = _dict_roles if previews else _struct_roles
        self.kind_codes: dict[str, dict[Any, int]] = {}  # type → role (a string, or UNSET) → code
        self.parents_before = False  # the last batch's parents all came before it
        self.label_targets: list[Any] = []

    def start(self, index: PathIndex) -> None:
        self.index = index
        index.times = [] if self.keep_times else None
        index.column = [] if self.previews is not None else None

    def add(self, lines: list[bytes], base: int, start: int) -> bool:
        starts = array("q", line_starts(base, lines))[start:]
        lines = lines[start:]
        if self.utf8 and not _all_utf8(lines):
            return False
        leads: list[_AnyLead]
        try:
            leads = list(map(self.decode_known, lines))  # every line decoded in C; a blank one raises too
        except _ERRORS:
            try:
                leads = list(map(self.decode, lines))  # a type or role of its own somewhere
            except _ERRORS:
                return self._add_line_by_line(lines, starts)
        return self._add(leads, starts, lines)

    def _add_line_by_line(self, lines: list[bytes], starts: array) -> bool:
        """A batch with blank lines (counted, as pi skips them) or a line that does not decode."""
        run: list[_AnyLead] = []
        run_lines: list[bytes] = []
        run_starts = array("q")
        for raw, at in zip(lines, starts):
            if not raw.strip():
                if not self._add(run, run_starts, run_lines):
                    return False
                run, run_lines, run_starts = [], [], array("q")
                self.index._blanks.append(len(self.index._keys))
                continue
            lead = self._decode_line(raw)
            if lead is None:
                return False
            run.append(lead)
            run_lines.append(raw)
            run_starts.append(at)
        return self._add(run, run_starts, run_lines)

    def _decode_line(self, raw: bytes) -> _AnyLead | None:
        """One line's lead; a message that does not decode as a preview reads (a content that is
        not text or blocks) is read as a lead alone."""
        for decode in (self.decode, _decode_lead) if self.previews else (_decode_lead,):
            try:
                return decode(raw)
            except _ERRORS:
                pass
        return None

    def _add(self, leads: list[_AnyLead], starts: array, lines: list[bytes]) -> bool:
        if not leads:
            return True
        index = self.index
        first = len(index._keys)
        keys = list(map(_ID, leads))
        parents = self._parents(keys, list(map(_PARENT, leads)), first)
        if parents is None:
            return False
        types = list(map(_TYPE, leads))
        codes = self._codes(types, leads)
        if codes is None:
            return False
        if "context_edit" in types and any(map(edit_without_replacement, compress(lines, map(eq, types, repeat("context_edit"))))):
            return False  # an edit pi stops on: the full load reports it
        if "label" in types:
            self.label_targets += compress(map(_TARGET, leads), map(eq, types, repeat("label")))
        index._keys += keys
        index._parents.extend(parents)
        index._kinds.extend(codes)
        index._offsets.extend(starts)
        if index.times is not None:
            index.times += map(_TIMESTAMP, leads)
        if index.column is not None and self.previews is not None:
            index.column += self.previews(lines, list(map(index._kind_table.__getitem__, codes)), list(map(_MESSAGE, leads)))
        return True

    def _parents(self, keys: list[str], parent_ids: list[Any], first: int) -> list[int] | None:
        """Each entry's parent's place, looked up in C; None for an id that came before, or a
        parent missing, after its child, or itself. The batch's ids are placed first, and
        every id before them not placed yet; but when the last batch's parents all came before
        it (a million replies to one entry), this one's are looked for among the placed ones
        first, and when all are there its ids are not placed (`finished` checks them)."""
        index = self.index
        if self.parents_before:
            found = self._look_up(parent_ids)
            if -2 not in found:
                return found  # the placed entries all come before the batch
        places, placed = index._places, index._placed
        places.update(zip(chain(index._keys[placed:first], keys), count(placed)))
        index._placed = first + len(keys)
        if len(places) != index._placed:
            return None  # an id twice
        found = self._look_up(parent_ids)
        if -2 in found or not all(map(lt, found, count(first))):
            return None  # a parent missing, after its child, or itself
        self.parents_before = max(found) < first
        return found

    def _look_up(self, parent_ids: list[Any]) -> list[int]:
        """The places of these parents: -1 for none (a root), -2 for one not placed."""
        places: dict[Any, int] = self.index._places
        places[None] = -1
        try:
            return list(map(places.get, parent_ids, repeat(-2)))
        finally:
            del places[None]

    def _codes(self, types: list[str], leads: list[_AnyLead]) -> list[int] | None:
        """Each entry's (type, role) as a code into the index's table, looked up in C; None for a
        second header, or a message entry whose message is null or missing (pi stops with a
        TypeError on a path through it: the full load reports it) or has no string role."""
        codes = self.kind_codes
        try:
            return list(map(getitem, map(codes.__getitem__, types), self.roles(leads)))
        except (KeyError, AttributeError, TypeError):
            pass  # a pair not seen yet, or a message that is null (or, with previews, not decoded as one)
        table = self.index._kind_table
        found = []
        for kind, lead in zip(types, leads):
            role = _role(lead.message)
            code = codes.get(kind, {}).get(role, -1)
            if code < 0:
                if kind == "session" or (kind == "message" and role is msgspec.UNSET) or len(table) > 60_000:
                    return None
                code = codes.setdefault(kind, {})[role] = len(table)
                table.append((kind, MISSING if role is msgspec.UNSET else role))
            found.append(code)
        return found

    def finished(self) -> bool:
        """No id comes twice, and every label names an entry of the file."""
        index = self.index
        if index._placed < len(index._keys):
            index._others = set(index._keys[index._placed :])
            if len(index._others) != len(index._keys) - index._placed or not index._others.isdisjoint(index._places):
                return False  # an id twice
        return all(type(target) is str and target in index for target in self.label_targets)


def places(column: array, value: int) -> Iterator[int]:
    """Where `value` is in `column`, in order (each found by a search in C: for a value seldom there)."""
    at = -1
    try:
        while True:
            at = column.index(value, at + 1)
            yield at
    except ValueError:
        return


def views_utf8(lines: list[memoryview]) -> bool:
    """Whether every one of a stretch's lines (IndexedPath.lines: views of one buffer) is UTF-8,
    told in C over the buffer at once (its newlines, and any blank line, are ASCII)."""
    buffer = lines[0].obj if lines else b""
    if not isinstance(buffer, bytes) or not all(map(is_, map(_OBJ, lines), repeat(buffer))):
        return _all_utf8(list(map(bytes, lines)))
    if buffer.isascii():
        return True
    try:
        codecs.utf_8_decode(buffer, "strict", True)
    except UnicodeDecodeError:
        return False
    return True


def _all_utf8(lines: list[bytes]) -> bool:
    """Every line's bytes are UTF-8 (an ASCII line is, and is told in C)."""
    try:
        for raw in filterfalse(bytes.isascii, lines):
            raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _struct_roles(leads: list[_AnyLead]) -> Iterator[Any]:
    """Each lead's role, read in C (AttributeError for a message that is null)."""
    return map(_ROLE, leads)


def _dict_roles(leads: list[_AnyLead]) -> Iterator[Any]:
    """Each lead's role where messages are dicts (previews), read in C (TypeError for any other)."""
    return map(dict.get, map(_MESSAGE, leads), repeat("role"), repeat(msgspec.UNSET))


def _role(message: Any) -> Any:
    """A lead's message's role, however it was decoded; UNSET for none."""
    if message is None:
        return msgspec.UNSET
    return message.get("role", msgspec.UNSET) if type(message) is dict else message.role
