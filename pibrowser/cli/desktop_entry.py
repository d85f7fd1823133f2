"""`pibrowser --install-desktop-entry`: show pibrowser in the desktop's launcher and offer it for .jsonl files.

Writes, under $XDG_DATA_HOME (default ~/.local/share), an XDG desktop entry, the
icon, and a MIME type for `*.jsonl` (many systems have none), then asks the
desktop's caches to refresh when their tools are installed.
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

from ..model.library.xdg import xdg_dir
from ..resources import ICON

log = logging.getLogger(__name__)

MIME_TYPE = "application/jsonl"
# Other names the same files go by on some systems.
MIME_ALIASES = ("application/x-ndjson", "application/jsonlines")

MIME_XML = f"""<?xml version="1.0" encoding="UTF-8"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="{MIME_TYPE}">
    <comment>JSON Lines</comment>
    <sub-class-of type="text/plain"/>
    <glob pattern="*.jsonl"/>
  </mime-type>
</mime-info>
"""


def data_home(environ=os.environ) -> Path:
    return xdg_dir("XDG_DATA_HOME", ".local/share", environ)


def exec_line(python: str = sys.executable) -> str:
    """The Exec= value: this Python running pibrowser, so it works whether or not a venv is on PATH.

    The desktop reads it back in three steps, each undone here in turn: a string value's
    escapes (a backslash is written twice), the quoting of arguments, and field codes
    (a literal % is written %%)."""
    program = _quote(python).replace("%", "%%").replace("\\", "\\\\")
    return f"{program} -m pibrowser %f"


def _quote(argument: str) -> str:
    # Desktop entry quoting: double quotes around arguments with reserved characters; \ " ` $ escaped.
    if not any(c in argument for c in " \t\n\"'\\><~|&;$*?#()`"):
        return argument
    escaped = "".join("\\" + c if c in '"`$\\' else c for c in argument)
    return f'"{escaped}"'


def desktop_entry(python: str = sys.executable) -> str:
    mime = ";".join((MIME_TYPE, *MIME_ALIASES)) + ";"
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        "Name=pibrowser\n"
        "GenericName=pi Session Browser\n"
        "Comment=The branch tree of a pi session and the context pi resolves for any node\n"
        f"Exec={exec_line(python)}\n"
        "Icon=pibrowser\n"
        "Terminal=false\n"
        "Categories=Development;Utility;\n"
        f"MimeType={mime}\n"
        "Keywords=pi;session;jsonl;agent;\n"
    )


def install(environ=os.environ, refresh: bool = True) -> list[Path]:
    """Write the entry, the icon and the MIME type; returns the files written."""
    home = data_home(environ)
    written = []
    entry = home / "applications" / "pibrowser.desktop"
    icon = home / "icons" / "hicolor" / "scalable" / "apps" / "pibrowser.svg"
    mime = home / "mime" / "packages" / "pibrowser-jsonl.xml"
    for path in (entry, icon, mime):
        path.parent.mkdir(parents=True, exist_ok=True)
    _write_whole(entry, desktop_entry().encode("utf-8"))
    written.append(entry)
    if ICON.exists():
        _write_whole(icon, ICON.read_bytes())
        written.append(icon)
    _write_whole(mime, MIME_XML.encode("utf-8"))
    written.append(mime)
    if refresh:
        _run_if_present("update-mime-database", str(home / "mime"))
        _run_if_present("update-desktop-database", str(home / "applications"))
    return written


def _write_whole(path: Path, data: bytes) -> None:
    """Write `path` whole or not at all: into a new file beside it, renamed over it once complete,
    so a full disk leaves the earlier file (or none), never a part of one."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    # Created as open() creates files (0666 less the umask): the desktop's tools must read them.
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _run_if_present(tool: str, argument: str) -> None:
    """Refresh a desktop cache; without the tool the desktop reads the files on its next scan."""
    if shutil.which(tool) is None:
        return
    try:
        subprocess.run([tool, argument], check=False, capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as error:
        log.info("%s did not run (%s); the desktop reads the files at its next scan", tool, error)
