"""The waterfall's time axis: real time inside runs, idle time between runs squeezed.

A session may run for minutes, then sit idle for a day. Drawn to scale, the runs
would be specks. The axis keeps time inside runs to scale and gives each idle
stretch between runs at most a fixed share of the axis, so the waterfall shows
work, and says how long each squeezed stretch really was.

"Axis time" is real time with the idle stretches squeezed; x = (axis time −
the view's first axis time) × scale. No Qt here: it is arithmetic, tested alone.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

IDLE_SHARE = 0.2  # of the axis, at most, for all idle stretches together
MIN_IDLE_MS = 2000  # shorter pauses between runs are not squeezed


@dataclass(frozen=True, slots=True)
class Gap:
    """An idle stretch: real [start, end), drawn as `width` ms of axis time from `axis_start`."""

    start: float
    end: float
    axis_start: float
    width: float

    @property
    def idle_ms(self) -> float:
        return self.end - self.start


class TimeAxis:
    def __init__(self, start: float, end: float, gaps: list[tuple[float, float]]) -> None:
        self.start = start
        self.end = max(end, start)
        idle = [(a, b) for a, b in gaps if b - a > MIN_IDLE_MS and start <= a < b <= self.end]
        total = self.end - self.start
        busy = total - sum(b - a for a, b in idle)
        # Each squeezed stretch gets the same width: the idle share of the busy time, split among them.
        width = max(1.0, busy * IDLE_SHARE / (1 - IDLE_SHARE) / len(idle)) if idle else 0.0
        self.gaps: list[Gap] = []
        removed = 0.0
        for a, b in idle:
            squeezed = min(b - a, width)
            self.gaps.append(Gap(a, b, a - self.start - removed, squeezed))
            removed += (b - a) - squeezed
        self.length = total - removed  # the axis, in axis ms
        self._starts = [gap.start for gap in self.gaps]
        self._axis_ends = [gap.axis_start + gap.width for gap in self.gaps]
        self._axis_starts = [gap.axis_start for gap in self.gaps]

    def to_axis(self, time: float) -> float:
        """Axis ms from the start for a real time."""
        at = bisect_right(self._starts, time) - 1
        if at < 0:
            return time - self.start
        gap = self.gaps[at]
        if time < gap.end:
            return gap.axis_start + (time - gap.start) * gap.width / (gap.end - gap.start)
        return gap.axis_start + gap.width + (time - gap.end)

    def gaps_between(self, low: float, high: float) -> list[Gap]:
        """The squeezed stretches that reach into axis times [low, high] (found by bisection:
        a session of thousands of runs has thousands of them, a view shows a few)."""
        return self.gaps[bisect_right(self._axis_ends, low) : bisect_right(self._axis_starts, high)]

    def to_time(self, axis: float) -> float:
        """The real time at an axis position (inside a squeezed stretch, in proportion)."""
        at = bisect_right(self._axis_starts, axis) - 1
        if at < 0:
            return self.start + axis
        gap = self.gaps[at]
        if axis < gap.axis_start + gap.width:
            return gap.start + (axis - gap.axis_start) * (gap.end - gap.start) / gap.width
        return gap.end + (axis - gap.axis_start - gap.width)
