"""Finding the user's pi sessions on disk."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import orjson


def agent_dir() -> Path:
    configured = os.environ.get("PI_CODING_AGENT_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".pi" / "agent"


def sessions_dir() -> Path:
    return agent_dir() / "sessions"


@dataclass(frozen=True, slots=True)
class SessionFileInfo:
    path: Path
    cwd: str
    modified: float
    size: int


def find_sessions(root: Path | None = None) -> list[SessionFileInfo]:
    """Every `*.jsonl` below the sessions folder (or `root`), newest first."""
    root = sessions_dir() if root is None else root
    if root.is_file():
        return [_info(root)]
    if not root.is_dir():
        return []
    found = [_info(path) for path in root.rglob("*.jsonl") if path.is_file()]
    return sorted(found, key=lambda info: info.modified, reverse=True)


def _info(path: Path) -> SessionFileInfo:
    stat = path.stat()
    return SessionFileInfo(path, _header_cwd(path) or _cwd_from_folder(path.parent.name), stat.st_mtime, stat.st_size)


def _header_cwd(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            first = handle.readline(1 << 20)
        header = orjson.loads(first)
    except (OSError, orjson.JSONDecodeError):
        return None
    cwd = header.get("cwd") if isinstance(header, dict) else None
    return cwd if isinstance(cwd, str) else None


def _cwd_from_folder(name: str) -> str:
    # pi names the folder `--<cwd with / replaced by ->--`; the mapping is lossy.
    if name.startswith("--") and name.endswith("--") and len(name) > 4:
        return "/" + name[2:-2].replace("-", "/")
    return name
