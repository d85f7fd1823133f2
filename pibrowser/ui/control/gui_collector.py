"""Python's cycle collector, run on the GUI thread only.

Left automatic, the collector runs in whichever thread happens to allocate: a loader in the
thread pool can then free a cycle that holds a window, a controller or a signals object, and Qt
deletes a GUI-thread object from a worker thread (heap corruption, crashes at random). So the
automatic collector is off while the application runs, and a timer collects on the GUI thread.

A session holds hundreds of thousands of objects that live as long as it does; every oldest-
generation collection looked at all of them (some 50 ms on a 100,000-entry session) and could
land on a click. So once a session is loaded and the user pauses, everything alive is collected
once and frozen (gc.freeze): later collections look only at what is newer. The next load thaws
it first, so what the last session left in cycles is collected then.
"""

from __future__ import annotations

import gc
import weakref

from PySide6.QtCore import QObject, QTimer

from ...model.pacer import Pacer

INTERVAL_MS = 1000


class GuiCollector(QObject):
    """Collects at each tick, except while a window's user is busy (`defer_while`): a
    collection of what a burst of selections allocated takes tens of milliseconds, which would
    land on one of them. It waits MAX_DEFERRED ticks at most, so memory stays bounded."""

    MAX_DEFERRED = 5

    def __init__(self, parent: QObject, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        gc.disable()
        self._pacers: weakref.WeakSet[Pacer] = weakref.WeakSet()
        self._deferred = 0
        self._freeze_due = False
        # Whether that freeze thaws what was frozen before (the last session's objects). A process
        # that freezes its own long-lived objects (the test suite, after each test) turns it off.
        self.thaw_before_freeze = True
        self._timer = QTimer(self, interval=interval_ms)
        self._timer.timeout.connect(self.collect)
        self._timer.start()

    def defer_while(self, pacer: Pacer) -> None:
        """Skip collections while `pacer` says its user is busy (for as long as it lives)."""
        self._pacers.add(pacer)

    def freeze_once_idle(self) -> None:
        """A session was loaded: at the next tick the user does not wait for, collect everything and
        freeze what is left, so later collections pass over the session's objects."""
        self._freeze_due = True

    def collect(self) -> None:
        """Collect the oldest generation whose count passed its threshold, as the automatic collector would."""
        busy = any(pacer.waiting for pacer in list(self._pacers))
        if self._deferred < self.MAX_DEFERRED and busy:
            self._deferred += 1
            return
        self._deferred = 0
        if self._freeze_due and not busy:
            self._freeze_due = False
            if self.thaw_before_freeze:
                gc.unfreeze()  # the last session's objects: what died of them is collected now
            gc.collect()
            gc.freeze()
            return
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):
            if counts[generation] > thresholds[generation]:
                gc.collect(generation)
                return


def collect_on_gui_thread(app: QObject) -> GuiCollector:
    """Install once per application; returns the existing collector if there is one."""
    existing = app.findChild(GuiCollector)
    return existing if existing is not None else GuiCollector(app)
