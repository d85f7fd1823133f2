"""Every session in a folder, for the whole window: the folder, its session list, the watcher and the usage.

The Sessions dock, Search All Sessions and the Usage view read what they show from here
when `changed` tells them; none keeps the folder or the list itself. Reading happens in the
thread pool (cached files cost a stat): the list (model/library/session_list) and the
usage (model/usage/) each in a job of their own, a newer request superseding an older one.
pi starts new sessions while the window is open, so a change in a watched folder reads
both again a second later.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QThreadPool, QTimer, Signal

from ...model.library.discovery import session_files, sessions_dir
from ...model.library.session_list import SessionSummary
from .sessions_jobs import ListJob, UsageJob, UsageRead

RESCAN_DELAY_MS = 1000


@dataclass(frozen=True, slots=True)
class SessionsChange:
    """What changed: the folder, its list, its usage; `failed` says why a list could not be read."""

    folder: bool = False
    listed: bool = False
    usage: bool = False
    failed: str | None = None


class SessionsController(QObject):
    """The folder of sessions the window shows, its list and its usage.

    Signals
      changed(SessionsChange)      read what changed from the controller
      progress(str, int, int)      "list" or "usage", done, total
    """

    changed = Signal(object)
    progress = Signal(str, int, int)

    def __init__(self, parent: QObject | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self.root: Path = sessions_dir()
        self.summaries: dict[str, SessionSummary] = {}  # newest first, as pi lists them
        self.usage: UsageRead | None = None  # None until the folder's usage is read
        self.listing = False
        self.reading_usage = False
        self._usage_wanted = False  # read usage only once something shows it
        self._generation = 0
        self._pool = pool or QThreadPool.globalInstance()
        self._watcher = QFileSystemWatcher(self)
        self._rescan = QTimer(self, singleShot=True, interval=RESCAN_DELAY_MS)
        self._watcher.directoryChanged.connect(lambda _path: self._rescan.start())
        self._rescan.timeout.connect(lambda: self.populate())

    def populate(self, root: Path | None = None) -> int:
        """Read the list of `root` (a folder; the current one by default) in the background, and its usage
        if it is wanted; returns how many session files it holds (counting them is quick)."""
        folder = root is not None and Path(root) != self.root
        if root is not None:
            self.root = Path(root)
        if folder:
            self.summaries, self.usage = {}, None
            self.changed.emit(SessionsChange(folder=True))
        count = len(session_files(self.root))
        self._generation += 1
        self.listing = True
        job = ListJob(self.root, self._generation)
        # Methods, not lambdas: Qt stops delivering to a receiver that is gone (a lambda would
        # emit on a deleted controller: a RuntimeError in the event loop).
        job.signals.progress.connect(self._list_progress)
        job.signals.done.connect(self._listed)
        job.signals.failed.connect(self._list_failed)
        self._pool.start(job)
        if self._usage_wanted:
            self._read_usage()
        return count

    def want_usage(self) -> None:
        """Something shows the usage: read it (again: only what changed costs more than a stat)."""
        self._usage_wanted = True
        if not self.reading_usage:
            self._read_usage()

    def _read_usage(self) -> None:
        self.reading_usage = True
        job = UsageJob(self.root, self._generation)
        job.signals.progress.connect(self._usage_progress)
        job.signals.done.connect(self._usage_read)
        job.signals.failed.connect(self._usage_failed)
        self._pool.start(job)

    def _list_progress(self, done: int, total: int, _tag: object) -> None:
        self.progress.emit("list", done, total)

    def _usage_progress(self, done: int, total: int, _tag: object) -> None:
        self.progress.emit("usage", done, total)

    def _listed(self, summaries: list[SessionSummary], generation: int) -> None:
        if generation != self._generation:
            return  # a newer scan (another folder) superseded this one
        self.listing = False
        self.summaries = {summary.file: summary for summary in summaries}
        self._watch(summaries)
        self.changed.emit(SessionsChange(listed=True))

    def _list_failed(self, message: str, generation: int) -> None:
        if generation == self._generation:
            self.listing = False
            self.summaries = {}
            self.changed.emit(SessionsChange(listed=True, failed=message))

    def _usage_read(self, read: UsageRead, generation: int) -> None:
        self.reading_usage = False
        if generation != self._generation:
            self._read_usage()  # the folder changed while it was read: read the new one
            return
        self.usage = read
        self.changed.emit(SessionsChange(usage=True))

    def _usage_failed(self, message: str, generation: int) -> None:
        self.reading_usage = False
        if generation == self._generation:
            self.usage = UsageRead.failed(message)
            self.changed.emit(SessionsChange(usage=True))

    def _watch(self, summaries: list[SessionSummary]) -> None:
        folders = {str(self.root)} | {str(Path(summary.file).parent) for summary in summaries}
        stale = set(self._watcher.directories()) - folders
        if stale:
            self._watcher.removePaths(list(stale))
        missing = [folder for folder in folders - set(self._watcher.directories()) if Path(folder).is_dir()]
        if missing:
            self._watcher.addPaths(missing)
