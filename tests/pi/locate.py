"""Finding Node.js 22+ and the pi 1.6.0 package on this machine, for the differential check and the benchmarks.

PIBROWSER_NODE names the node binary (default: `node` on PATH); PIBROWSER_PI_DIR the installed
@earendil-works/pi-coding-agent package folder (default: under the global npm root).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

PI_VERSION = "1.6.0"
ANSWERS = Path(__file__).parent / "pi_answers.mjs"


def node_binary() -> str | None:
    node = os.environ.get("PIBROWSER_NODE") or shutil.which("node")
    if not node:
        return None
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return None
    major = version.strip().lstrip("v").split(".")[0]
    return node if major.isdigit() and int(major) >= 22 else None


def pi_package() -> Path | None:
    configured = os.environ.get("PIBROWSER_PI_DIR")
    candidates = [Path(configured)] if configured else []
    npm = shutil.which("npm")
    if npm and not configured:
        root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=60).stdout.strip()
        if root:
            candidates.append(Path(root) / "@earendil-works" / "pi-coding-agent")
    for candidate in candidates:
        manifest = candidate / "package.json"
        if manifest.is_file() and json.loads(manifest.read_text()).get("version") == PI_VERSION:
            return candidate
    return None


def pi_command(node: str, package: Path, mode: str, session_file: Path, *more: Path) -> list[str]:
    """The command that prints pi's answers of one kind (see pi_answers.mjs) for a session file."""
    return [node, str(ANSWERS), str(package), mode, str(session_file), *map(str, more)]


def pi_each_command(node: str, package: Path, mode: str, session_files: list[Path]) -> list[str]:
    """pi_command for many files in one process (pi's modules load once): one line per file, its
    answer as a JSON string."""
    return [node, str(ANSWERS), str(package), mode, "--each", *map(str, session_files)]


FILES_ANSWERS = Path(__file__).parent / "pi_files_answers.mjs"


def pi_files_command(node: str, package: Path, mode: str, session_file: Path) -> list[str]:
    """The command that prints pi's file lists, estimates or composition (`files`, `estimates`,
    `composition`; see pi_files_answers.mjs) for every entry of a session file. It opens a copy."""
    return [node, str(FILES_ANSWERS), str(package), str(session_file), mode]


def pi_files_each_command(node: str, package: Path, mode: str, session_files: list[Path]) -> list[str]:
    """pi_files_command for many files in one process: one line per file, a JSON array of its lines."""
    return [node, str(FILES_ANSWERS), str(package), "--each", mode, *map(str, session_files)]
