"""The pace of background work: loops step aside while the user is busy (`Pacer`).

Python runs one thread at a time. A loop in the thread pool (the file's check, a timeline
walk, usage summed ahead) takes the interpreter back from the GUI thread every few
milliseconds, so a click made meanwhile takes about twice as long to show. The window marks
each change the user makes (`busy`); a background loop calls `step` every few dozen items,
and sleeps there while the last change is recent.

Contract: `step` returns at once unless `busy` was called less than `quiet_for` seconds ago;
it never waits longer than that after the last call to `busy`. Any thread may call either.
Once `stop` is called (the application is closing), `step` raises Stopped: every loop that
steps aside also gives up, and the exit need not wait for it to finish.
"""

from __future__ import annotations

import time
from collections.abc import Callable

NAP = 0.004  # seconds slept at a time while the user is busy


class Stopped(Exception):
    """The application is closing: a background loop gives up at its next step."""


class Pacer:
    """Marks the user busy (`busy`) and holds background loops back meanwhile (`step`); see above."""

    def __init__(
        self, quiet_for: float = 0.25, clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self.quiet_for = quiet_for
        self._clock, self._sleep = clock, sleep
        self._until = 0.0
        self._stopped = False

    def busy(self) -> None:
        """The user just changed something: background loops wait until the GUI has shown it."""
        self._until = self._clock() + self.quiet_for

    @property
    def waiting(self) -> bool:
        """Whether a step now would wait."""
        return self._clock() < self._until

    def stop(self) -> None:
        """The application is closing: every loop gives up at its next step (raising Stopped)."""
        self._stopped = True

    def step(self) -> None:
        """Called by a background loop between items: sleeps while the user is busy; raises
        Stopped once the application is closing."""
        while self._clock() < self._until and not self._stopped:
            self._sleep(NAP)
        if self._stopped:
            raise Stopped
