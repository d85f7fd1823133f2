"""Reading a session file into its header and entry records, skipping what pi skips."""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Callable

from .entry import Entry
from .jsonline import parse_line
from .line_layout import LEADING_FIELDS, USAGE_FIELD
from ..js.stringify import dump_json
from ..js.value import MISSING
from .migration import needs_migration
from .problems import Problem, SessionLoadError
from .read_digest import ChunkDigest, read_digest
from .regular_file import NotRegularFile, open_regular
from .skimmed_lines import FLAG_BITS, QUIET, SILENCE_KNOWN, SILENT, SessionFile, SkimmedLines
from .tree_filter import silent_line

# Entries whose other fields the tree needs at once (labels, the session name).
_PARSE_NOW = {b"label", b"session_info", b"session"}

ProgressCallback = Callable[[int, int], None]
# How many bytes before the read position must stay the same for an append to be trusted.
FINGERPRINT_SIZE = 256


# (device, inode) of the file that was read: a file renamed over the path has others.
FileIdentity = tuple[int, int]


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
    stats = os.fstat(fd)
    return stats.st_dev, stats.st_ino


class FileLines(Iterable[bytes]):
    """The lines of a file's bytes, as `data.split(b"\\n")` gives them, split a block at a time:
    finding the header must not split a whole 160 MB file."""

    BLOCK = 1 << 16

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __iter__(self) -> Iterator[bytes]:
        data, at = self.data, 0
        while at <= len(data):
            end = data.find(b"\n", at + self.BLOCK)
            end = len(data) if end < 0 else end
            yield from data[at:end].split(b"\n")
            at = end + 1

    def start(self, index: int) -> int:
        """Where line `index` starts in the bytes (past them for the line after the last)."""
        at = 0
        for _ in range(index):
            at = self.data.find(b"\n", at) + 1
            if at == 0:
                return len(self.data) + 1
        return at


def read_bytes(path: Path) -> tuple[bytes, FileIdentity]:
    """The file's bytes and the identity of the file they came from."""
    data, identity, _ = _read_file(path, keep_open=False)
    return data, identity


def _read_file(path: Path, *, keep_open: bool) -> tuple[bytes, FileIdentity, SessionFile | None]:
    with open_session_file(path) as handle:
        try:
            data = handle.read()
            return data, file_identity(handle.fileno()), SessionFile(handle.fileno()) if keep_open else None
        except OSError as error:
            raise _cannot_read(path, error) from None


def open_session_file(path: Path) -> BinaryIO:
    """The file opened for reading; a SessionLoadError that says why it cannot be."""
    try:
        return open_regular(path)
    except NotRegularFile as error:
        raise SessionLoadError(path, error.strerror) from None
    except FileNotFoundError:
        raise SessionLoadError(path, "no such file") from None
    except IsADirectoryError:
        raise SessionLoadError(path, "is a folder, not a session file") from None
    except PermissionError:
        raise SessionLoadError(path, "cannot be read: permission denied") from None
    except OSError as error:
        raise _cannot_read(path, error) from None


def _cannot_read(path: Path, error: OSError) -> SessionLoadError:
    if error.errno == errno.EISDIR:
        return SessionLoadError(path, "is a folder, not a session file")
    return SessionLoadError(path, f"cannot be read: {error.strerror or error}")


def read_session(path: Path, *, lazy: bool = True, progress: ProgressCallback | None = None) -> RawSession:
    """Split the file into lines and classify each one, skipping what pi skips.

    With `lazy`, a line in pi's usual shape becomes an Entry holding its leading
    fields and where its line is in the file; the line is read back and parsed when
    first needed (Session.validate checks the rest in the background). Otherwise
    every line is parsed now. `progress` is told lines, or bytes when lazy.
    """
    if lazy:
        skimmed = _skim_file(path, progress)
        if skimmed is not None:
            return skimmed
    data, identity, file = _read_file(path, keep_open=lazy)
    if not data or data.isspace():
        raise SessionLoadError(path, "the file is empty: not a pi session")
    lines = FileLines(data)
    problems: list[Problem] = []
    header, header_line, start = _find_header(path, lines, problems)
    terminated = data.endswith(b"\n")
    # Old files are migrated as a whole, so every entry is needed in full.
    if lazy and file is not None and not needs_migration(header):
        records: list[Entry | tuple[int, dict[str, Any]]] = []
        _, line_count = _skim(path, data, lines.start(start), start, 0, records, problems, SkimmedLines(file, start + 1), progress, len(data), final=True)
    else:
        every = data.split(b"\n")  # all parsed now: these cost little beside the parsed objects
        records = read_lines(path, every, start, problems, lazy=False, terminated=terminated, progress=progress)
        line_count = len(every)
    consumed = data.rfind(b"\n") + 1
    fingerprint = data[max(0, consumed - FINGERPRINT_SIZE):consumed]
    digest = read_digest(memoryview(data)[:consumed])
    return RawSession(path, header, header_line, records, problems, len(data), consumed, line_count, fingerprint, identity, digest)


CHUNK = 8 << 20  # a lazy load reads the file this much at a time


def _skim_file(path: Path, progress: ProgressCallback | None) -> RawSession | None:
    """The lazy load, reading the file a chunk at a time: the whole file's bytes are never
    held beside the entries made from them (a 175 MB file with a million entries peaked at
    both). None when the first chunk does not end the header's line in pi's usual way
    (an empty or odd file, an old format): the caller reads the whole file instead."""
    with open_session_file(path) as handle:
        try:
            fd = handle.fileno()
            size = os.fstat(fd).st_size
            data = handle.read(CHUNK)
            whole = data[: data.rfind(b"\n") + 1]
            if not whole.strip():
                return None
            problems: list[Problem] = []
            lines = FileLines(whole)
            try:
                header, header_line, start = _find_header(path, lines, problems)
            except SessionLoadError:
                return None  # said again, with the whole file, by the caller
            if needs_migration(header):
                return None
            identity, table = file_identity(fd), SkimmedLines(SessionFile(fd), start + 1)
            records: list[Entry | tuple[int, dict[str, Any]]] = []
            at, index, base = lines.start(start), start, 0
            digest = ChunkDigest()
            while True:
                more = handle.read(CHUNK)
                at, index = _skim(path, data, at, index, base, records, problems, table, progress, max(size, base + len(data)), final=not more)
                if not more:
                    break
                digest.feed(memoryview(data)[:at])  # whole lines: what `consumed` will cover
                data, base, at = data[at:] + more, base + at, 0
        except OSError as error:
            raise _cannot_read(path, error) from None
        total = base + len(data)
        consumed = base + data.rfind(b"\n") + 1 if b"\n" in data else base
        fingerprint = os.pread(fd, min(consumed, FINGERPRINT_SIZE), consumed - min(consumed, FINGERPRINT_SIZE))
    return RawSession(path, header, header_line, records, problems, total, consumed, index, fingerprint, identity, digest.result(memoryview(data)[: consumed - base]))


def _skim(
    path: Path,
    data: bytes,
    at: int,
    index: int,
    base: int,
    records: list[Entry | tuple[int, dict[str, Any]]],
    problems: list[Problem],
    table: SkimmedLines,
    progress: ProgressCallback | None,
    total: int,
    *,
    final: bool,
) -> tuple[int, int]:
    """read_lines over `data` (the file's bytes from offset `base`) from `at` (line `index`),
    lazily: a line in pi's layout is matched where it lies and its Entry reads it back from
    the file when needed, so no line is cut out of the bytes but those parsed now. Unless
    `final`, a last line without its newline is left for the next chunk. Returns where it
    stopped and the number of lines up to there. Progress is told in bytes of `total`.
    Every line's place goes into `table` (closed when `final`)."""
    append, place = records.append, table.starts.append
    match, find, size = LEADING_FIELDS.match, data.find, len(data)
    view = memoryview(data)
    previous = records[-1] if records and isinstance(records[-1], Entry) else None
    while at <= size:
        end = find(b"\n", at)
        if end < 0:
            if not final:
                break
            end = size
        if progress is not None and not index & 4095:
            progress(base + at, total)
        number = index + 1
        fields = match(data, at, end) if end > at else None
        if fields is not None and (data[end - 1] == 125 or _looks_whole(data[at:end])):  # 125: "}"
            # What loading learns of a message line while its bytes are at hand (the window's
            # first passes would otherwise read tens of thousands of lines back): whether a tool
            # result records no usage (summed down the leaf's path: tool results are half a long
            # session's lines), whether an assistant's reply is silent in pi's tree (the tree
            # filter asks of every one). Other lines are left alone: a session can hold a
            # million short user messages, and few lie on the path.
            role = fields[5]
            if role == b"toolResult":
                learned = QUIET if find(USAGE_FIELD, at, end) < 0 else 0
            elif role == b"assistant":
                learned = _silence_flags(view[at:end])
            else:
                learned = 0
            place((base + at - 1) << FLAG_BITS | learned)  # see SkimmedLines.starts
            entry = _entry_from_fields(fields, number, table, previous)
            if entry is not None:
                append(entry)
                previous = entry
                at, index = end + 1, index + 1
                continue
        else:
            place((base + at - 1) << FLAG_BITS)
        raw = data[at:end]
        if raw and not raw.isspace():
            value = _parse_or_report(path, number, raw, problems, last=end == size and final and not data.endswith(b"\n"))
            if value is not None:
                append((number, value))
        at, index = end + 1, index + 1
    if final:
        table.finish(base + at - 1)
        if progress is not None:
            progress(total, total)
    return at, index


def _silence_flags(line: memoryview) -> int:
    silent = silent_line(line)
    return 0 if silent is None else (SILENCE_KNOWN | SILENT if silent else SILENCE_KNOWN)


def read_lines(
    path: Path,
    lines: Sequence[bytes],
    start: int,
    problems: list[Problem],
    *,
    lazy: bool,
    terminated: bool,
    first_number: int = 1,
    progress: ProgressCallback | None = None,
) -> list[Entry | tuple[int, dict[str, Any]]]:
    """Records for lines[start:]; `first_number` is the file line number of lines[0]."""
    records: list[Entry | tuple[int, dict[str, Any]]] = []
    append = records.append
    match = LEADING_FIELDS.match
    total = len(lines)
    for index in range(start, total):
        raw = lines[index]
        if progress is not None and not index & 4095:
            progress(index, total)
        if not raw or raw.isspace():
            continue
        number = index + first_number
        fields = match(raw) if lazy else None
        if fields is not None and (raw[-1:] == b"}" or _looks_whole(raw)):
            entry = _entry_from_fields(fields, number, raw)
            if entry is not None:
                append(entry)
                continue
        value = _parse_or_report(path, number, raw, problems, last=index == total - 1 and not terminated)
        if value is not None:
            append((number, value))
    if progress is not None:
        progress(total, total)
    return records


def _entry_from_fields(fields: re.Match[bytes], number: int, raw: bytes | SkimmedLines, previous: Entry | None = None) -> Entry | None:
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


def _find_header(path: Path, lines: Iterable[bytes], problems: list[Problem]) -> tuple[dict[str, Any], int, int]:
    falsy = False
    for index, raw in enumerate(lines):
        if not raw.strip():
            continue
        try:
            value, note = parse_line(raw)
        except ValueError as error:
            problems.append(Problem(path, index + 1, f"skipped: {error}"))
            continue
        if not _js_truthy_json(value):
            problems.append(Problem(path, index + 1, f"skipped: {_kind(value)} is not an entry"))
            falsy = True
            continue
        if isinstance(value, dict) and value.get("type") == "session" and isinstance(value.get("id"), str):
            if note:
                problems.append(Problem(path, index + 1, note))
            return value, index + 1, index + 1
        raise SessionLoadError(path, f"not a pi session: line {index + 1}, its first JSON line, {_not_a_header(value)}")
    if falsy:
        raise SessionLoadError(path, "not a pi session: its only JSON values are null, false, 0 or \"\", which pi skips")
    raise SessionLoadError(path, "not a pi session: no line parses as JSON")


def _not_a_header(value: Any) -> str:
    """What is wrong with the value where pi wants the session header (pi checks `type` and `id`, nothing else)."""
    if not isinstance(value, dict):
        return f"is {_kind(value)}, not a session header"
    kind = value.get("type", MISSING)
    if kind != "session":
        shown = "no type" if kind is MISSING else f"type {_shown(kind)}"
        return f"has {shown}, where a session header has type \"session\""
    key = value.get("id", MISSING)
    return "is a session header without an id" if key is MISSING else f"is a session header whose id is {_kind(key)}, not a string"


def _shown(value: Any) -> str:
    text = dump_json(value).decode("utf-8", errors="replace")
    return text if len(text) <= 40 else text[:39] + "…"


def _parse_or_report(
    path: Path, number: int, raw: bytes, problems: list[Problem], *, last: bool
) -> dict[str, Any] | None:
    try:
        value, note = parse_line(raw)
    except ValueError as error:
        if last:
            problems.append(Problem(path, number, f"skipped: incomplete last line ({error}); pi may still be writing it"))
        else:
            problems.append(Problem(path, number, f"skipped: {error}"))
        return None
    if not isinstance(value, dict):
        problems.append(Problem(path, number, f"skipped: {_kind(value)} is not an entry object"))
        return None
    if note:
        problems.append(Problem(path, number, note))
    return value


def _js_truthy_json(value: Any) -> bool:
    # pi keeps a parsed line only when the value is truthy (`if (entry) entries.push`).
    return not (value is None or value is False or value == 0 and not isinstance(value, bool) or value == "")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "a value"


def entry_from_data(path: Path, number: int, value: dict[str, Any], problems: list[Problem]) -> Entry:
    key = value.get("id", MISSING)
    if not isinstance(key, str):
        problems.append(Problem(path, number, f"entry has no string id (type {value.get('type')!r}); shown as line {number}"))
        key = f"@line{number}"
    return Entry.from_data(value, number, key)
