"""Reading a session file into its header and entry records, skipping what pi skips."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from io import BufferedReader
from pathlib import Path
from typing import Any
from collections.abc import Callable

from .entry import Entry
from .header import HeaderSearch, js_truthy_json, kind_of
from .jsonline import parse_line
from .line_layout import LEADING_FIELDS, USAGE_FIELD, edit_without_replacement
from .line_table import UNKNOWN, LineTable, SessionFile
from .lines import LineBatch, line_starts, scan_lines
from ..js.map_key import js_key
from ..js.value import MISSING
from .migration import needs_migration
from .problems import Problem
from .read_digest import ChunkDigest, read_digest
from .same_file import FINGERPRINT_SIZE, FileIdentity, identity
from .regular_file import cannot_read, open_session_file
from .textless_replies import textless_line

# pi reads `edit.replacement.content` of an edit that is not null, for each message it edits.
NO_REPLACEMENT = "context_edit without a replacement: pi stops with a TypeError on a path where it edits a message"

# Entries whose other fields the tree needs at once (labels, the session name).
_PARSE_NOW = {b"label", b"session_info", b"session"}

ProgressCallback = Callable[[int, int], None]
# How many bytes before the read position must stay the same for an append to be trusted.


# (device, inode) of the file that was read: a file renamed over the path has others.


@dataclass
class RawSession:
    path: Path
    header: dict[str, Any]
    header_line: int
    # In file order: an Entry read from its leading fields, or (line, parsed object).
    records: list[Entry | tuple[int, dict[str, Any]]]
    problems: list[Problem] = field(default_factory=list)
    size: int = 0
    # Where reading stopped: after the last newline, and the number of the line there.
    consumed: int = 0
    next_line: int = 1
    fingerprint: bytes = b""  # the bytes just before `consumed`
    identity: FileIdentity = (0, 0)
    digest: Any = field(default_factory=read_digest)  # of the bytes before `consumed` (see read_digest.py)


def file_identity(fd: int) -> FileIdentity:
    return identity(os.fstat(fd))


CHUNK = 1 << 20  # the file is read this much at a time (lines.scan_lines); more costs memory, not time


def read_session(path: Path, *, lazy: bool = True, progress: ProgressCallback | None = None) -> RawSession:
    """Split the file into lines and classify each one, skipping what pi skips.

    With `lazy`, a line in pi's usual shape becomes an Entry holding its leading
    fields and where its line is in the file; the line is read back and parsed when
    first needed (Session.validate checks the rest in the background). Otherwise, and
    for an old format (migrated as a whole), every line is parsed now. The file is read
    a chunk at a time, never held whole. `progress` is told bytes read.
    """
    with open_session_file(path) as handle:
        try:
            reading = _Reading(path, handle, lazy, progress)
            for batch in scan_lines(handle, chunk=CHUNK):
                reading.take(batch)
            return reading.finish()
        except OSError as error:
            raise cannot_read(path, error) from None


class _Reading:
    """One pass over a file's lines: the header first, then each line skimmed into an Entry (or
    parsed), and, when lazy, every line's place in the file's LineTable."""

    def __init__(self, path: Path, handle: BufferedReader, lazy: bool, progress: ProgressCallback | None) -> None:
        fd = handle.fileno()
        self.path, self.fd, self.progress = path, fd, progress
        self.identity, self.size = file_identity(fd), os.fstat(fd).st_size
        self.file = SessionFile(fd) if lazy else None
        self.problems: list[Problem] = []
        self.search = HeaderSearch(path, self.problems)
        self.records: list[Entry | tuple[int, dict[str, Any]]] = []
        self.header: dict[str, Any] | None = None
        self.header_line = 0
        self.table: LineTable | None = None
        self.lines = 0  # lines read so far
        self.consumed = 0  # the offset after the last newline read
        self.read_end = 0  # … and after the last byte
        self.unterminated = False  # the last line read has no newline
        self.previous: Entry | None = None  # the entry skimmed last (its parent's id is shared)
        self.digest = ChunkDigest()  # of the whole lines read (see read_digest.py)

    def take(self, batch: LineBatch) -> None:
        lines, first = batch.lines, self.lines + 1
        start = 0
        if self.header is None:
            found = self.search.find(lines, first)
            if found is None:
                self._done(batch, lines)
                return
            self.header, self.header_line, index = found
            start = index + 1
            if self.file is not None and not needs_migration(self.header):
                self.table = LineTable(self.file, self.header_line + 1)
        last = len(lines) - 1 if batch.unterminated else -1
        if self.table is not None:
            self._skim(self.table, lines, line_starts(batch.base, lines), start, first, last)
        else:
            self.records += read_lines(self.path, lines[start:], first + start, self.problems, terminated=not batch.unterminated)
        self._done(batch, lines)

    def _done(self, batch: LineBatch, lines: list[bytes]) -> None:
        self.digest.feed(memoryview(batch.read)[: batch.consumed - batch.base])  # what `consumed` covers
        self.lines += len(lines)
        self.consumed, self.unterminated, self.read_end = batch.consumed, batch.unterminated, batch.end
        if self.progress is not None:
            self.progress(batch.end, max(self.size, batch.end))

    def _skim(self, table: LineTable, lines: list[bytes], starts: Iterable[int], start: int, first: int, last: int) -> None:
        """Lines in pi's layout become Entries that read their line back through the table (none is
        cut out of the file but those parsed now); the rest are parsed. `last`: the index of a last
        line without its newline (-1: none)."""
        records, problems, path = self.records, self.problems, self.path
        add_break, add_no_usage, add_textless, append = table.breaks.append, table.no_usage.append, table.no_text.append, records.append
        match, previous, progress, size = LEADING_FIELDS.match, self.previous, self.progress, self.size
        for index, (raw, at) in enumerate(zip(lines, starts)):
            if index < start:
                continue
            if progress is not None and not index & 4095:
                progress(at, max(size, at))
            number = first + index
            add_break(at - 1)
            fields = match(raw)
            if fields is not None and (raw[-1] == 125 or _looks_whole(raw)):  # 125: "}"
                entry = _entry_from_fields(fields, number, table, previous)
                if entry is not None:
                    if entry.type == "context_edit" and edit_without_replacement(raw):
                        problems.append(Problem(path, number, NO_REPLACEMENT))
                    # What loading learns of a message line while its bytes are at hand (the window's
                    # first passes would otherwise read tens of thousands of lines back): whether a tool
                    # result records no usage (summed down the leaf's path), whether an assistant's reply
                    # has no text, which pi's tree leaves out (the tree filter asks of every one). A session can hold a
                    # million short user messages: other lines are left alone.
                    role = fields[5]
                    add_no_usage(1 if role == b"toolResult" and USAGE_FIELD not in raw else 0)
                    add_textless(_textless(raw) if role == b"assistant" else UNKNOWN)
                    append(entry)
                    previous = entry
                    continue
            add_no_usage(0)
            add_textless(UNKNOWN)
            if raw and not raw.isspace():
                value = _parse_or_report(path, number, raw, problems, last=index == last)
                if value is not None:
                    append((number, value))
        self.previous = previous

    def finish(self) -> RawSession:
        if self.header is None:
            raise self.search.missing()
        table, consumed = self.table, self.consumed
        next_line = self.lines + (0 if self.unterminated else 1)  # pi's split counts the nothing after a last newline
        if table is not None:
            if not self.unterminated:
                table.breaks.append(consumed - 1)  # that nothing is a line of the table too
                table.no_usage.append(0)
                table.no_text.append(UNKNOWN)
            table.finish(self.read_end if self.unterminated else consumed)
        fingerprint = os.pread(self.fd, min(consumed, FINGERPRINT_SIZE), consumed - min(consumed, FINGERPRINT_SIZE))
        return RawSession(
            self.path,
            self.header,
            self.header_line,
            self.records,
            self.problems,
            self.read_end,
            consumed,
            next_line,
            fingerprint,
            self.identity,
            self.digest.result(),
        )


def _textless(line: bytes) -> int:
    textless = textless_line(line)
    return UNKNOWN if textless is None else int(textless)


def read_lines(
    path: Path, lines: Sequence[bytes], first_number: int, problems: list[Problem], *, terminated: bool
) -> list[tuple[int, dict[str, Any]]]:
    """Every line parsed whole, as (its line number, the object); `first_number` is lines[0]'s.
    Blank lines are skipped, as pi skips them; a line that does not parse is reported."""
    records: list[tuple[int, dict[str, Any]]] = []
    last = len(lines) - 1
    for index, raw in enumerate(lines):
        if not raw or raw.isspace():
            continue
        number = index + first_number
        value = _parse_or_report(path, number, raw, problems, last=index == last and not terminated)
        if value is not None:
            records.append((number, value))
    return records


def _entry_from_fields(fields: re.Match[bytes], number: int, raw: LineTable, previous: Entry | None = None) -> Entry | None:
    """The Entry a line's leading fields make; None when the line must be parsed whole.

    Its parent is usually the entry before it (a conversation) or that one's parent (a
    wide level): then it shares that string rather than hold a copy of its own until
    the tree is linked, which would leave a million freed copies scattered in memory."""
    type_, id_, parent, timestamp, role = fields.groups()
    if type_ in _PARSE_NOW or (type_ == b"message" and role is None):
        return None
    try:
        parent_id = parent.decode() if parent is not None else None
        if previous is not None and parent_id is not None:
            if parent_id == previous.id:
                parent_id = previous.id
            elif parent_id == previous.parent_id:
                parent_id = previous.parent_id
        return Entry(
            id_.decode(),
            parent_id,
            _word(type_),
            timestamp.decode(),
            _word(role) if role is not None else MISSING,
            number,
            raw=raw,
        )
    except UnicodeDecodeError:
        return None


_WORDS: dict[bytes, str] = {}  # entry types and roles: a handful of words, one string each
_MAX_WORDS = 256  # a file that makes up its own types by the thousand gets no more kept


def _word(raw: bytes) -> str:
    """`raw` decoded, as one shared string per distinct word: a million entries hold
    "message" and "user" a million times, at about 50 bytes a copy."""
    word = _WORDS.get(raw)
    if word is None:
        word = raw.decode()
        if len(_WORDS) < _MAX_WORDS:
            _WORDS[raw] = word
    return word


def _looks_whole(raw: bytes) -> bool:
    # A line pi is still writing, or one cut short, does not end its object.
    return raw.rstrip(b" \t\r").endswith(b"}")


def _parse_or_report(path: Path, number: int, raw: bytes, problems: list[Problem], *, last: bool) -> dict[str, Any] | None:
    try:
        value, note = parse_line(raw)
    except ValueError as error:
        if last:
            problems.append(Problem(path, number, f"skipped: incomplete last line ({error}); pi may still be writing it"))
        else:
            problems.append(Problem(path, number, f"skipped: {error}"))
        return None
    if not isinstance(value, dict):
        if not js_truthy_json(value):  # pi keeps a parsed line only when it is truthy
            problems.append(Problem(path, number, f"skipped: {kind_of(value)} is not an entry object"))
            return None
        # An array, a string, a number or true: pi keeps it as an entry, and reads its id, type and
        # parent as undefined, as of an object that has none of them.
        problems.append(Problem(path, number, f"{kind_of(value)} is not an entry object: pi keeps it as an entry with no fields"))
        return {}
    if note:
        problems.append(Problem(path, number, note))
    return value


def entry_from_data(path: Path, number: int, value: dict[str, Any], problems: list[Problem]) -> Entry:
    raw = value.get("id", MISSING)
    key = js_key(raw)  # keyed as pi's Map keys it: 123 apart from "123", every missing id one key
    if raw is MISSING:
        problems.append(Problem(path, number, "entry has no id: pi keys every entry without one as the same (undefined)"))
    elif key is not raw:
        shown = key if len(key) <= 40 else key[:39] + "…"
        problems.append(Problem(path, number, f"entry id {shown} is {kind_of(raw)}, not a string: pi keys it as that value"))
    if value.get("type") == "message" and value.get("message") is None:
        # pi reads `entry.message.role` of every message on a path it builds a context of.
        problems.append(Problem(path, number, "message entry without a message: pi stops with a TypeError on every path through it"))
    elif value.get("type") == "context_edit" and "replacement" not in value:
        problems.append(Problem(path, number, NO_REPLACEMENT))
    return Entry.from_data(value, number, key)
