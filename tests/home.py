"""A throwaway HOME and XDG folders for a whole process: the test suite's and the window benchmarks'.

Settings (QSettings: recent files, window state, theme), the session list cache, the search
index, the demo's copy, logs and pi's own folder all resolve under it, and commands run as
subprocesses inherit it. Call it before Qt starts: Qt reads these folders once.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path


def isolate_home(prefix: str) -> Path:
    """Point HOME and the XDG folders at a new temporary folder, removed when the process ends."""
    root = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    folders = {
        "HOME": root,
        "XDG_CONFIG_HOME": root / ".config",
        "XDG_CACHE_HOME": root / ".cache",
        "XDG_DATA_HOME": root / ".local" / "share",
        "XDG_STATE_HOME": root / ".local" / "state",
        "XDG_RUNTIME_DIR": root / "runtime",
        "PI_CODING_AGENT_DIR": root / ".pi" / "agent",
    }
    for name, folder in folders.items():
        folder.mkdir(parents=True, exist_ok=True)
        os.environ[name] = str(folder)
    folders["XDG_RUNTIME_DIR"].chmod(0o700)  # Qt refuses a runtime folder others can read
    return root
