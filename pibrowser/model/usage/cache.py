"""Each session file's usage records, kept beside the session list and read again only where a file changed.

A file's records are trusted while its size and modification time are as they were; a file
pi appended to is read on from where the last read stopped (its first bytes and the bytes
before that point as they were, session/appended); any other change reads it again. The
cache is one msgpack file written whole and atomically, like the session list's: a second
process reading it sees the old one or the new one.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

import msgspec

from ..sessions.cache_file import missing_under, write_whole
from ..sessions.discovery import cache_dir, session_files, sessions_dir
from .reading import read_usage
from .records import FileUsage

log = logging.getLogger(__name__)

CACHE_VERSION = 1
ScanProgress = Callable[[int, int], None]


class _Stored(msgspec.Struct):
    version: int
    files: dict[str, FileUsage]


_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder(_Stored).decode
_decode_usage = msgspec.msgpack.Decoder(FileUsage).decode
PARALLEL_BYTES = 64 << 20  # to read at least this much, every core reads
PARALLEL_BATCH = 32  # files a worker reads per task


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:
        return None  # gone since it was listed, or not to be read: reading it says which


def _read_batch(files: list[tuple[str, bytes | None]]) -> list[tuple[str, bytes | None]]:
    """In a worker process: each file's usage (read on from what was known of it), as msgpack."""
    done = []
    for path, known in files:
        usage = read_usage(Path(path), _decode_usage(known) if known is not None else None)
        done.append((path, _encode(usage) if usage is not None else None))
    return done


class UsageCache:
    """Usage records by path, trusted while the file's size and modification time are unchanged."""

    FILE_NAME = f"usage-v{CACHE_VERSION}.msgpack"

    def __init__(self, location: Path | None) -> None:
        self.location = location
        self._files: dict[str, FileUsage] = self._load()
        self._dirty = False

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
            data = self.location.read_bytes()
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
        usage = read_usage(path, known, stat)
        if usage is None:
            if known is not None:
                del self._files[key]
                self._dirty = True
            return None
        if usage is not known or (usage.size, usage.mtime_ns) != before:
            self._files[key] = usage
            self._dirty = True
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
            tasks = [pool.submit(_read_batch, [(str(path), self._known_bytes(path)) for path in batch]) for batch in batches]
            done = 0
            for task in tasks:
                for key, data in task.result():
                    if data is not None:
                        self._files[key] = _decode_usage(data)
                        self._dirty = True
                done += 1
                if progress is not None:
                    progress(min(total, done * PARALLEL_BATCH), total)

    def _known_bytes(self, path: Path) -> bytes | None:
        known = self._files.get(str(path))
        return _encode(known) if known is not None else None

    def forget_missing_under(self, root: Path, present: set[str]) -> None:
        for key in missing_under(self._files, root, present):
            del self._files[key]
            self._dirty = True

    def save(self) -> None:
        """Write the cache whole and atomically; one that cannot be written only costs time at the next run."""
        if self.location is not None and self._dirty:
            self._dirty = not write_whole(self.location, _encode(_Stored(CACHE_VERSION, self._files)))


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
