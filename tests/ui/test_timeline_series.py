"""A series cut from a drawn one draws exactly what the same rows drawn afresh would."""

from __future__ import annotations

import random

import pytest

from pibrowser.model.tokens.timeline import TimelineRow
from pibrowser.ui.timeline.series import Drawing, Series


def make_series(count: int, seed: int) -> Series:
    rng = random.Random(seed)
    rows, estimate = [], 0
    for index in range(count):
        estimate = rng.randrange(0, 900) if rng.random() < 0.02 else estimate + rng.randrange(0, 400)  # drops at compactions
        reported = float(estimate + rng.randrange(-50, 50)) if rng.random() < 0.4 else None
        rows.append(TimelineRow(f"e{index}", "message", estimate, reported, False))
    return Series(
        rows[-1].id,
        rows,
        [row.tokens_estimate for row in rows],
        [(index, row.input_tokens) for index, row in enumerate(rows) if row.input_tokens is not None],
    )


def points(drawing: Drawing) -> tuple:
    line = [(point.x(), point.y()) for point in drawing.line.toList()]
    dots = [(point.x(), point.y()) for point in drawing.dot_points.toList()]
    return drawing.per, drawing.columns, line, drawing.line_ends, drawing.dots, dots


@pytest.mark.parametrize("seed", range(6))
def test_a_cut_draws_what_its_rows_drawn_afresh_draw(seed):
    rng = random.Random(seed)
    series = make_series(rng.randrange(50, 3000), seed)
    width = rng.randrange(20, 400)
    series.drawing(width, len(series.rows))
    # Step ↑ a few times from the drawn series, then jump further up: the scale changes on the way.
    for _ in range(8):
        index = len(series.rows) - 1 - rng.choice([1, 1, 2, 5, len(series.rows) // 3])
        if index < 0:
            break
        cut = series.cut(index)
        fresh = make_series(len(series.rows), seed)
        fresh = fresh.cut(index)  # same rows, never drawn: nothing to share
        fresh.source = None
        assert points(cut.drawing(width, index + 1)) == points(fresh.drawing(width, index + 1))
        assert (cut.peak, cut.peak_estimate) == (
            max([*cut.estimates, *(value for _, value in cut.inputs)]),
            max(cut.estimates),
        )
        series = cut


def test_a_drawing_puts_every_row_in_a_column_and_the_largest_input_in_its_dot():
    series = make_series(1000, 7)
    drawing = series.drawing(100, 1000)
    assert drawing.per == 10 and drawing.columns == 100 and drawing.line_ends[-1] == drawing.line.size()
    for column in range(drawing.columns):
        chunk = series.estimates[column * 10:(column + 1) * 10]
        first = drawing.line_ends[column - 1] if column else 0
        ys = [point.y() for point in drawing.line.toList()[first:drawing.line_ends[column]]]
        assert ys == ([chunk[0], min(chunk), max(chunk), chunk[-1]] if min(chunk) != max(chunk) else [chunk[0]])
    for index, value in drawing.dots:
        column = [reported for at, reported in series.inputs if at // 10 == index // 10]
        assert value == max(column)
