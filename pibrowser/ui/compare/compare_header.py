"""The head of the compare view: the two sides, the fork point, totals per side and their difference.

Rows: A and B (id, title, a button to pick another entry), the common
ancestor; then a small table of messages, tokens, recorded cost, model and
thinking level per side, with B − A under it. Settings that differ are bold.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ...model.compare.comparison import Comparison
from ...model.text.describe import entry_title
from ...model.compare.side_totals import SideTotals
from ...model.tokens.context_estimate import estimate_text
from ..style.colors import COMPARE, mix
from ..common.formatting import format_model
from ..common.safe_text import plain
from ..common.widgets import Chip, ElidedLabel, is_dark, link_button, plain_label, set_bold, set_muted, smaller_size, SMALL
from ..guard import guarded_paint

SIDES = ("A", "B")
TOTAL_COLUMNS = ("", "Messages", "Tokens", "Cost", "Model", "Thinking")
MODEL, THINKING = TOTAL_COLUMNS.index("Model"), TOTAL_COLUMNS.index("Thinking")


def side_color(side: str) -> QColor:
    return QColor(COMPARE[side][1 if is_dark() else 0])


def _entry_title() -> ElidedLabel:
    """An entry's title beside its id: muted, small, and ending in "…" where the dock is too narrow."""
    title = ElidedLabel()
    font = title.font()
    font.setPointSizeF(smaller_size(font.pointSizeF(), SMALL))
    title.setFont(font)
    set_muted(title)
    return title


class CompareHeader(QFrame):
    """Signals: selectRequested(id), changeRequested(side "A"/"B"), swapRequested(), clearRequested()."""

    selectRequested = Signal(object)  # an entry id, kept as the object it is (a JsKey is no plain string)
    changeRequested = Signal(str)
    swapRequested = Signal()
    clearRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        layout.addLayout(self._top())
        self.sides_grid = QGridLayout()
        self.sides_grid.setHorizontalSpacing(10)
        self.sides_grid.setVerticalSpacing(2)
        self.sides = {side: self._side_row(row, side) for row, side in enumerate(SIDES)}
        self.ancestor = self._ancestor_row(2)
        self.sides_grid.setColumnStretch(2, 1)
        layout.addLayout(self.sides_grid)
        self.totals_grid = QGridLayout()
        self.totals_grid.setHorizontalSpacing(8)
        self.totals_grid.setVerticalSpacing(1)
        self.totals: dict[str, list[QLabel]] = {}
        self._totals_table()
        layout.addLayout(self.totals_grid)

    def _top(self) -> QHBoxLayout:
        self.title = plain_label("Nothing to compare", wrap=True)  # in a narrow dock it wraps rather than widening it
        set_bold(self.title)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        self.swap_button = QPushButton("⇄ Swap")
        self.swap_button.setToolTip("Swap A and B")
        self.swap_button.clicked.connect(self.swapRequested)
        self.clear_button = QPushButton("Clear")
        self.clear_button.setToolTip("Stop comparing")
        self.clear_button.clicked.connect(self.clearRequested)
        top.addWidget(self.swap_button)
        top.addWidget(self.clear_button)
        return top

    def _side_row(self, row: int, side: str) -> dict[str, Any]:
        chip = Chip(side, side_color(side))
        chip.setToolTip("A is drawn solid in the tree, B dashed" if side == "A" else "B is drawn dashed in the tree, A solid")
        button = link_button("—", f"Show side {side} in the tree")
        title = _entry_title()
        change = link_button("Change…", f"Compare with another entry on side {side}")
        change.clicked.connect(lambda: self.changeRequested.emit(side))
        for column, widget in enumerate((chip, button, title, change)):
            self.sides_grid.addWidget(widget, row, column)
        found: dict[str, Any] = {"chip": chip, "button": button, "title": title, "change": change, "id": None}
        button.clicked.connect(lambda: self._select(found["id"]))
        return found

    def _ancestor_row(self, row: int) -> dict[str, Any]:
        name = plain_label("Fork", muted=True, small=True)
        name.setToolTip("The lowest common ancestor: where the two paths part")
        button = link_button("—", "Show the fork point in the tree")
        title = _entry_title()
        for column, widget in enumerate((name, button, title)):
            self.sides_grid.addWidget(widget, row, column)
        found: dict[str, Any] = {"button": button, "title": title, "id": None}
        button.clicked.connect(lambda: self._select(found["id"]))
        return found

    def _select(self, key: str | None) -> None:
        """A side's or the fork's button: its entry, once the row names one."""
        if key:
            self.selectRequested.emit(key)

    def _totals_table(self) -> None:
        for column, name in enumerate(TOTAL_COLUMNS):
            head = plain_label(name, muted=True, small=True)
            self.totals_grid.addWidget(head, 0, column)
        for row, side in enumerate((*SIDES, "B − A"), start=1):
            cells = [plain_label(side if column == 0 else "", small=True) for column in range(len(TOTAL_COLUMNS))]
            # A model's name and a thinking level come from the file, of any length: they give way in a
            # narrow dock, elided, whole in their tooltips.
            for column in (MODEL, THINKING):
                cells[column] = ElidedLabel()
                cells[column].setFont(cells[0].font())
            for column, cell in enumerate(cells):
                if 0 < column < 4:
                    cell.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.totals_grid.addWidget(cell, row, column)
            self.totals[side] = cells
        self.totals_grid.setColumnStretch(MODEL, 1)

    # ---- showing a comparison

    @guarded_paint
    def paintEvent(self, event) -> None:
        # A shade between the window and the page, worked out at paint time: a palette set on the
        # widget would keep the colours of the theme it was set under when the theme changes.
        palette = self.palette()
        painter = QPainter(self)
        painter.fillRect(self.rect(), mix(palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.Base), 0.5))
        painter.end()
        super().paintEvent(event)

    def show_nothing(self) -> None:
        self.title.setText("Nothing to compare")
        for found in (*self.sides.values(), self.ancestor):
            found["id"] = None
            found["button"].setText("—")
            found["title"].setText("")
        for cells in self.totals.values():
            for cell in cells[1:]:
                cell.setText("")
        self._enable(False)

    def show_comparison(self, comparison: Comparison, session, totals: tuple[SideTotals, SideTotals]) -> None:
        if comparison.identical:
            self.title.setText("Identical for the model")
        else:
            self.title.setText(f"{comparison.differences:,} of {len(comparison.rows):,} rows differ for the model")
        for side, context in zip(SIDES, (comparison.left, comparison.right)):
            found = self.sides[side]
            found["id"] = context.leaf
            found["button"].setText(plain(context.leaf))
            entry = session.entries.get(context.leaf)
            found["title"].setText(entry_title(entry, 90) if entry is not None else "")
        self._show_ancestor(comparison.common_ancestor, session)
        self._show_totals(*totals)
        self._enable(True)

    def _enable(self, on: bool) -> None:
        self.swap_button.setEnabled(on)
        self.clear_button.setEnabled(on)

    def _show_ancestor(self, key: str | None, session) -> None:
        self.ancestor["id"] = key
        if key is not None and key in session.entries:
            self.ancestor["button"].setText(plain(key))
            self.ancestor["button"].setEnabled(True)
            self.ancestor["title"].setText(entry_title(session.entries[key], 90))
        else:
            self.ancestor["button"].setText("none")
            self.ancestor["button"].setEnabled(False)
            self.ancestor["title"].setText("separate roots: no common ancestor")

    def _show_totals(self, a: SideTotals, b: SideTotals) -> None:
        for side, totals in (("A", a), ("B", b)):
            cells = self.totals[side]
            cells[1].setText(f"{totals.messages:,}")
            cells[2].setText(f"≈{estimate_text(totals.tokens)}")
            cells[3].setText(f"${totals.cost:.4f}" if totals.cost is not None else "…")
            cells[4].setText(format_model(totals.model))
            cells[5].setText(plain(totals.thinking_level))
        messages, tokens, cost = b.minus(a)
        cells = self.totals["B − A"]
        cells[1].setText(f"{messages:+,}")
        cells[2].setText(f"{tokens:+,}" if type(tokens) is int else estimate_text(tokens))  # NaN where pi's is
        cells[3].setText(f"{cost:+.4f}" if cost is not None else "…")
        cells[4].setText("same" if a.model == b.model else "differs")
        cells[5].setText("same" if a.thinking_level == b.thinking_level else "differs")
        for column, same in ((4, a.model == b.model), (5, a.thinking_level == b.thinking_level)):
            for side in (*SIDES, "B − A"):
                font = self.totals[side][column].font()
                font.setBold(not same)
                self.totals[side][column].setFont(font)

    def settings_text(self) -> str:
        """Model and thinking per side, as shown (for tests and copies)."""
        return "\n".join(f"{side}: {cells[4].text()} · thinking {cells[5].text()}" for side, cells in self.totals.items())
