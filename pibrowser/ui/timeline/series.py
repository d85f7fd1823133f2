"""One path's figures as the timeline strip draws them, and where the selection is on it.

A series holds a path's figures from the model's fold (model/fold/: pi's estimate at each
entry, the inputs replies recorded, where compactions, labels and branch points fall) and
the row of the entry shown, its cursor. The path drawn runs past the selection to the
end of its branch, so stepping ↑ and ↓ along it moves the cursor and draws nothing anew.
Its `Drawing` lays the line out in columns of `per` rows, as points in row and figure
space: the painter's transform puts them on screen, at any width and height.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import compress, count
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtGui import QPolygonF

from ...model.text.describe import model_name
from ...model.library.context_window import context_window
from ...model.session.sequences import paths_shared
from ...model.tokens.timeline import TimelineRow

if TYPE_CHECKING:
    from ...model.fold.path_fold import Along
    from ...model.session.session import Session


@dataclass(slots=True)
class Drawing:
    """A series laid out `per` rows to a column: the line through each column's first, lowest,
    highest and last figure (the first alone where they are all one), the largest reported input
    of each column as a dot, all as (row index, figure) points."""

    per: int
    line: QPolygonF
    line_ends: list[int]  # how many points of `line` the first n + 1 columns make
    dots: list[tuple[int, float]]
    dot_points: QPolygonF
    rows: int = 0  # how many rows it lays out

    @property
    def columns(self) -> int:
        return len(self.line_ends)

    def cut(self, rows: int) -> Drawing:
        """A copy of the columns that lie wholly within the first `rows` rows (the path of another
        selection shares them); drawing() lays out the rest."""
        columns = min(rows // self.per, len(self.line_ends))
        points = self.line_ends[columns - 1] if columns else 0
        dots = self.dots[: bisect_left(self.dots, (columns * self.per, -math.inf))]
        line, dot_points = QPolygonF(self.line), QPolygonF(self.dot_points)
        line.resize(points)
        dot_points.resize(len(dots))
        return Drawing(self.per, line, self.line_ends[:columns], dots, dot_points, columns * self.per)

    def reopen_last_column(self) -> int:
        """Take the last column (and its dot) off to lay it out again with more rows; where it began."""
        if not self.line_ends:
            return 0
        self.line_ends.pop()
        self.line.resize(self.line_ends[-1] if self.line_ends else 0)
        start = len(self.line_ends) * self.per
        kept = bisect_left(self.dots, (start, -math.inf))
        del self.dots[kept:]
        self.dot_points.resize(kept)
        return start


@dataclass(slots=True)
class Series:
    """One path's figures as flat lists for drawing, where its marks fall (row indices), and the
    row of the entry shown (`cursor`). `along` gives exact rows and finds entries on the path."""

    leaf: str  # the path's last entry
    keys: list[str]
    estimates: list[float]  # estimate_number of pi's estimate at each row (row() gives the JS value)
    inputs: list[tuple[int, float]]  # (row index, input tokens) where recorded
    cursor: int = -1
    compactions: list[int] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    branch_points: list[int] = field(default_factory=list)
    window: int | None = None
    model_name: str = ""
    along: Along | None = None
    drawn: Drawing | None = None  # as last drawn
    _peaks: tuple[float, float] | None = None

    @property
    def peak(self) -> float:
        """The highest estimate or reported input on the path."""
        return self._peak()[0]

    @property
    def peak_estimate(self) -> float:
        return self._peak()[1]

    def _peak(self) -> tuple[float, float]:
        if self._peaks is None:
            estimate = max(self.estimates, default=0)
            self._peaks = (max(estimate, max((value for _, value in self.inputs), default=0)), estimate)
        return self._peaks

    def __len__(self) -> int:
        return len(self.keys)

    def row(self, index: int) -> TimelineRow:
        """The row at `index`, with pi's exact figures."""
        return self._path().row(index)

    def rows(self) -> list[TimelineRow]:
        return self._path().rows()

    def _path(self) -> Along:
        assert self.along is not None, "exact rows come from the fold: a series built by build_series"
        return self.along

    def index_of(self, key: str) -> int | None:
        return self.along.depth_of(key) if self.along is not None else None

    def drawing(self, width: int, length: int) -> Drawing:
        """The series laid out for a plot `width` pixels wide showing `length` rows."""
        per = max(1, length // max(1, width))
        drawn = self.drawn
        if drawn is None or drawn.per != per:
            drawn = self.drawn = Drawing(per, QPolygonF(), [], [], QPolygonF())
            start = 0
        elif drawn.rows < len(self.estimates):
            start = drawn.reopen_last_column()  # rows appended: only the last column and the new ones
        else:
            return drawn
        _add_columns(drawn, self.estimates, start)
        _add_dots(drawn, self.inputs[bisect_left(self.inputs, (start, -math.inf)) :])
        drawn.rows = len(self.estimates)
        return drawn

    def extend(self, along: Along, session: Session, appended: Sequence[str]) -> bool:
        """Take in what `appended` entries changed: rows after the old end when they extend the path
        drawn, a label or a branch point they add on it. False when `along` is not this path (grown)."""
        old = self.along
        if old is None or along.spine is not old.spine or along.tip < old.tip:
            return False
        start, spine = old.tip + 1, along.spine
        estimates = spine.column_range("tokens", start, along.tip + 1)
        inputs = spine.recorded_column("inputs", "input", along.tip, low=start)
        self.along, self.cursor = along, along.cursor
        self.keys += [spine.entry(at).id for at in range(start, along.tip + 1)]
        self.leaf = self.keys[-1]
        self.estimates += estimates
        self.inputs += inputs
        self.compactions += [at for at in along.compactions() if at >= start]
        entries = session.entries
        if any(entries[key].type == "label" for key in appended if key in entries):  # it may name any entry
            self.labels = list(compress(count(), map(session.labels.__contains__, self.keys)))  # in C, as built
        else:
            self.labels += [at for at in range(start, len(self.keys)) if self.keys[at] in session.labels]
        forks = {at for at in map(self.index_of, filter(None, map(session.parent, appended))) if at is not None}
        forks = {at for at in forks if len(session.children(self.keys[at])) > 1 and at < len(self.keys) - 1}
        self.branch_points = sorted(forks.union(self.branch_points))
        if self._peaks is not None:
            estimate = max([self._peaks[1], *estimates])
            self._peaks = (max([self._peaks[0], estimate, *(value for _, value in inputs)]), estimate)
        return True


def _add_columns(drawing: Drawing, estimates: list[float], start: int) -> None:
    """Columns of the estimates from `start` on, so 90,000 rows draw as ~1,000 columns and every
    compaction's drop still shows."""
    per, line, ends = drawing.per, drawing.line, drawing.line_ends
    for begin in range(start, len(estimates), per):
        chunk = estimates[begin : begin + per]
        index, low, high = begin + len(chunk) - 1, min(chunk), max(chunk)
        line.append(QPointF(index, chunk[0]))
        if low != high:
            line.append(QPointF(index, low))
            line.append(QPointF(index, high))
            line.append(QPointF(index, chunk[-1]))
        ends.append(line.size())


def _add_dots(drawing: Drawing, inputs: list[tuple[int, float]]) -> None:
    """The reported inputs (in row order), at most one dot (the largest) per column."""
    per, dots = drawing.per, drawing.dots
    fresh = len(dots)
    column = -1
    for point in inputs:
        if point[0] // per != column:
            column = point[0] // per
            dots.append(point)
        elif point[1] > dots[-1][1]:
            dots[-1] = point
    for index, value in dots[fresh:]:
        drawing.dot_points.append(QPointF(index, value))


def build_series(session: Session, along: Along, near: Series | None = None) -> Series:
    """The series of a path the model's fold worked out (PathFold.along).

    `near`: the series drawn before. Paths share their entries from the root to where they fork,
    so its rows, marks and drawn columns up to there are taken over and only the rest is read
    from the fold: a selection in another branch of a 100,000-entry path costs its own branch."""
    spine, tip = along.spine, along.tip
    drawn = near.keys if near is not None else []
    fork = paths_shared(min(len(drawn), tip + 1), lambda at: drawn[at] == spine.entry(at).id)
    if near is None or fork == 0:
        return _fresh_series(session, along)
    keys = near.keys[:fork] + [entry.id for entry in spine.path(tip)[fork:]]
    forks = session.branch_points()
    # The branch points stop short of the path's last entry: the old path's last row is read again.
    kept_forks = bisect_left(near.branch_points, fork - 1)
    series = Series(
        keys[-1],
        keys,
        near.estimates[:fork] + spine.column_range("tokens", fork, tip + 1),
        near.inputs[: bisect_left(near.inputs, (fork, -math.inf))] + spine.recorded_column("inputs", "input", tip, low=fork),
        along.cursor,
        near.compactions[: bisect_left(near.compactions, fork)] + [at for at in along.compactions() if at >= fork],
        near.labels[: bisect_left(near.labels, fork)]
        + [fork + at for at in compress(count(), map(session.labels.__contains__, keys[fork:]))],
        near.branch_points[:kept_forks] + [fork - 1 + at for at in compress(count(), map(forks.__contains__, keys[fork - 1 : -1]))],
        along=along,
    )
    if near.drawn is not None:
        series.drawn = near.drawn.cut(fork)
    _name_model(series, along)
    return series


def _fresh_series(session: Session, along: Along) -> Series:
    keys = along.keys()
    forks = session.branch_points()
    series = Series(
        keys[-1],
        keys,
        along.estimates(),
        along.inputs(),
        along.cursor,
        along.compactions(),
        list(compress(count(), map(session.labels.__contains__, keys))),  # in C: a path runs to 100,000 rows
        list(compress(count(), map(forks.__contains__, keys[:-1]))),
        along=along,
    )
    _name_model(series, along)
    return series


def _name_model(series: Series, along: Along) -> None:
    model = along.model()
    series.window = context_window(model)
    series.model_name = model_name(model) or ""
