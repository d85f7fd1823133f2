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

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from ..tokens.usage import js_plus
from .copies import find_shared
from .periods import Calendar
from .cache import FileStat, ScanProgress, UsageCache, scan_usage
from .records import BUCKET_MS, FIGURES, NO_TIME, FileUsage, Figures
from .runs import Run, Sums, summed

log = logging.getLogger(__name__)

_PACKED = ("run_buckets", "run_keys", "run_counts", "run_figures")


@dataclass(slots=True)
class Cell:
    """The usage of one session on one day under one model key."""

    day: int | None  # None: the records' time cannot be read
    file: int  # index in Ledger.files
    model: str
    replies: int = 0
    records: int = 0
    tools: int = 0
    figures: Figures = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0, 0.0])
    plain: bool = True  # every figure is still a float (no odd value was added)

    def add(self, replies: int, records: int, tools: int, values: Any, plain: bool) -> None:
        """Add the sums of some records; the first sums are taken as they are (a sum JS made a string stays that string)."""
        if not self.records:
            self.figures, self.plain = list(values), plain
            self.replies, self.records, self.tools = replies, records, tools
            return
        self.replies += replies
        self.records += records
        self.tools += tools
        sums = self.figures
        if plain and self.plain:
            sums[0] += values[0]
            sums[1] += values[1]
            sums[2] += values[2]
            sums[3] += values[3]
            sums[4] += values[4]
            return
        for position in range(FIGURES):
            sums[position] = js_plus(sums[position], values[position])
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

    @property
    def timed(self) -> bool:
        return self.since is not None or self.until is not None

    def takes_time(self, millis: int) -> bool:
        if millis == NO_TIME:
            return not self.timed
        return (self.since is None or millis >= self.since) and (self.until is None or millis < self.until)


class Ledger:
    """Every session's records, each copy of a record counted once (in the file that wrote it first)."""

    def __init__(
        self, usages: Iterable[FileUsage], records: Callable[[FileUsage], FileUsage] = lambda usage: usage, memo: bytes | None = None
    ) -> None:
        """`records` gives a file's usage with its record columns at hand (UsageCache.records keeps them apart);
        `memo` what finding the copies found the last time (copies.py), `self.memo` the one for next time (None:
        the one given holds)."""
        self.records = records
        self.store: UsageCache | None = None  # where the day cells of files taken whole are kept (_DayCells)
        sessions = [usage for usage in usages if usage.problem is None]
        # The oldest header first: a copy's header is written when the copy is made.
        sessions.sort(key=lambda usage: (usage.started is None, usage.started or 0, usage.file))
        self.files: list[FileUsage] = sessions
        self.index = {usage.file: number for number, usage in enumerate(sessions)}
        self.kept: dict[int, list[int]] = {}  # the records a file holding copies owns (the others are copies)
        self.copies = 0
        shared, sharing, self.memo = find_shared(sessions, memo)
        owner: dict[int, int] = {}
        claim = owner.setdefault
        for number in sharing:
            values = sessions[number].column("keys")
            kept = [index for index, key in enumerate(values) if key not in shared or claim(key, number) == number]
            if len(kept) < len(values):
                self.kept[number] = kept
                self.copies += len(values) - len(kept)

    @classmethod
    def as_kept(cls, files: list[FileUsage], copies: int) -> Ledger:
        """A ledger as folder_cells keeps it, beside the cells it gave: its files, each only its path, project
        and title (what groupings and reports read of them), and how many copies it counted once. Its cells
        are the kept ones: it has no records to add up."""
        ledger = cls([])
        ledger.files, ledger.index, ledger.copies = files, {usage.file: number for number, usage in enumerate(files)}, copies
        return ledger

    def cells(self, calendar: Calendar, filters: Filters = Filters()) -> Cells:
        """The records' sums by day, session and model key (in the order first met), and each session's own sum."""
        found = Cells()
        cells: dict[tuple[int | None, int, int], Cell] = {}
        day_of = calendar.day
        timed, by_project, kept_of = filters.timed, filters.project is not None, self.kept.get
        memo = _DayCells(self.store, calendar) if self.store is not None and not timed and not by_project else None
        for number, usage in enumerate(self.files):
            if by_project and not filters.takes_file(usage):
                continue
            if not timed and kept_of(number) is None:  # taken whole (the common case): its packed runs, read in place
                own = memo.cells(number, usage) if memo is not None else None
                if own is None:
                    own, session = whole_cells(number, usage, day_of)
                    if memo is not None:
                        memo.keep(usage, own, session)
                else:
                    session = own.pop(None)
                cells.update(own)
                if session.records:
                    found.sessions.append(session)
                continue
            runs, total = self._runs(number, usage, filters)
            if runs is None:
                continue
            if isinstance(runs, FileUsage):
                _add_packed(cells, number, usage, day_of)
            else:
                names = usage.names
                for run in runs:
                    day = day_of(run.bucket * BUCKET_MS) if run.bucket != NO_TIME else None
                    where = (day, number, run.key)
                    cell = cells.get(where)
                    if cell is None:
                        cell = cells[where] = Cell(day, number, names[run.key])
                    cell.add(run.replies, run.records, run.tools, run.figures, run.plain)
            if total.records:
                session = Cell(None, number, "")
                session.add(total.replies, total.records, total.tools, total.figures, total.plain)
                found.sessions.append(session)
        found.cells = list(cells.values())
        if memo is not None:
            memo.save()
        return found

    def _runs(self, number: int, usage: FileUsage, filters: Filters) -> tuple[FileUsage | list[Run] | None, Sums]:
        """The file's runs, and its sum: the file itself when it is taken whole (its packed runs are read),
        else runs summed from the records it keeps that the filters take; None when it has none."""
        kept = self.kept.get(number)
        whole = not filters.timed
        if filters.timed and usage.first_time is not None:
            if (filters.until is not None and usage.first_time >= filters.until) or (
                filters.since is not None and usage.last_time is not None and usage.last_time < filters.since
            ):
                return None, Sums()  # every record of the file is outside
            whole = filters.takes_time(usage.first_time) and usage.last_time is not None and filters.takes_time(usage.last_time)
            whole = whole and NO_TIME not in usage.column("run_buckets")
        if kept is None and whole:
            return usage, _total(usage)
        usage = self.files[number] = self.records(usage)
        times = usage.column("times")
        indexes = kept if kept is not None else range(len(usage))
        return summed(usage, [index for index in indexes if filters.takes_time(times[index])])


def whole_cells(number: int, usage: FileUsage, day_of: Callable[[int], int]) -> tuple[dict[tuple[int | None, int, int], Cell], Cell]:
    """The cells of file `number` taken whole (none of its records copies of another's): its packed runs
    by day and model key, and its session's own sum."""
    own: dict[tuple[int | None, int, int], Cell] = {}
    _add_packed(own, number, usage, day_of)
    replies, records, tools, *figures = usage.total
    return own, Cell(None, number, "", replies, records, tools, figures, all(type(value) is float for value in figures))


def _add_packed(cells: dict[tuple[int | None, int, int], Cell], number: int, usage: FileUsage, day_of: Callable[[int], int]) -> None:
    """Add the file's packed runs, each to the cell of its day and model key (a cell's first sums taken as they are)."""
    buckets, keys, counts, figures = (usage.column(name) for name in _PACKED)
    odd, names, get = usage.run_odd, usage.names, cells.get
    at = 0
    for index, bucket in enumerate(buckets):
        day = day_of(bucket * BUCKET_MS) if bucket != NO_TIME else None  # a quarter hour falls on one day in any zone
        key = keys[index]
        where = (day, number, key)
        cell = get(where)
        values = odd.get(index) if odd else None
        if values is None:
            if cell is None:
                cells[where] = Cell(
                    day,
                    number,
                    names[key],
                    counts[at],
                    counts[at + 1],
                    counts[at + 2],
                    figures[index * FIGURES : index * FIGURES + FIGURES].tolist(),
                )
            else:
                cell.add(counts[at], counts[at + 1], counts[at + 2], figures[index * FIGURES : index * FIGURES + FIGURES], True)
        else:
            if cell is None:
                cell = cells[where] = Cell(day, number, names[key])
            cell.add(counts[at], counts[at + 1], counts[at + 2], values, False)
        at += 3


def _total(usage: FileUsage) -> Sums:
    replies, records, tools, *figures = usage.total
    return Sums(replies, records, tools, list(figures), all(type(value) is float for value in figures))


def folder_ledger(
    root: Path | None, cache: UsageCache, progress: ScanProgress | None = None, files: list[FileStat] | None = None
) -> Ledger:
    """The ledger of every session under `root` (pi's folder by default), read through the cache, which
    keeps what finding the copies found for the next time (`files`: session_stats of `root`, when known)."""
    ledger = Ledger(scan_usage(root, cache=cache, progress=progress, files=files), records=cache.records, memo=cache.copies_memo())
    if ledger.memo is not None:
        cache.keep_copies_memo(ledger.memo)
    ledger.store = cache
    return ledger


class _DayCells:
    """The day cells of each file taken whole, as computed the last time in this zone: kept by the cache per
    folder and zone, and trusted while the file's size and modification time are as they were. Only cells
    whose sums are all numbers are kept (anything JS's + made of odd values is added up again)."""

    def __init__(self, store: UsageCache, calendar: Calendar) -> None:
        self.store, self.zone = store, repr(calendar.zone)
        found = store.day_cells(self.zone)
        self.known: dict[str, list[Any]] = {}
        if found is not None:
            try:
                self.known = msgspec.msgpack.decode(found)
            except msgspec.DecodeError as error:
                log.info("the day cells kept are damaged (%s): they are added up again", error)
        self.fresh: dict[str, list[Any]] = {}
        self.changed = False

    def cells(self, number: int, usage: FileUsage) -> dict[Any, Cell] | None:
        """The file's cells as kept (with its session's sum under None), or None when they are not."""
        kept = self.known.get(usage.file)
        if kept is None or kept[0] != usage.size or kept[1] != usage.mtime_ns:
            return None
        self.fresh[usage.file] = kept
        names = usage.names
        own: dict[Any, Cell] = {
            (day, number, key): Cell(day, number, names[key], replies, records, tools, figures)
            for day, key, replies, records, tools, figures in kept[2]
        }
        replies, records, tools, figures = kept[3]
        own[None] = Cell(None, number, "", replies, records, tools, figures)
        return own

    def keep(self, usage: FileUsage, own: dict[tuple[int | None, int, int], Cell], session: Cell) -> None:
        if not session.plain or not all(cell.plain for cell in own.values()):
            return
        listed = [[day, key, cell.replies, cell.records, cell.tools, cell.figures] for (day, _, key), cell in own.items()]
        self.fresh[usage.file] = [usage.size, usage.mtime_ns, listed, [session.replies, session.records, session.tools, session.figures]]
        self.changed = True

    def save(self) -> None:
        if self.changed or len(self.fresh) != len(self.known):
            self.store.keep_day_cells(self.zone, msgspec.msgpack.encode(self.fresh))
