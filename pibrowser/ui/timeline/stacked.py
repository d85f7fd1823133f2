"""The strip's stacked areas: what the context is made of at each entry along the path.

An option of the strip (its context menu): under pi's estimate, the context's
characters / 4 by group (model/tokens/composition.py), stacked, from the system
prompt at the bottom up. Worked out in the thread pool, for about one sample per
column, by one walk along the path (model/tokens/composition_path.py).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QPointF, QRectF, QThreadPool, Signal
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPolygonF

from ...model.tokens.composition import GROUPS
from ...model.tokens.composition_path import compositions_along
from ..context.composition_bar import GROUP_COLORS
from ..control.job import Job

SAMPLES = 1500  # at most, along a path


class _Job(Job):
    """The groups at about SAMPLES positions of the path to `leaf`: (the path's ids, positions, groups).
    Tagged with the generation it was started for."""

    failure_text = "what the context is made of along the path could not be worked out"

    def __init__(self, session, leaf: str, generation: int, stop: Callable[[], bool], pace: Callable[[], None]) -> None:
        super().__init__(generation)
        self.session, self.leaf, self.stop, self.pace = session, leaf, stop, pace

    def work(self) -> tuple[list[str], list[int], list[list[int]]]:
        path = self.session.path_entries(self.leaf)
        per = max(1, len(path) // SAMPLES)
        positions = sorted({*range(0, len(path), per), len(path) - 1})

        def stop() -> bool:
            self.pace()
            return self.stop()

        groups = compositions_along(path, positions, read=lambda entry: entry.unkept(), stop=stop)
        return [entry.id for entry in path], positions[: len(groups)], groups


class StackedAreas(QObject):
    """`enabled` is the option; `follow(session, leaf)` works out the areas of that path; `paint` draws them."""

    ready = Signal()

    def __init__(self, courtesy, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.courtesy = courtesy
        self.enabled = False
        self.leaf: str | None = None
        self.positions: list[int] = []
        self.groups: list[list[int]] = []  # characters by group (GROUPS order) at each position
        self.busy = False
        self._generation = 0
        self._session = None
        # The path worked out last, whole: a leaf on it (a step along the path) is drawn from it.
        self._walked: tuple[dict[str, int], list[int], list[list[int]]] | None = None

    @property
    def peak(self) -> float:
        return max((sum(groups) / 4 for groups in self.groups), default=0.0)

    def follow(self, session, leaf: str | None) -> None:
        if session is not self._session:
            self._session, self._walked = session, None
        if not self.enabled or session is None or leaf is None:
            self._clear()
            return
        if leaf == self.leaf and (self.groups or self.busy):
            return
        place = self._walked[0].get(leaf) if self._walked is not None else None
        if place is not None:
            _, positions, groups = self._walked
            shown = sum(1 for position in positions if position <= place)
            self.leaf, self.positions, self.groups = leaf, positions[:shown], groups[:shown]
            return
        self._clear()
        self.leaf, self.busy = leaf, True
        generation = self._generation
        job = _Job(session, leaf, generation, lambda: generation != self._generation, self.courtesy.step)
        job.signals.done.connect(self._done)
        job.signals.failed.connect(self._failed)
        QThreadPool.globalInstance().start(job)

    def _clear(self) -> None:
        self._generation += 1
        self.leaf, self.positions, self.groups, self.busy = None, [], [], False

    def _failed(self, message: str, generation: int) -> None:
        # A bug of ours, in the log: the strip draws its line without areas.
        if generation == self._generation:
            self.busy = False
            self.ready.emit()

    def _done(self, answer: tuple[list[str], list[int], list[list[int]]], generation: int) -> None:
        if generation != self._generation:
            return
        ids, positions, groups = answer
        self.positions, self.groups, self.busy = positions, groups, False
        if len(groups) == len(positions) and ids:
            self._walked = ({key: at for at, key in enumerate(ids)}, positions, groups)
        self.ready.emit()

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
