"""The usage cache's one SQLite file: where it is, its version, its tables, and opening it.

Apart from the rest of the cache so that a run which only asks whether a whole answer is kept
(answers.py) opens the file without importing what reading and decoding the usage takes.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..library.discovery import cache_dir

CACHE_VERSION = 2  # (a table added to it needs none: it is made where it is missing)
FILE_NAME = f"usage-v{CACHE_VERSION}.sqlite"
TABLES = {
    "usage": "file TEXT PRIMARY KEY, entry BLOB NOT NULL, apart BLOB NOT NULL",  # a row per session file (cache.py)
    "copies": "root TEXT PRIMARY KEY, memo BLOB NOT NULL",  # copies.py's memo, per folder
    "cells": "root TEXT, zone TEXT, memo BLOB NOT NULL, PRIMARY KEY (root, zone)",  # the ledger's day cells, per file
    "folders": "root TEXT, zone TEXT, memo BLOB NOT NULL, PRIMARY KEY (root, zone)",  # a whole folder's (folder_cells.py)
    "answers": "root TEXT, question TEXT, stamp BLOB NOT NULL, answer BLOB NOT NULL, PRIMARY KEY (root, question)",
}


def default_location() -> Path:
    return cache_dir() / FILE_NAME


def open_store(location: Path) -> sqlite3.Connection:
    """The cache at `location`, made (or started anew, when its version is another) as this version has it."""
    location.parent.mkdir(parents=True, exist_ok=True)
    # (one thread at a time: the window reads usage in a job, and its ledger reads records back after it)
    db = sqlite3.connect(location, timeout=10, check_same_thread=False, isolation_level=None)
    try:
        if db.execute("PRAGMA user_version").fetchone()[0] != CACHE_VERSION:
            for table in TABLES:
                db.execute(f"DROP TABLE IF EXISTS {table}")
            db.execute(f"PRAGMA user_version = {CACHE_VERSION}")
        # No wait for the disk, as the other caches (write_whole) do not: a cache lost to a power cut costs a read.
        db.execute("PRAGMA synchronous = OFF")
        for table, columns in TABLES.items():
            db.execute(f"CREATE TABLE IF NOT EXISTS {table} ({columns})")
    except sqlite3.Error:
        db.close()
        raise
    return db


def open_existing(location: Path) -> sqlite3.Connection | None:
    """The cache at `location` to read, when there is one of this version (nothing is made or changed)."""
    if not location.is_file():
        return None
    try:
        db = sqlite3.connect(f"{location.as_uri()}?mode=ro", uri=True, timeout=10)
    except sqlite3.Error:
        return None
    try:
        if db.execute("PRAGMA user_version").fetchone()[0] == CACHE_VERSION:
            return db
    except sqlite3.Error:
        pass  # not a cache this version can read: the full run starts it anew, and says so in the log
    db.close()
    return None
