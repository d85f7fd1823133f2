"""Usage grouped by day, week, month, project, model or session: rows by cost, largest first, and the total.

Every grouping sums the ledger's cells (ledger.py) as pi sums a usage (tokens/usage.js_plus);
the chart's stacks (a period by a model or project) are cells summed the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..tokens.usage import js_plus
from .ledger import Cell, Cells, Ledger
from .periods import PERIODS, Calendar

GROUPINGS = ("day", "week", "month", "project", "model", "session")
SERIES = ("model", "project")
NO_TIME = None  # the key of records whose time cannot be read


@dataclass(slots=True)
class Row:
    """One group's replies and the five figures pi records, summed."""

    key: str | None
    replies: int = 0
    records: int = 0
    tools: int = 0
    figures: list[Any] = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0, 0.0])

    def add(self, cell: Cell | Row) -> None:
        """Add a cell's sums: the first taken as they are (a sum JS made a string stays that string)."""
        if not self.records:
            self.figures = list(cell.figures)
        else:
            sums = self.figures
            for position, value in enumerate(cell.figures):
                sums[position] = js_plus(sums[position], value)
        self.replies += cell.replies
        self.records += cell.records
        self.tools += cell.tools

    @property
    def cost(self) -> Any:
        return self.figures[4]

    @property
    def tokens(self) -> Any:
        input, output, cache_read, cache_write = self.figures[:4]  # pi: input + output + cacheRead + cacheWrite
        return js_plus(js_plus(js_plus(input, output), cache_read), cache_write)

    def to_json(self, with_key: bool = True) -> dict[str, Any]:
        """The object `pibrowser usage --format json` prints for a row (the total without its key)."""
        figures = self.figures
        out: dict[str, Any] = {"key": self.key} if with_key else {}
        out.update(
            replies=self.replies,
            input=figures[0],
            output=figures[1],
            cache_read=figures[2],
            cache_write=figures[3],
            cost=figures[4],
        )
        return out


@dataclass(slots=True)
class UsageTable:
    by: str
    rows: list[Row]
    total: Row


def number(value: Any) -> float:
    """A figure as a chart or a sort can use it: a number as it is, anything else JS's + made (NaN, a string) 0."""
    return float(value) if type(value) is float and math.isfinite(value) else 0.0


def by_cost(rows: Iterable[Row]) -> list[Row]:
    """Largest cost first; figures that are not numbers last; ties by key."""
    return sorted(rows, key=lambda row: (-number(row.cost), row.key is None, row.key or ""))


def key_function(by: str, ledger: Ledger, calendar: Calendar) -> Callable[[Cell], str | None]:
    """What names a cell's group."""
    if by in PERIODS:
        return lambda cell: NO_TIME if cell.day is None else calendar.period_key(by, cell.day)
    if by == "project":
        return lambda cell: ledger.files[cell.file].project
    if by == "model":
        return lambda cell: cell.model
    if by == "session":
        return lambda cell: ledger.files[cell.file].file
    raise ValueError(f"no grouping {by!r}; groupings: {', '.join(GROUPINGS)}")


def group(found: Cells, by: str, ledger: Ledger, calendar: Calendar) -> UsageTable:
    """The cells summed by `by`: rows by cost, largest first, and the total of every session."""
    key_of = key_function(by, ledger, calendar)
    rows: dict[str | None, Row] = {}
    for cell in found.cells:
        key = key_of(cell)
        row = rows.get(key)
        if row is None:
            row = rows[key] = Row(key)
        row.add(cell)
    return UsageTable(by, by_cost(rows.values()), total_of(found))


def total_of(found: Cells) -> Row:
    """Every session's sum added up, in the ledger's order."""
    total = Row(None)
    for session in found.sessions:
        total.add(session)
    return total
