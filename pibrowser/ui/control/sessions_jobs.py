"""Reading a folder's session list and its usage in the thread pool, for the SessionsController."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ...model.library.search_index import IndexUnavailable
from ...model.library.session_list import scan_sessions
from ...model.usage.cache import UsageCache
from ...model.usage.folder_cells import folder_cells
from ...model.usage.ledger import Cells, Ledger
from ...model.usage.periods import Calendar, zone_named
from .job import Job


class ListJob(Job):
    """Summaries of every session under a folder (cached ones cost a stat)."""

    expected = (IndexUnavailable, sqlite3.Error, OSError)
    failure_text = "an error of pibrowser's"  # shown after the dock's own words: "Cannot list…"

    def __init__(self, root: Path, generation: int) -> None:
        super().__init__(generation)
        self.root = root

    def work(self) -> object:
        return scan_sessions(self.root, progress=self.report_progress)


@dataclass(slots=True)
class UsageRead:
    """A folder's usage as the window shows it: the ledger, and its cells by day in the local time zone."""

    ledger: Ledger = field(default_factory=lambda: Ledger([]))
    calendar: Calendar = field(default_factory=Calendar)
    cells: Cells = field(default_factory=Cells)
    problem: str | None = None  # why it could not be read

    @classmethod
    def failed(cls, message: str) -> UsageRead:
        return cls(problem=message)


class UsageJob(Job):
    """Every session's usage under a folder (cached, a grown file read on), and the day cells the view groups."""

    expected = (OSError,)
    failure_text = "an error of pibrowser's"

    def __init__(self, root: Path, generation: int) -> None:
        super().__init__(generation)
        self.root = root

    def work(self) -> object:
        calendar = Calendar(zone_named("local"))  # the days the user lives in
        ledger, cells = folder_cells(self.root, UsageCache.default(), calendar, progress=self.report_progress)
        return UsageRead(ledger, calendar, cells)
