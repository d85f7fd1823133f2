"""The log: every module writes to `logging.getLogger(__name__)`; a run keeps it in a rotating file.

The file is $XDG_STATE_HOME/pibrowser/pibrowser.log (default ~/.local/state), a
megabyte at most, with three older ones beside it; Help ▸ Show Log shows it. Only
pibrowser's own loggers go there, at INFO and above. Nothing is ever printed by the
log: the command line's output and its one-line errors stay as they are, and a
file that cannot be opened (a read-only home) leaves the log unwritten, never the
run failed.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path

from .model.library.xdg import xdg_dir

LOG_NAME = "pibrowser.log"
MAX_BYTES = 1_000_000
BACKUPS = 3
FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"
ROOT = "pibrowser"

log = logging.getLogger(__name__)


def log_path(environ: Mapping[str, str] = os.environ) -> Path:
    return xdg_dir("XDG_STATE_HOME", ".local/state", environ) / "pibrowser" / LOG_NAME


class _LogFile(logging.Handler):
    """The handler start_logging adds (told apart from any a host program added): the rotating
    file, made when the first record comes. A run that logs nothing (most commands) does not
    import logging.handlers and what it imports, a tenth of what `pibrowser context` takes to
    start."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.baseFilename = str(path)
        self._file: logging.Handler | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if self._file is None:
            from logging.handlers import RotatingFileHandler

            try:
                self._file = RotatingFileHandler(self.baseFilename, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
            except OSError:
                self.handleError(record)  # the folder went away since start_logging: as logging says a failed write
                return
            self._file.setFormatter(self.formatter)
        self._file.handle(record)

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
        super().close()


def current_log() -> Path:
    """The file this run logs to (where it would, when it does not)."""
    for handler in logging.getLogger(ROOT).handlers:
        if isinstance(handler, _LogFile):
            return Path(handler.baseFilename)
    return log_path()


def start_logging(path: Path | None = None, level: int = logging.INFO) -> Path | None:
    """Send pibrowser's records to the log file (once per process); the file, or None when it
    cannot be opened."""
    logger = logging.getLogger(ROOT)
    if any(isinstance(handler, _LogFile) for handler in logger.handlers):
        return current_log()
    path = path or log_path()
    logger.setLevel(level)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8"):
            pass  # it can be written: the handler opens it with the first record
    except OSError:
        # No log file: records go nowhere (never to stderr, where the command line's output is).
        logger.addHandler(logging.NullHandler())
        return None
    handler = _LogFile(path)
    handler.setFormatter(logging.Formatter(FORMAT))
    logger.addHandler(handler)
    return path


def read_log(path: Path, limit: int = 2_000_000) -> str:
    """The log's last `limit` bytes as text (bytes that are not UTF-8 shown as U+FFFD)."""
    with open(path, "rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        handle.seek(max(0, size - limit))
        data = handle.read()
    if size > limit:
        data = data[data.find(b"\n") + 1 :]  # from the first whole line
    return data.decode("utf-8", errors="replace")
