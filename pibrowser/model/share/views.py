"""The shared page's other views, each as the command line prints it: the comparison of two
nodes (`pibrowser diff --format text`), the trace of the shared path (`pibrowser trace
--format text`, cell by cell) and the files that path touched (`pibrowser files`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..session.entry import Entry
from ..session.session import Session
from ..text.terminal_text import visible_line

TRACE_ENTRIES = 5000  # entries of a long path the trace shows: its last whole runs
TRACE_CELL = 160  # characters of a cell (a tool call's arguments): the whole call is in the context


def comparison_lines(session: Session, left: str, right: str) -> list[str]:
    """The text of `pibrowser diff FILE LEFT RIGHT --format text`, line by line."""
    from ..compare.comparison import compare
    from ..compare.diff_report import diff_text

    return diff_text(compare(session, left, right)).rstrip("\n").split("\n")


def trace_view(session: Session, leaf: str | None) -> dict[str, Any]:
    """The trace table of the path to `leaf` as `pibrowser trace --format text` shows it, cell by
    cell (the page lays the columns out): `columns`, one row of cells per entry (`rows`, the entry
    itself in `entries`), and the totals of each run and of what is shown (`totals`). On a path
    longer than TRACE_ENTRIES only its last whole runs of about that many entries are traced
    (`first`: where they start on the path; their runs are numbered from there): the whole trace of
    a 90,000-entry path would cost more than the rest of the page."""
    from ..text.terminal_text import one_line
    from ..trace.agent_loop import trace_with_facts
    from ..trace.rows import COLUMN_NAMES, row_cells, totals_lines, trace_rows
    from ..trace.stretch import stretch_around
    from ..trace.table import FactsTable

    path = list(session.path_entries(leaf)) if leaf is not None else []
    first = 0
    if len(path) > TRACE_ENTRIES:
        first, end = stretch_around(path, len(path) - 1, FactsTable(), TRACE_ENTRIES)
        path = path[first:end]
    trace, facts = trace_with_facts(path)
    rows = trace_rows(trace, facts.__getitem__)
    cells = [row_cells(row) for row in rows]
    return {
        "columns": COLUMN_NAMES[1:],
        "entries": [visible_line(row[0]) for row in cells],
        "rows": [[one_line(cell, TRACE_CELL) for cell in row[1:]] for row in cells],
        "totals": [one_line(line) for line in totals_lines(trace)],
        "first": first,
    }


def files_view(session: Session, leaf: str | None) -> dict[str, Any]:
    """The files the path to `leaf` read and changed, each with the entries whose calls touched it."""
    from ..context.file_lists import file_operations

    found = file_operations(_Transient(session.path_entries(leaf) if leaf is not None else []))

    def listed(paths: list[str]) -> list[list[Any]]:
        return [[visible_line(path), [[call.op, visible_line(call.entry)] for call in found.calls_for(path)]] for path in paths]

    return {"modified": listed(found.modified_files), "read": listed(found.read_files)}


class _Transient(Sequence[Entry]):
    """A path whose entries are read for one use each and let go (Entry.transient): a walk over a
    90,000-entry path that kept each one parsed would hold the session in memory."""

    def __init__(self, path: Sequence[Entry]) -> None:
        self.path = path

    def __len__(self) -> int:
        return len(self.path)

    def __getitem__(self, index: Any) -> Any:
        found = self.path[index]
        return [entry.transient() for entry in found] if isinstance(index, slice) else found.transient()

    def __iter__(self) -> Iterator[Entry]:
        return (entry.transient() for entry in self.path)
