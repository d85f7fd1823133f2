"""The Usage view's two charts on Qt Charts: cost or tokens stacked by model or project, and the cache hit ratio.

Both share one time axis: a category per period, with as many labels as the width has room
for (a QCategoryAxis labels the chosen periods only, so 180 days never pile up). Colours come
from the window's palette, so the charts follow the light and the dark theme. Every text a
chart shows (model and project names) comes from the files: Qt Charts draws it as plain text.
"""

from __future__ import annotations

import math

from PySide6.QtCharts import (
    QBarSet,
    QCategoryAxis,
    QChart,
    QChartView,
    QLineSeries,
    QScatterSeries,
    QStackedBarSeries,
    QValueAxis,
)
from PySide6.QtCore import QMargins, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy

from ...model.text.terminal_text import one_line
from ...model.usage.grouping import OTHER, Stacks

# Eight hues that tell apart on light and dark backgrounds (the last series, "Other", is grey).
SERIES_COLORS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#9c755f")
OTHER_COLOR = "#9aa0a6"
LABEL_ROOM = 96  # pixels a period's label needs on the time axis
SERIES_NAME_LIMIT = 48


def series_color(index: int, name: str) -> QColor:
    return QColor(OTHER_COLOR if name == OTHER else SERIES_COLORS[index % len(SERIES_COLORS)])


def token_unit(largest: float) -> tuple[float, str]:
    """A divisor and its name, so a token axis reads 2.5 rather than 2500000."""
    for divisor, name in ((1e9, "billion tokens"), (1e6, "million tokens"), (1e3, "thousand tokens")):
        if largest >= divisor:
            return divisor, name
    return 1.0, "tokens"


def style_chart(chart: QChart, palette: QPalette) -> None:
    """The chart in the window's colours: its background, texts, grid and legend."""
    text = palette.color(QPalette.ColorRole.WindowText)
    grid = palette.color(QPalette.ColorRole.Mid)
    chart.setBackgroundBrush(QBrush(palette.color(QPalette.ColorRole.Base)))
    chart.setBackgroundRoundness(0)
    chart.setPlotAreaBackgroundVisible(False)
    chart.setTitleBrush(QBrush(text))
    chart.legend().setLabelColor(text)
    for axis in chart.axes():
        axis.setLabelsBrush(QBrush(text))
        axis.setTitleBrush(QBrush(text))
        axis.setGridLineColor(grid)
        axis.setLinePenColor(grid)


class ChartView(QChartView):
    """A chart that fills its place and draws antialiased, on one time axis and one value axis.

    The axes are made once and refilled at each draw: an axis removed from a chart leaves its
    labels drawn in the scene, so replacing them would pile labels up."""

    def __init__(self) -> None:
        super().__init__(QChart())
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        chart = self.chart()
        chart.setMargins(QMargins(4, 4, 4, 4))
        chart.layout().setContentsMargins(0, 0, 0, 0)
        self.time_axis = QCategoryAxis()
        self.time_axis.setLabelsPosition(QCategoryAxis.AxisLabelsPosition.AxisLabelsPositionOnValue)
        self.time_axis.setGridLineVisible(False)
        self.value_axis = QValueAxis()
        chart.addAxis(self.time_axis, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(self.value_axis, Qt.AlignmentFlag.AlignLeft)

    def reset(self, periods: list[str]) -> QChart:
        """The chart without its series, its time axis labelling `periods` as the width has room for."""
        chart = self.chart()
        chart.removeAllSeries()
        label_periods(self.time_axis, periods, self.width())
        return chart

    def attach(self, series) -> None:
        self.chart().addSeries(series)
        series.attachAxis(self.time_axis)
        series.attachAxis(self.value_axis)


def label_periods(axis: QCategoryAxis, periods: list[str], width: int) -> None:
    """Periods as categories 0…n-1, a label on every k-th so they fit `width`."""
    for label in axis.categoriesLabels():
        axis.remove(label)
    count = len(periods)
    step = max(1, math.ceil(count * LABEL_ROOM / max(width, LABEL_ROOM)))
    room = width / max(count, 1)  # pixels per period
    for index in range(0, count, step):
        if index and (count - index - 0.5) * room < LABEL_ROOM / 2:
            break  # a label this close to the right end would be cut off there
        axis.append(periods[index], index)
    axis.setRange(-0.5, max(count, 1) - 0.5)


class StackedChart(ChartView):
    """Cost or tokens per period, one bar set per model or project."""

    def __init__(self) -> None:
        super().__init__()
        self.sets: list[QBarSet] = []
        self.series: QStackedBarSeries | None = None
        self.values: list[list[float]] = []  # [series][period], as drawn
        self.unit = (1.0, "")
        self.chart().legend().setAlignment(Qt.AlignmentFlag.AlignBottom)

    def draw(self, stacks: Stacks, metric: str, palette: QPalette) -> None:
        chart = self.reset(stacks.periods)
        self.sets = []
        series = QStackedBarSeries()
        source = stacks.cost if metric == "cost" else stacks.tokens
        largest = max((sum(column) for column in zip(*source)), default=0.0)
        if not math.isfinite(largest):  # figures near a double's limit add up past it: draw them as the largest that is finite
            source = [[value if math.isfinite(value) and value < 1e300 else 0.0 for value in row] for row in source]
            largest = max((sum(column) for column in zip(*source)), default=0.0)
        self.unit = (1.0, "US$") if metric == "cost" else token_unit(largest)
        divisor = self.unit[0]
        self.values = [[value / divisor for value in row] for row in source]
        for index, (name, values) in enumerate(zip(stacks.series, self.values)):
            bars = QBarSet(one_line(name, SERIES_NAME_LIMIT))
            bars.append(values)
            color = series_color(index, name)
            bars.setColor(color)
            bars.setBorderColor(color)
            series.append(bars)
            self.sets.append(bars)
        series.setBarWidth(0.8)
        self.attach(series)
        self.series = series
        y = self.value_axis
        y.setTickCount(5)
        y.setRange(0, largest / divisor if largest > 0 else 1)
        y.applyNiceNumbers()
        y.setLabelFormat("%.2f" if metric == "cost" and y.max() < 10 else "%.0f" if metric == "cost" or y.max() >= 10 else "%.1f")
        y.setTitleText(self.unit[1])
        style_chart(chart, palette)

    def bar_center(self, series: int, period: int) -> QPointF:
        """Where a bar's part sits in the view (for a click or a hover)."""
        below = sum(self.values[index][period] for index in range(series))
        middle = below + self.values[series][period] / 2
        point = self.chart().mapToPosition(QPointF(period, middle), self.series)
        return self.mapFromScene(self.chart().mapToScene(point)).toPointF()


class HitRatioChart(ChartView):
    """pi's cache hit ratio per period (cache read / everything the model read), in percent."""

    def __init__(self) -> None:
        super().__init__()
        self.chart().legend().hide()

    def draw(self, stacks: Stacks, palette: QPalette) -> None:
        chart = self.reset(stacks.periods)
        color = palette.color(QPalette.ColorRole.Highlight)
        dots = QScatterSeries()
        dots.setColor(color)
        dots.setBorderColor(color)
        dots.setMarkerSize(7 if len(stacks.periods) <= 60 else 4)
        lines: list[QLineSeries] = []
        line: QLineSeries | None = None
        for period in range(len(stacks.periods)):
            ratio = stacks.hit_ratio(period)
            if ratio is None:
                line = None  # a period without usage breaks the line: nothing is drawn across it
                continue
            if line is None:
                line = QLineSeries()
                line.setPen(QPen(color, 2))
                lines.append(line)
            line.append(period, ratio * 100)
            dots.append(period, ratio * 100)
        for part in [*lines, dots]:
            self.attach(part)
        self.value_axis.setRange(0, 100)
        self.value_axis.setTickCount(3)
        self.value_axis.setLabelFormat("%.0f%%")
        self.value_axis.setTitleText("cache hits")
        style_chart(chart, palette)
