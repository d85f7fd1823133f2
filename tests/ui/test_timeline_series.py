"""A series' drawing: every row in a column of `per` rows, each column's line through its extremes."""

from __future__ import annotations

import random

from pibrowser.ui.timeline.series import Series


def make_series(count: int, seed: int) -> Series:
    rng = random.Random(seed)
    estimates, inputs, estimate = [], [], 0
    for index in range(count):
        estimate = rng.randrange(0, 900) if rng.random() < 0.02 else estimate + rng.randrange(0, 400)  # drops at compactions
        estimates.append(float(estimate))
        if rng.random() < 0.4:
            inputs.append((index, float(estimate + rng.randrange(-50, 50))))
    return Series(f"e{count - 1}", [f"e{index}" for index in range(count)], estimates, inputs, count - 1)


def test_a_drawing_puts_every_row_in_a_column_and_the_largest_input_in_its_dot():
    series = make_series(1000, 7)
    drawing = series.drawing(100, 1000)
    assert drawing.per == 10 and drawing.columns == 100 and drawing.line_ends[-1] == drawing.line.size()
    for column in range(drawing.columns):
        chunk = series.estimates[column * 10 : (column + 1) * 10]
        first = drawing.line_ends[column - 1] if column else 0
        ys = [point.y() for point in drawing.line.toList()[first : drawing.line_ends[column]]]
        assert ys == ([chunk[0], min(chunk), max(chunk), chunk[-1]] if min(chunk) != max(chunk) else [chunk[0]])
    for index, value in drawing.dots:
        column = [reported for at, reported in series.inputs if at // 10 == index // 10]
        assert value == max(column)


def test_a_drawing_is_laid_out_once_per_scale_and_the_peaks_cover_the_path():
    series = make_series(3000, 3)
    drawing = series.drawing(300, 3000)
    assert series.drawing(300, 3000) is drawing  # the cursor moves: the same drawing
    assert series.drawing(150, 3000) is not drawing
    assert series.peak == max([*series.estimates, *(value for _, value in series.inputs)])
    assert series.peak_estimate == max(series.estimates)


def points(drawing) -> tuple:
    line = [(point.x(), point.y()) for point in drawing.line.toList()]
    dots = [(point.x(), point.y()) for point in drawing.dot_points.toList()]
    return drawing.per, drawing.columns, line, drawing.line_ends, drawing.dots, dots


def test_rows_appended_lay_out_what_all_rows_laid_out_afresh_do():
    for seed in range(6):
        rng = random.Random(seed)
        whole = make_series(rng.randrange(400, 3000), seed)
        per = rng.randrange(1, 8)  # rows to a column, the same before and after the rows came
        cut = rng.randrange(len(whole) // 2, len(whole))
        grown = Series(whole.keys[cut - 1], whole.keys[:cut], whole.estimates[:cut], [point for point in whole.inputs if point[0] < cut])
        assert grown.drawing(cut // per, cut).per == per
        grown.estimates += whole.estimates[cut:]
        grown.inputs += [point for point in whole.inputs if point[0] >= cut]
        laid_out = grown.drawing(len(whole) // per, len(whole))
        assert laid_out.per == per and laid_out is grown.drawn
        assert points(laid_out) == points(whole.drawing(len(whole) // per, len(whole)))
