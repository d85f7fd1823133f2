"""Where the strip puts things: the plot's rectangle, the x of a row, the y of a figure, the row under the mouse."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF

from .series import Series

LEFT, RIGHT, TOP, BOTTOM = 52, 10, 30, 28  # margins: the axis's figures left, the readout above, the legend below


def top_value(series: list[Series], floor: float = 1.0) -> float:
    """The figure at the plot's top: the highest estimate or window drawn (or `floor`, the stacked
    areas' peak), with room above it."""
    values = [1.0, floor]
    for one in series:
        values.append(one.peak)
        if one.window:
            values.append(one.window)
    return max(values) * 1.08


@dataclass(frozen=True, slots=True)
class PlotGeometry:
    """A strip `width` × `height` pixels showing `length` rows and figures up to `top`."""

    width: int
    height: int
    length: int
    top: float

    @classmethod
    def of(cls, width: int, height: int, series: list[Series], floor: float = 1.0) -> PlotGeometry:
        return cls(width, height, max((len(one.rows) for one in series), default=0), top_value(series, floor))

    @property
    def plot(self) -> QRectF:
        return QRectF(LEFT, TOP, max(1, self.width - LEFT - RIGHT), max(1, self.height - TOP - BOTTOM))

    def across(self) -> tuple[float, float]:
        """Where row 0 falls and how far apart rows are: x = left + across × index (a lone row is centred)."""
        plot = self.plot
        if self.length > 1:
            return plot.left(), plot.width() / (self.length - 1)
        return plot.left() + plot.width() / 2, 0.0

    def x(self, index: int) -> float:
        left, across = self.across()
        return left + across * index

    def y(self, value: float) -> float:
        plot = self.plot
        return plot.bottom() - plot.height() * value / self.top

    def index_at(self, x: float) -> int | None:
        """The row under `x` (None when no row is drawn)."""
        if not self.length:
            return None
        plot = self.plot
        share = (x - plot.left()) / plot.width() if plot.width() else 0
        return min(self.length - 1, max(0, round(share * (self.length - 1))))
