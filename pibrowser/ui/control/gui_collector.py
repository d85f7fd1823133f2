"""Python's cycle collector, run on the GUI thread only.

Left automatic, the collector runs in whichever thread happens to allocate: a loader in the
thread pool can then free a cycle that holds a window, a controller or a signals object, and Qt
deletes a GUI-thread object from a worker thread (heap corruption, crashes at random). So the
automatic collector is off while the application runs, and a timer collects on the GUI thread.
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
        self._timer = QTimer(self, interval=interval_ms)
        self._timer.timeout.connect(self.collect)
        self._timer.start()

    def defer_while(self, pacer: Pacer) -> None:
        """Skip collections while `pacer` says its user is busy (for as long as it lives)."""
        self._pacers.add(pacer)

    def collect(self) -> None:
        """Collect the oldest generation whose count passed its threshold, as the automatic collector would."""
        if self._deferred < self.MAX_DEFERRED and any(pacer.waiting for pacer in list(self._pacers)):
            self._deferred += 1
            return
        self._deferred = 0
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):
            if counts[generation] > thresholds[generation]:
                gc.collect(generation)
                return


def collect_on_gui_thread(app: QObject) -> GuiCollector:
    """Install once per application; returns the existing collector if there is one."""
    existing = app.findChild(GuiCollector)
    return existing if existing is not None else GuiCollector(app)
