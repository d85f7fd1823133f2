"""The one Qt object that owns the open session and the selection; views listen and ask."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QThreadPool, QTimer, Signal

from ..model import Context, Provenance, Session, SessionLoadError, path_provenance, resolve
from ..model.compare import Comparison, compare
from ..model.label_writer import PATIENCE, WAITING_FOR_PI, FileChanged, LabelWrite
from ..model.follow import NeedsReload, read_appended
from ..model.stats import ContextStats, UsageMemo, context_stats
from .loader import LoadJob, ValidateJob

# Appends up to this size are read in place on the GUI thread (pi appends a few KB at a time).
APPEND_IN_PLACE_LIMIT = 4 * 1024 * 1024


class SessionController(QObject):
    """Opens sessions (in the thread pool), tracks selection, resolves and caches contexts.

    Signals
      loading(path)              a load started
      progress(done, total)      lines read so far
      sessionChanged(session)    a new or reloaded session is in place (None when closed)
      loadFailed(message)        one clear line naming the file
      selectionChanged(id)       the selected entry (None for no selection)
      compareChanged(a, b)       the two leaves being compared (None, None to stop)
      problemsChanged(session)   background validation found more problems
      entriesAppended(session, ids)  pi appended entries, already linked into the session
      labelWaiting(reason)       a label waits for pi to finish the line it is writing
      labelWritten(id)           the label entry is in the file
      labelFailed(message)       a label that waited could not be written
    """

    loading = Signal(str)
    progress = Signal(int, int)
    sessionChanged = Signal(object)
    loadFailed = Signal(str)
    selectionChanged = Signal(object)
    compareChanged = Signal(object, object)
    problemsChanged = Signal(object)
    entriesAppended = Signal(object, list)
    labelWaiting = Signal(str)
    labelWritten = Signal(str)
    labelFailed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session: Session | None = None
        self.path: Path | None = None  # the file last asked for; the session's own path once loaded
        self.failed_path: Path | None = None
        self.selected: str | None = None
        self.compared: tuple[str, str] | None = None
        self._generation = 0
        self._done_generation = 0
        self._pool = QThreadPool.globalInstance()
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._file_changed)
        # pi appends in bursts; reload once the file has been quiet for a moment.
        self._reload_timer = QTimer(self, singleShot=True, interval=300)
        self._reload_timer.timeout.connect(self._follow)
        self.follow_changes = True
        self._follow_pending = False
        self._context_cache: dict[str, Context] = {}
        self._provenance_cache: dict[str, dict[str, Provenance]] = {}
        self._stats_cache: dict[str, ContextStats] = {}
        self._usage_memo = UsageMemo()
        self.label_patience = PATIENCE

    # ---- opening ---------------------------------------------------------

    def open(self, path: str | Path) -> None:
        self.path = Path(path)
        self._start_load()

    def reload(self) -> None:
        """Read the shown session again (or retry the file last asked for)."""
        if self.session is not None:
            self.path = self.session.path
        if self.path is not None:
            self._start_load()

    def is_loading(self) -> bool:
        return self._generation != self._done_generation

    def _start_load(self, strict: bool = False) -> None:
        self._generation += 1
        job = LoadJob(self.path, self._generation, strict)
        job.signals.progress.connect(self._progress)
        job.signals.loaded.connect(self._loaded)
        job.signals.failed.connect(self._failed)
        self.loading.emit(str(self.path))
        self._pool.start(job)

    def _progress(self, done: int, total: int, generation: int) -> None:
        if generation == self._generation:
            self.progress.emit(done, total)

    def _loaded(self, session: Session, generation: int) -> None:
        if generation != self._generation:
            return  # a newer load superseded this one
        self._done_generation = generation
        self.path = session.path
        same_file = self.session is not None and self.session.path == session.path
        self.session = session
        self._context_cache.clear()
        self._provenance_cache.clear()
        self._stats_cache.clear()
        self._usage_memo = UsageMemo()  # sums belong to the session they were read from
        self._watch(session.path)
        keep = self.selected if same_file and self.selected in session.entries else None
        dropped_compare = bool(self.compared) and not (same_file and all(key in session.entries for key in self.compared))
        if dropped_compare:
            self.compared = None
        self.selected = keep
        self.sessionChanged.emit(session)
        if dropped_compare:
            self.compareChanged.emit(None, None)
        self.select(keep if keep is not None else session.leaf_id, force=True)
        self._validate(session)
        if self._follow_pending:
            # pi appended while this load ran: catch up from where it stopped reading.
            self._follow_pending = False
            QTimer.singleShot(0, self._follow)

    def _validate(self, session: Session) -> None:
        job = ValidateJob(session)
        job.signals.done.connect(self._validated)
        self._pool.start(job)

    def _validated(self, session: Session, problems: list, invalid: list) -> None:
        if session is not self.session:
            return
        if invalid:
            # A line that looked whole does not parse: pi skips it, so must we.
            self._start_load(strict=True)
        elif problems:
            session.add_problems(problems)
            self.problemsChanged.emit(session)

    def _failed(self, message: str, generation: int) -> None:
        if generation != self._generation:
            return
        self._done_generation = generation
        self.failed_path = self.path
        self.loadFailed.emit(message)

    def failure_is_background(self) -> bool:
        """The last failure was a reload of the session still shown (e.g. the file vanished)."""
        return self.session is not None and self.failed_path == self.session.path

    def _watch(self, path: Path) -> None:
        watched = self._watcher.files()
        if watched:
            self._watcher.removePaths(watched)
        self._watcher.addPath(str(path))

    def _file_changed(self, path: str) -> None:
        if self.follow_changes:
            self._reload_timer.start()
        if path not in self._watcher.files() and Path(path).exists():
            self._watcher.addPath(path)  # editors and atomic writes replace the file

    def _follow(self) -> None:
        """Link what pi appended; reload in the background when that is not enough."""
        session = self.session
        if self.is_loading():
            # Restarting the load on every append could starve it; catch up after it lands.
            self._follow_pending = True
            return
        if session is None:
            self.reload()
            return
        try:
            if session.path.stat().st_size - session.consumed > APPEND_IN_PLACE_LIMIT:
                raise NeedsReload("a large append")
            added = read_appended(session)
        except (NeedsReload, OSError):
            self.reload()
            return
        self._announce(session, added)

    def _announce(self, session: Session, added: list) -> None:
        """Tell the views about entries just linked at the end of the shown session."""
        if not added or session is not self.session:
            return
        before = len(session.file_order) - len(added) - 1
        old_leaf = session.file_order[before].id if before >= 0 else None
        self._context_cache.clear()
        self._provenance_cache.clear()
        self._stats_cache.clear()
        self.entriesAppended.emit(session, [entry.id for entry in added])
        if self.selected == old_leaf:
            self.select(session.leaf_id)  # keep watching the conversation's head

    # ---- selection and answers ---------------------------------------------

    def select(self, key: str | None, force: bool = False) -> None:
        if self.session is None or (key is not None and key not in self.session.entries):
            return
        if key == self.selected and not force:
            return
        self.selected = key
        self.selectionChanged.emit(key)

    def context(self, key: str) -> Context:
        cached = self._context_cache.get(key)
        if cached is None:
            cached = resolve(self.session, key)
            if len(self._context_cache) > 64:
                self._context_cache.clear()
            self._context_cache[key] = cached
        return cached

    def provenance(self, key: str) -> dict[str, Provenance]:
        cached = self._provenance_cache.get(key)
        if cached is None:
            cached = path_provenance(self.context(key))
            if len(self._provenance_cache) > 64:
                self._provenance_cache.clear()
            self._provenance_cache[key] = cached
        return cached

    def stats(self, key: str) -> ContextStats:
        cached = self._stats_cache.get(key)
        if cached is None:
            cached = context_stats(self.context(key), self._usage_memo)
            if len(self._stats_cache) > 64:
                self._stats_cache.clear()
            self._stats_cache[key] = cached
        return cached

    def set_compare(self, left: str | None, right: str | None) -> None:
        self.compared = (left, right) if left and right else None
        self.compareChanged.emit(left if self.compared else None, right if self.compared else None)

    def comparison(self) -> Comparison | None:
        if self.session is None or self.compared is None:
            return None
        return compare(self.session, *self.compared, resolve_context=self.context, provenance_of=lambda context: self.provenance(context.leaf))

    def set_label(self, key: str, label: str | None) -> str | None:
        """Append a label entry as pi does (None or "" clears); the new entry's id.

        None when pi is in the middle of writing a line: the write then waits for
        it on a timer (labelWaiting says so) and ends in labelWritten or
        labelFailed. Raises SessionLoadError when the label cannot be written now;
        a file that is no longer the one shown is read again.
        """
        session = self.session
        if session is None:
            raise SessionLoadError(self.path or "", "no session is open")
        return self._attempt_label(LabelWrite(session, key, label or None, self.label_patience))

    def _attempt_label(self, write: LabelWrite) -> str | None:
        was_waiting = write.waiting
        try:
            entry_id = write.attempt()
        except SessionLoadError as error:
            self._announce(write.session, write.caught_up)
            if isinstance(error, FileChanged):
                self.reload()  # show what the file holds now
            if not was_waiting:
                raise
            self.labelFailed.emit(str(error))
            return None
        self._announce(write.session, write.caught_up)
        write.caught_up = []
        if entry_id is None:
            if not was_waiting:
                self.labelWaiting.emit(WAITING_FOR_PI)
            QTimer.singleShot(round(write.patience.step * 1000), lambda: self._attempt_label(write))
            return None
        self._follow()  # links the label line like any other append
        self.labelWritten.emit(entry_id)
        return entry_id
