"""Each session file's usage records, kept beside the session list and read again only where a file changed.

A file's records are trusted while its size and modification time are as they were; a file
pi appended to is read on from where the last read stopped (its first bytes and the bytes
before that point as they were, session/appended); any other change reads it again. The
cache is one msgpack file (each file's meta, the digests its copies are found by, its runs
and its total: what a run over unchanged files reads), written whole and atomically like the
session list's, and beside it a folder with each file's record columns, read back only for
the files whose records are summed one by one (a fork's, one a time filter cuts, one that
grew). A record file that is gone or damaged has its session file read again.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable
from pathlib import Path

import msgspec

from ..session.regular_file import open_regular
from ..library.cache_file import missing_under, write_whole
from ..library.discovery import cache_dir, session_files, sessions_dir
from .reading import read_usage
from .records import RECORD_COLUMNS, FileUsage, Records

log = logging.getLogger(__name__)

CACHE_VERSION = 1
ScanProgress = Callable[[int, int], None]


class _Stored(msgspec.Struct):
    version: int
    files: dict[str, FileUsage]


_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder(_Stored).decode
_decode_usage = msgspec.msgpack.Decoder(FileUsage).decode
_decode_records = msgspec.msgpack.Decoder(Records).decode
_SET_APART = {name: b"" for name in RECORD_COLUMNS}
PARALLEL_BYTES = 64 << 20  # to read at least this much, every core reads
PARALLEL_BATCH = 32  # files a worker reads per task


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:
        return None  # gone since it was listed, or not to be read: reading it says which


def _read_batch(files: list[tuple[str, bytes | None]], records_dir: str | None) -> list[tuple[str, bytes | None, bool]]:
    """In a worker process: each file's usage (read on from what was known of it), as msgpack, and
    whether its records are written apart already (into `records_dir`, so the parent need not)."""
    done: list[tuple[str, bytes | None, bool]] = []
    for path, known in files:
        usage = read_usage(Path(path), _decode_usage(known) if known is not None else None)
        if usage is None:
            done.append((path, None, False))
            continue
        kept = records_dir is not None and _keep_records(Path(records_dir), path, usage)
        done.append((path, _encode(_index_entry(usage) if kept else usage), kept))
    return done


def _records_name(key: str) -> str:
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest() + ".msgpack"


def _keep_records(records_dir: Path, key: str, usage: FileUsage) -> bool:
    """Write the file's record columns apart; True when they are (`usage.records_file` names them)."""
    name = _records_name(key)
    stored = Records(**{column: getattr(usage, column) for column in RECORD_COLUMNS}, odd=usage.odd)
    if not write_whole(records_dir / name, _encode(stored)):
        return False
    usage.records_file = name
    return True


def _index_entry(usage: FileUsage) -> FileUsage:
    """What the index keeps of a file whose records are apart."""
    return msgspec.structs.replace(usage, odd={}, **_SET_APART)


class UsageCache:
    """Usage records by path, trusted while the file's size and modification time are unchanged."""

    FILE_NAME = f"usage-v{CACHE_VERSION}.msgpack"

    def __init__(self, location: Path | None) -> None:
        self.location = location
        self.records_dir = location.with_name(location.stem + "-records") if location is not None else None
        self._files: dict[str, FileUsage] = self._load()
        self._dirty = False
        self._read: set[str] = set()  # files read this time: their record files are written at save

    @classmethod
    def default(cls) -> UsageCache:
        return cls(cache_dir() / cls.FILE_NAME)

    @classmethod
    def in_memory(cls) -> UsageCache:
        return cls(None)

    def _load(self) -> dict[str, FileUsage]:
        if self.location is None:
            return {}
        try:
            with open_regular(self.location) as handle:  # a FIFO in its place must not stop the usage
                data = handle.read()
        except FileNotFoundError:
            return {}  # no cache yet
        except OSError as error:
            log.info("%s cannot be read (%s): usage is read from the sessions again", self.location, error)
            return {}
        try:
            stored = _decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            log.info("%s is of another version or damaged (%s): usage is read from the sessions again", self.location, error)
            return {}
        return stored.files if stored.version == CACHE_VERSION else {}

    def usage(self, path: Path, stat: os.stat_result | None = None) -> FileUsage | None:
        """The file's usage: from the cache while it holds (`stat`: the file's, when known), read on or
        again where the file changed; None when it is gone."""
        key = str(path)
        known = self._files.get(key)
        before = (known.size, known.mtime_ns) if known is not None else None
        if stat is None:
            try:
                stat = path.stat()
            except OSError:
                stat = None  # gone, or not to be read: read_usage says which
        if known is not None and (stat is None or (known.size, known.mtime_ns) != (stat.st_size, stat.st_mtime_ns)):
            known = self.records(known)  # read on from it: its records are extended
        usage = read_usage(path, known, stat)
        if usage is None:
            if known is not None:
                del self._files[key]
                self._dirty = True
            return None
        if usage is not known or (usage.size, usage.mtime_ns) != before:
            self._files[key] = usage
            self._dirty = True
            self._read.add(key)
        return usage

    def records(self, usage: FileUsage) -> FileUsage:
        """`usage` with its record columns at hand: read back from their file when they are kept apart;
        when that file is gone or damaged, the session file read again (None-safe for the ledger: the usage
        as it is when even that fails)."""
        if usage.records_held or self.records_dir is None or usage.records_file is None:
            return usage
        try:
            with open_regular(self.records_dir / usage.records_file) as handle:
                stored = _decode_records(handle.read())
        except (OSError, msgspec.DecodeError, msgspec.ValidationError) as error:
            log.info("%s: its records cannot be read back (%s); the session is read again", usage.file, error)
            again = read_usage(Path(usage.file))
            if again is None or again.problem is not None:
                return usage
            self._files[usage.file] = again
            self._dirty = True
            self._read.add(usage.file)
            return again
        for name in RECORD_COLUMNS:
            setattr(usage, name, getattr(stored, name))
        usage.odd = stored.odd
        return usage

    def stale(self, files: list[tuple[Path, os.stat_result | None]]) -> list[tuple[Path, int]]:
        """The files the cache does not hold as they are now, with the bytes each asks to read."""
        found = []
        for path, stat in files:
            if stat is None:
                continue
            known = self._files.get(str(path))
            if known is None or (known.size, known.mtime_ns) != (stat.st_size, stat.st_mtime_ns):
                grown = known is not None and known.problem is None and stat.st_size > known.consumed
                found.append((path, stat.st_size - known.consumed if grown and known is not None else stat.st_size))
        return found

    def read_in_parallel(self, paths: list[Path], progress: ScanProgress | None, total: int) -> None:
        """Read these files in worker processes, one per core, a batch of files per task."""
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        batches = [paths[start : start + PARALLEL_BATCH] for start in range(0, len(paths), PARALLEL_BATCH)]
        # spawn, not fork: the window reads usage from a thread of its own, and forking a process with threads is unsafe.
        with ProcessPoolExecutor(max_workers=os.cpu_count(), mp_context=get_context("spawn")) as pool:
            where = str(self.records_dir) if self.records_dir is not None else None
            tasks = [pool.submit(_read_batch, [(str(path), self._known_bytes(path)) for path in batch], where) for batch in batches]
            done = 0
            for task in tasks:
                for key, data, kept in task.result():
                    if data is not None:
                        self._files[key] = _decode_usage(data)
                        self._dirty = True
                        if not kept:
                            self._read.add(key)  # its records are written at save
                done += 1
                if progress is not None:
                    progress(min(total, done * PARALLEL_BATCH), total)

    def _known_bytes(self, path: Path) -> bytes | None:
        known = self._files.get(str(path))
        return _encode(self.records(known)) if known is not None else None

    def forget_missing_under(self, root: Path, present: set[str]) -> None:
        for key in missing_under(self._files, root, present):
            gone = self._files.pop(key)
            self._dirty = True
            if gone.records_file is not None and self.records_dir is not None:
                try:
                    (self.records_dir / gone.records_file).unlink()
                except OSError:
                    pass  # a record file left behind costs only its bytes

    def save(self) -> None:
        """Write the cache whole and atomically, the records of the files read this time apart; one that
        cannot be written only costs time at the next run."""
        if self.location is None or self.records_dir is None or not self._dirty:
            return
        index: dict[str, FileUsage] = {}
        for key, usage in self._files.items():
            if key in self._read and usage.records_held and not _keep_records(self.records_dir, key, usage):
                continue  # not kept: read again next time
            index[key] = _index_entry(usage) if usage.records_file is not None else usage
        if write_whole(self.location, _encode(_Stored(CACHE_VERSION, index))):
            self._dirty = False
            self._read.clear()


def scan_usage(root: Path | None = None, *, cache: UsageCache | None = None, progress: ScanProgress | None = None) -> list[FileUsage]:
    """The usage of every session file under `root` (pi's folder by default; or one file), cached.

    Files the cache holds as they are cost a stat. When many bytes are to be read (a folder seen
    the first time), the files are read on every core (worker processes, reading.py each), so the
    first run over a gigabyte of sessions takes seconds, not a minute."""
    root = Path(os.path.abspath(sessions_dir() if root is None else root))
    cache = UsageCache.default() if cache is None else cache
    files = [(path, _stat(path)) for path in session_files(root)]
    stale = cache.stale(files)
    if sum(size for _, size in stale) >= PARALLEL_BYTES and len(stale) > 1 and (os.cpu_count() or 1) > 1:
        cache.read_in_parallel([path for path, _ in stale], progress, len(files))
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
