"""The strip's stacked areas: what the context is made of at each entry along the path.

An option of the strip (its context menu): under pi's estimate, the context's
characters / 4 by group (model/tokens/composition.py), stacked, from the system
prompt at the bottom up. The model's fold keeps what the context is made of at
every depth of the path (PathFold.along(...).composition), worked out with pi's
estimate in the same pass: the areas read about one sample per column from it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPolygonF

from ...model.tokens.composition import GROUPS
from ..style.colors import GROUP_COLORS

if TYPE_CHECKING:
    from ...model.fold.path_fold import Along

SAMPLES = 1500  # at most, along a path


class StackedAreas:
    """`enabled` is the option; `follow(along)` reads the areas of that path from the fold; `paint` draws them."""

    def __init__(self) -> None:
        self.enabled = False
        self.positions: list[int] = []  # depths sampled along the path drawn
        self.groups: list[list[int]] = []  # characters by group (GROUPS order) at each position

    @property
    def peak(self) -> float:
        return max((sum(groups) / 4 for groups in self.groups), default=0.0)

    def follow(self, along: Along | None) -> None:
        """The areas of the path the fold gives (`along`, to its tip); none when the option is off."""
        if not self.enabled or along is None:
            self.positions, self.groups = [], []
            return
        per = max(1, (along.tip + 1) // SAMPLES)
        self.positions = sorted({*range(0, along.tip + 1, per), along.tip})
        self.groups = [along.composition(depth) for depth in self.positions]

    def paint(self, painter: QPainter, plot: QRectF, top: float, x_of: Callable[[int], float]) -> None:
        """The areas, bottom group first, each a band between the running sums below and above it."""
        if not self.groups:
            return
        xs = [x_of(position) for position in self.positions]
        below = [plot.bottom()] * len(xs)
        running = [0.0] * len(xs)
        painter.save()
        painter.setPen(QColor(0, 0, 0, 0))
        for number, (group, _) in enumerate(GROUPS):
            if not any(groups[number] for groups in self.groups):
                continue
            above = []
            for at, groups in enumerate(self.groups):
                running[at] += groups[number] / 4
                above.append(plot.bottom() - plot.height() * running[at] / top)
            outline = [QPointF(x, y) for x, y in zip(xs, above)] + [QPointF(x, y) for x, y in zip(reversed(xs), reversed(below))]
            color = QColor(GROUP_COLORS[group])
            color.setAlpha(120)
            painter.setBrush(color)
            painter.drawPolygon(QPolygonF(outline))
            below = above
        painter.restore()

    def paint_key(self, painter: QPainter, plot: QRectF, text: QColor) -> None:
        """Which colour is which, in a row at the plot's top right."""
        if not self.groups:
            return
        metrics = QFontMetrics(painter.font())
        shown = [(group, name) for number, (group, name) in enumerate(GROUPS) if any(groups[number] for groups in self.groups)]
        x = plot.right() - sum(metrics.horizontalAdvance(name) + 18 for _, name in shown)
        y = plot.top() + metrics.ascent() + 2
        for group, name in shown:
            painter.fillRect(QRectF(x, y - metrics.ascent() + 2, 9, 9), QColor(GROUP_COLORS[group]))
            painter.setPen(text)
            painter.drawText(QPointF(x + 12, y), name)
            x += metrics.horizontalAdvance(name) + 18
