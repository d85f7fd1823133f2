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

    def usage(self, path: Path) -> FileUsage | None:
        """The file's usage: from the cache while it holds, read on or again where the file changed; None when it is gone."""
        key = str(path)
        known = self._files.get(key)
        before = (known.size, known.mtime_ns) if known is not None else None
        usage = read_usage(path, known)
        if usage is None:
            if known is not None:
                del self._files[key]
                self._dirty = True
            return None
        if usage is not known or (usage.size, usage.mtime_ns) != before:
            self._files[key] = usage
            self._dirty = True
        return usage

    def forget_missing_under(self, root: Path, present: set[str]) -> None:
        for key in missing_under(self._files, root, present):
            del self._files[key]
            self._dirty = True

    def save(self) -> None:
        """Write the cache whole and atomically; one that cannot be written only costs time at the next run."""
        if self.location is not None and self._dirty:
            self._dirty = not write_whole(self.location, _encode(_Stored(CACHE_VERSION, self._files)))


def scan_usage(root: Path | None = None, *, cache: UsageCache | None = None, progress: ScanProgress | None = None) -> list[FileUsage]:
    """The usage of every session file under `root` (pi's folder by default; or one file), cached."""
    root = Path(os.path.abspath(sessions_dir() if root is None else root))
    cache = UsageCache.default() if cache is None else cache
    files = session_files(root)
    found: list[FileUsage] = []
    for index, path in enumerate(files):
        if progress is not None and not index % 16:
            progress(index, len(files))
        usage = cache.usage(path)
        if usage is not None:
            found.append(usage)
    if progress is not None:
        progress(len(files), len(files))
    cache.forget_missing_under(root, {usage.file for usage in found})
    cache.save()
    return found
