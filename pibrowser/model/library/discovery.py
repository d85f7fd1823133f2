"""Finding the user's pi sessions on disk: the folders, the files, the one to open first. (What each file
holds is read by the session list, session_list.py, through the one reader every view uses.)"""

from __future__ import annotations

import os
from pathlib import Path
from collections.abc import Callable

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


def session_files(root: Path) -> list[Path]:
    """Every `*.jsonl` file below `root` at any depth (or `root` itself when it is a file).

    Walked with scandir, whose entries know their kind without a stat each (thousands of
    sessions are listed at every start): folders linked to are not entered, files linked to are
    listed, as pathlib's rglob would."""
    if root.is_file():
        return [root]
    return [Path(entry.path) for entry in _session_entries(root)]


def session_stats(root: Path) -> list[tuple[str, os.stat_result | None]]:
    """session_files' files as strings, each with its stat (None when it cannot be had: gone since it
    was listed, or not to be read; reading it says which): what a cache that trusts a file by its size
    and modification time asks for, at the cost of one stat each and no Path made."""
    if root.is_file():
        return [(str(root), _stat(root))]
    return [(entry.path, _stat(entry)) for entry in _session_entries(root)]


def _stat(where: Path | os.DirEntry[str]) -> os.stat_result | None:
    try:
        return where.stat()
    except OSError:
        return None


def _session_entries(root: Path) -> list[os.DirEntry[str]]:
    if not root.is_dir():
        return []
    found: list[os.DirEntry[str]] = []
    folders = [str(root)]
    while folders:
        folder = folders.pop(0)
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:
            continue  # vanished or unreadable while we looked: not listed
        for entry in listed:
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
                elif entry.name.endswith(".jsonl") and entry.is_file():
                    found.append(entry)
            except OSError:
                continue
    return found


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


def cwd_from_folder(name: str) -> str:
    # pi names the folder `--<cwd with / replaced by ->--`; the mapping is lossy.
    if name.startswith("--") and name.endswith("--") and len(name) > 4:
        return "/" + name[2:-2].replace("-", "/")
    return name
