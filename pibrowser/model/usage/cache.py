"""Each session file's usage records, kept beside the session list and read again only where a file changed.

A file's records are trusted while its size and modification time are as they were; a file
pi appended to is read on from where the last read stopped (its first bytes and the bytes
before that point as they were, session/same_file); any other change reads it again. The
cache is one SQLite file with a row per session file: its index entry (the meta, the digests
its copies are found by, its runs and its total: what a run over unchanged files reads, all
rows in one query) and, apart in the same row, what is read back only for a file whose
records are summed one by one (a fork's, one a time filter cuts) or that grew (records.APART).
Only the rows of the files read this time are written, in one transaction. A cache that
cannot be read, or whose version is another, is started anew; a row whose records are gone
or damaged has its session file read again.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import msgspec

from ..library.cache_file import missing_under
from ..library.discovery import session_stats, sessions_dir
from .answers import keep_answer
from .records import APART, FileUsage, Records
from .store import FILE_NAME, default_location, open_store

log = logging.getLogger(__name__)

ScanProgress = Callable[[int, int], None]
FileStat = tuple[str, os.stat_result | None]

_encode = msgspec.msgpack.Encoder().encode
_decode_usage = msgspec.msgpack.Decoder(FileUsage).decode
_decode_records = msgspec.msgpack.Decoder(Records).decode
_DAMAGED = (sqlite3.Error, msgspec.DecodeError, msgspec.ValidationError)
PARALLEL_BYTES = 64 << 20  # to read at least this much, every core reads
PARALLEL_BATCH = 32  # files a worker reads per task, at most
PARALLEL_TASK_BYTES = 4 << 20  # and about as many bytes as this, unless one file is more


def stored(usage: FileUsage) -> tuple[bytes, bytes]:
    """A file's usage as the cache stores it: its index entry (APART left out, `records_apart` set) and APART."""
    apart, blank = Records(**{name: getattr(usage, name) for name in APART}), Records()
    entry = msgspec.structs.replace(usage, records_apart=True, **{name: getattr(blank, name) for name in APART})
    return _encode(entry), _encode(apart)


def _take_apart(usage: FileUsage, apart: Records) -> FileUsage:
    for name in APART:
        setattr(usage, name, getattr(apart, name))
    usage.records_apart = False
    return usage


def _read_batch(files: list[tuple[str, bytes | None]]) -> list[tuple[str, bytes | None, bytes | None]]:
    """In a worker process: each file's usage (read on from what was known of it, as msgpack) as the
    cache stores it (`stored`); Nones for a file that is gone."""
    from .reading import read_usage

    done: list[tuple[str, bytes | None, bytes | None]] = []
    for path, known in files:
        usage = read_usage(Path(path), _decode_usage(known) if known is not None else None)
        done.append((path, *stored(usage)) if usage is not None else (path, None, None))
    return done


class UsageCache:
    """Usage records by path, trusted while the file's size and modification time are unchanged."""

    FILE_NAME = FILE_NAME

    def __init__(self, location: Path | None) -> None:
        self.location = location
        self._db: sqlite3.Connection | None = self._connect()
        self._files: dict[str, FileUsage] = {}  # the rows decoded: all of them once a whole folder is asked for (_all)
        self._whole = self._db is None
        self._pending: dict[str, tuple[bytes, bytes]] = {}  # rows the workers made, written at save
        self._gone: set[str] = set()
        self._read: set[str] = set()  # files read this time: their rows are written at save
        self.root: str | None = None  # the folder scanned last (scan_usage)

    @classmethod
    def default(cls) -> UsageCache:
        return cls(default_location())

    @classmethod
    def in_memory(cls) -> UsageCache:
        return cls(None)

    # ---- the store --------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection | None:
        if self.location is None:
            return None
        for attempt in (1, 2):
            try:
                return open_store(self.location)
            except (OSError, sqlite3.Error) as error:
                if attempt == 2 or not self._remove(error):
                    break
        return None

    def _all(self) -> dict[str, FileUsage]:
        """Every row decoded (a run over a folder stats every file): a cache whose rows cannot be read is
        started anew. What was read this time stays as it is."""
        if not self._whole:
            self._whole = True
            try:
                rows = {file: _decode_usage(entry) for file, entry in self._db.execute("SELECT file, entry FROM usage")} if self._db else {}
            except _DAMAGED as error:
                rows = {}
                self._close()
                if self._remove(error):
                    self._db = self._connect()
            rows.update(self._files)
            self._files = rows
        return self._files

    def _known(self, key: str) -> FileUsage | None:
        """The file's row, decoded alone when the others are not asked for (a run that knows which files changed)."""
        known = self._files.get(key)
        if known is None and not self._whole and self._db is not None:
            try:
                row = self._db.execute("SELECT entry FROM usage WHERE file = ?", (key,)).fetchone()
                if row is not None:
                    known = self._files[key] = _decode_usage(row[0])
            except _DAMAGED as error:
                log.info("%s: the row of %s cannot be read (%s); the session is read again", self.location, key, error)
        return known

    def _remove(self, error: BaseException) -> bool:
        """Start a damaged cache anew; False when even that cannot be done (the usage is read without one)."""
        assert self.location is not None
        log.info("%s is damaged (%s): usage is read from the sessions again", self.location, error)
        try:
            self.location.unlink(missing_ok=True)
        except OSError as failure:
            log.warning("%s cannot be removed: %s", self.location, failure)
            return False
        return True

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # ---- a file's usage -----------------------------------------------------------------------

    def usage(self, path: Path | str, stat: os.stat_result | None = None) -> FileUsage | None:
        """The file's usage: from the cache while it holds (`stat`: the file's, when known), read on or
        again where the file changed; None when it is gone."""
        key = str(path)
        known = self._known(key)
        if known is not None and stat is not None and (known.size, known.mtime_ns) == (stat.st_size, stat.st_mtime_ns):
            return known  # (the common case: nothing else is imported or read)
        from .reading import read_usage

        if stat is None:
            try:
                stat = os.stat(key)
            except OSError:
                stat = None  # gone, or not to be read: read_usage says which
        before = (known.size, known.mtime_ns) if known is not None else None
        if known is not None and (stat is None or before != (stat.st_size, stat.st_mtime_ns)):
            known = self.records(known)  # read on from it: its records are extended
        usage = read_usage(Path(key), known, stat)
        if usage is None:
            if self._files.pop(key, None) is not None:
                self._gone.add(key)
            return None
        if usage is not known or (usage.size, usage.mtime_ns) != before:
            self._files[key] = usage
            self._pending.pop(key, None)  # (a worker's row of it is older)
            self._read.add(key)
        return usage

    def records(self, usage: FileUsage) -> FileUsage:
        """`usage` with its records (APART) at hand: read back from the store when they are kept there;
        when they are gone or damaged, the session file read again (None-safe for the ledger: the usage
        as it is when even that fails)."""
        if usage.records_held:
            return usage
        try:
            pending = self._pending.get(usage.file)
            if pending is not None:
                return _take_apart(usage, _decode_records(pending[1]))
            row = self._db.execute("SELECT apart FROM usage WHERE file = ?", (usage.file,)).fetchone() if self._db is not None else None
            if row is not None:
                return _take_apart(usage, _decode_records(row[0]))
            problem: object = "not in the cache"
        except _DAMAGED as error:
            problem = error
        log.info("%s: its records cannot be read back (%s); the session is read again", usage.file, problem)
        from .reading import read_usage

        again = read_usage(Path(usage.file))
        if again is None or again.problem is not None:
            return usage
        self._files[usage.file] = again
        self._pending.pop(usage.file, None)
        self._read.add(usage.file)
        return again

    def copies_memo(self) -> bytes | None:
        """What finding the copies in the folder scanned last found the last time (copies.py)."""
        return self._memo("SELECT memo FROM copies WHERE root = ?", ())

    def keep_copies_memo(self, memo: bytes) -> None:
        self._keep_memo("INSERT OR REPLACE INTO copies (root, memo) VALUES (?, ?)", (memo,))

    def day_cells(self, zone: str) -> bytes | None:
        """The day cells in `zone` of the files of the folder scanned last, as the ledger kept them."""
        return self._memo("SELECT memo FROM cells WHERE root = ? AND zone = ?", (zone,))

    def keep_day_cells(self, zone: str, memo: bytes) -> None:
        self._keep_memo("INSERT OR REPLACE INTO cells (root, zone, memo) VALUES (?, ?, ?)", (zone, memo))

    def folder_cells(self, zone: str) -> bytes | None:
        """The cells in `zone` of the folder scanned last, as folder_cells.py kept them."""
        return self._memo("SELECT memo FROM folders WHERE root = ? AND zone = ?", (zone,))

    def keep_folder_cells(self, zone: str, memo: bytes) -> None:
        self._keep_memo("INSERT OR REPLACE INTO folders (root, zone, memo) VALUES (?, ?, ?)", (zone, memo))

    def keep_answer(self, question: str, stamp: bytes, answer: bytes) -> None:
        """A whole answer about the folder scanned last, as `stamp` says it was (answers.py)."""
        if self._db is None or self.root is None:
            return
        try:
            keep_answer(self._db, self.root, question, stamp, answer)
        except sqlite3.Error as error:
            log.warning("%s cannot be written: %s", self.location, error)

    def _memo(self, query: str, values: tuple[str, ...]) -> bytes | None:
        if self._db is None or self.root is None:
            return None
        try:
            row = self._db.execute(query, (self.root, *values)).fetchone()
        except sqlite3.Error as error:
            log.info("%s: a memo cannot be read (%s)", self.location, error)
            return None
        return row[0] if row is not None else None

    def _keep_memo(self, query: str, values: tuple[object, ...]) -> None:
        if self._db is None or self.root is None:
            return
        try:
            with self._db:
                self._db.execute(query, (self.root, *values))
        except sqlite3.Error as error:
            log.warning("%s cannot be written: %s", self.location, error)

    def stale(self, files: list[FileStat]) -> list[tuple[str, int]]:
        """The files the cache does not hold as they are now, with the bytes each asks to read (about)."""
        found = []
        held = self._all()
        for path, stat in files:
            if stat is None:
                continue
            known = held.get(path)
            if known is None or (known.size, known.mtime_ns) != (stat.st_size, stat.st_mtime_ns):
                grown = known is not None and known.problem is None and stat.st_size > known.size
                found.append((path, stat.st_size - known.size if grown and known is not None else stat.st_size))
        return found

    def read_in_parallel(self, stale: list[tuple[str, int]], progress: ScanProgress | None, total: int) -> None:
        """Read these files (each with the bytes it asks to read) in worker processes, one per core, a batch of
        files per task: the largest first, so that the workers end together rather than one of them left
        reading a large file while the others wait."""
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        batches: list[list[str]] = []
        size = 0
        for path, asks in sorted(stale, key=lambda item: -item[1]):
            if not batches or len(batches[-1]) == PARALLEL_BATCH or size >= PARALLEL_TASK_BYTES:
                batches.append([])
                size = 0
            batches[-1].append(path)
            size += asks
        # spawn, not fork: the window reads usage from a thread of its own, and forking a process with threads is unsafe.
        with ProcessPoolExecutor(max_workers=os.cpu_count(), mp_context=get_context("spawn")) as pool:
            tasks = [pool.submit(_read_batch, [(path, self._known_bytes(path)) for path in batch]) for batch in batches]
            done = 0
            for batch, task in zip(batches, tasks):
                for key, entry, apart in task.result():
                    if entry is not None and apart is not None:
                        usage = self._files[key] = _decode_usage(entry)
                        self._read.add(key)
                        if self._db is None:
                            _take_apart(usage, _decode_records(apart))  # no store: the records stay here
                        else:
                            self._pending[key] = (entry, apart)
                done += len(batch)
                if progress is not None:
                    progress(min(total, done), total)

    def _known_bytes(self, path: str) -> bytes | None:
        known = self._known(path)
        return _encode(self.records(known)) if known is not None else None

    def forget_missing_under(self, root: Path, present: set[str]) -> None:
        for key in missing_under(self._all(), root, present):
            del self._files[key]
            self._gone.add(key)

    def save(self) -> None:
        """Write the rows of the files read this time, and drop those of files gone, in one transaction;
        a cache that cannot be written only costs time at the next run."""
        if self._db is None or not (self._read or self._gone):
            return
        rows = []
        for key in self._read:
            usage = self._files.get(key)
            if usage is not None:
                row = self._pending.pop(key, None)
                rows.append((key, *(row if row is not None else stored(usage))))
        try:
            with self._db:
                self._db.execute("BEGIN")
                self._db.executemany("INSERT OR REPLACE INTO usage (file, entry, apart) VALUES (?, ?, ?)", rows)
                self._db.executemany("DELETE FROM usage WHERE file = ?", [(key,) for key in self._gone])
        except sqlite3.Error as error:
            log.warning("%s cannot be written: %s", self.location, error)
            return
        self._read.clear()
        self._gone.clear()


def scan_usage(
    root: Path | None = None, *, cache: UsageCache | None = None, progress: ScanProgress | None = None, files: list[FileStat] | None = None
) -> list[FileUsage]:
    """The usage of every session file under `root` (pi's folder by default; or one file), cached
    (`files`: session_stats of `root`, when the caller has them already).

    Files the cache holds as they are cost a stat. When many bytes are to be read (a folder seen
    the first time), the files are read on every core (worker processes, reading.py each), so the
    first run over a gigabyte of sessions takes seconds, not a minute."""
    root = Path(os.path.abspath(sessions_dir() if root is None else root))
    cache = UsageCache.default() if cache is None else cache
    cache.root = str(root)
    files = session_stats(root) if files is None else files
    stale = cache.stale(files)
    if sum(size for _, size in stale) >= PARALLEL_BYTES and len(stale) > 1 and (os.cpu_count() or 1) > 1:
        cache.read_in_parallel(stale, progress, len(files))
    found: list[FileUsage] = []
    for index, (path, stat) in enumerate(files):
        if progress is not None and not index % 64:
            progress(index, len(files))
        usage = cache.usage(path, stat)
        if usage is not None:
            found.append(usage)
    if progress is not None:
        progress(len(files), len(files))
    cache.forget_missing_under(root, {usage.file for usage in found})
    cache.save()
    return found
