"""The Qt side of the open session: loading in the thread pool, watching the file, signals.

What is shown and selected lives in the model's Workspace; this object feeds it
(finished loads, file changes, the user's choices) and re-sends each Change it
returns as signals. Views read the state from here when told.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QCoreApplication, QFileSystemWatcher, QObject, QThreadPool, QTimer, Signal

from ...model import Context, Provenance, Session
from ...model.compare.comparison import Comparison
from ...model.tokens.composition import Composition
from ...model.tokens.stats import ContextStats
from ...model.fold.path_fold import PathFold
from ...model.workspace import Answers, Change, Workspace, WriteFailed
from ...model.pacer import Pacer
from .gui_collector import GuiCollector
from .loader import AnswersJob, FoldJob, LoadJob, ValidateJob

log = logging.getLogger(__name__)

SETTLE_MS = 300  # quiet time after which the last read of a burst may reload the file

T = TypeVar("T")


class SessionController(QObject):
    """Opens sessions (in the thread pool), follows the file, and announces every Change of the workspace.

    Signals
      changed(change)            one Change of the workspace (model.workspace.Change): the session was
                                 replaced, entries appended, the selection or the compared pair moved,
                                 problems found, the fold along the path ended (`figures`). Views, and
                                 the trace facts thread, follow this one signal and read the state from here.
      loading(path)              a load started
      progress(done, total)      lines read so far
      loadFailed(message)        one clear line naming the file
    """

    changed = Signal(object)
    loading = Signal(str)
    progress = Signal(int, int)
    loadFailed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.workspace = Workspace()
        self.pacer = Pacer()  # what the background jobs started here and the timeline's walks pace themselves by
        app = QCoreApplication.instance()
        collector = self._collector = app.findChild(GuiCollector) if app is not None else None
        if collector is not None:
            collector.defer_while(self.pacer)  # no cycle collection in the middle of a burst of clicks
            collector.hold_while(self)  # nor while the pool makes what the session keeps
        self.path: Path | None = None  # the file last asked for; the session's own path once loaded
        self.failed_path: Path | None = None
        self._generation = 0
        self._done_generation = 0
        # Its own pool, a child: deleting the controller waits for its loads and checks, so none
        # outlives the objects it reports to.
        self._pool = QThreadPool(self)
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._file_changed)
        self._watcher.directoryChanged.connect(self._folder_changed)
        self._lost: str | None = None  # the followed file, deleted: its folder is watched until it is back
        # pi appends in bursts. Each change is read at the next turn of the event loop; the
        # changes of a burst that come while a read waits are read by it (one read, not one
        # per write). Once the file has been quiet for SETTLE_MS a last read may reload (a
        # rewrite is only trusted after the burst).
        self._follow_timer = QTimer(self, singleShot=True, interval=SETTLE_MS)
        self._follow_timer.timeout.connect(self._follow)
        self._read_queued = False
        self.follow_changes = True
        self._follow_pending = False
        # The fold of pi's rules along a new session's path (Workspace.fold) runs in the thread
        # pool as soon as the session shows; it steps aside while the user is busy (pacer).
        self._ahead_running = False
        # A long session's answers about a node are worked out in the pool, one node at a time;
        # the node asked for last meanwhile is worked out next.
        self._answering = False
        self._answers_wanted: str | None = None
        self._unanswerable: set[tuple[str, int]] = set()
        # What views make of a long path's answers in the same job (by name; see AnswersJob), and the last made.
        self.preparers: dict[str, Callable[[Answers], Any]] = {}
        self._prepared: tuple[str, int, dict[str, Any]] | None = None

    @property
    def session(self) -> Session | None:
        return self.workspace.session

    @property
    def selected(self) -> str | None:
        return self.workspace.selected

    @property
    def compared(self) -> tuple[str, str] | None:
        return self.workspace.compared

    def _publish(self, change: Change) -> None:
        """Send a Change, then start the reload it asks for."""
        if not change:
            return
        self.pacer.busy()  # background loops step aside while the window shows this
        self.changed.emit(change)
        if change.reload is not None:
            log.info("%s is read again: %s", self.workspace.session.path if self.workspace.session else self.path, change.reload)
            self.reload(strict=change.strict)

    # ---- opening ---------------------------------------------------------

    def open(self, path: str | Path) -> None:
        self.path = Path(path)
        self._start_load(self.path)

    def reload(self, strict: bool = False) -> None:
        """Read the shown session again (or retry the file last asked for)."""
        if self.session is not None:
            self.path = self.session.path
        if self.path is not None:
            self._start_load(self.path, strict)

    def wait_for_jobs(self, msecs: int = -1) -> bool:
        """Block until every load and check this controller started has finished (False on timeout)."""
        return self._pool.waitForDone(msecs)

    def is_loading(self) -> bool:
        return self._generation != self._done_generation

    def _start_load(self, path: Path, strict: bool = False) -> None:
        self._generation += 1
        log.info("loading %s%s", path, " (every line parsed)" if strict else "")
        job = LoadJob(path, self._generation, strict)
        job.signals.progress.connect(self._progress)
        job.signals.done.connect(self._loaded)
        job.signals.failed.connect(self._failed)
        self.loading.emit(str(path))
        self._pool.start(job)

    def _progress(self, done: int, total: int, generation: int) -> None:
        if generation == self._generation:
            self.progress.emit(done, total)

    def _loaded(self, loaded: tuple[Session, PathFold], generation: int) -> None:
        if generation != self._generation:
            return  # a newer load superseded this one
        self._done_generation = generation
        session, fold = loaded
        log.info("%s: %d entries, %d problems", session.path, len(session), len(session.problems))
        self.show_session(session, fold)
        if self._follow_pending:
            # pi appended while this load ran: catch up from where it stopped reading.
            self._follow_pending = False
            QTimer.singleShot(0, self._follow)

    def show_session(self, session: Session, fold: PathFold | None = None) -> None:
        """Put a session read from its file in place (what a finished load does; `fold`: its fold, made
        with it), and check it in the background."""
        self.path = session.path
        self._watch(session.path)
        self._publish(self.workspace.replace(session, fold))
        if self._collector is not None:
            self._collector.freeze_once_idle()  # the session's objects live as long as it: collections pass over them
        # The figures first (the header's usage, the timeline), then the check of every line.
        self._ahead_running = True
        job = FoldJob(lambda: self.workspace.fold(session, pace=self.pacer.step), session)
        job.signals.done.connect(self._worked_ahead)  # methods of ours: delivered on the GUI thread
        job.signals.failed.connect(self._fold_failed)
        self._pool.start(job)

    def _validated(self, found: tuple[list, list], session: Session) -> None:
        problems, invalid = found
        self._publish(self.workspace.validated(session, problems, invalid))

    def _validation_failed(self, message: str, session: Session) -> None:
        self.report(message, session)

    def report(self, message: str, session: Session | None = None) -> None:
        """A failure in work done for the open session (for `session`, if given, while it is still
        shown) becomes one of its problems: the user sees it under Warnings."""
        self._publish(self.workspace.report(session if session is not None else self.session, message))

    @property
    def making(self) -> bool:
        """The pool makes what the session keeps: it loads, folds, or works out a node's answers."""
        return self._ahead_running or self._answering or self.is_loading()

    @property
    def working_ahead(self) -> bool:
        """The fold of the session shown is running."""
        return self._ahead_running

    def _worked_ahead(self, finished: bool, session: Session) -> None:
        if session is not self.session:
            return  # a fold of a session no longer shown (stopped, or finished late)
        self._ahead_running = False
        self._publish(self.workspace.folded(session))
        job = ValidateJob(session, pace=self.pacer.step)
        job.signals.done.connect(self._validated)  # methods of ours: delivered on the GUI thread
        job.signals.failed.connect(self._validation_failed)
        self._pool.start(job)

    def _fold_failed(self, message: str, session: Session) -> None:
        self.report(message, session)
        self._worked_ahead(False, session)

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
        for watched in (self._watcher.files(), self._watcher.directories()):
            if watched:
                self._watcher.removePaths(watched)
        self._lost = None
        self._watcher.addPath(str(path))

    def _file_changed(self, path: str) -> None:
        if self.follow_changes:
            if not self._read_queued:
                self._read_queued = True
                QTimer.singleShot(0, self._follow_appends)
            self._follow_timer.start()
        if not Path(path).exists():
            # Deleted (the watch may stay on the old file while a descriptor keeps it): a file of
            # its name may come back, and only its folder can tell.
            self._lost = path
            self._watcher.addPath(str(Path(path).parent))
        elif path not in self._watcher.files():
            self._watcher.addPath(path)  # editors and atomic writes replace the file

    def _folder_changed(self, folder: str) -> None:
        """The folder of the deleted file changed: follow the file again if it is back."""
        lost = self._lost
        if lost is None or not Path(lost).exists():
            return
        self._lost = None
        self._watcher.removePath(folder)
        if lost in self._watcher.files():
            self._watcher.removePath(lost)  # still on the deleted file
        self._watcher.addPath(lost)
        self._file_changed(lost)  # read it as any change: another file there means a reload

    def _follow_appends(self) -> None:
        """Link what pi appended, if that is all that changed; a reload waits for the burst to settle."""
        self._read_queued = False
        if self.is_loading():
            self._follow_pending = True
            return
        change = self.workspace.follow()
        if not change.reload:
            self._publish(change)

    def _follow(self) -> None:
        """Link what pi appended; the workspace asks for a reload when that is not enough."""
        if self.is_loading():
            # Restarting the load on every append could starve it; catch up after it lands.
            self._follow_pending = True
            return
        self._publish(self.workspace.follow())

    # ---- selection and answers ---------------------------------------------

    def select(self, key: str | None) -> None:
        self._publish(self.workspace.select(key))

    def answers_now(self, key: str | None) -> bool:
        """Whether `context`, `provenance`, `stats` and `composition` of `key` may be asked now. When
        they may not (a node of a long session, not worked out yet), they are being worked out in
        the thread pool, and `changed` brings Change(answered=True) when they are in."""
        if self.workspace.answers_now(key) or (key, self.workspace.version) in self._unanswerable:
            return True  # (a node whose work failed is asked at once: it fails where it is asked)
        assert key is not None, "a node's answers are worked out; nothing's are at once"
        self._answers_wanted = key
        if not self._answering:
            self._work_out(key)
        return False

    def answers_failed(self, key: str | None) -> bool:
        """Whether working out `key`'s answers in the pool failed (said under Warnings): a view
        waiting for them says so instead of waiting on."""
        return (key, self.workspace.version) in self._unanswerable

    def _work_out(self, key: str) -> None:
        self._answering = True
        version = self.workspace.version
        # Asked again once the fold is in (its stats have usage): what the views made of the rest stays.
        preparers = {} if self._prepared is not None and self._prepared[:2] == (key, version) else self.preparers
        job = AnswersJob(lambda: self.workspace.work_out(key, version), preparers, key, version)
        job.signals.done.connect(self._answered)  # methods of ours: delivered on the GUI thread
        job.signals.failed.connect(self._not_answered)
        self._pool.start(job)

    def prepared(self, key: str, name: str) -> Any:
        """What the preparer `name` made of `key`'s answers in the pool; None when it did not."""
        found = self._prepared
        return found[2].get(name) if found is not None and found[:2] == (key, self.workspace.version) else None

    def _answered(self, answers: Answers | None, tag: tuple[str, int]) -> None:
        self._answering = False
        key, version = tag
        wanted, self._answers_wanted = self._answers_wanted, None
        known = self._prepared
        kept = known[2] if known is not None and known[:2] == (key, version) else {}
        self._prepared = (key, version, {**kept, **answers.prepared}) if answers is not None else None
        change = self.workspace.take(key, version, answers)
        if wanted is not None and wanted != key and not self.workspace.answers_now(wanted):
            self._answers_wanted = wanted
            self._work_out(wanted)  # asked for while this one was worked out
        self._publish(change)

    def _not_answered(self, message: str, tag: tuple[str, int]) -> None:
        self._answering = False
        self._answers_wanted = None
        self._unanswerable.add(tag)
        self.report(message)

    def context(self, key: str) -> Context:
        return self.workspace.context(key)

    def provenance(self, key: str) -> Mapping[str, Provenance]:
        return self.workspace.provenance(key)

    def stats(self, key: str) -> ContextStats:
        return self.workspace.stats(key)

    def composition(self, key: str) -> Composition:
        return self.workspace.composition(key)

    def set_compare(self, left: str | None, right: str | None) -> None:
        self._publish(self.workspace.set_compare(left, right))

    def comparison(self) -> Comparison | None:
        return self.workspace.comparison()

    def append(self, write: Callable[[Session], T]) -> T:
        """Let `write` append whole lines to the session's file (see Workspace.append) and announce
        what was linked, pi's lines read first included. Raises what `write` raised, once what was
        read before it is announced (a file that is no longer the one shown is read again)."""
        error: Exception | None
        try:
            result, change = self.workspace.append(write)
        except WriteFailed as failed:
            change, error = failed.change, failed.error
        else:
            error = None
        self._publish(change)
        if error is not None:
            try:
                raise error
            finally:
                del error  # this frame must not hold its own exception: that cycle would keep the controller alive
        return result
