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

import hashlib
import logging
import os
import re
from array import array
from pathlib import Path
from typing import Any

import msgspec

from ..js.date import js_time
from ..js.value import MISSING, js_string, js_truthy
from ..session.same_file import ReadMark
from ..session.header import HeaderSearch
from ..session.jsonline import parse_line
from ..session.line_layout import LINE_STARTS
from ..session.lines import scan_lines
from ..session.migration import has_no_ids, stable_id
from ..session.problems import SessionLoadError
from ..session.regular_file import open_regular
from .records import NO_KEY, NO_LEVEL, NO_TIME, REPLY, SUMMARY, TOOL_RESULT, TOOLS_AND_SUMMARIES, TYPECODES, USAGE_ENTRY, FileUsage
from .runs import pack

log = logging.getLogger(__name__)

CHUNK = 1 << 20
LEVEL_TAIL = 32  # entries whose thinking level is kept for appends (pi appends to its leaf, the last entry)
FIRST_MESSAGE_LIMIT = 200
_NUMBER = (int, float)
_NAN = float("nan")
_ZEROS = (0.0, 0.0, 0.0, 0.0, 0.0)
_SUMMED_APART: Any = object()  # the provider and model of a tool result or a summary: pi files them under Tools/summaries
_NANS = (_NAN, _NAN, _NAN, _NAN, _NAN)
_RECORD_COLUMNS = ("keys", "times", "kinds", "providers", "models", "model_keys", "thinking", "tool_calls", "tool_names", "figures")
_OTHER_RECORDS = (b"usage", b"compaction", b"branch_summary")
_USAGE = b'"usage":'
_PARSED_WHOLE = (b"thinking_level_change", b"session_info")


class _Block(msgspec.Struct, gc=False):  # (decoded values are trees: nothing for the collector to track)
    type: Any = None
    name: Any = MISSING


class _Cost(msgspec.Struct, gc=False):
    total: Any = MISSING


class _Usage(msgspec.Struct, gc=False):
    """A usage object's figures (one of another type fails the decoding: the line is parsed whole)."""

    input: Any = MISSING
    output: Any = MISSING
    cacheRead: Any = MISSING
    cacheWrite: Any = MISSING
    cost: _Cost | None = None  # null or absent: no cost.total, as pi reads it


class _Message(msgspec.Struct, gc=False):
    role: Any = MISSING
    provider: Any = MISSING
    model: Any = MISSING
    responseModel: Any = MISSING
    usage: _Usage | None = None
    content: str | list[_Block] | None = None


class _Line(msgspec.Struct, gc=False):
    """The fields of a line that records a usage; a line of another shape is parsed whole."""

    type: Any = MISSING
    id: Any = MISSING
    timestamp: Any = MISSING
    message: _Message | None = None
    usage: _Usage | None = None
    provider: Any = MISSING
    model: Any = MISSING


_decode_line = msgspec.json.Decoder(_Line, float_hook=float).decode
_DECODE_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)


class _Restart(Exception):
    """An appended entry's parent is older than the thinking levels kept: read the file again whole."""


def read_usage(path: Path, known: FileUsage | None = None, stat: os.stat_result | None = None) -> FileUsage | None:
    """The file's usage: `known` itself while the file is unchanged (its size and modification time,
    `stat` when the caller has them), `known` read on when pi only appended, else the file read anew.
    None when the file is gone."""
    if known is not None and stat is not None and (known.size, known.mtime_ns) == (stat.st_size, stat.st_mtime_ns):
        return known
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
    return ReadMark(known.consumed, known.head, known.fingerprint).still_there(fd)


def _read(path: Path, usage: FileUsage, fd: int, grown: bool = False) -> None:
    reader = _Reader(path, usage, grown)
    try:
        for batch in scan_lines(fd, usage.consumed, CHUNK):
            if usage.header_found and not usage.legacy and not batch.unterminated:
                data = batch.data  # whole lines: read off their bytes, never split (the common case)
                reader.advance(data, reader._take_layout(data, usage.next_line) - usage.next_line)
                continue
            if not usage.header_found and not batch.unterminated:
                data = batch.data
                head, _, rest = data.partition(b"\n")
                if reader.header_first(head, usage.next_line):  # (a header in pi's layout: the rest need not be split)
                    reader.advance(data, reader._take_layout(rest, usage.next_line + 1) - usage.next_line)
                    continue
            lines = batch.lines
            tail = lines.pop() if batch.unterminated else b""  # the file ends without a newline
            taken = batch.size - len(tail)
            done = reader.take(lines, usage.next_line, batch.read[:taken])
            if not done and tail.strip() and _parses(tail):
                done = reader.take([tail], usage.next_line + len(lines))  # pi reads a last line that parses
                taken = batch.size
            reader.advance(batch.read[:taken], len(lines))
            if done:
                break
    except OSError as error:
        usage.problem = f"cannot be read ({error.strerror or error})"
    reader.finish()


def _parses(raw: bytes) -> bool:
    try:
        parse_line(raw)
    except ValueError:
        return False  # pi is still writing it: read it once it is whole
    return True


def reply_key(key: Any, stamp: Any) -> int:
    """What names a record across copies (ledger.py says why): a 64-bit digest of its entry's id and
    timestamp as pi wrote them; NO_KEY for an entry without a string id (counted where it is)."""
    if not isinstance(key, str):
        return NO_KEY
    if not isinstance(stamp, str):
        from ..js.stringify import dump_json  # (here: pi writes a string; reading a grown file on need not import JSON's writer)

        stamp = dump_json(stamp).decode("utf-8", "replace")
    text = key + "\n" + stamp
    digest = int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little", signed=True)
    return digest or 1


_CLOCK = re.compile(r":([0-5]\d):([0-5]\d)\.(\d{3})Z", re.ASCII)


class _Reader:
    """One read over a file's lines from where the last one stopped."""

    def __init__(self, path: Path, usage: FileUsage, grown: bool) -> None:
        self.path, self.usage, self.grown = path, usage, grown
        self.search = HeaderSearch(path, [])
        self.mark = ReadMark(usage.consumed, usage.head, usage.fingerprint)
        self.levels: dict[bytes, str] = {
            key.encode("utf-8", "surrogatepass"): level for level, keys in usage.levels.items() for key in keys.split("\x00")
        }
        self.names: dict[str, int] = {name: index for index, name in enumerate(usage.names)}
        self.columns = {name: array(TYPECODES[name], getattr(usage, name)) for name in _RECORD_COLUMNS}  # bytes: copied as they are
        self.hours: dict[str, int | None] = {}  # "2026-03-02T08" → its epoch ms
        self._models: dict[tuple[str, str], tuple[int, int, int]] = {}  # (provider, model) → their names and key's

    def advance(self, taken: bytes, lines: int) -> None:
        self.mark.advance(taken)
        usage = self.usage
        usage.consumed, usage.head, usage.fingerprint = self.mark.consumed, self.mark.head, self.mark.fingerprint
        usage.next_line += lines

    def finish(self) -> None:
        usage = self.usage
        if not usage.header_found and usage.problem is None:
            usage.problem = self.search.missing().reason
        tail: dict[str, list[str]] = {}
        for key, level in list(self.levels.items())[-LEVEL_TAIL:]:
            tail.setdefault(level, []).append(key.decode("utf-8", "surrogatepass"))
        usage.levels = {level: "\x00".join(keys) for level, keys in tail.items()}
        for name, values in self.columns.items():
            setattr(usage, name, values.tobytes())
        usage.count = len(self.columns["kinds"])
        pack(usage)

    def header_first(self, line: bytes, number: int) -> bool:
        """True when `line` (numbered `number`) is the header of a file with ids, now taken; else nothing is
        taken, and the lines are read one by one (`take`) to find the header or say why there is none."""
        try:
            found = self.search.find([line], number)
        except SessionLoadError:
            return False  # `take` says so
        if found is None or has_no_ids(found[0]):
            return False
        self._header(found[0])
        return True

    def take(self, lines: list[bytes], first: int, data: bytes | None = None) -> bool:
        """Read these lines (numbered from `first`; `data`: the same lines as they are in the file, when
        they are whole); True when the file turned out not to be a session."""
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
        if data is not None and not usage.legacy:
            after = sum(len(line) + 1 for line in lines[:start])  # the lines after the header, as they are in the file
            self._take_layout(data[after:], first + start)
        else:
            self._take_lines(lines[start:], first + start)
        return False

    def _take_layout(self, data: bytes, first: int) -> int:
        """The lines in `data` (whole lines, numbered from `first`) read off its bytes without splitting
        them: a line in pi's layout costs one match of its leading fields (and the levels one look-up);
        the lines between that are in another shape are taken one by one. The next line's number."""
        levels, usage, decoded = self.levels, self.usage, self._decoded
        get_level, index, find = levels.get, data.index, data.find
        at, number = 0, first
        for match in LINE_STARTS.finditer(b"\n" + data):
            start = match.start()  # where the line starts in `data`
            if start > at:
                number = self._take_lines(data[at:start].split(b"\n")[:-1], number)
            kind, key, parent, role = match.groups()
            end = index(b"\n", start)
            at = end + 1
            if (kind == b"message" and role == b"user" and usage.first_message is None) or kind in _PARSED_WHOLE:
                self._parsed(data[start:end], number)  # the first words, a level or a name: parsed whole (they are short)
                number += 1
                continue
            level = get_level(parent, None) if parent else NO_LEVEL
            if level is None:
                level = self._level_of(parent)  # a parent pi cannot find (or, reading on, one older than those kept)
            levels[key] = level
            if kind == b"message":
                if role == b"assistant" or (role == b"toolResult" and find(_USAGE, start, end) >= 0):
                    decoded(data[start:end], number, level)
            elif kind in _OTHER_RECORDS and find(_USAGE, start, end) >= 0:
                decoded(data[start:end], number, level)
            number += 1
        if at < len(data):
            number = self._take_lines(data[at:].split(b"\n")[:-1], number)
        return number

    def _take_lines(self, lines: list[bytes], first: int) -> int:
        """Lines one by one (a version 1 file's, or lines in another shape than pi's); the next line's number."""
        for index, raw in enumerate(lines):
            if raw and not raw.isspace():
                self._parsed(raw, first + index)
        return first + len(lines)

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

    def _level_of(self, parent: bytes | None) -> str:
        if parent is None:
            return NO_LEVEL
        level = self.levels.get(parent)
        if level is None:
            if self.grown:
                raise _Restart  # an older entry than those kept: only the whole file knows its level
            return NO_LEVEL  # a parent pi cannot find: the path starts at the entry
        return level

    # ---- lines parsed whole ---------------------------------------------------------------

    def _parsed(self, raw: bytes, number: int) -> None:
        """A line in another shape (hand-written, escaped, a version 1 file's), or one that sets a level,
        a name or holds the first words: parsed whole."""
        try:
            value, _ = parse_line(raw)
        except ValueError:
            return  # pi skips a line that does not parse
        if not isinstance(value, dict):
            return
        usage = self.usage
        get = value.get
        if usage.legacy:
            if get("type") == "session":
                return
            key: Any = stable_id(usage.session, number)
            parent: Any = usage.last_id
            usage.last_id = key
        else:
            key, parent = get("id", MISSING), get("parentId", MISSING)
        kind = get("type")
        parent_key = parent.encode("utf-8", "surrogatepass") if isinstance(parent, str) else None
        level = _level_text(get("thinkingLevel")) if kind == "thinking_level_change" else self._level_of(parent_key)
        if isinstance(key, str):
            self.levels[key.encode("utf-8", "surrogatepass")] = level
        if kind == "session_info":
            name = get("name")
            usage.name = (" ".join(name.split())[:FIRST_MESSAGE_LIMIT] or None) if isinstance(name, str) else None
        message = get("message")
        if kind == "message" and isinstance(message, dict):
            role = message.get("role")
            if role == "user" and usage.first_message is None:
                from ..text.describe import content_preview  # (here: once a file, and not for a file read on)

                text = " ".join(content_preview(message.get("content"), limit=None, tool_calls=False).split())
                usage.first_message = text[:FIRST_MESSAGE_LIMIT] or None
            content = message.get("content")
            blocks = content if isinstance(content, list) else []
            tools = [block.get("name", MISSING) for block in blocks if isinstance(block, dict) and block.get("type") == "toolCall"]
            take = message.get
            self._message(
                key, get("timestamp", MISSING), role, take("provider", MISSING), take("model", MISSING),
                take("responseModel", MISSING), take("usage", MISSING), tools, level,
            )  # fmt: skip
        else:
            found = get("usage", MISSING)
            figures = _dict_figures(found) if isinstance(found, dict) else None
            self._other(kind, key, get("timestamp", MISSING), get("provider", MISSING), get("model", MISSING), figures, level)

    # ---- lines that record a usage, decoded in part -----------------------------------------

    def _decoded(self, raw: bytes, number: int, level: str) -> None:
        try:
            line = _decode_line(raw)
        except _DECODE_ERRORS:
            self._parsed(raw, number)  # another shape, or not JSON at all: pi's parse decides
            return
        message = line.message
        if line.type == "message" and message is not None:
            role = message.role
            if role == "assistant":
                content = message.content
                tools = [block.name for block in content if block.type == "toolCall"] if type(content) is list else []
                chosen = message.responseModel
                if chosen is MISSING or chosen is None:
                    chosen = message.model  # pi's `responseModel ?? model`
                self._add(REPLY, line.id, line.timestamp, message.provider, chosen, _struct_figures(message.usage), tools, level)
            elif role == "toolResult" and message.usage is not None:  # (an object is truthy)
                self._add(TOOL_RESULT, line.id, line.timestamp, _SUMMED_APART, _SUMMED_APART, _struct_figures(message.usage), [], level)
        elif line.usage is not None:
            self._other(line.type, line.id, line.timestamp, line.provider, line.model, _struct_figures(line.usage), level)

    def _message(
        self, key: Any, stamp: Any, role: Any, provider: Any, model: Any, response_model: Any, usage: Any, tools: list[Any], level: str
    ) -> None:
        if role == "assistant":
            chosen = model if response_model is MISSING or response_model is None else response_model  # pi's `??`
            self._add(REPLY, key, stamp, provider, chosen, _dict_figures(usage), tools, level)
        elif role == "toolResult" and isinstance(usage, dict) and js_truthy(usage):
            self._add(TOOL_RESULT, key, stamp, _SUMMED_APART, _SUMMED_APART, _dict_figures(usage), [], level)

    def _other(self, kind: Any, key: Any, stamp: Any, provider: Any, model: Any, figures: tuple[Any, ...] | None, level: str) -> None:
        """A usage entry's or a summary's record; `figures` None: it has no usage object, and records nothing."""
        if figures is None:
            return
        if kind == "usage":
            self._add(USAGE_ENTRY, key, stamp, provider, model, figures, [], level)
        elif kind in ("compaction", "branch_summary"):
            self._add(SUMMARY, key, stamp, _SUMMED_APART, _SUMMED_APART, figures, [], level)

    def _add(
        self, kind: int, key: Any, stamp: Any, provider: Any, model: Any, values: tuple[Any, ...] | None, tools: list[Any], level: str
    ) -> None:
        """One record: under provider/model (pi's String() of each), or Tools/summaries (_SUMMED_APART);
        `values` the usage's five figures as they are in the file (MISSING where absent), None without a usage object."""
        columns = self.columns
        kinds = columns["kinds"]
        index = len(kinds)  # (the record's)
        columns["keys"].append(reply_key(key, stamp))
        columns["times"].append(self._time(stamp))
        kinds.append(kind)
        where = self._models.get((provider, model)) if type(provider) is str and type(model) is str else None
        if where is None:
            where = self._model_names(provider, model)
        columns["providers"].append(where[0])
        columns["models"].append(where[1])
        columns["model_keys"].append(where[2])
        named = self.names.get(level)
        columns["thinking"].append(self._name(level) if named is None else named)
        if tools:
            columns["tool_calls"].append(min(len(tools), 0xFFFFFFFF))
            columns["tool_names"].extend(self._name(tool if type(tool) is str else js_string(tool)) for tool in tools)
        else:
            columns["tool_calls"].append(0)
        figures = columns["figures"]
        if values is None:
            self.usage.odd[index] = []  # a reply without a usage object: counted, adding nothing
            figures.extend(_ZEROS)
            return
        first, second, third, fourth, fifth = values
        if (
            type(first) in _NUMBER
            and type(second) in _NUMBER
            and type(third) in _NUMBER
            and type(fourth) in _NUMBER
            and type(fifth) in _NUMBER
        ):
            try:
                figures.extend((float(first), float(second), float(third), float(fourth), float(fifth)))
                return
            except OverflowError:
                pass  # an integer past a double: JS reads Infinity, js_plus knows
        self.usage.odd[index] = [[] if value is MISSING else [value] for value in values]
        figures.extend(_NANS)

    def _model_names(self, provider: Any, model: Any) -> tuple[int, int, int]:
        """The names of a record's provider, model and model key (pi's `${provider}/${model}`, or Tools/summaries)."""
        if provider is _SUMMED_APART:
            found = (self._name(""), self._name(""), self._name(TOOLS_AND_SUMMARIES))
        else:
            provider_text, model_text = js_string(provider), js_string(model)
            found = (self._name(provider_text), self._name(model_text), self._name(f"{provider_text}/{model_text}"))
        if type(provider) is str and type(model) is str:
            self._models[(provider, model)] = found  # (the common case, looked up without String())
        return found

    def _time(self, stamp: Any) -> int:
        """js_time of the entry's timestamp; pi's own ISO form by the hour it falls in, computed once."""
        if type(stamp) is str and len(stamp) == 24 and stamp[11:13] < "24":
            clock = _CLOCK.fullmatch(stamp, 13)
            if clock is not None:
                hour = self.hours.get(stamp[:13], -1)
                if hour == -1:
                    hour = self.hours[stamp[:13]] = js_time(stamp[:13] + ":00:00.000Z")
                if hour is not None:
                    minutes, seconds, millis = clock.groups()
                    return hour + int(minutes) * 60_000 + int(seconds) * 1000 + int(millis)
        millis = js_time(stamp)
        return NO_TIME if millis is None else millis

    def _name(self, text: str) -> int:
        index = self.names.get(text)
        if index is None:
            index = self.names[text] = len(self.usage.names)
            self.usage.names.append(text)
        return index


def _dict_figures(usage: Any) -> tuple[Any, ...] | None:
    """A usage object's five figures as pi reads them (MISSING for undefined); None when it is not an object."""
    if type(usage) is not dict:
        return None
    get = usage.get
    cost = get("cost", MISSING)
    total = cost.get("total", MISSING) if type(cost) is dict else MISSING  # pi: usage.cost.total
    return (get("input", MISSING), get("output", MISSING), get("cacheRead", MISSING), get("cacheWrite", MISSING), total)


def _struct_figures(usage: _Usage | None) -> tuple[Any, ...] | None:
    """The same, of a usage decoded in part (None: null or absent)."""
    if usage is None:
        return None
    cost = usage.cost
    return (usage.input, usage.output, usage.cacheRead, usage.cacheWrite, MISSING if cost is None else cost.total)


def _level_text(value: Any) -> str:
    return value if isinstance(value, str) else js_string(value)


assert set(_RECORD_COLUMNS) <= set(TYPECODES), "every record column has its typecode"
