"""Work off the GUI thread: one base for every job the thread pools run, and how a job tells the GUI.

A `Job` is a QRunnable whose `work()` runs in a pool thread. What it returns
arrives on the GUI thread as `signals.done(result, tag)`; what it raises, as
`signals.failed(message, tag)`: one line for the user, and the error in the log
(a bug of ours with its traceback). `tag` is whatever the starter gave the job
to tell its answers apart (a generation, an image's key, a session). Receivers
are slots of GUI-thread objects, so every signal is queued to the GUI thread;
no failure is ever dropped on the floor.

A job's signals object lives on the GUI thread and must die there: a QObject deleted
from another thread while the answers it sent wait in the GUI thread's queue is
undefined behaviour (the test suite segfaulted in the event loop). So the starting
thread keeps every signals object (`_keep`), the pool thread lets go of its
references when the job ends, and a queued `release` lets the GUI thread drop it,
after the answers it sent.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThread, Signal, SignalInstance

from ...model.pacer import Stopped

log = logging.getLogger(__name__)


def tell(signal: SignalInstance, *args: object) -> bool:
    """Emit `signal` from a pool thread; False when its signals object is already gone.

    A job keeps its own parentless signals object and receivers are GUI-thread slots, so the result
    is queued to the GUI thread. Only while the application exits (a screenshot run, a window closed
    mid-load) can that object be deleted under a job still running: then nobody is left to tell.
    """
    try:
        signal.emit(*args)
    except RuntimeError:  # "Signal source has been deleted"
        log.debug("nobody is left to tell: %s", args[:1])
        return False
    return True


class JobSignals(QObject):
    """What a job tells the GUI thread; a job that says more subclasses this."""

    progress = Signal(int, int, object)  # done, total, tag
    done = Signal(object, object)  # what work() returned, tag
    failed = Signal(str, object)  # one line saying what failed, tag


class _Keeper(QObject):
    """Holds the signals objects of the jobs started on its thread until they have said everything."""

    release = Signal(object)  # the id() of a signals object (past a C int)

    def __init__(self) -> None:
        super().__init__()
        self.kept: dict[int, JobSignals] = {}
        self.release.connect(self._drop)

    def _drop(self, key: int) -> None:
        self.kept.pop(key, None)


_keepers: dict[QThread, _Keeper] = {}


def _keeper() -> _Keeper:
    """The keeper of the current thread (the GUI thread, where jobs are started)."""
    thread = QThread.currentThread()
    keeper = _keepers.get(thread)
    if keeper is None:
        keeper = _keepers[thread] = _Keeper()
    return keeper


class Job(QRunnable):
    """One piece of work for a thread pool. Subclasses write `work()`; `expected` lists the errors
    whose own message is the whole story (a file that cannot be read, say); any other error is a
    bug of ours, logged with its traceback and reported as `failure_text` with the error."""

    failure_text = "background work failed"  # what the user reads before the error: "… (KeyError: 'x')"
    expected: tuple[type[BaseException], ...] = ()

    def __init__(self, tag: Any = None, signals: JobSignals | None = None) -> None:
        super().__init__()
        self.tag = tag
        self.signals = signals if signals is not None else JobSignals()
        self._keeper = _keeper()
        self._keeper.kept[id(self.signals)] = self.signals
        self.setAutoDelete(True)

    def work(self) -> Any:
        raise NotImplementedError

    def run(self) -> None:
        try:
            self._answer()
        finally:
            # This thread lets go of the signals object first; the keeper drops it on its own thread,
            # after the answers queued before this release.
            key = id(self.signals)
            del self.signals
            tell(self._keeper.release, key)

    def _answer(self) -> None:
        try:
            result = self.work()
        except Stopped:  # the application is closing: nobody waits for an answer
            log.debug("%s gave up: the application is closing", type(self).__name__)
            return
        except Exception as error:  # noqa: BLE001 (reported: failure() logs it and `failed` tells the user)
            tell(self.signals.failed, self.failure(error), self.tag)
        else:
            tell(self.signals.done, result, self.tag)

    def failure(self, error: Exception) -> str:
        """The line the user reads about `error`; it goes to the log too."""
        if isinstance(error, self.expected):
            log.info("%s: %s", type(self).__name__, error)  # the user reads it: the file, not us
            return str(error)
        log.error("%s: %s", type(self).__name__, self.failure_text, exc_info=error)
        return f"{self.failure_text} ({type(error).__name__}: {error})"

    def report_progress(self, done: int, total: int) -> None:
        """For `work()` to pass as a progress callback."""
        tell(self.signals.progress, done, total, self.tag)
