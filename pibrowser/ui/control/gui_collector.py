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

While a controller's pool makes what its session keeps (a load, the fold, a long path's answers:
millions of objects), collections wait (`hold_while`): each would walk all that is new, alive, and
a million-entry session's screenshot spent seconds there. When the work is done, everything is
collected and frozen once, as after a load.
"""

from __future__ import annotations

import gc
import weakref
from typing import Protocol

from PySide6.QtCore import QObject, QTimer

from ...model.pacer import Pacer

INTERVAL_MS = 1000


class Maker(Protocol):
    """Background work whose objects live on while it runs (see hold_while)."""

    @property
    def making(self) -> bool: ...


class GuiCollector(QObject):
    """Collects at each tick, except while a window's user is busy (`defer_while`): a
    collection of what a burst of selections allocated takes tens of milliseconds, which would
    land on one of them. It waits MAX_DEFERRED ticks at most, so memory stays bounded."""

    MAX_DEFERRED = 5
    MAX_HELD = 60  # ticks a collection waits for background work at most (a fold the user keeps pausing)

    def __init__(self, parent: QObject, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        gc.disable()
        self._pacers: weakref.WeakSet[Pacer] = weakref.WeakSet()
        self._makers: weakref.WeakSet[Maker] = weakref.WeakSet()
        self._deferred = 0
        self._held = 0
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

    def hold_while(self, maker: Maker) -> None:
        """Skip collections while `maker` says its background work makes what lives on (for as long
        as it lives); then collect and freeze once."""
        self._makers.add(maker)

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
        if self._held < self.MAX_HELD and any(maker.making for maker in list(self._makers)):
            self._held += 1
            return
        if self._held:
            self._held = 0
            gc.collect()  # what the work made (what is frozen is not looked at) …
            gc.freeze()  # … lives on: later collections pass over it
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
