"""Upgrading a version 1 or 2 session file to pi's current format, as pi's own migration writes it.

pi rewrites an old file the first time it opens it (SessionManager's
`_rewriteFile` after `migrateToCurrentVersion`): every value it kept, one
`JSON.stringify` line each; blank lines, lines that do not parse and falsy
values (`null`, `0`, `""`) are gone. The upgrade writes exactly that file, with
one difference: a version 1 entry gets the id pibrowser has shown for it all
along (`migration.stable_id`) rather than a random one, so labels, ids on the
command line and search hits keep naming the same entries.

The new file is written beside the old one and renamed over it; the original is
kept as FILE.v1.bak (FILE.v2.bak for version 2), and nothing is written if the
file changed since it was read.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..js.stringify import dump_json
from ..js.value import js_trim, js_truthy
from ..session.jsonline import parse_line
from ..session.migration import CannotMigrate, has_no_ids, migrate, needs_migration
from ..session.problems import SessionLoadError

log = logging.getLogger(__name__)


class UpgradeError(SessionLoadError):
    """The file was not upgraded (not old, not a session, changed meanwhile…): one line to show."""


@dataclass(frozen=True, slots=True)
class Upgraded:
    path: Path
    backup: Path
    entries: int  # lines written after the header


def backup_path(path: Path, header: dict[str, Any]) -> Path:
    return path.with_name(f"{path.name}.v{1 if has_no_ids(header) else 2}.bak")


def upgraded_bytes(path: Path, data: bytes) -> tuple[bytes, dict[str, Any], int]:
    """The file pi's migration would write for `data` (with our ids), the original header, the entry count."""
    values = kept_values(data)
    if not values or not _is_header(values[0][1]):
        raise UpgradeError(path, "not upgraded: not a pi session (its first JSON line is not a session header with an id)")
    original = dict(values[0][1])
    header, records = values[0][1], values[1:]
    if not needs_migration(header):
        raise UpgradeError(path, "not upgraded: already in pi's current format (version 3)")
    try:
        migrate(header, records)
    except CannotMigrate as error:
        raise UpgradeError(path, f"not upgraded: {error}") from None
    return b"".join(dump_json(value) + b"\n" for value in (header, *(value for _, value in records))), original, len(records)


def kept_values(data: bytes) -> list[tuple[int, Any]]:
    """(line number, value) of what pi's loadEntriesFromFile keeps: lines that parse to a truthy value."""
    kept = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not js_trim(raw.decode("utf-8", errors="replace")):
            continue
        try:
            value, _ = parse_line(raw)
        except ValueError:
            continue  # pi skips a line that does not parse, and its rewrite drops it
        if js_truthy(value):
            kept.append((number, value))
    return kept


def _is_header(value: Any) -> bool:
    return isinstance(value, dict) and value.get("type") == "session" and isinstance(value.get("id"), str)


def upgrade(path: str | Path) -> Upgraded:
    """Rewrite an old session file in pi's current format, keeping the original as FILE.v1.bak."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
            seen = os.fstat(handle.fileno())
    except OSError as error:
        raise UpgradeError(path, f"not upgraded: cannot be read ({error.strerror or error})") from None
    new, header, entries = upgraded_bytes(path, data)
    backup = backup_path(path, header)
    if os.path.lexists(backup):
        raise UpgradeError(path, f"not upgraded: {backup.name} already exists beside it; move it away first")
    temporary = _write_beside(path, new, seen.st_mode)
    try:
        _check_unchanged(path, seen)
        _keep_original(path, backup, data)
        try:
            os.replace(temporary, path)
        except OSError as error:
            os.unlink(backup)  # the original is still in place: no second copy of it
            raise UpgradeError(path, f"not upgraded: {error.strerror or error}; the file is as it was") from None
    except BaseException:
        os.unlink(temporary)
        raise
    _sync_folder(path.parent)
    return Upgraded(path, backup, entries)


def _write_beside(path: Path, data: bytes, mode: int) -> str:
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".upgrade", dir=path.parent)
    except OSError as error:
        raise UpgradeError(path, f"not upgraded: cannot write in its folder ({error.strerror or error})") from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fchmod(out.fileno(), mode & 0o7777)
            os.fsync(out.fileno())
    except OSError as error:
        os.unlink(temporary)
        raise UpgradeError(path, f"not upgraded: {error.strerror or error}; the file is as it was") from None
    return temporary


def _check_unchanged(path: Path, seen: os.stat_result) -> None:
    try:
        now = os.stat(path)
    except OSError as error:
        raise UpgradeError(path, f"not upgraded: {error.strerror or error}") from None
    if (now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns) != (seen.st_dev, seen.st_ino, seen.st_size, seen.st_mtime_ns):
        raise UpgradeError(path, "not upgraded: the file changed while it was read; try again")


def _keep_original(path: Path, backup: Path, data: bytes) -> None:
    """The original as the backup: the very file (a second name for it) where the filesystem allows,
    so bytes anyone appends to it until the rename are kept too; else a copy of what was read."""
    try:
        os.link(path, backup)
        return
    except FileExistsError:
        raise UpgradeError(path, f"not upgraded: {backup.name} already exists beside it; move it away first") from None
    except OSError as error:
        log.info("%s: no hard link for the backup (%s); copying", path, error)  # some network and FAT filesystems
    try:
        with open(backup, "xb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        shutil.copystat(path, backup)
    except OSError as error:
        raise UpgradeError(path, f"not upgraded: cannot keep the original as {backup.name} ({error.strerror or error})") from None


def _sync_folder(folder: Path) -> None:
    # The rename is done; only its durability across a crash is at stake here.
    try:
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as error:
        log.info("%s: the folder cannot be synced (%s)", folder, error)
