"""The context over time: a strip under the tree plotting pi's estimate along the selected path.

For every entry from the root to the selected node: pi's context estimate were
that entry the leaf (a line), what the provider reported the assistant read
(dots), compactions (dashed drops), branch points (ticks below) and labels
(flags above), and the model's context window as a line when it is known.
Hovering reads out an entry and its figures; a click selects it in the tree.
In compare mode both leaves' paths are drawn.

The figures come from the model's fold (model/fold/), worked out once per load in
the background: until then the strip says so. The path drawn runs past the
selection to the end of its branch, and the selection is a cursor on it: stepping
along the path moves the cursor and draws nothing anew. Text from the session
(ids, labels) is only ever drawn as plain text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QPointF, QSize, Qt
from PySide6.QtGui import QFontMetrics, QMouseEvent, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QMenu, QSizePolicy, QWidget

from ...model.text.describe import entry_title
from ...model.text.plural import counted
from ...model.tokens.context_estimate import estimate_text
from ...model.text.csv_cells import timeline_csv
from ...model.tokens.timeline import timeline_json
from ..common.formatting import format_tokens
from ..common.widgets import menu_text
from .geometry import LEFT, RIGHT, PlotGeometry
from .plot import muted_color, paint_cursors, paint_hover, paint_plot
from .series import Series, build_series
from .stacked import StackedAreas
from ..guard import guarded, guarded_paint

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.workspace import Change
    from ..control.controller import SessionController


class TimelineStrip(QWidget):
    """The strip. Public for callers and tests: `series`, `hovered` (row index or None),
    `readout()` (the hover text), `index_at(x)`, `plot_geometry()` (where rows and figures are
    drawn), and `busy` while the figures are worked out. Painting is plot.py's."""

    def __init__(self, controller: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.series: list[Series] = []
        self.hovered: int | None = None
        self.busy = False
        self._shown = 0
        self._layer: tuple[tuple, QPixmap] | None = None  # (what it shows, the plot drawn once)
        self.stacked = StackedAreas()  # an option: what the context is made of
        self.context_menu: QMenu | None = None  # the last right-click's
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)  # the plot's layer covers it: nothing under it is painted
        self.setAccessibleName("Context over time")
        self.setMinimumHeight(110)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        controller.changed.connect(self._on_change)

    @guarded(fallback=QSize())
    def sizeHint(self) -> QSize:
        return QSize(600, 150)

    # ---- data -----------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        return self.controller.session

    def _on_change(self, change: Change) -> None:
        if change.replaced:
            self.series = []
        elif change.appended and not self._extend(change.appended):
            self.series = []  # appended entries that change the path drawn in another way: drawn afresh
        if change.replaced or change.appended or change.selection or change.compare or change.figures:
            self.refresh()

    def _extend(self, appended: tuple[str, ...]) -> bool:
        """pi appended: the path drawn takes in the rows and marks that adds (a reply, a label) without
        being built again; False when it cannot."""
        if len(self.series) != 1 or self.controller.compared or not self.isVisibleTo(self.window()):
            return False
        series, session, selected = self.series[0], self.session, self.controller.selected
        if session is None or selected is None or selected not in session.entries:
            return False
        along = self.controller.workspace.path_fold().along(selected)
        if along is None or not series.extend(along, session, appended):
            return False
        self.stacked.follow(series.along)
        self._shown += 1  # the plot is drawn again: its rows, scale or marks changed
        self.update()
        return True

    def wanted(self) -> list[tuple[str, str | None]]:
        """What to draw: (the entry shown, the end of the path drawn: None for the end of its branch);
        both compared leaves' paths, else the selection's."""
        if self.session is None:
            return []
        compared = self.controller.compared
        if compared:
            return [(key, key) for key in compared if key in self.session.entries]
        selected = self.controller.selected
        return [(selected, None)] if selected in self.session.entries else []

    def refresh(self) -> None:
        wanted, session = self.wanted(), self.session
        self.busy = False
        if not wanted or session is None or not self.isVisibleTo(self.window()):
            self._show([])  # drawn again when shown
            return
        if self._move_cursor(wanted):
            return
        fold = self.controller.workspace.path_fold()
        found = [fold.along(key, end) for key, end in wanted]
        alongs = [along for along in found if along is not None]
        if len(alongs) < len(found):
            self.busy = True  # the figures are being worked out: drawn when they are (Change.figures)
            self._show([])
            return
        # One path after another: the new one is read from where it leaves the one drawn.
        near = self.series[0] if len(self.series) == 1 and len(alongs) == 1 else None
        self._show([build_series(session, along, near) for along in alongs])

    def _move_cursor(self, wanted: list[tuple[str, str | None]]) -> bool:
        """The selection lies on the path drawn: move its cursor there, draw nothing anew."""
        if len(wanted) != 1 or wanted[0][1] is not None or len(self.series) != 1 or self.controller.compared:
            return False
        series = self.series[0]
        index = series.index_of(wanted[0][0])
        if index is None:
            return False
        if index != series.cursor:
            series.cursor = index
            self.update()
        return True

    def _show(self, series: list[Series]) -> None:
        self.series = series
        self.stacked.follow(series[0].along if series else None)
        self.hovered = None
        self._shown += 1  # the plot is drawn afresh
        self.update()

    @guarded
    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        self.refresh()  # hidden: nothing is kept until shown again

    @guarded
    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.refresh()

    # ---- geometry -----------------------------------------------------------------

    def plot_geometry(self) -> PlotGeometry:
        """Where the shown series (and the stacked areas, when shown) are drawn at the strip's present size."""
        return PlotGeometry.of(self.width(), self.height(), self.series, self.stacked.peak)

    def index_at(self, x: float) -> int | None:
        return self.plot_geometry().index_at(x)

    # ---- reading out ----------------------------------------------------------------

    def readout(self) -> str:
        """The hovered entry and its figures (or a summary of the path), as plain text."""
        if self.busy and not self.series:
            return "Estimating the context along the path…"
        if not self.series:
            return "Select an entry to see pi's context estimate along its path" if self.session is not None else ""
        if self.hovered is None:
            return self._summary()
        return "   ·   ".join(self._row_text(series, self.hovered) for series in self.series if self.hovered < len(series))

    def _row_text(self, series: Series, index: int) -> str:
        row, session = series.row(index), self.session
        assert session is not None, "a series is drawn only while its session is open"
        entry = session.entries[row.id]
        parts = [f"#{index + 1} {entry_title(entry, 48)}", f"pi's estimate {estimate_text(row.tokens_estimate)}"]
        if row.input_tokens is not None:
            parts.append(f"input {format_tokens(row.input_tokens)}")
        if row.id in session.labels:
            parts.append(f"label “{session.labels[row.id]}”")
        return " · ".join(parts)

    def _summary(self) -> str:
        series = self.series[0]
        now = series.row(series.cursor).tokens_estimate
        text = (
            f"{counted(len(series), 'entry')} · now {estimate_text(now)} at #{series.cursor + 1}"
            f" · peak {estimate_text(series.peak_estimate)} · {counted(len(series.compactions), 'compaction')}"
        )
        if series.window:
            text += f" · window {series.window:,} ({series.model_name})"
        elif series.model_name:
            text += f" · window of {series.model_name} unknown"
        if len(self.series) > 1:
            other = self.series[1]
            text += f"   |   compare: {counted(len(other), 'entry')}, now {estimate_text(other.row(other.cursor).tokens_estimate)}"
        return text

    # ---- mouse ----------------------------------------------------------------------

    @guarded
    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        index = self.index_at(event.position().x())
        if index != self.hovered:
            self.hovered = index
            self.update()

    @guarded
    def leaveEvent(self, event) -> None:
        self.hovered = None
        self.update()
        super().leaveEvent(event)

    @guarded
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or not self.series:
            return
        index = self.index_at(event.position().x())
        series = self._nearest_series(index, event.position().y())
        if index is not None and series is not None:
            self.controller.select(series.keys[min(index, len(series) - 1)])

    def _nearest_series(self, index: int | None, y: float) -> Series | None:
        if index is None:
            return None
        geometry = self.plot_geometry()
        candidates = [series for series in self.series if index < len(series)] or self.series[:1]
        return min(candidates, key=lambda series: abs(geometry.y(series.estimates[min(index, len(series) - 1)]) - y))

    @guarded
    def contextMenuEvent(self, event) -> None:
        if not self.series:
            return
        self.context_menu = self.menu_at(event.pos())
        self.context_menu.popup(event.globalPos())
        event.accept()

    def menu_at(self, position: QPoint) -> QMenu:
        """The right-click menu at `position`: select the entry there, the stacked option, copy the figures."""
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # one menu per right-click
        index = self.index_at(position.x())
        series = self._nearest_series(index, position.y())
        if series is not None and index is not None:
            key = series.keys[min(index, len(series) - 1)]
            menu.addAction(menu_text(f"Select {key}"), lambda: self.controller.select(key))
            menu.addSeparator()
        stacked = menu.addAction("Show What the Context Is Made Of (stacked, chars/4)")
        stacked.setCheckable(True)
        stacked.setChecked(self.stacked.enabled)
        stacked.toggled.connect(self.set_stacked)  # triggered() would hand a slot no state
        menu.addSeparator()
        menu.addAction("Copy Path's Figures as CSV", lambda: self.copy_rows("csv"))
        menu.addAction("Copy Path's Figures as JSON", lambda: self.copy_rows("json"))
        return menu

    def set_stacked(self, on: bool) -> None:
        """Draw, under pi's estimate, what the context is made of at each entry (the fold's, along the path drawn)."""
        self.stacked.enabled = on
        self._show(self.series)

    def copy_rows(self, kind: str) -> None:
        """The drawn path's rows, as `pibrowser timeline` prints them (the first series in compare mode)."""
        rows = self.series[0].rows() if self.series else []
        text = timeline_csv(rows) if kind == "csv" else timeline_json(rows).decode("utf-8") + "\n"
        QApplication.clipboard().setText(text)

    # ---- painting -------------------------------------------------------------------

    @guarded_paint
    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self._plot_layer())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self.series:
            geometry = self.plot_geometry()
            paint_cursors(painter, self.series, geometry)  # over the layer: a step along the path repaints only this
            if self.hovered is not None:
                paint_hover(painter, geometry, self.hovered, muted_color(self.palette()))
        painter.setPen(self.palette().color(QPalette.ColorRole.Text))
        metrics = QFontMetrics(painter.font())
        line = metrics.elidedText(self.readout(), Qt.TextElideMode.ElideRight, max(10, self.width() - LEFT - RIGHT))
        painter.drawText(QPointF(LEFT, metrics.ascent() + 3), line)  # drawText never reads markup
        painter.end()

    def _plot_layer(self) -> QPixmap:
        """Everything but the hover line and the readout, drawn once per shown series, size and
        palette: moving the mouse over the strip repaints only those two."""
        ratio = self.devicePixelRatioF()
        key = (self._shown, self.width(), self.height(), ratio, self.palette().cacheKey())
        if self._layer is None or self._layer[0] != key:
            pixmap = QPixmap(QSize(max(1, round(self.width() * ratio)), max(1, round(self.height() * ratio))))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(self.palette().color(QPalette.ColorRole.Base))
            painter = QPainter(pixmap)
            painter.setFont(self.font())
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            paint_plot(painter, self.series, self.plot_geometry(), self.palette(), self.stacked)
            painter.end()
            self._layer = (key, pixmap)
        return self._layer[1]
