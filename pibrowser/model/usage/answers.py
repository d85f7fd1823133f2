"""A whole answer of `pibrowser usage`, kept for the folder as it is.

A run that asks the same question (the grouping, the filters, the zone, the format, and the
pibrowser that answers) of a folder whose session files all have the path, size and
modification time they had when it was answered gives that answer again: nothing is decoded,
no copy looked for, nothing added up. It is the trust the cache gives each file (cache.py),
given to the folder as a whole: the folder's stamp is a digest of every file's path, size and
modification time. Only the answers for the folder as it is now are kept: keeping one drops
the folder's answers for any other stamp.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
from pathlib import Path

from .store import open_existing

log = logging.getLogger(__name__)


def folder_stamp(files: list[tuple[str, os.stat_result | None]]) -> bytes:
    """A digest of every file's path, size and modification time, in any order they were listed in
    (a file that cannot be stat'ed counts as one too)."""
    lines = sorted(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}" if stat is not None else f"{path}\0-" for path, stat in files)
    return hashlib.blake2b("\n".join(lines).encode("utf-8", "surrogatepass"), digest_size=16).digest()


PACKAGE = Path(__file__).resolve().parents[2]


def code_stamp(package: Path = PACKAGE) -> str:
    """A digest of pibrowser's own code as installed (every module's path, size and modification
    time, as folder_stamp takes a folder's): an answer kept by other code is not given again, though
    the version number is the same (a checkout between two releases, a fix installed over the last one)."""
    modules = []
    for folder, subfolders, names in os.walk(package):
        subfolders[:] = [sub for sub in subfolders if sub != "__pycache__"]
        modules += [os.path.join(folder, name) for name in names if name.endswith(".py")]
    return folder_stamp([(path, os.stat(path)) for path in modules]).hex()


def kept_answer(location: Path, root: str, question: str, stamp: bytes) -> bytes | None:
    """The answer kept for `question` about `root` while it had `stamp`; None when there is none."""
    db = open_existing(location)
    if db is None:
        return None
    try:
        row = db.execute("SELECT answer FROM answers WHERE root = ? AND question = ? AND stamp = ?", (root, question, stamp)).fetchone()
    except sqlite3.Error as error:
        log.info("%s: a kept answer cannot be read (%s)", location, error)
        return None
    finally:
        db.close()
    return row[0] if row is not None else None


def keep_answer(db: sqlite3.Connection, root: str, question: str, stamp: bytes, answer: bytes) -> None:
    """Keep `answer` for the folder as `stamp` says it is, dropping its answers for any other state."""
    with db:
        db.execute("BEGIN")
        db.execute("DELETE FROM answers WHERE root = ? AND stamp != ?", (root, stamp))
        db.execute("INSERT OR REPLACE INTO answers (root, question, stamp, answer) VALUES (?, ?, ?, ?)", (root, question, stamp, answer))
