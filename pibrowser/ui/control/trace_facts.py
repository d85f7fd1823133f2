"""The open session's trace facts (model/trace/table.py), read in one background thread.

Reading the facts of a 100,000-entry session means reading its 150 MB of lines:
done once per load, in the background, a chunk at a time, while the user
reads the tree (each chunk steps aside while the user is busy). The trace and
the files view ask for the facts of a path through `run`: their work runs in
the same one thread, between chunks, so the table is only ever written by one
thread and holds what their work read when it ends.

The reading starts when the fold of pi's rules along the session's path is done
(the strip and the header wait for the fold; one interpreter lock between them,
reading beside it slows it by a fifth and ends no sooner), at once: the first
chunk steps aside while the window shows the fold's figures.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice
from typing import Any

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal

from ...model.trace.agent_loop import build_trace
from ...model.trace.spans import Trace
from ...model.trace.table import FactsTable
from .job import Job


CHUNK = 4096  # entries read per background step


class Cancelled(Exception):
    """The work's answer is no longer wanted (another session, another path)."""


class _Job(Job):
    """work(table) in the facts thread; tagged (job number, generation). A Cancelled work answers None."""

    failure_text = "trace facts work failed"

    def __init__(self, table: FactsTable, number: int, generation: int, work: Callable[[FactsTable], Any]) -> None:
        super().__init__((number, generation))
        self.table, self.fn = table, work

    def work(self) -> Any:
        try:
            return self.fn(self.table)
        except Cancelled:
            return None


class TraceFacts(QObject):
    """`table` of the open session; `run(work, done)` runs work(table) in the facts thread.

    Once every entry is read, the trace of the session's leaf is built too (`prebuilt`): the
    Trace tab then opens on it at once, as it opens on any path built before.

    Signals
      warmed()   every entry of the session has been read (and the leaf's trace built)
    """

    warmed = Signal()

    def __init__(self, controller, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.table = FactsTable()
        self.generation = 0
        self.complete = False
        self.prebuilt: Trace | None = None  # the trace of the session's leaf, once built ahead
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)  # one writer: the table is never filled by two threads
        self._warm_from = 0
        self._jobs = 0
        self._waiting: dict[int, Callable[[Any, str | None], None]] = {}  # job number → its `done`
        self._warm_timer = QTimer(self, singleShot=True, interval=0)  # the next chunk, at the next turn of the event loop
        self._warm_timer.timeout.connect(self._warm_step)
        controller.changed.connect(self._on_change)

    def _on_change(self, change) -> None:
        if change.replaced:
            self.generation += 1
            self.table = FactsTable()
            self.complete = False
            self.prebuilt = None
            self._warm_from = 0
            self._warm_timer.stop()  # started once the new session's fold is done (_after_fold)
        elif change.appended:
            self.complete = False
            if not self._warm_timer.isActive() and self._warm_from >= 0:
                self._warm_timer.start()
        if change.figures:  # the fold of pi's rules along the path comes first
            self._after_fold()

    def _after_fold(self) -> None:
        if self._warm_from == 0 and not self.complete:
            self._warm_timer.start()

    def offer(self, trace: Trace) -> None:
        """A trace built on demand from this table: kept as `prebuilt` when it is of the session's
        leaf (the reading ahead then does not build it again)."""
        session = self.controller.session
        if session is not None and trace.table is self.table and trace.leaf == session.leaf_id:
            self.prebuilt = trace

    def wait(self, msecs: int = -1) -> bool:
        """Block until the facts thread is idle (for tests and closing)."""
        return self._pool.waitForDone(msecs)

    def stop(self) -> None:
        """Give up the work in hand and wait for the thread to end it (the application is closing:
        a job still reading when the objects it reports to are deleted would crash the exit)."""
        self.generation += 1  # what runs now is stale: it stops at its next check
        self._warm_timer.stop()
        self._warm_from = -1
        self._pool.waitForDone()

    def stale(self, generation: int) -> Callable[[], bool]:
        """A check for long work: whether a session replaced the one it was started for."""
        return lambda: generation != self.generation

    def pace(self) -> None:
        self.controller.pacer.step()

    def run(self, work: Callable[[FactsTable], Any], done: Callable[[Any, str | None], None]) -> None:
        """work(table) in the facts thread (it may raise Cancelled); done(result, error) on the GUI
        thread, unless another session took the place of this one meanwhile."""
        self._jobs += 1
        self._waiting[self._jobs] = done
        job = _Job(self.table, self._jobs, self.generation, work)
        job.signals.done.connect(self._job_done)  # methods of ours: delivered on the GUI thread
        job.signals.failed.connect(self._job_failed)
        self._pool.start(job)

    def _job_done(self, result: Any, tag: tuple[int, int]) -> None:
        self._finished(*tag, result, None)

    def _job_failed(self, message: str, tag: tuple[int, int]) -> None:
        self._finished(*tag, None, message)

    def _finished(self, number: int, generation: int, result: Any, error: str | None) -> None:
        done = self._waiting.pop(number, None)
        if done is not None and generation == self.generation:
            done(result, error)

    # ---- reading ahead -----------------------------------------------------------------

    def _warm_step(self) -> None:
        session = self.controller.session
        if session is None:
            return
        start = self._warm_from
        generation = self.generation
        stale = self.stale(generation)

        def work(table: FactsTable) -> int:
            entries = list(islice(session.entries.values(), start, start + CHUNK))
            table.ensure(entries, stop=stale, pace=self.pace)
            return start + len(entries)

        self.run(work, lambda reached, error: self._warmed_to(reached, len(session.entries), error))

    def _warmed_to(self, reached: int | None, total: int, error: str | None) -> None:
        if reached is None or error is not None:
            self._warm_from = -1  # a failure is logged; the views read what they need on demand
            return
        self._warm_from = reached
        if reached < total:
            self._warm_timer.start(0)
            return
        self.complete = True
        session = self.controller.session
        leaf = session.leaf_id if session is not None else None
        if leaf is None or (self.prebuilt is not None and self.prebuilt.leaf == leaf):
            self.warmed.emit()
            return
        path = session.path_entries(leaf)
        spine = self.prebuilt  # after an append: the runs before it are taken over
        self.run(lambda table: build_trace(path, table, spine=spine), self._prebuilt)

    def _prebuilt(self, trace: Trace | None, error: str | None) -> None:
        self.prebuilt = trace
        self.warmed.emit()
