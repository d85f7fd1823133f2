"""Finding the user's pi sessions on disk."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable

import orjson

from ..session.header import find_header
from ..session.lines import scan_lines
from ..session.problems import SessionLoadError
from ..session.regular_file import open_regular
from ..text.describe import content_preview
from .xdg import xdg_dir


def agent_dir() -> Path:
    configured = os.environ.get("PI_CODING_AGENT_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".pi" / "agent"


def sessions_dir() -> Path:
    return agent_dir() / "sessions"


def cache_dir() -> Path:
    """pibrowser's own cache folder (the session list, the search index); never beside the sessions."""
    return xdg_dir("XDG_CACHE_HOME", ".cache") / "pibrowser"


def initial_path(path: Path | None, demo: Callable[[], Path | None] = lambda: None) -> Path | None:
    """The file to open: the one given, the newest in a given folder or pi's, else the demo.

    `demo` is asked only when nothing else is found: making it may copy a file.
    """
    if path is not None and not path.is_dir():
        return path
    found = newest_session(path if path is not None else sessions_dir())
    if found is not None:
        return found
    return demo() if path is None else None


def start_target(path: Path | None, demo: Callable[[], Path | None] = lambda: None) -> Path | None:
    """What the window opens at start: a folder as it is (its sessions fill the Sessions dock), else initial_path."""
    if path is not None and path.is_dir():
        return path
    return initial_path(path, demo)


@dataclass(frozen=True, slots=True)
class SessionFileInfo:
    path: Path
    cwd: str
    modified: float
    size: int
    started: str = ""
    first_message: str = ""


def session_files(root: Path) -> list[Path]:
    """Every `*.jsonl` file below `root` at any depth (or `root` itself when it is a file)."""
    if root.is_file():
        return [root]
    if not root.is_dir():
        return []
    found = []
    for path in root.rglob("*.jsonl"):
        try:
            if path.is_file():
                found.append(path)
        except OSError:
            continue  # vanished or unreadable while we looked: not listed
    return found


def find_sessions(root: Path | None = None) -> list[SessionFileInfo]:
    """Every `*.jsonl` below the sessions folder (or `root`), newest first."""
    found = []
    for path in session_files(sessions_dir() if root is None else root):
        try:
            found.append(_info(path))
        except OSError:
            continue  # vanished while we looked
    return sorted(found, key=lambda info: info.modified, reverse=True)


def newest_session(root: Path | None = None) -> Path | None:
    """The most recently modified session below `root`, from file times alone (cheap at start-up)."""
    root = sessions_dir() if root is None else root
    if root.is_file():
        return root
    newest: tuple[float, Path] | None = None
    for path in root.rglob("*.jsonl") if root.is_dir() else ():
        try:
            modified = path.stat().st_mtime
        except OSError:
            continue
        if path.is_file() and (newest is None or modified > newest[0]):
            newest = (modified, path)
    return newest[1] if newest else None


def _info(path: Path) -> SessionFileInfo:
    stat = path.stat()
    header, first = _peek(path)
    cwd = cwd if isinstance(cwd := header.get("cwd"), str) else cwd_from_folder(path.parent.name)
    started = started if isinstance(started := header.get("timestamp"), str) else ""
    return SessionFileInfo(path, cwd, stat.st_mtime, stat.st_size, started, first)


_PEEK_BYTES = 256 * 1024


def _peek(path: Path) -> tuple[dict, str]:
    """The header and the first user message's text, from the start of the file only."""
    head = b""
    try:
        with open_regular(path) as handle:
            # Most sessions show their first user message within a few KB.
            for batch in scan_lines(handle, chunk=16 * 1024):
                head += batch.data
                if len(head) >= _PEEK_BYTES or b'"role":"user"' in head:
                    break
    except OSError:
        return {}, ""
    lines = head.split(b"\n")
    try:
        found = find_header(path, lines, [])
    except SessionLoadError:
        return {}, ""
    if found is None:
        return {}, ""
    header, _, index = found
    for raw in lines[index + 1 :]:
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue
        if not isinstance(value, dict):
            continue
        message = value.get("message")
        if value.get("type") == "message" and isinstance(message, dict) and message.get("role") == "user":
            # Folded before the cut, so leading blank lines do not eat the preview.
            text = content_preview(message.get("content"), limit=None, tool_calls=False)
            return header, " ".join(text.split())[:200]
    return header, ""


def cwd_from_folder(name: str) -> str:
    # pi names the folder `--<cwd with / replaced by ->--`; the mapping is lossy.
    if name.startswith("--") and name.endswith("--") and len(name) > 4:
        return "/" + name[2:-2].replace("-", "/")
    return name
