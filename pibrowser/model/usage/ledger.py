"""A folder's usage with every copy counted once, summed into cells of a day, a session and a model.

pi copies entries into another file three ways: /fork and /clone (createBranchedSession:
each entry of the path spread into the new file with only its parentId changed), and
`--fork`, or a session whose folder is gone (SessionManager.forkFrom: every entry written
again as it was). pibrowser's Extract Branch writes what createBranchedSession writes. All
of them keep an entry's `id` and `timestamp` byte for byte, and nothing else pi does makes
two entries share both: ids are 8 random hex digits unique within a file, timestamps are
the moment of writing to the millisecond. So a record is named by its entry's id and
timestamp (`reading.reply_key`), and counted in the file that holds it with the oldest
header (the one written first; the copy's header is written when it is made). How sure: a
different reply takes both the same id (one chance in 4 billion) and the same millisecond;
a copy made by a tool that rewrites ids or timestamps is counted again. A version 1 file
has no ids: it gets the ones the migration makes from its lines (what pibrowser's extract
of it writes too), not pi's random ones, so a fork pi made of it after migrating it is
counted twice. Within one file every line counts, as in pi's statistics.

Figures are added as pi adds a usage (tokens/usage.js_plus), record after record in file
order, into cells: one per day (in the calendar's zone), session and model key. Every
grouping sums cells.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..tokens.usage import js_plus
from .periods import Calendar
from .records import REPLY, FileUsage

Figures = list[Any]  # input, output, cache read, cache write, cost: floats, or what JS's + made of odd values


@dataclass(slots=True)
class Cell:
    """The usage of one session on one day under one model key."""

    day: int | None  # None: the record's time cannot be read
    file: int  # index in Ledger.files
    model: str
    replies: int = 0
    records: int = 0
    tools: int = 0
    figures: Figures = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0, 0.0])
    plain: bool = True  # every figure is still a float (no odd value was added)

    def take(self, values: Any) -> None:
        """Add one record's five figures as pi does (JS's +), whatever they are."""
        self.plain = False
        sums = self.figures
        for position, value in enumerate(values):
            sums[position] = js_plus(sums[position], value)
        self.plain = all(type(value) is float for value in sums)


@dataclass(slots=True)
class Cells:
    """A ledger's cells, and each session's own sum (its records in file order, as pi sums a session):
    the total adds sessions, so it is the same whatever the grouping and the zone."""

    cells: list[Cell] = field(default_factory=list)
    sessions: list[Cell] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Filters:
    since: int | None = None  # epoch ms, inclusive
    until: int | None = None  # epoch ms, exclusive
    project: str | None = None  # part of the session's cwd, any case

    def takes_file(self, usage: FileUsage) -> bool:
        return self.project is None or self.project.casefold() in usage.project.casefold()

    def takes_time(self, millis: int | None) -> bool:
        if self.since is None and self.until is None:
            return True
        if millis is None:
            return False
        return (self.since is None or millis >= self.since) and (self.until is None or millis < self.until)


class Ledger:
    """Every session's records, each copy of a record counted once (in the file that wrote it first)."""

    def __init__(self, usages: Iterable[FileUsage]) -> None:
        sessions = [usage for usage in usages if usage.problem is None]
        # The oldest header first: a copy's header is written when the copy is made.
        sessions.sort(key=lambda usage: (usage.started is None, usage.started or 0, usage.file))
        self.files: list[FileUsage] = sessions
        self.kept: list[list[int]] = []
        self.copies = 0
        owner: dict[str, int] = {}
        claim = owner.setdefault
        for number, usage in enumerate(sessions):
            kept = [index for index, key in enumerate(usage.keys) if key is None or claim(key, number) == number]
            self.copies += len(usage.keys) - len(kept)
            self.kept.append(kept)
        self.index = {usage.file: number for number, usage in enumerate(sessions)}

    def cells(self, calendar: Calendar, filters: Filters = Filters()) -> Cells:
        """The records' sums by day, session and model key (in the order first met), and each session's own sum."""
        found = Cells()
        cells: dict[tuple[int | None, int, str], Cell] = {}
        day_of, takes_time = calendar.day, filters.takes_time
        for number, usage in enumerate(self.files):
            if not filters.takes_file(usage):
                continue
            keys = [usage.model_key(index) for index in range(len(usage.kinds))]
            times, kinds, odd, tools = usage.times, usage.kinds, usage.odd, usage.tools
            columns = (usage.input, usage.output, usage.cache_read, usage.cache_write, usage.cost)
            own = Cell(None, number, "")  # the session's sum, record after record as pi's statistics make it
            for index in self.kept[number]:
                millis = times[index]
                if not takes_time(millis):
                    continue
                day = day_of(millis) if millis is not None else None
                where = (day, number, keys[index])
                cell = cells.get(where)
                if cell is None:
                    cell = cells[where] = Cell(day, number, keys[index])
                replies = kinds[index] == REPLY
                calls = len(tools[index]) if replies else 0
                unusual = index in odd
                values = usage.figures(index) if unusual else None  # None: a reply without a usage, adding nothing
                for target in (cell, own):
                    target.records += 1
                    target.replies += replies
                    target.tools += calls
                    if unusual:
                        if values is not None:
                            target.take(values)
                    elif target.plain:
                        sums = target.figures
                        sums[0] += columns[0][index]
                        sums[1] += columns[1][index]
                        sums[2] += columns[2][index]
                        sums[3] += columns[3][index]
                        sums[4] += columns[4][index]
                    else:
                        target.take([column[index] for column in columns])
            if own.records:
                found.sessions.append(own)
        found.cells = list(cells.values())
        return found
