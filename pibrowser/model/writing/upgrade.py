"""Upgrading a version 1 or 2 session file to pi's current format, as pi's own migration writes it.

pi rewrites an old file the first time it opens it (SessionManager's
`_rewriteFile` after `migrateToCurrentVersion`): every value it kept, one
`JSON.stringify` line each; blank lines, lines that do not parse and falsy
values (`null`, `0`, `""`) are gone. The upgrade writes exactly that file, with
one difference: a version 1 entry gets the id pibrowser has shown for it all
along (`migration.stable_id`) rather than a random one, so labels, ids on the
command line and search hits keep naming the same entries.

The file is read as every reader reads it: only a regular file (session/regular_file),
a batch of lines at a time (session/lines), its header found and refused in the header
parser's words (session/header). The new file is written beside the old one and renamed
over it; the original is kept as FILE.v1.bak (FILE.v2.bak for version 2), itself written
under a temporary name and renamed into place only when whole where it cannot be a second
name of the original; nothing is written if the file changed since it was read.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from io import BufferedReader
from pathlib import Path
from typing import Any

from ..js.stringify import dump_json
from ..js.value import js_trim, js_truthy
from ..session.header import HeaderSearch
from ..session.jsonline import parse_line
from ..session.lines import scan_lines
from ..session.migration import CannotMigrate, has_no_ids, migrate, needs_migration
from ..session.problems import SessionLoadError
from ..session.regular_file import cannot_read, open_session_file
from ..session.same_file import unchanged

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


Kept = tuple[dict[str, Any], list[tuple[int, Any]]]  # the header, then (line number, value) of what pi keeps after it


def upgraded_bytes(path: Path, kept: Kept) -> tuple[bytes, dict[str, Any], int]:
    """The file pi's migration would write for what `read_kept` kept (with our ids), the original header, the entry count."""
    header, records = kept
    original = dict(header)
    if not needs_migration(header):
        raise UpgradeError(path, "not upgraded: already in pi's current format (version 3)")
    try:
        migrate(header, records)
    except CannotMigrate as error:
        raise UpgradeError(path, f"not upgraded: {error}") from None
    return b"".join(dump_json(value) + b"\n" for value in (header, *(value for _, value in records))), original, len(records)


def read_kept(path: Path) -> Kept:
    """What pi's loadEntriesFromFile keeps of the session file `path`: its header and the values after it."""
    with open_session_file(path) as handle:
        try:
            return _kept_values(path, handle)
        except OSError as error:
            raise cannot_read(path, error) from None


def _kept_values(path: Path, handle: BufferedReader) -> Kept:
    search = HeaderSearch(path, problems=[])
    header: dict[str, Any] | None = None
    values: list[tuple[int, Any]] = []
    number = 1  # the number of the batch's first line
    for batch in scan_lines(handle):
        lines, start = batch.lines, 0
        if header is None:
            found = search.find(lines, number)  # a file whose first value is no header: refused in the parser's words
            if found is not None:
                header, _, index = found
                start = index + 1
        if header is not None:
            values += kept_values(lines[start:], number + start)
        number += len(lines)
    if header is None:
        raise search.missing()
    return header, values


def kept_values(lines: Sequence[bytes], first_number: int) -> list[tuple[int, Any]]:
    """(line number, value) of what pi's loadEntriesFromFile keeps of these lines: those that parse to a truthy value."""
    kept = []
    for number, raw in enumerate(lines, first_number):
        if not js_trim(raw.decode("utf-8", errors="replace")):
            continue
        try:
            value, _ = parse_line(raw)
        except ValueError:
            continue  # pi skips a line that does not parse, and its rewrite drops it
        if js_truthy(value):
            kept.append((number, value))
    return kept


def upgrade(path: str | Path) -> Upgraded:
    """Rewrite an old session file in pi's current format, keeping the original as FILE.v1.bak."""
    path = Path(path)
    try:
        with open_session_file(path) as handle:
            seen = os.fstat(handle.fileno())
            kept = _kept_values(path, handle)
            new, header, entries = upgraded_bytes(path, kept)
            backup = backup_path(path, header)
            if os.path.lexists(backup):
                raise UpgradeError(path, f"not upgraded: {backup.name} already exists beside it; move it away first")
            temporary = _write_beside(path, new, seen.st_mode)
            try:
                _check_unchanged(path, seen)
                _keep_original(path, backup, handle, seen)
                try:
                    os.replace(temporary, path)
                except OSError as error:
                    os.unlink(backup)  # the original is still in place: no second copy of it
                    raise UpgradeError(path, f"not upgraded: {error.strerror or error}; the file is as it was") from None
            except BaseException:
                os.unlink(temporary)
                raise
    except UpgradeError:
        raise
    except SessionLoadError as error:  # not a session, or not a file to read: in the readers' own words
        raise UpgradeError(path, error.reason) from None
    except OSError as error:
        raise UpgradeError(path, f"not upgraded: cannot be read ({error.strerror or error})") from None
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
    if not unchanged(seen, now):
        raise UpgradeError(path, "not upgraded: the file changed while it was read; try again")


def _keep_original(path: Path, backup: Path, handle: BufferedReader, seen: os.stat_result) -> None:
    """The original as the backup: the very file (a second name for it) where the filesystem allows,
    so bytes anyone appends to it until the rename are kept too; else a copy of the file read, written
    under a temporary name and renamed into place only when whole (a full disk must not leave a cut
    backup, which every later upgrade would refuse to overwrite)."""
    try:
        os.link(path, backup)
        return
    except FileExistsError:
        raise UpgradeError(path, f"not upgraded: {backup.name} already exists beside it; move it away first") from None
    except OSError as error:
        log.info("%s: no hard link for the backup (%s); copying", path, error)  # some network and FAT filesystems
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{backup.name}.", suffix=".part", dir=path.parent)
    except OSError as error:
        raise UpgradeError(path, f"not upgraded: cannot keep the original as {backup.name} ({error.strerror or error})") from None
    try:
        with os.fdopen(fd, "wb") as out:
            for batch in scan_lines(handle):
                out.write(batch.data)
            out.flush()
            if out.tell() != seen.st_size:
                raise OSError(0, "the file changed while it was copied")
            os.fsync(out.fileno())
        shutil.copystat(path, temporary)
        if os.path.lexists(backup):
            raise FileExistsError(0, f"{backup.name} already exists beside it; move it away first")
        os.rename(temporary, backup)
    except OSError as error:
        os.unlink(temporary)
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
