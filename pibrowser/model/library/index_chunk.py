"""One chunk of a session file turned into search-index rows, and whether what was indexed is still there.

The index reads a file from the offset it reached last time (FileState.consumed),
whole lines at a time, and makes the rows pi's reading gives (model/library/index_text).
Before it trusts that offset, still_appended compares the file's first bytes and the
bytes just before the offset with what it saw then (session/same_file.ReadMark).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .index_db import exact
from .index_text import index_rows
from ..js.date import js_time
from ..js.value import to_well_formed
from ..session.header import HeaderSearch
from ..session.lines import LineBatch
from ..session.migration import has_no_ids, stable_id
from ..session.problems import Problem, SessionLoadError
from ..session.same_file import ReadMark
from ..session.reader import entry_from_data, read_lines


@dataclass(slots=True)
class FileState:
    id: int
    size: int
    mtime_ns: int
    consumed: int
    next_line: int
    next_row: int
    head: bytes
    fingerprint: bytes
    session: str | None
    project: str
    legacy: bool
    problem: str | None


@dataclass(slots=True)
class Step:
    read: int
    finished: bool
    rows: list[tuple] | None = None
    state: FileState | None = None
    problems: int = 0


class Chunk:
    """Whole lines read from `state.consumed`, turned into index rows the way pi reads them."""

    def __init__(self, path: Path, state: FileState, batch: LineBatch, at_eof: bool) -> None:
        self.path = path
        self.state = state
        self.batch = batch
        self.data = batch.data
        self.at_eof = at_eof
        self.problems: list[Problem] = []

    def index(self) -> Step:
        state, batch = self.state, self.batch
        lines = batch.lines
        tail = lines.pop() if batch.unterminated else b""  # the file ends without a newline
        start = 0
        if state.consumed == 0 and state.session is None and state.problem is None:
            try:
                start = self._header(lines, tail)
            except SessionLoadError as error:
                state.problem = error.reason
                return self._done(0, [], finished=True)
        records = read_lines(self.path, lines[start:], state.next_line + start, self.problems, terminated=True)
        consumed = batch.size - len(tail)
        if tail.strip():
            # The last line has no newline: pi reads it when it parses, so do we; if not, pi is still writing it.
            extra = read_lines(self.path, [tail], state.next_line + len(lines), [], terminated=False)
            if extra:
                records += extra
                consumed = batch.size
        rows = self._rows(records)
        state.next_line += len(lines)
        return self._done(consumed, rows, finished=self.at_eof)

    def _header(self, lines: list[bytes], tail: bytes) -> int:
        if not lines and tail.strip():
            lines = [tail]  # a header without its newline
        search = HeaderSearch(self.path, self.problems)
        found = search.find(lines)
        if found is None:
            raise search.missing()
        header, _, index = found
        start = index + 1
        self.state.session = header.get("id") if isinstance(header.get("id"), str) else None
        self.state.project = header["cwd"] if isinstance(header.get("cwd"), str) else ""
        self.state.legacy = has_no_ids(header)  # a version 1 file: ids made from the lines, as on loading
        return start

    def _rows(self, records: list) -> list[tuple]:
        rows = []
        legacy = self.state.legacy
        for number, value in records:
            if value.get("type") == "session":
                continue
            key = stable_id(self.state.session, number) if legacy else entry_from_data(self.path, number, value, self.problems).id
            time = js_time(value.get("timestamp"))
            for row in index_rows(value, key):
                tool = row.tool if row.tool is None else to_well_formed(row.tool)
                rows.append((to_well_formed(row.text), exact(row.entry), number, to_well_formed(row.role), tool, time))
        return rows

    def _done(self, consumed_in_data: int, rows: list[tuple], finished: bool) -> Step:
        state = self.state
        mark = _mark(state)
        mark.advance(self.data[:consumed_in_data])
        state.consumed, state.head, state.fingerprint = mark.consumed, mark.head, mark.fingerprint
        return Step(len(self.data), finished, rows, state, len(self.problems))


def still_appended(handle, state: FileState) -> bool:
    """True when the bytes the index has read are still there: only appends happened since."""
    if state.problem is not None or (state.size == -1 and state.consumed == 0):
        return False  # not a session when last read, or never read: read it from the start
    return _mark(state).still_there(handle.fileno())


def _mark(state: FileState) -> ReadMark:
    return ReadMark(state.consumed, state.head, state.fingerprint)
