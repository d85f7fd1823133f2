"""What the window tests of hostile files share: a watchdog on the GUI thread, a wait until nothing
is being worked out, every tab shown once, and the errors logged meanwhile."""

from __future__ import annotations

import faulthandler
import logging
import time

from PySide6.QtCore import QTimer

STALL_CPU_S = 2.0  # the GUI thread's CPU time between two turns of its event loop, at most
HANG_S = 180  # a mutation whose window has not settled by then stops the run with every thread's stack


class Watchdog:
    """The GUI thread's heartbeat: the most CPU time it spent between two turns of its event loop.
    CPU time, not wall time: a loaded machine slows the loop, a stall is work the loop could not
    do. A hang (no beat at all) ends the process with every thread's stack (faulthandler)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._last = time.thread_time()
        self._timer = QTimer(interval=20)
        self._timer.timeout.connect(self._beat)

    def _beat(self) -> None:
        now = time.thread_time()  # the GUI thread's: the timer fires there
        self.worst = max(self.worst, now - self._last)
        self._last = now

    def __enter__(self) -> Watchdog:
        faulthandler.dump_traceback_later(HANG_S, exit=True)
        self._last = time.thread_time()
        self._timer.start()
        return self

    def __exit__(self, *error) -> None:
        self._timer.stop()
        self._beat()
        faulthandler.cancel_dump_traceback_later()


def settled(window) -> bool:
    """Nothing of the window is still being worked out."""
    controller = window.controller
    return not (
        controller.is_loading()
        or controller.working_ahead
        or not controller.answers_now(controller.selected)
        or window.timeline.busy
        or window.trace_panel.busy
        or window.files_view.busy
    )


def show_everything(qtbot, window) -> None:
    """Every tab and dock shown once, each left to settle: the cards and the entry's JSON, Compare
    (the first leaf against the last), Trace, Files, the strip and the warnings."""
    wait = lambda: qtbot.waitUntil(lambda: settled(window), timeout=HANG_S * 1000)  # noqa: E731
    session = window.controller.session
    leaves = session.leaves() if session is not None else []
    if len(leaves) > 1:
        window.controller.set_compare(leaves[0], leaves[-1])
    for dock in (window.compare_dock, window.trace_dock, window.files_dock, window.context_dock):
        dock.raise_()
        wait()
    window.context_panel.tabs.setCurrentIndex(1)
    window.context_panel.tabs.setCurrentIndex(0)
    for dock in (window.problems_dock, window.timeline_dock):
        dock.show()
        dock.raise_()
        wait()
    window.grab()  # every widget painted once more, at its size


def errors_logged(caplog) -> list[str]:
    """What pibrowser logged as an error (a paint that could not draw, a job that failed on a value)."""
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR and record.name.startswith("pibrowser")]
