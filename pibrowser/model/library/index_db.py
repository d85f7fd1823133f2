"""SQLite as the search index uses it: waiting out another process, transactions, paths and ids kept
exactly (a lone surrogate or a file name that is not UTF-8 included), rows by file, the schema check."""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import overload

# How long a process waits for another one's chunk before giving up.
BUSY_TIMEOUT_S = 120
FILE_SHIFT = 32  # a row's rowid is file id << 32 | row number, so a file's rows are one range


def patiently(connect: Callable[[], sqlite3.Connection]) -> sqlite3.Connection:
    """Open a connection, waiting out another process that holds the database.

    Turning WAL on and recovering a WAL left by a crash take the lock without SQLite's busy
    handler, so two processes opening the index at once can get SQLITE_BUSY at once however long
    the timeout: retry those with a growing pause, as the busy handler would.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    pause = 0.005
    while True:
        try:
            return connect()
        except sqlite3.OperationalError as error:
            if not is_busy(error) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.25)


def is_busy(error: sqlite3.OperationalError) -> bool:
    code = getattr(error, "sqlite_errorname", "")
    if code:
        return code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))
    return "locked" in str(error).lower()


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE: the write lock first, so what is read inside is what gets written over."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def forget(db: sqlite3.Connection, path: str) -> None:
    row = db.execute("SELECT id FROM files WHERE path = ?", (exact(path),)).fetchone()
    if row is not None:
        delete_rows(db, row[0])
        db.execute("DELETE FROM files WHERE id = ?", (row[0],))


def delete_rows(db: sqlite3.Connection, file_id: int) -> None:
    bounds = (file_id << FILE_SHIFT, (file_id + 1) << FILE_SHIFT)
    db.execute("DELETE FROM hits WHERE rowid >= ? AND rowid < ?", bounds)
    db.execute("DELETE FROM rows WHERE id >= ? AND id < ?", bounds)


# Files at or below a root. Paths are compared as bytes: a path that is not UTF-8 is stored as a blob (see exact).
UNDER = "(CAST(path AS BLOB) = ? OR substr(CAST(path AS BLOB), 1, ?) = ?)"


def under(root: Path) -> list[object]:
    prefix = utf8(str(root).rstrip(os.sep) + os.sep)
    return [utf8(str(root)), len(prefix), prefix]


def exact(text: str | None) -> str | bytes | None:
    """A path or an id as SQLite can hold it and give back unchanged: text, or for one SQLite cannot
    take as text (a lone surrogate: half an emoji in an id, a file name that is not UTF-8) its bytes."""
    if text is None or text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return utf8(text)
    return text


@overload
def exact_back(value: str | bytes) -> str: ...
@overload
def exact_back(value: None) -> None: ...
@overload
def exact_back(value: str | bytes | None) -> str | None: ...
def exact_back(value: str | bytes | None) -> str | None:
    return value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else value


def utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


# Every table and column the index uses, as it uses them: a table dropped, renamed or rebuilt
# otherwise (by another program, an older pibrowser, a hand) fails here, not at every search.
SCHEMA_PROBES = (
    "SELECT id, path, size, mtime_ns, consumed, next_line, next_row, head, fingerprint, session, project, legacy, problem, problems"
    " FROM files LIMIT 0",
    "SELECT rowid, text, bm25(hits) FROM hits WHERE hits MATCH '\"a\"' LIMIT 0",
    "SELECT id, entry, line, role, tool, time FROM rows LIMIT 0",
)
# What SQLite says when a statement meets a schema other than the one it was written for.
SCHEMA_ERROR = re.compile(r"no such (table|column)|table \S+ has (no column named|\d+ columns but)|unable to use function")


class DamagedSchema(sqlite3.DatabaseError):
    """The index's tables are not the ones it builds."""


def check_schema(db: sqlite3.Connection) -> None:
    for probe in SCHEMA_PROBES:
        try:
            db.execute(probe).fetchall()
        except sqlite3.OperationalError as error:
            raise DamagedSchema(f"the index's tables are not as built ({error})") from None


def is_damaged(error: sqlite3.DatabaseError) -> bool:
    """Whether the index must be built again: its file is damaged, or its tables are not as built."""
    if isinstance(error, DamagedSchema):
        return True
    if isinstance(error, sqlite3.OperationalError) and SCHEMA_ERROR.match(str(error)):
        return True
    code = getattr(error, "sqlite_errorname", "")
    if code:
        return code.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
    message = str(error).lower()
    return "malformed" in message or "not a database" in message
