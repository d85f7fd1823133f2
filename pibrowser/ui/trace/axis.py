"""The waterfall's time axis: real time inside runs, idle time between runs squeezed.

A session may run for minutes, then sit idle for a day. Drawn to scale, the runs
would be specks. The axis keeps time inside runs to scale and gives each idle
stretch between runs at most a fixed share of the axis, so the waterfall shows
work, and says how long each squeezed stretch really was.

"Axis time" is real time with the idle stretches squeezed; x = (axis time −
the view's first axis time) × scale. No Qt here: it is arithmetic, tested alone.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from ...model.js.date import js_iso, js_time

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


# ---- the ruler's ticks -------------------------------------------------------------------------

DAY = 86_400_000
YEAR = 31_557_600_000  # 365.25 days
# Steps the ruler's ticks may take, in ms: the clock's, then days, weeks, months and years.
TICK_STEPS = [
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000,
    600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 43_200_000, DAY, 2 * DAY, 7 * DAY, 14 * DAY,
    30 * DAY, 91 * DAY, 182 * DAY, YEAR, 2 * YEAR, 5 * YEAR,
]  # fmt: skip
TICK_ROOM = 90  # pixels, at least, between two ticks


def tick_step(scale: float) -> float:
    """The ruler's step in ms at `scale` px per ms: the first of TICK_STEPS at least TICK_ROOM pixels
    wide, and past them 1, 2 or 5 times a power of ten of years. Worked out from the scale, so a
    path of eight thousand years (a timestamp typed by hand) has as few ticks as one of a minute."""
    need = TICK_ROOM / scale if scale > 0 else math.inf
    found = next((step for step in TICK_STEPS if step >= need), None)
    if found is not None:
        return found
    if not math.isfinite(need):
        return math.inf
    years = need / YEAR
    power = 10.0 ** math.floor(math.log10(years))
    return next(base * power for base in (1, 2, 5, 10) if base * power >= years) * YEAR


def ticks_between(start: float, end: float, step: float) -> Iterator[float]:
    """The ticks in [start, end]: the multiples of `step`, or past a year's step the first of January
    of every so many years; as many as the span holds steps, never one per day or per ms."""
    if not (math.isfinite(start) and math.isfinite(end) and math.isfinite(step)) or step <= 0 or end < start:
        return
    if step >= YEAR:
        yield from _year_ticks(start, end, round(step / YEAR))
        return
    first = math.ceil(start / step)
    for count in range(int((end - first * step) // step) + 1):
        yield (first + count) * step


def _year_ticks(start: float, end: float, years: int) -> Iterator[float]:
    low, high = _year_of(max(start, -MAX_TIME)), _year_of(min(end, MAX_TIME))
    for year in range(-(-low // years) * years, high + 1, years):
        at = js_time(f"{_year_text(year)}-01-01T00:00:00.000Z")
        if at is not None and start <= at <= end:
            yield float(at)


def tick_label(ms: float, step: float) -> str:
    """A tick's time as the ruler writes it: the local clock to the second or the millisecond under a
    day's step, the date under a year's, the year past that (any year a JS date holds)."""
    if step >= YEAR:
        return _iso_year(ms)
    try:
        moment = datetime.fromtimestamp(ms / 1000)
    except (OverflowError, OSError, ValueError):  # before year 1 or after 9999: the year is what reads
        return _iso_year(ms)
    if step >= DAY:
        return f"{moment:%Y-%m-%d}"
    if step < 1000:
        return f"{moment:%H:%M:%S}.{moment.microsecond // 1000:03d}"
    return f"{moment:%H:%M:%S}" if step < 60_000 else f"{moment:%H:%M}"


MAX_TIME = 8.64e15  # ms either side of 1970 that a JS date holds


def _year_of(ms: float) -> int:
    iso = js_iso(int(ms))
    assert iso is not None, "callers keep the time finite and within MAX_TIME"
    return int(iso[:-20])  # "2026", "+275760", "-000001"


def _year_text(year: int) -> str:
    # As JS writes a year: four digits, or six and a sign outside 0..9999.
    return f"{year:04d}" if 0 <= year <= 9999 else f"{'+' if year > 0 else '-'}{abs(year):06d}"


def _iso_year(ms: float) -> str:
    return str(_year_of(ms)) if math.isfinite(ms) and abs(ms) <= MAX_TIME else ""
