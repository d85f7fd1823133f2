"""Reading a session file's usage records, from the start or on from where the last read stopped.

The file's bytes come through the one line scanner (session/lines.scan_lines) and its
header through the one header parser (session/header.HeaderSearch). Most lines are never
parsed: the leading fields pi writes first (session/line_layout) give each entry's type,
id, parent and role, which is all the thinking levels need; only a line that records a
usage is decoded, and then only the fields summed (msgspec, typed to them), or parsed
whole when it is not in pi's usual shape. A line pi would skip is skipped.

Which entries record a usage is pi's getSessionStats: an assistant reply (always counted,
its usage summed when it is an object), a `usage` entry, a tool result, a branch summary or
a compaction with a usage object. pi's statistics would throw on a usage that is not an
object; such an entry records nothing here.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import msgspec

from ..js.date import js_time
from ..js.stringify import dump_json
from ..js.value import MISSING, js_string, js_truthy
from ..session.appended import ReadMark
from ..session.header import HeaderSearch
from ..session.jsonline import parse_line
from ..session.line_layout import LEADING_FIELDS, USAGE_FIELD
from ..session.lines import scan_lines
from ..session.migration import has_no_ids, stable_id
from ..session.problems import SessionLoadError
from ..session.regular_file import open_regular
from ..text.describe import content_preview
from .records import NO_LEVEL, REPLY, SUMMARY, TOOL_RESULT, USAGE_ENTRY, FileUsage

log = logging.getLogger(__name__)

CHUNK = 1 << 20
LEVEL_TAIL = 32  # entries whose thinking level is kept for appends (pi appends to its leaf, the last entry)
FIRST_MESSAGE_LIMIT = 200
_NUMBER = (int, float)


class _Block(msgspec.Struct):
    type: Any = None
    name: Any = MISSING


class _Message(msgspec.Struct):
    role: Any = MISSING
    provider: Any = MISSING
    model: Any = MISSING
    responseModel: Any = MISSING
    usage: Any = MISSING
    content: str | list[_Block] | None = None


class _Line(msgspec.Struct):
    """The fields of a line that records a usage; a line of another shape is parsed whole."""

    type: Any = MISSING
    id: Any = MISSING
    timestamp: Any = MISSING
    message: _Message | None = None
    usage: Any = MISSING
    provider: Any = MISSING
    model: Any = MISSING


_decode_line = msgspec.json.Decoder(_Line, float_hook=float).decode
_DECODE_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)


class _Restart(Exception):
    """An appended entry's parent is older than the thinking levels kept: read the file again whole."""


def read_usage(path: Path, known: FileUsage | None = None) -> FileUsage | None:
    """The file's usage: `known` itself while the file is unchanged, `known` read on when pi only
    appended, else the file read anew. None when the file is gone."""
    try:
        handle = open_regular(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        return FileUsage(str(path), problem=f"cannot be read ({error.strerror or error})")
    with handle:
        fd = handle.fileno()
        stat = os.fstat(fd)
        if known is not None and (known.size, known.mtime_ns) == (stat.st_size, stat.st_mtime_ns):
            return known
        usage = FileUsage(str(path))
        if known is not None and _grown(known, fd, stat.st_size):
            try:
                _read(path, known, fd, grown=True)
                usage = known
            except _Restart:
                log.debug("%s: an appended entry's parent is older than the levels kept; read again", path)
                _read(path, usage, fd)
        else:
            _read(path, usage, fd)
        usage.size, usage.mtime_ns = stat.st_size, stat.st_mtime_ns
        return usage


def _grown(known: FileUsage, fd: int, size: int) -> bool:
    if known.problem is not None or not known.header_found:
        return False
    return ReadMark(known.consumed, known.head, known.fingerprint).still_there(fd, size)


def _read(path: Path, usage: FileUsage, fd: int, grown: bool = False) -> None:
    reader = _Reader(path, usage, grown)
    try:
        for batch in scan_lines(fd, usage.consumed, CHUNK):
            lines = batch.lines
            tail = lines.pop() if batch.unterminated else b""  # the file ends without a newline
            done = reader.take(lines, usage.next_line)
            taken = batch.size - len(tail)
            if not done and tail.strip() and _parses(tail):
                done = reader.take([tail], usage.next_line + len(lines))  # pi reads a last line that parses
                taken = batch.size
            reader.advance(batch.read[:taken], len(lines))
            if done:
                return
    except OSError as error:
        usage.problem = f"cannot be read ({error.strerror or error})"
        return
    reader.finish()


def _parses(raw: bytes) -> bool:
    try:
        parse_line(raw)
    except ValueError:
        return False  # pi is still writing it: read it once it is whole
    return True


class _Reader:
    """One read over a file's lines from where the last one stopped."""

    def __init__(self, path: Path, usage: FileUsage, grown: bool) -> None:
        self.path, self.usage, self.grown = path, usage, grown
        self.search = HeaderSearch(path, [])
        self.mark = ReadMark(usage.consumed, usage.head, usage.fingerprint)
        self.levels: dict[str, str] = {key: level for level, keys in usage.levels.items() for key in keys}
        self.names: dict[str, int] = {name: index for index, name in enumerate(usage.names)}

    def advance(self, taken: bytes, lines: int) -> None:
        self.mark.advance(taken)
        usage = self.usage
        usage.consumed, usage.head, usage.fingerprint = self.mark.consumed, self.mark.head, self.mark.fingerprint
        usage.next_line += lines

    def finish(self) -> None:
        usage = self.usage
        if not usage.header_found and usage.problem is None:
            usage.problem = self.search.missing().reason
        tail = list(self.levels.items())[-LEVEL_TAIL:]
        usage.levels = {}
        for key, level in tail:
            usage.levels.setdefault(level, []).append(key)

    def take(self, lines: list[bytes], first: int) -> bool:
        """Read these lines (numbered from `first`); True when the file turned out not to be a session."""
        usage = self.usage
        start = 0
        if not usage.header_found:
            try:
                found = self.search.find(lines, first)
            except SessionLoadError as error:
                usage.problem = error.reason
                return True
            if found is None:
                return False
            self._header(found[0])
            start = found[2] + 1
        match, legacy = LEADING_FIELDS.match, usage.legacy
        for index in range(start, len(lines)):
            raw = lines[index]
            fields = None if legacy else match(raw)
            if fields is not None and raw[-1] == 125:  # 125: "}", a whole line in pi's layout
                self._line(raw, first + index, *fields.groups())
            elif raw and not raw.isspace():
                self._parsed(raw, first + index)
        return False

    def _header(self, header: dict[str, Any]) -> None:
        usage = self.usage
        usage.header_found = True
        usage.session = header["id"]
        usage.cwd = header["cwd"] if isinstance(header.get("cwd"), str) else ""
        stamp = header.get("timestamp")
        usage.started = js_time(stamp) if isinstance(stamp, str) else None
        parent = header.get("parentSession")
        usage.parent_session = parent if isinstance(parent, str) else None
        usage.legacy = has_no_ids(header)

    # ---- each line -------------------------------------------------------------------------

    def _line(self, raw: bytes, number: int, kind: bytes, key: bytes, parent: bytes | None, stamp: bytes, role: bytes | None) -> None:
        """A line in pi's layout: its leading fields say what it is; only what records a usage is decoded."""
        entry_id = key.decode("utf-8", "replace")
        if kind == b"thinking_level_change" or kind == b"session_info" or (role == b"user" and self.usage.first_message is None):
            value = self._value(raw, number)
            if value is None:
                return
            self._note(value, entry_id, None if parent is None else parent.decode("utf-8", "replace"))
            return
        level = self._level_of(None if parent is None else parent.decode("utf-8", "replace"))
        self.levels[entry_id] = level
        if kind == b"message":
            if role == b"assistant" or (role == b"toolResult" and USAGE_FIELD in raw):
                self._decoded(raw, number, entry_id, level)
        elif kind in (b"usage", b"compaction", b"branch_summary") and USAGE_FIELD in raw:
            self._decoded(raw, number, entry_id, level)

    def _parsed(self, raw: bytes, number: int) -> None:
        """A line in another shape (hand-written, escaped, a version 1 file's): parsed whole."""
        value = self._value(raw, number)
        if value is None:
            return
        usage = self.usage
        if usage.legacy:
            if value.get("type") == "session":
                return
            key: Any = stable_id(usage.session, number)
            parent = usage.last_id
            usage.last_id = key
        else:
            key, parent = value.get("id", MISSING), value.get("parentId", MISSING)
        entry_id = key if isinstance(key, str) else None
        level = self._note(value, entry_id, parent if isinstance(parent, str) else None)
        self._record(value, entry_id, level)

    def _value(self, raw: bytes, number: int) -> dict[str, Any] | None:
        try:
            value, _ = parse_line(raw)
        except ValueError:
            return None  # pi skips a line that does not parse
        return value if isinstance(value, dict) else None

    def _note(self, value: dict[str, Any], entry_id: str | None, parent: str | None) -> str:
        """What an entry parsed whole tells beside a usage: a thinking level, a name, the first words."""
        usage = self.usage
        kind = value.get("type")
        level = _level_text(value.get("thinkingLevel")) if kind == "thinking_level_change" else self._level_of(parent)
        if entry_id is not None:
            self.levels[entry_id] = level
        if kind == "session_info":
            name = value.get("name")
            usage.name = " ".join(name.split())[:FIRST_MESSAGE_LIMIT] or None if isinstance(name, str) else None
        message = value.get("message")
        if kind == "message" and isinstance(message, dict) and message.get("role") == "user" and usage.first_message is None:
            text = " ".join(content_preview(message.get("content"), limit=None, tool_calls=False).split())
            usage.first_message = text[:FIRST_MESSAGE_LIMIT] or None
        return level

    def _level_of(self, parent: str | None) -> str:
        if parent is None:
            return NO_LEVEL
        level = self.levels.get(parent)
        if level is None:
            if self.grown:
                raise _Restart  # an older entry than those kept: only the whole file knows its level
            return NO_LEVEL  # a parent pi cannot find: the path starts at the entry
        return level

    def _decoded(self, raw: bytes, number: int, entry_id: str, level: str) -> None:
        try:
            line = _decode_line(raw)
        except _DECODE_ERRORS:
            value = self._value(raw, number)  # another shape, or not JSON at all: pi's parse decides
            if value is not None:
                self._record(value, entry_id, level)
            return
        message = line.message
        if line.type == "message" and message is not None:
            tools = [block.name for block in message.content if block.type == "toolCall"] if isinstance(message.content, list) else []
            self._message(
                line.id, line.timestamp, message.role, message.provider, message.model, message.responseModel, message.usage, tools, level
            )
        else:
            self._other(line.type, line.id, line.timestamp, line.provider, line.model, line.usage, level)

    def _record(self, value: dict[str, Any], entry_id: str | None, level: str) -> None:
        """The record of an entry parsed whole, if it records one."""
        get = value.get
        message = get("message")
        if get("type") == "message" and isinstance(message, dict):
            content = message.get("content")
            blocks = content if isinstance(content, list) else []
            tools = [block.get("name", MISSING) for block in blocks if isinstance(block, dict) and block.get("type") == "toolCall"]
            take = message.get
            self._message(
                entry_id,
                get("timestamp", MISSING),
                take("role"),
                take("provider", MISSING),
                take("model", MISSING),
                take("responseModel", MISSING),
                take("usage", MISSING),
                tools,
                level,
            )
        else:
            self._other(
                get("type"),
                entry_id,
                get("timestamp", MISSING),
                get("provider", MISSING),
                get("model", MISSING),
                get("usage", MISSING),
                level,
            )

    def _message(
        self, key: Any, stamp: Any, role: Any, provider: Any, model: Any, response_model: Any, usage: Any, tools: list[Any], level: str
    ) -> None:
        if role == "assistant":
            chosen = model if response_model is MISSING or response_model is None else response_model  # pi's `??`
            self._add(REPLY, key, stamp, js_string(provider), js_string(chosen), usage, tools, level)
        elif role == "toolResult" and js_truthy(usage) and isinstance(usage, dict):
            self._add(TOOL_RESULT, key, stamp, "", "", usage, [], level)

    def _other(self, kind: Any, key: Any, stamp: Any, provider: Any, model: Any, usage: Any, level: str) -> None:
        if not isinstance(usage, dict):
            return
        if kind == "usage":
            self._add(USAGE_ENTRY, key, stamp, js_string(provider), js_string(model), usage, [], level)
        elif kind in ("compaction", "branch_summary"):
            self._add(SUMMARY, key, stamp, "", "", usage, [], level)

    def _add(self, kind: int, key: Any, stamp: Any, provider: str, model: str, usage: Any, tools: list[Any], level: str) -> None:
        records = self.usage
        index = len(records.kinds)
        records.kinds.append(kind)
        records.keys.append(reply_key(key, stamp))
        records.times.append(js_time(stamp))
        records.providers.append(self._name(provider))
        records.models.append(self._name(model))
        records.thinking.append(self._name(level))
        records.tools.append([self._name(js_string(name)) for name in tools])
        figures = _figures(usage)
        if figures is None:
            records.odd[index] = []  # a reply without a usage object: counted, adding nothing
            figures = (0.0, 0.0, 0.0, 0.0, 0.0)
        elif isinstance(figures, list):
            records.odd[index] = figures
            figures = (_NAN, _NAN, _NAN, _NAN, _NAN)
        records.input.append(figures[0])
        records.output.append(figures[1])
        records.cache_read.append(figures[2])
        records.cache_write.append(figures[3])
        records.cost.append(figures[4])

    def _name(self, text: str) -> int:
        index = self.names.get(text)
        if index is None:
            index = self.names[text] = len(self.usage.names)
            self.usage.names.append(text)
        return index


_NAN = float("nan")
_FIELDS = ("input", "output", "cacheRead", "cacheWrite")


def _figures(usage: Any) -> tuple[float, float, float, float, float] | list[list[Any]] | None:
    """A usage's five figures as floats; as wrapped values (`[]` undefined, `[value]`) when any is not
    a plain number; None for a usage that is not an object."""
    if not isinstance(usage, dict):
        return None
    cost = usage.get("cost", MISSING)
    total = cost.get("total", MISSING) if isinstance(cost, dict) else MISSING  # pi: usage.cost.total
    values = [usage.get(name, MISSING) for name in _FIELDS] + [total]
    if all(type(value) in _NUMBER for value in values):
        try:
            return float(values[0]), float(values[1]), float(values[2]), float(values[3]), float(values[4])
        except OverflowError:
            pass  # an integer past a double: JS reads Infinity, js_plus knows
    return [[] if value is MISSING else [value] for value in values]


def reply_key(key: Any, stamp: Any) -> str | None:
    """What names a record across copies: its entry's id and timestamp as pi wrote them (ledger.py says why)."""
    if not isinstance(key, str):
        return None  # an entry without an id of its own is counted where it is
    return f"{key}\n{stamp if isinstance(stamp, str) else dump_json(stamp).decode('utf-8', 'replace')}"


def _level_text(value: Any) -> str:
    return value if isinstance(value, str) else js_string(value)
