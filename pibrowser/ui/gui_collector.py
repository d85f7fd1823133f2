"""Python's cycle collector, run on the GUI thread only.

Left automatic, the collector runs in whichever thread happens to allocate: a loader in the
thread pool can then free a cycle that holds a window, a controller or a signals object, and Qt
deletes a GUI-thread object from a worker thread (heap corruption, crashes at random). So the
automatic collector is off while the application runs, and a timer collects on the GUI thread.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 1000


class GuiCollector(QObject):
    def __init__(self, parent: QObject, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        gc.disable()
        self._timer = QTimer(self, interval=interval_ms)
        self._timer.timeout.connect(self.collect)
        self._timer.start()

    def collect(self) -> None:
        """Collect the oldest generation whose count passed its threshold, as the automatic collector would."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):
            if counts[generation] > thresholds[generation]:
                gc.collect(generation)
                return


def collect_on_gui_thread(app: QObject) -> GuiCollector:
    """Install once per application; returns the existing collector if there is one."""
    existing = app.findChild(GuiCollector)
    return existing if existing is not None else GuiCollector(app)
