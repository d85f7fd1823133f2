"""A folder's cells in one zone, kept whole: what a run over the folder gives again when files only grew.

The ledger's cells (every copy counted once, ledger.py) of a whole folder, untimed, in one
zone, are kept per folder and zone with what groupings and reports read of each file (its
path, project and title) and each file's size and modification time. A run that finds every
file as it was, or only files that grew by records met nowhere else (pi appending to a
session: copies.grown_alone says so) that hold no copy of another's, takes the kept cells,
reads on the files that grew (their rows alone are read from the cache), and puts their new
cells in their place: no other file's row is decoded and no cell added up again. Anything
else (a file new, gone, rewritten, or holding copies; a sum that JS's + made odd; a memo of
copies other than the one the cells were kept with, which a run with a time filter may have
written) adds the whole folder up again, which keeps its cells for the next run.

What a run brought up to date is kept again (with the memo of copies) only once more than a few
files have grown since the cells were kept: until then each run takes the grown files' rows
from the cache, already read on, and checks all their records since against the memo of copies
as it was kept, which is cheaper than writing the two memos (megabytes for a large folder) each
time pi appends a reply.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import msgspec

from ..library.discovery import session_stats, sessions_dir
from .cache import FileStat, ScanProgress, UsageCache
from .copies import grown_alone
from .ledger import Cell, Cells, Filters, Ledger, folder_ledger, whole_cells
from .periods import Calendar
from .records import FileUsage

log = logging.getLogger(__name__)

GROWN_KEPT = 8  # files grown since the cells were kept: past this many, a run keeps what it brought up to date


class KeptFolder(msgspec.Struct, array_like=True):
    """A folder's cells and sessions' sums in one zone, a list per file in the ledger's order."""

    files: list[str]
    stamps: list[tuple[int, int, int | None]]  # size, modification time, the header's time (the ledger's order)
    projects: list[str]
    titles: list[str]
    holding: list[int]  # the files holding copies: their cells depend on every other file
    others: dict[str, tuple[int, int]]  # the files listed that are not sessions (size, modification time)
    copies: int
    copies_seen: bytes  # a digest of the memo of copies these cells agree with (another run may have found copies since)
    cells: list[list[list[Any]]]  # per file: [day, model key, replies, records, tools, five figures], as Ledger.cells gave them
    sessions: list[list[Any] | None]  # per file: its own sum (replies, records, tools, five figures); None: it records nothing


_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder(KeptFolder).decode


def folder_cells(
    root: Path | None,
    cache: UsageCache,
    calendar: Calendar,
    filters: Filters | None = None,
    progress: ScanProgress | None = None,
    files: list[FileStat] | None = None,
) -> tuple[Ledger, Cells]:
    """The ledger of every session under `root` (pi's folder by default) and its cells (Ledger.cells): the
    kept ones brought up to date when the folder only grew, else added up (and kept, for the next run).
    `files`: session_stats of `root`, when the caller has them; `filters`: none by default."""
    filters = Filters() if filters is None else filters
    root = Path(os.path.abspath(sessions_dir() if root is None else root))
    files = session_stats(root) if files is None else files
    taken = None if filters.timed else _take(cache, root, calendar, files)
    if taken is None:
        ledger = folder_ledger(root, cache, progress, files)
        if filters.timed:
            return ledger, ledger.cells(calendar, filters)
        taken = ledger, ledger.cells(calendar)
        _keep(cache, calendar, *taken, files)
    ledger, found = taken
    if filters.project is None:
        return ledger, found
    taking = {number for number, usage in enumerate(ledger.files) if filters.takes_file(usage)}
    return ledger, Cells([cell for cell in found.cells if cell.file in taking], [cell for cell in found.sessions if cell.file in taking])


def _digest(memo: bytes) -> bytes:
    import hashlib  # (here: a run that takes an answer kept imports none of this module)

    return hashlib.blake2b(memo, digest_size=16).digest()


def _zone(calendar: Calendar) -> str:
    return repr(calendar.zone)


def _plain(cell: Cell) -> bool:
    return cell.plain and all(type(value) is float for value in cell.figures)


def _keep(cache: UsageCache, calendar: Calendar, ledger: Ledger, found: Cells, files: list[FileStat]) -> None:
    """Keep the folder's cells, when every sum is a number (anything JS's + made of odd values is added up again)."""
    if not all(map(_plain, found.cells)) or not all(map(_plain, found.sessions)):
        return
    count = len(ledger.files)
    cells: list[list[list[Any]]] = [[] for _ in range(count)]
    for cell in found.cells:
        cells[cell.file].append([cell.day, cell.model, cell.replies, cell.records, cell.tools, *cell.figures])
    sessions: list[list[Any] | None] = [None] * count
    for cell in found.sessions:
        sessions[cell.file] = [cell.replies, cell.records, cell.tools, *cell.figures]
    memo = cache.copies_memo()
    if memo is None:
        return
    listed = {usage.file for usage in ledger.files}
    others = {path: (stat.st_size, stat.st_mtime_ns) for path, stat in files if path not in listed and stat is not None}
    if len(others) + count != len(files):
        return  # a file that could not be stat'ed: nothing to trust it by
    kept = KeptFolder(
        [usage.file for usage in ledger.files],
        [(usage.size, usage.mtime_ns, usage.started) for usage in ledger.files],
        [usage.project for usage in ledger.files],
        [usage.title for usage in ledger.files],
        sorted(ledger.kept),
        others,
        ledger.copies,
        _digest(memo),
        cells,
        sessions,
    )
    cache.keep_folder_cells(_zone(calendar), _encode(kept))


def _take(cache: UsageCache, root: Path, calendar: Calendar, files: list[FileStat]) -> tuple[Ledger, Cells] | None:
    """The kept cells, brought up to date with the files that grew; None when they cannot be."""
    cache.root = str(root)
    memo = cache.folder_cells(_zone(calendar))
    if memo is None:
        return None
    try:
        kept = _decode(memo)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        log.info("the cells kept for %s are damaged (%s): they are added up again", root, error)
        return None
    if len(files) != len(kept.files) + len(kept.others):
        return None  # a file new or gone
    now = dict(files)
    for path, (size, mtime) in kept.others.items():
        stat = now.get(path)
        if stat is None or (stat.st_size, stat.st_mtime_ns) != (size, mtime):
            return None  # it may be a session now
    grown: list[tuple[int, FileUsage]] = []
    for number, path in enumerate(kept.files):
        stat = now.get(path)
        if stat is None:
            return None
        size, mtime, started = kept.stamps[number]
        if (stat.st_size, stat.st_mtime_ns) == (size, mtime):
            continue
        usage = cache.usage(path, stat) if stat.st_size > size else None
        if usage is None or usage.problem is not None or usage.started != started:
            return None  # not only grown (or its place among the others would change)
        grown.append((number, usage))
    if grown and not _bring_up_to_date(cache, calendar, kept, grown):
        return None
    return _taken(kept)


def _bring_up_to_date(cache: UsageCache, calendar: Calendar, kept: KeptFolder, grown: list[tuple[int, FileUsage]]) -> bool:
    """Put the cells of the files that grew in their place, and keep what changed; False when that cannot be
    done (a file holding copies, a copy among the new records, a sum made odd)."""
    holding = set(kept.holding)
    memo = cache.copies_memo()
    if memo is None or _digest(memo) != kept.copies_seen or holding & {number for number, _ in grown}:
        return False  # (a run with a time filter may have found copies since, among the files that grew)
    copies = grown_alone(memo, [usage for _, usage in grown])
    if copies is None:
        return False
    for number, usage in grown:
        own, session = whole_cells(number, usage, calendar.day)
        if not _plain(session) or not all(map(_plain, own.values())):
            return False
        kept.cells[number] = [[cell.day, cell.model, cell.replies, cell.records, cell.tools, *cell.figures] for cell in own.values()]
        kept.sessions[number] = [session.replies, session.records, session.tools, *session.figures] if session.records else None
        kept.stamps[number] = (usage.size, usage.mtime_ns, usage.started)
        kept.projects[number], kept.titles[number] = usage.project, usage.title
    cache.save()
    if len(grown) > GROWN_KEPT:
        cache.keep_copies_memo(copies)
        kept.copies_seen = _digest(copies)
        cache.keep_folder_cells(_zone(calendar), _encode(kept))
    return True


def _taken(kept: KeptFolder) -> tuple[Ledger, Cells]:
    """The ledger and cells as Ledger.cells gave them, from what is kept."""
    files = [FileUsage(path, cwd=project, name=title) for path, project, title in zip(kept.files, kept.projects, kept.titles)]
    found = Cells()
    cells, sessions = found.cells, found.sessions
    for number, own in enumerate(kept.cells):
        for day, model, replies, records, tools, *figures in own:
            cells.append(Cell(day, number, model, replies, records, tools, figures))
        total = kept.sessions[number]
        if total is not None:
            sessions.append(Cell(None, number, "", total[0], total[1], total[2], total[3:]))
    return Ledger.as_kept(files, kept.copies), found
