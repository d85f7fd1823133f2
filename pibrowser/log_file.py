"""The log: every module writes to `logging.getLogger(__name__)`; a run keeps it in a rotating file.

The file is $XDG_STATE_HOME/pibrowser/pibrowser.log (default ~/.local/state), a
megabyte at most, with three older ones beside it; Help ▸ Show Log shows it. Only
pibrowser's own loggers go there, at INFO and above. Nothing is ever printed by the
log: the command line's output and its one-line errors stay as they are, and a
file that cannot be opened (a read-only home) leaves the log unwritten, never the
run failed.

A record holds session text (ids, paths, error messages), which is data, not log
lines: its message is kept on one line with every control character shown (a
newline in an id cannot forge a record), the lines of a traceback are indented under
it, and a record is clipped to MAX_RECORD characters, so one 10 MB id cannot break
the megabyte a file holds. A write that fails (a full disk) is noted once in
`trouble()` and never printed: Python's "--- Logging error ---" would land in the
command line's output.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from .model.library.xdg import xdg_dir

LOG_NAME = "pibrowser.log"
MAX_BYTES = 1_000_000
BACKUPS = 3
FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"
ROOT = "pibrowser"
MAX_RECORD = 20_000  # characters of one record, its traceback included (80 kB at most in UTF-8)

log = logging.getLogger(__name__)
_trouble: list[str] = []  # why the log could not be written, the first time it could not


def trouble() -> str | None:
    """Why this run's log could not be written (the first failure), or None while it could."""
    return _trouble[0] if _trouble else None


class _SafeFormatter(logging.Formatter):
    """The house format, with session text kept from forging lines or swelling the file."""

    def format(self, record: logging.LogRecord) -> str:
        from .model.text.terminal_text import shorten, visible, visible_line

        message, saved = visible_line(_message(record)), (record.msg, record.args)
        record.msg, record.args = shorten(message, MAX_RECORD), None
        try:
            first, *rest = super().format(record).split("\n")
        finally:
            record.msg, record.args = saved
        # Only a traceback or stack follows the message: indented, nothing in it starts a record.
        return shorten("\n".join([first, *("    " + visible(line) for line in rest)]), MAX_RECORD)


def _message(record: logging.LogRecord) -> str:
    try:
        return record.getMessage()
    except Exception as error:  # noqa: BLE001 - a record whose arguments do not fit its format is still logged
        return f"{record.msg!r} {record.args!r} (cannot be formatted: {error})"


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
                self._file = RotatingFileHandler(self.baseFilename, maxBytes=_rollover_at(), backupCount=BACKUPS, encoding="utf-8")
            except OSError:
                self.handleError(record)  # the folder went away since start_logging
                return
            self._file.setFormatter(self.formatter)
            self._file.handleError = self.handleError  # type: ignore[method-assign]  # a full disk: noted here, not printed
        self._file.handle(record)

    def handleError(self, record: logging.LogRecord) -> None:
        """A record that could not be written: the first failure is kept for trouble(), nothing is printed
        (logging's own handleError prints a traceback to stderr, the command line's channel)."""
        if not _trouble:
            error = sys.exc_info()[1]
            _trouble.append(f"{self.baseFilename}: {getattr(error, 'strerror', None) or error}")

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
        super().close()


def _rollover_at() -> int:
    """The size past which the handler starts a new file. It measures a record in characters, and
    writes up to four bytes for each: room for that keeps every file within MAX_BYTES."""
    return MAX_BYTES - min(3 * MAX_RECORD + 1, MAX_BYTES // 2)


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
    handler.setFormatter(_SafeFormatter(FORMAT))
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
