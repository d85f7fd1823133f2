"""Indexing and searching every session, in the thread pool; the GUI thread gets results (the list is
read by the SessionsController's jobs, ui/control/sessions_jobs)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from ...model.library.search_index import IndexUnavailable, SearchFilters, SearchIndex
from ..control.job import Job


class _Job(Job):
    """Tagged with the panel's generation: a newer request supersedes it."""

    expected = (IndexUnavailable, sqlite3.Error, OSError)
    failure_text = "an error of pibrowser's"  # shown after the panel's own words: "cannot be used:"


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
            index.sync(self.root, progress=self.report_progress, cancelled=self.cancelled.is_set)
            if self.cancelled.is_set():
                return []
            return index.search(self.query, self.root, self.filters, limit=500) if self.query.strip() else []
