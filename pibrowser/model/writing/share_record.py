"""The record of what was shared: one JSON line per share in `$XDG_STATE_HOME/pibrowser/shares.jsonl`,
so that a user can find later what they sent (time, source file, the page written, the leaf or the
pair, what was removed, and the page's SHA-256, which tells a copy of it anywhere)."""

from __future__ import annotations

import logging
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from ..library.xdg import xdg_dir
from ..session.regular_file import open_regular

log = logging.getLogger(__name__)


def shares_file() -> Path:
    return xdg_dir("XDG_STATE_HOME", ".local/state") / "pibrowser" / "shares.jsonl"


def record_share(entry: dict[str, Any]) -> Path:
    """Append one share's line (with the time now, UTC) through one write, as a line of its own."""
    path = shares_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    line = orjson.dumps({"time": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"), **entry}) + b"\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)
    return path


def read_shares() -> list[dict[str, Any]]:
    """Every share recorded, oldest first; a line that is not one (a crash mid-write) is logged and skipped."""
    path = shares_file()
    try:
        with open_regular(path) as handle:  # a FIFO in its place must not stop the listing
            data = handle.read()
    except FileNotFoundError:
        return []
    shares = []
    for number, line in enumerate(data.splitlines(), 1):
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            log.warning("%s:%d: not a share record, skipped", path, number)
            continue
        if isinstance(value, dict):
            shares.append(value)
    return shares
