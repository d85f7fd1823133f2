"""One session entry: the few fields the tree needs now, the full JSON when asked."""

from __future__ import annotations

from operator import attrgetter
from collections.abc import Iterable
from typing import Any, Protocol

import orjson

from ..js.value import MISSING, hashable
from .jsonline import check_line, parse_line
from .line_table import LineTable


class LineSource(Protocol):
    """Where the lines of entries not kept in memory can be read again, by line number
    (None when the file no longer holds the line where it was); one for a whole file."""

    def read(self, line: int) -> bytes | None: ...

    def records_no_usage(self, line: int) -> bool: ...

    def textless(self, line: int) -> bool | None: ...


class Entry:
    """An entry of the session tree.

    Loading reads only type, id, parentId and timestamp (and a message's role)
    from the line's leading bytes; the rest of the line is parsed the first time
    `data` is needed, so a 160 MB file does not cost a full parse up front.
    """

    __slots__ = ("id", "parent_id", "type", "timestamp", "role", "line", "_raw", "_data")

    def __init__(
        self,
        id: str,
        parent_id: Any,
        type: Any,
        timestamp: Any,
        role: Any,
        line: int,
        raw: bytes | LineSource | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        self.id = id
        self.parent_id = parent_id
        self.type = type
        self.timestamp = timestamp
        self.role = role
        self.line = line
        self._raw = raw
        self._data = data

    @classmethod
    def from_data(cls, data: dict[str, Any], line: int, key: str) -> Entry:
        message = data.get("message")
        role = message.get("role", MISSING) if isinstance(message, dict) else MISSING
        # The type and the role sort entries (sets, dicts): an object or array there stands in hashable.
        return cls(
            key,
            data.get("parentId", MISSING),
            hashable(data.get("type", MISSING)),
            data.get("timestamp", MISSING),
            hashable(role),
            line,
            data=data,
        )

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = line_object(self.raw)
            self._raw = None
        return self._data

    def peek(self) -> dict[str, Any]:
        """The full JSON without keeping it: for one-off passes over every entry (search),
        which would otherwise hold a whole 160 MB session parsed in memory."""
        return self._data if self._data is not None else line_object(self.raw)

    def transient(self) -> Entry:
        """This entry with its fields, for one use: the entry itself stays unparsed. A pass over
        every entry of a long path that kept each one parsed would hold the session in memory."""
        if self._data is not None or self._raw is None:
            return self
        return Entry(self.id, self.parent_id, self.type, self.timestamp, self.role, self.line, data=self.peek())

    def check(self) -> str | None:
        """Parse the raw line without keeping the result: a repair note, or ValueError."""
        raw = self.raw  # read once: the GUI thread may parse the entry meanwhile
        if raw is None:
            return None
        return check_line(raw)

    @property
    def raw(self) -> bytes | None:
        """The line as read, until it is parsed (then None)."""
        raw = self._raw
        return raw if raw is None or isinstance(raw, bytes) else raw.read(self.line)

    @property
    def records_no_usage(self) -> bool:
        """True when loading saw that the line records no usage: summing usage down a long
        path then need not read it back from the file. False when that is not known."""
        raw = self._raw
        return raw is not None and not isinstance(raw, bytes) and raw.records_no_usage(self.line)

    @property
    def textless(self) -> bool | None:
        """For an assistant message: whether loading found it without text (see
        textless_replies.is_textless_reply), so the filter need not read it back; None when
        that is not known."""
        raw = self._raw
        return None if raw is None or isinstance(raw, bytes) else raw.textless(self.line)

    @property
    def is_parsed(self) -> bool:
        return self._data is not None

    @property
    def message(self) -> Any:
        return self.data.get("message", MISSING) if self.type == "message" else MISSING

    def get(self, key: str, default: Any = MISSING) -> Any:
        return self.data.get(key, default)

    def __repr__(self) -> str:
        return f"Entry({self.id!r}, type={self.type!r}, line={self.line})"


def line_object(raw: bytes | None) -> dict[str, Any]:
    """The fields an entry's line holds, as its Entry reads them: none for a line that does not parse
    (it looked whole when skimmed; pi skips such a line, and validation reloads the session strictly)
    or holds no object."""
    try:
        value, _ = parse_line(raw) if raw is not None else ({}, None)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def parse_lines_of(entries: Iterable[Entry]) -> None:
    """Parse and keep the lines of those of `entries` whose `data` is not read yet, as `data` would:
    those read back from the file a run of lines in file order at a time, each run read as a
    stretch of the file (a context a million entries long read each line on its own, through five
    calls a line), and those holding their line all at once."""
    # Another thread may parse any of these meanwhile (the window's, while the pool works out a
    # context): each line's source is taken once, as it is met, and never read off the entry again.
    run: list[Entry] = []
    held: list[Entry] = []
    held_lines: list[bytes | None] = []
    table: Any = None
    for entry in entries:
        source = entry._raw
        if entry._data is not None:
            continue
        if source.__class__ is bytes:
            held.append(entry)
            held_lines.append(source)
            continue
        if source.__class__ is not LineTable:
            continue
        if run and (source is not table or entry.line != run[-1].line + 1):
            _keep_parsed(run, table.read_run(run[0].line, len(run)))
            run = []
        table = source
        run.append(entry)
    if run:
        _keep_parsed(run, table.read_run(run[0].line, len(run)))
    if held:
        _keep_parsed(held, held_lines)


def _keep_parsed(entries: list[Entry], lines: list[bytes | None]) -> None:
    """Each entry keeps what its line (None: it is no longer in the file) parses to, as `data` does."""
    try:
        values = [orjson.loads(raw) if raw is not None else {} for raw in lines]
    except ValueError:
        values = list(map(line_object, lines))  # one does not parse as it is: parse_line decides for each
    for entry, value in zip(entries, values):
        if entry._data is None:
            entry._data = value if value.__class__ is dict else {}
            entry._raw = None


entry_id = attrgetter("id")  # an entry's id, for map() over a path of 100,000 entries (in C)
