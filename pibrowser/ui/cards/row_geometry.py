"""Where the rows of a list of cards are: heights, measured or estimated, and the tops they add up to.

A row's height is known once its card is measured at the list's width; until then it
is an estimate. Tops are sums of the heights before, kept as a list and redone from
the first row whose height changed (a step along a path changes the last rows only).
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate


class RowGeometry:
    """Heights of rows and where each starts, below a top margin of `top`."""

    def __init__(self, top: int, estimate: int) -> None:
        self.estimate = estimate
        self.heights: list[int] = []
        self.widths: list[int] = []  # the width each row was measured at; 0: an estimate
        self._tops: list[int] = [top]
        self._dirty = 0  # tops from this row on are out of date

    def __len__(self) -> int:
        return len(self.heights)

    def replace(self, start: int, removed: int, inserted: int) -> None:
        """Rows [start, start + removed) went; `inserted` new rows (estimated) came in their place."""
        self.heights[start : start + removed] = [self.estimate] * inserted
        self.widths[start : start + removed] = [0] * inserted
        self._dirty = min(self._dirty, start)

    def clear(self) -> None:
        self.replace(0, len(self.heights), 0)

    def is_measured(self, row: int, width: int) -> bool:
        return self.widths[row] == width

    def set(self, row: int, height: int, width: int) -> int:
        """The row measured at `width`; returns how much its height changed."""
        change = height - self.heights[row]
        self.widths[row] = width
        if change:
            self.heights[row] = height
            self._dirty = min(self._dirty, row)
        return change

    def forget(self, row: int) -> None:
        """The row's card changed: measure it again (its height stays as an estimate meanwhile)."""
        self.widths[row] = 0

    def tops(self) -> list[int]:
        """tops()[row] is where the row starts; tops()[len] is where the last one ends."""
        if self._dirty < len(self.heights) or len(self._tops) != len(self.heights) + 1:
            start = min(self._dirty, len(self._tops) - 1, len(self.heights))
            del self._tops[start + 1 :]
            sums = accumulate(self.heights[start:], initial=self._tops[start])
            next(sums)  # the start's own top, already there
            self._tops.extend(sums)
            self._dirty = len(self.heights)
        return self._tops

    def top(self, row: int) -> int:
        return self.tops()[row]

    def bottom(self, row: int) -> int:
        return self.tops()[row + 1]

    def end(self) -> int:
        """Where the last row ends."""
        return self.tops()[-1]

    def row_at(self, y: int) -> int | None:
        """The row at height `y`; None past either end."""
        tops = self.tops()
        row = bisect_right(tops, y) - 1
        return row if 0 <= row < len(self.heights) else None
