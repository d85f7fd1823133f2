"""One path's figures as the timeline strip draws them, and how a series is cut short.

A series holds a path's rows and flat lists of what is drawn (estimates, reported
inputs, where compactions, labels and branch points fall). Its `Drawing` lays the
line out in columns of `per` rows, as points in row and figure space: the painter's
transform puts them on screen, so the same points serve at any width and height.

Stepping ↑ along a 90,000-row path cuts the drawn series one row shorter at every
step. A cut shares what does not change: the row lookup, the running peaks, and the
whole columns of the drawing it was cut from (only the last column is laid out again).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from itertools import accumulate
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtGui import QPolygonF

from ...model.sessions.context_window import context_window
from ...model.tokens.context_estimate import estimate_number
from ...model.tokens.timeline import Timeline, TimelineRow

if TYPE_CHECKING:
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

    @property
    def columns(self) -> int:
        return len(self.line_ends)


@dataclass(slots=True)
class Series:
    """One path's rows, its figures as flat lists for drawing, and where its marks fall (row indices)."""

    leaf: str
    rows: list[TimelineRow]
    estimates: list[float]  # estimate_number of each row's estimate
    inputs: list[tuple[int, float]]  # (row index, input tokens) where recorded
    compactions: list[int] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    branch_points: list[int] = field(default_factory=list)
    window: int | None = None
    model_name: str = ""
    positions: dict[str, int] | None = None  # id → row index; shared with the series cut from this one
    # The highest figure (estimate or input) and the highest estimate up to each row; shared with the cuts.
    peaks: tuple[list[float], list[int]] | None = None
    drawn: Drawing | None = None  # as last drawn
    source: Drawing | None = None  # as the series this one was cut from was last drawn

    @property
    def peak(self) -> float:
        """The highest estimate or reported input on the path: one lookup, even for a cut of a long series."""
        return self._peaks()[0][len(self.rows) - 1] if self.rows else 0

    @property
    def peak_estimate(self) -> int:
        return self._peaks()[1][len(self.rows) - 1] if self.rows else 0

    def _peaks(self) -> tuple[list[float], list[int]]:
        if self.peaks is None:
            values: list[float] = list(self.estimates)
            for index, value in self.inputs:
                if value > values[index]:
                    values[index] = value
            self.peaks = (list(accumulate(values, max)), list(accumulate(self.estimates, max)))
        return self.peaks

    def prepare(self) -> Series:
        """Work out the row lookup and the running peaks now (in the thread pool), not at the first
        step along the path on the GUI thread: on 90,000 rows they take some 20 ms."""
        self.index_of(self.leaf)
        self._peaks()
        return self

    def index_of(self, key: str) -> int | None:
        if self.positions is None:
            self.positions = {row.id: index for index, row in enumerate(self.rows)}
        index = self.positions.get(key)
        return index if index is not None and index < len(self.rows) else None

    def cut(self, index: int) -> Series:
        """The series of the path to rows[index]: a prefix of this one (its model is set by the caller)."""
        keep = index + 1
        return Series(
            self.rows[index].id,
            self.rows[:keep],
            self.estimates[:keep],
            self.inputs[: bisect_right(self.inputs, (index, math.inf))],
            self.compactions[: bisect_right(self.compactions, index)],
            self.labels[: bisect_right(self.labels, index)],
            self.branch_points[: bisect_left(self.branch_points, index)],
            positions=self.positions,
            peaks=self._peaks(),
            source=self.drawn,
        )

    def drawing(self, width: int, length: int) -> Drawing:
        """The series laid out for a plot `width` pixels wide showing `length` rows."""
        per = max(1, length // max(1, width))
        if self.drawn is None or self.drawn.per != per:
            self.drawn = self._lay_out(per)
        return self.drawn

    def _lay_out(self, per: int) -> Drawing:
        """Columns of `per` rows. A series cut from one drawn at the same scale takes over its whole
        columns and their dots, and lays out only what lies after them."""
        source, start = self.source, 0
        if source is not None and source.per == per:
            whole = min(len(self.rows) // per, source.columns)
            start = whole * per
            ends = source.line_ends[:whole]
            shared_dots = bisect_left(source.dots, (start, -math.inf))  # dots run in row order
            drawing = Drawing(per, _first(source.line, ends[-1] if ends else 0), ends, source.dots[:shared_dots], _first(source.dot_points, shared_dots))
        else:
            drawing = Drawing(per, QPolygonF(), [], [], QPolygonF())
        _add_columns(drawing, self.estimates, start)
        _add_dots(drawing, self.inputs[bisect_left(self.inputs, (start, -math.inf)):])
        return drawing


def _first(points: QPolygonF, count: int) -> QPolygonF:
    """The first `count` points, copied in C++ (slicing would make a Python object of each)."""
    copy = QPolygonF(points)
    copy.resize(count)
    return copy


def _add_columns(drawing: Drawing, estimates: list[int], start: int) -> None:
    """Columns of the estimates from `start` on, so 90,000 rows draw as ~1,000 columns and every
    compaction's drop still shows."""
    per, line, ends = drawing.per, drawing.line, drawing.line_ends
    for begin in range(start, len(estimates), per):
        chunk = estimates[begin:begin + per]
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


def build_series(session: Session, timeline: Timeline, leaf: str, stop: Callable[[], bool] | None = None) -> Series:
    """The series of the path to `leaf`, walked in the background (WalkStopped when `stop` says so)."""
    rows = timeline.rows(leaf, in_background=True, stop=stop)
    forks = session.branch_points()
    labels = session.labels
    series = Series(
        leaf,
        rows,
        [estimate_number(row.tokens_estimate) for row in rows],
        [(index, row.input_tokens) for index, row in enumerate(rows) if row.input_tokens is not None],
        [index for index, row in enumerate(rows) if row.compaction],
        [index for index, row in enumerate(rows) if row.id in labels],
        [index for index, row in enumerate(rows[:-1]) if row.id in forks],
    )
    return with_model(session, series).prepare()


def with_model(session: Session, series: Series) -> Series:
    """The model in force at the end of the path, and its context window where that is known."""
    model = _path_model(session, series.rows)
    series.window = context_window(model)
    series.model_name = f"{model.get('provider')}/{model.get('modelId')}" if isinstance(model, dict) else ""
    return series


def _path_model(session: Session, rows: list[TimelineRow]):
    """The model in force at the end of the path (the last model_change or assistant reply)."""
    for row in reversed(rows):
        entry = session.entries[row.id]
        if entry.type == "model_change":
            return {"provider": entry.get("provider"), "modelId": entry.get("modelId")}
        if entry.type == "message" and entry.role == "assistant" and isinstance(entry.message, dict):
            return {"provider": entry.message.get("provider"), "modelId": entry.message.get("model")}
    return None
