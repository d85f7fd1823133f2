"""Writing a label the way pi's appendLabelChange does: one appended line, nothing else touched."""

from __future__ import annotations

import os
import secrets
from datetime import datetime, timezone
from collections.abc import Container
from pathlib import Path
from typing import Any

import orjson

from .problems import SessionLoadError
from .session import Session


def append_label(path: str | Path, target_id: str, label: str | None = None) -> str:
    """Append a label entry for `target_id` (None clears the label) and return its id.

    The file is read again first, because pi may have appended since we loaded it:
    the new entry's parent is whatever is the last entry now, as in pi.
    """
    return append_label_to(Session.load(Path(path)), target_id, label)


def append_label_to(session: Session, target_id: str, label: str | None = None) -> str:
    """Append to a session known to be up to date with its file (its last entry is the leaf)."""
    if target_id not in session.entries:
        raise SessionLoadError(session.path, f"no entry with id {target_id!r} to label")
    line = label_line(session, target_id, label)
    _append_line(session.path, line)
    return orjson.loads(line)["id"]


def label_line(session: Session, target_id: str, label: str | None) -> bytes:
    entry = {
        "type": "label",
        "id": new_entry_id(session.entries),
        "parentId": session.leaf_id,
        "timestamp": iso_now(),
        "targetId": target_id,
    }
    if label is not None:
        entry["label"] = label
    return orjson.dumps(entry) + b"\n"


def new_entry_id(used: Container[Any]) -> str:
    """pi's generateId: 8 random hex digits, none of the ids in `used`."""
    while True:
        candidate = secrets.token_hex(4)
        if candidate not in used:
            return candidate


def iso_now() -> str:
    # JS toISOString(): milliseconds and a Z.
    now = datetime.now(timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def _append_line(path: Path, line: bytes) -> None:
    """One O_APPEND write, so a label lands as a whole line even while pi appends too."""
    fd = os.open(path, os.O_RDWR | os.O_APPEND)
    try:
        if _needs_newline(fd):
            line = b"\n" + line
        written = os.write(fd, line)
        if written != len(line):
            raise SessionLoadError(path, f"only {written} of {len(line)} bytes of the label were written")
    finally:
        os.close(fd)


def _needs_newline(fd: int) -> bool:
    size = os.fstat(fd).st_size
    if size == 0:
        return False
    return os.pread(fd, 1, size - 1) != b"\n"
