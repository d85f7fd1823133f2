"""Listing, indexing and searching every session, in the thread pool; the GUI thread gets results."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, Signal

from ...model.sessions.search_index import IndexUnavailable, SearchFilters, SearchIndex
from ...model.sessions.session_list import scan_sessions
from ..control.job_signals import tell


class JobSignals(QObject):
    progress = Signal(int, int, int)  # done, total, generation
    finished = Signal(object, int)  # the result, generation
    failed = Signal(str, int)  # one clear line, generation


class _Job(QRunnable):
    def __init__(self, generation: int) -> None:
        super().__init__()
        self.generation = generation
        self.signals = JobSignals()
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = self.work()
        except (IndexUnavailable, sqlite3.Error, OSError) as error:
            tell(self.signals.failed, str(error), self.generation)
        except Exception as error:  # a bug of ours must not take the window down
            tell(self.signals.failed, f"{type(error).__name__}: {error}", self.generation)
        else:
            tell(self.signals.finished, result, self.generation)

    def work(self) -> object:
        raise NotImplementedError

    def _progress(self, done: int, total: int) -> None:
        tell(self.signals.progress, done, total, self.generation)


class ScanJob(_Job):
    """Summaries of every session under a folder (cached ones cost a stat)."""

    def __init__(self, root: Path, generation: int) -> None:
        super().__init__(generation)
        self.root = root

    def work(self) -> object:
        return scan_sessions(self.root, progress=self._progress)


class SearchJob(_Job):
    """Brings the index up to date (only what changed is read), then searches it."""

    def __init__(self, root: Path, query: str, filters: SearchFilters, generation: int, index_path: Path | None = None) -> None:
        super().__init__(generation)
        self.root, self.query, self.filters, self.index_path = root, query, filters, index_path
        # Set to stop after the chunk being indexed (its transaction completes); kept by whoever
        # started the job, since the pool deletes the job itself when it has run.
        self.cancelled = threading.Event()

    def work(self) -> object:
        # One connection per job: SQLite connections stay on the thread that uses them.
        with SearchIndex(self.index_path) as index:
            index.sync(self.root, progress=self._progress, cancelled=self.cancelled.is_set)
            if self.cancelled.is_set():
                return []
            return index.search(self.query, self.root, self.filters, limit=500) if self.query.strip() else []
