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
from .periods import GROUPINGS, PERIODS, Calendar

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

    def add(self, cell: Cell) -> None:
        """Add a cell's sums: the first taken as they are (a sum JS made a string stays that string)."""
        sums, values = self.figures, cell.figures
        if not self.records:
            self.figures = list(values)
        elif (
            type(sums[0]) is float
            and type(sums[1]) is float
            and type(sums[2]) is float
            and type(sums[3]) is float
            and type(sums[4]) is float
            and cell.plain
        ):
            sums[0] += values[0]
            sums[1] += values[1]
            sums[2] += values[2]
            sums[3] += values[3]
            sums[4] += values[4]
        else:
            for position, value in enumerate(values):
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


_finite = math.isfinite


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


OTHER = "Other"  # the series past the chart's largest ones, together


@dataclass(slots=True)
class Stacks:
    """Usage over time, a bar per period stacked by model or project: what the Usage view draws.

    `periods` runs from the first period with usage to the last with none skipped (a time axis);
    `series` are the keys by cost, largest first, the smaller ones together as OTHER at the end.
    Figures are numbers a chart can draw (a sum JS's + turned into NaN or a string counts 0). A
    bar's exact sums and its sessions are added up when asked for (`row`, `sessions`).
    """

    period: str
    series_by: str
    periods: list[str]
    series: list[str]
    cost: list[list[float]]  # [series][period]
    tokens: list[list[float]]
    cache_read: list[float]  # per period
    prompt: list[float]  # input + cache read + cache write, per period
    cells: dict[tuple[int, int], list[Cell]]  # (series, period) → its cells
    ledger: Ledger
    undated: Row | None = None  # usage whose time cannot be read: in no bar

    @property
    def rows(self) -> dict[tuple[int, int], Row]:
        """Every bar's sums (the whole chart's: for a test or a table, not for each hover)."""
        return {where: row for where in self.cells if (row := self.row(*where)) is not None}

    def hit_ratio(self, period: int) -> float | None:
        """pi's cache hit ratio over the period: cache read / (input + cache read + cache write)."""
        prompt = self.prompt[period]
        return self.cache_read[period] / prompt if prompt > 0 else None

    def row(self, series: int, period: int) -> Row | None:
        """One bar's sums, as pi adds them; None for a bar with nothing."""
        cells = self.cells.get((series, period))
        if not cells:
            return None
        row = Row(None)
        for cell in cells:
            row.add(cell)
        return row

    def sessions(self, series: int, period: int) -> list[Row]:
        """The sessions in one bar, each a row of its sums there keyed by its file, largest cost first."""
        rows: dict[int, Row] = {}
        for cell in self.cells.get((series, period), []):
            row = rows.get(cell.file)
            if row is None:
                row = rows[cell.file] = Row(self.ledger.files[cell.file].file)
            row.add(cell)
        return by_cost(rows.values())


def stacks(found: Cells, ledger: Ledger, calendar: Calendar, period: str, series_by: str, top: int = 8) -> Stacks:
    """The cells as bars of `period` (day, week, month) stacked by `series_by` (model or project)."""
    series_of = key_function(series_by, ledger, calendar)
    dated = [cell for cell in found.cells if cell.day is not None]
    undated = [cell for cell in found.cells if cell.day is None]
    keyed = [(series_of(cell) or "", cell) for cell in dated]
    costs: dict[str, float] = {}
    for key, cell in keyed:
        spent = cell.figures[4]
        costs[key] = costs.get(key, 0.0) + (spent if type(spent) is float and _finite(spent) else 0.0)
    ranked = sorted(costs, key=lambda key: (-costs[key], key))
    named = ranked if len(ranked) <= top else ranked[: top - 1]
    series = named + ([OTHER] if len(ranked) > len(named) else [])
    position = {key: index for index, key in enumerate(named)}
    periods, period_of = _period_axis(dated, calendar, period)
    width = len(periods)
    result = Stacks(
        period, series_by, periods, series,
        [[0.0] * width for _ in series], [[0.0] * width for _ in series],
        [0.0] * width, [0.0] * width, {}, ledger,
    )  # fmt: skip
    cost, tokens, cache, prompt, at = result.cost, result.tokens, result.cache_read, result.prompt, result.cells
    other = len(named)
    for key, cell in keyed:
        line, column = position.get(key, other), period_of[cell.day]  # type: ignore[index]
        at.setdefault((line, column), []).append(cell)
        figures = cell.figures
        if cell.plain and _finite(figures[0] + figures[1] + figures[2] + figures[3] + figures[4]):
            input, output, cache_read, cache_write, spent = figures  # (every figure a finite float: the common case)
        else:
            input, output, cache_read, cache_write, spent = (number(value) for value in figures)
        cost[line][column] += spent
        tokens[line][column] += input + output + cache_read + cache_write
        cache[column] += cache_read
        prompt[column] += input + cache_read + cache_write
    if undated:
        result.undated = Row(None)
        for cell in undated:
            result.undated.add(cell)
    return result


def _period_axis(cells: list[Cell], calendar: Calendar, period: str) -> tuple[list[str], dict[int, int]]:
    """Every period from the first cell's to the last's, and each cell day's index among them."""
    days = {cell.day for cell in cells if cell.day is not None}
    if not days:
        return [], {}
    keys: list[str] = []
    index_of_day: dict[int, int] = {}
    for day in range(min(days), max(days) + 1):
        key = calendar.period_key(period, day)
        if not keys or keys[-1] != key:
            keys.append(key)
        if day in days:
            index_of_day[day] = len(keys) - 1
    return keys, index_of_day
