"""Painting the strip's plot: the axis, the model's window, compactions, labels and branch points, each
path's estimate and reported inputs, and the legend. Drawn into a layer once per shown series, size and
palette (see TimelineStrip); the cursors and the hover line are painted over it."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette, QPen, QPolygonF, QTransform

from ...model.text.amounts import beyond_words
from ..style.colors import mix
from .geometry import LEFT, RIGHT, PlotGeometry
from .series import Series
from .stacked import StackedAreas

SERIES_COLORS = (QColor("#2f7de1"), QColor("#d9822b"))
INPUT_COLORS = (QColor("#1f9d55"), QColor("#b0457a"))
COMPACTION = QColor("#c0392b")
LABEL = QColor("#8e44ad")
LEGEND = (("pi's estimate", "line"), ("input reported", "dot"), ("compaction", "dash"), ("label", "flag"), ("branch point", "tick"))


def muted_color(palette: QPalette) -> QColor:
    """Text halfway to the background: axes, ticks, the hover line."""
    return mix(palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base), 0.55)


def paint_plot(
    painter: QPainter, series: list[Series], geometry: PlotGeometry, palette: QPalette, stacked: StackedAreas | None = None
) -> None:
    """The plot; under the estimates, the stacked areas of what the context is made of, when shown."""
    if not series:
        return
    muted = muted_color(palette)
    base = palette.color(QPalette.ColorRole.Base)
    _paint_axis(painter, geometry, muted, base)
    _paint_window(painter, series, geometry)
    if stacked is not None:
        stacked.paint(painter, geometry.plot, geometry.top, geometry.x)
        stacked.paint_key(painter, geometry.plot, muted)
    for number, one in enumerate(series):
        _paint_marks(painter, one, geometry, muted)
        _paint_series(painter, one, geometry, number)
    _paint_legend(painter, geometry, muted)


def paint_hover(painter: QPainter, geometry: PlotGeometry, index: int, muted: QColor) -> None:
    plot = geometry.plot
    x = geometry.x(index)
    painter.setPen(QPen(muted, 1, Qt.PenStyle.DotLine))
    painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))


def _paint_legend(painter: QPainter, geometry: PlotGeometry, muted: QColor) -> None:
    """Samples under the plot, right-aligned: the estimate, the reported input, a compaction, a label, a fork."""
    metrics = QFontMetrics(painter.font())
    items = list(LEGEND)
    widths = [20 + metrics.horizontalAdvance(name) + 12 for name, _ in items]
    while items and sum(widths) > geometry.width - LEFT - RIGHT:  # a narrow strip keeps what fits
        items, widths = items[:-1], widths[:-1]
    x = geometry.width - RIGHT - sum(widths)
    baseline = geometry.height - 5
    y = baseline - metrics.ascent() / 2 + 1
    for (name, kind), width in zip(items, widths):
        _paint_sample(painter, kind, x, y, muted)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(muted)
        painter.drawText(QPointF(x + 18, baseline), name)
        x += width


def _paint_sample(painter: QPainter, kind: str, x: float, y: float, muted: QColor) -> None:
    """One legend sample, 16 pixels wide from `x`, centred on `y`."""
    if kind == "line":
        painter.setPen(QPen(SERIES_COLORS[0], 1.6))
        painter.drawLine(QPointF(x, y), QPointF(x + 16, y))
    elif kind == "dot":
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(INPUT_COLORS[0])
        painter.drawEllipse(QPointF(x + 8, y), 2.6, 2.6)
    elif kind == "dash":
        painter.setPen(QPen(COMPACTION, 1, Qt.PenStyle.DashLine))
        painter.drawLine(QPointF(x + 8, y - 6), QPointF(x + 8, y + 6))
    elif kind == "flag":
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(LABEL)
        painter.drawPolygon(QPolygonF([QPointF(x + 8, y + 4), QPointF(x + 4, y - 3), QPointF(x + 12, y - 3)]))
    else:
        painter.setPen(QPen(muted, 1))
        painter.drawLine(QPointF(x + 8, y - 4), QPointF(x + 8, y + 2))


def _paint_axis(painter: QPainter, geometry: PlotGeometry, muted: QColor, base: QColor) -> None:
    plot = geometry.plot
    metrics = QFontMetrics(painter.font())
    for step in axis_ticks(geometry.top / 1.08):
        y = geometry.y(step)
        painter.setPen(QPen(mix(muted, base, 0.7), 1))
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
        painter.setPen(muted)
        label = axis_label(step)
        painter.drawText(QPointF(plot.left() - 6 - metrics.horizontalAdvance(label), y + metrics.ascent() / 2 - 1), label)


def _paint_window(painter: QPainter, series: list[Series], geometry: PlotGeometry) -> None:
    plot = geometry.plot
    for window in {one.window for one in series if one.window}:
        y = geometry.y(window)
        painter.setPen(QPen(COMPACTION, 1.2, Qt.PenStyle.DashLine))
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
        text = f"window {axis_label(window)}"
        painter.drawText(QPointF(plot.right() - QFontMetrics(painter.font()).horizontalAdvance(text) - 4, y - 3), text)


def _paint_marks(painter: QPainter, series: Series, geometry: PlotGeometry, muted: QColor) -> None:
    plot = geometry.plot
    left, across = geometry.across()
    painter.setPen(QPen(COMPACTION, 1, Qt.PenStyle.DashLine))
    for index in series.compactions:
        x = left + across * index
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
    painter.setPen(QPen(muted, 1))
    for index in series.branch_points:
        x = left + across * index
        painter.drawLine(QPointF(x, plot.bottom() + 2), QPointF(x, plot.bottom() + 7))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(LABEL)
    half = 4 if len(series.labels) * 10 < plot.width() else 2  # narrower flags where they crowd
    for index in series.labels:
        x = left + across * index
        painter.drawPolygon(QPolygonF([QPointF(x, plot.top()), QPointF(x - half, plot.top() - 6), QPointF(x + half, plot.top() - 6)]))
    painter.setBrush(Qt.BrushStyle.NoBrush)


def _paint_series(painter: QPainter, series: Series, geometry: PlotGeometry, number: int) -> None:
    plot = geometry.plot
    color = SERIES_COLORS[number % 2]
    width = max(1, int(plot.width()))
    drawing = series.drawing(width, geometry.length)
    left, across = geometry.across()
    # The drawing's points are (row index, figure): this transform puts them on screen, and
    # cosmetic pens keep their widths in pixels whatever it scales.
    to_screen = QTransform(across or 1.0, 0, 0, -plot.height() / geometry.top, left, plot.bottom())
    painter.save()
    around = painter.transform()
    painter.setTransform(to_screen * around)
    # The reported inputs first, so the estimate's line stays on top where they agree;
    # smaller dots where they crowd.
    painter.setPen(_cosmetic(INPUT_COLORS[number % 2], 4.8 if len(drawing.dots) * 6 < width else 2.8))
    painter.drawPoints(drawing.dot_points)
    # A pen wider than one pixel goes through Qt's stroker, some fifty times slower on thousands
    # of points; two one-pixel lines half a pixel apart draw the same weight.
    painter.setPen(_cosmetic(color, 1))
    painter.drawPolyline(drawing.line)
    painter.setTransform(to_screen * QTransform.fromTranslate(0.5, 0.5) * around)
    painter.drawPolyline(drawing.line)
    painter.restore()


def paint_cursors(painter: QPainter, series: list[Series], geometry: PlotGeometry) -> None:
    """Each series' entry shown (its cursor), painted over the plot's layer."""
    plot = geometry.plot
    for number, one in enumerate(series):
        if not 0 <= one.cursor < len(one):
            continue
        color = SERIES_COLORS[number % 2]
        x = geometry.x(one.cursor)
        painter.setPen(QPen(color, 1))
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawEllipse(QPointF(x, geometry.y(one.estimates[one.cursor])), 4, 4)
        painter.setBrush(Qt.BrushStyle.NoBrush)


def _cosmetic(color: QColor, width: float) -> QPen:
    pen = QPen(color, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
    pen.setCosmetic(True)
    return pen


def axis_ticks(top: float) -> list[float]:
    """Three to seven round token counts (1, 2 or 5 times a power of ten) up to `top`; fewer on a
    tiny range, never a fraction of a token, and no two that read alike on the axis. The step is
    worked out from `top`, so a figure of 1e300 costs what one of 300 does; none for a top that is
    not a finite number."""
    if not math.isfinite(top) or top < 1:
        return []
    most = top / 3  # the step leaves at least three ticks
    power = 10.0 ** math.floor(math.log10(most))
    step = next((base * power for base in (5, 2, 1) if base * power <= most), power)
    step = max(1.0, step)
    ticks, shown = [], set()
    for count in range(1, int(top / step) + 1):  # seven at most: top / step < 3 × 2.5
        value = step * count
        value = int(value) if value < 2**53 else value  # a count of tokens, while a double holds it exactly
        label = axis_label(value)
        if label not in shown:
            shown.add(label)
            ticks.append(value)
    return ticks


def axis_label(value: float) -> str:
    """A token count as the axis shows it: 950, 1.5k, 12k, 2M; past what reads, in powers of ten."""
    huge = beyond_words(value)  # "5e299": the axis's margin holds five or six characters
    if huge is not None:
        return huge
    if value >= 1_000_000_000:
        return f"{value / 1_000_000_000:.1f}B".replace(".0B", "B")
    if value >= 1_000_000:
        return f"{value / 1_000_000:.1f}M".replace(".0M", "M")
    if value >= 1000:
        return f"{value / 1000:.0f}k" if value >= 10_000 else f"{value / 1000:.1f}k".replace(".0k", "k")
    return f"{value:.0f}"
