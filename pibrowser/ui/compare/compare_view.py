"""Two contexts side by side, as the model sees them: what they share, then every row after the fork.

The header names the two sides and their totals; under it, which side changed which files
(files_box); under that the rows (compare_rows): the
shared prefix as one row, then the aligned rows, each pair's cards side by side in
their columns, built as they come into view (the same painted cards as the context
panel's, on the same list). Clicking any card or line selects its entry in the tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from ..context.message_card import Card
from ..context.message_items import ContextInfo, context_info
from ..cards import ImageLoader, Piece, RowList, RowPieces, RowState, Text, ToRow, ToStart
from ..common.widgets import remute
from ...model.compare.comparison import Comparison
from ...model.compare.side_totals import SideTotals
from .compare_build import CompareBuilder
from .compare_header import CompareHeader
from .compare_rows import Block, CompareRows, DiffBlock, PairBlock, RunBlock
from .files_box import CompareFiles
from ..guard import guarded

if TYPE_CHECKING:
    from ..control.trace_facts import TraceFacts
    from .leaf_picker import LeafPicker


class CompareList(RowList):
    """The rows of the comparison shown."""

    def __init__(self, images: ImageLoader, parent: QWidget | None = None) -> None:
        self.builder: CompareBuilder | None = None
        self.compare_rows = CompareRows()
        super().__init__(self.compare_rows, images, parent)
        self.compare_rows.setParent(self)

    def show_comparison(self, comparison: Comparison | None, builder: CompareBuilder | None) -> None:
        self.builder = builder
        self.live.hide()
        self.compare_rows.show(comparison)
        self.forget_all()
        self.scroll_to(ToStart())

    def build_root(self, row: Block, state: RowState) -> RowPieces:
        return self.builder.build(row, state) if self.builder is not None else RowPieces()

    def jump(self, root: RowPieces, card: Piece | None, index: int) -> None:
        """Go to the card of message `index` on the side of `card`, and light it up."""
        if not isinstance(card, Card) or self.builder is None:
            return
        side = self.builder.infos.index(card.info) if card.info in self.builder.infos else 0
        for row, block in enumerate(self.rows):
            if isinstance(block, PairBlock) and (block.row.left, block.row.right)[side] == index:
                self.scroll_to(ToRow(row))
                target = next((found for found in self.root(row).cards() if isinstance(found, Card) and found.info is card.info), None)
                self.flash(target.item if target is not None else None)
                return


class CompareView(QWidget):
    """The comparison the controller holds (see SessionController.set_compare)."""

    def __init__(self, controller, parent: QWidget | None = None, images: ImageLoader | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.images = images if images is not None else ImageLoader(self)
        self.comparison: Comparison | None = None
        self.infos: tuple[ContextInfo, ContextInfo] | None = None
        self.picker: LeafPicker | None = None
        self.facts: TraceFacts | None = None  # the session's trace facts (control/trace_facts.py), where the window has them
        self.files: CompareFiles | None = None
        layout = self._column = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.header = CompareHeader(self)
        self.header.selectRequested.connect(self._select)
        self.header.changeRequested.connect(self.change_side)
        self.header.swapRequested.connect(self.swap)
        self.header.clearRequested.connect(self.clear)
        layout.addWidget(self.header)
        self.list = CompareList(self.images)
        self.list.activated.connect(lambda key, card: self._select(key))
        layout.addWidget(self.list, 1)
        # Never ask for more room than the context panel it shares a tab with: opening compare must not resize docks.
        self.setMinimumWidth(0)
        controller.changed.connect(self._on_change)
        self.refresh()

    @guarded
    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            remute(self)

    # -- following the controller

    def _on_change(self, change) -> None:
        if change.replaced or change.compare or (change.figures and self.controller.compared):
            self.refresh()

    def refresh(self) -> None:
        comparison = self.controller.comparison()
        self.comparison = comparison
        if comparison is None:
            self.infos = None
            self.header.show_nothing()
            self._show_files(None)
            self.list.show_comparison(None, None)
            return
        controller = self.controller
        left, right = comparison.left, comparison.right
        totals = (SideTotals.of(left, controller.stats(left.leaf)), SideTotals.of(right, controller.stats(right.leaf)))
        self.header.show_comparison(comparison, controller.session, totals)
        self.infos = (self._info(left), self._info(right))
        self._show_files((left.leaf, right.leaf))
        self.list.show_comparison(comparison, CompareBuilder(comparison, self.infos))

    def _show_files(self, leaves: tuple[str, str] | None) -> None:
        """Which side changed which files: a box between the header and the rows, worked out anew for each comparison."""
        if self.files is not None:
            self.files.drop()
            self.files = None
        if leaves is None:
            return
        self.files = CompareFiles(self.controller, self.facts)
        self._column.insertWidget(self._column.indexOf(self.list), self.files)
        self.files.show_sides(*leaves)

    def _info(self, context) -> ContextInfo:
        info = context_info(context, self.controller.provenance(context.leaf), self.controller.stats(context.leaf).message_tokens)
        info.images = self.images
        info.labels = self.controller.session.labels
        return info

    def settings_text(self) -> str:
        return self.header.settings_text()

    # -- actions

    def _select(self, key: str | None) -> None:
        if key:
            self.controller.select(key)

    def swap(self) -> None:
        if self.controller.compared:
            left, right = self.controller.compared
            self.controller.set_compare(right, left)

    def clear(self) -> None:
        self.controller.set_compare(None, None)

    def change_side(self, side: str) -> None:
        """Pick another entry for side A or B with the leaf picker; the other side stays."""
        if not self.controller.compared or self.controller.session is None:
            return
        from .leaf_picker import LeafPicker

        left, right = self.controller.compared
        keep = right if side == "A" else left
        self.picker = picker = LeafPicker(self.controller.session, keep, self, title=f"Compare: choose side {side}")
        picker.chosen.connect(
            lambda key: self.controller.set_compare(key, right) if side == "A" else self.controller.set_compare(left, key)
        )
        picker.open()

    # -- what it shows, for tests and callers (built on demand)

    def cards(self, side: str) -> list[Card]:
        """The cards of one side ("A" or "B") on its rows, in order (a run's, once it is open)."""
        column = "AB".index(side)
        found: list[Card] = []
        for row, block in enumerate(self.list.rows):
            if isinstance(block, (PairBlock, RunBlock)):
                info = self.infos[column] if self.infos is not None else None
                found.extend(card for card in self.list.root(row).cards() if isinstance(card, Card) and card.info is info)
        return found

    def left_cards(self) -> list[Card]:
        return self.cards("A")

    def right_cards(self) -> list[Card]:
        return self.cards("B")

    def diff_texts(self) -> list[Text]:
        return [
            self.list.root(row).all_texts()[0]
            for row, block in enumerate(self.list.rows)
            if isinstance(block, DiffBlock) and self.list.root(row).all_texts()
        ]

    def run_rows(self) -> list[int]:
        return [row for row, block in enumerate(self.list.rows) if isinstance(block, RunBlock)]

    def row_lines(self, row: int) -> list[str]:
        """The short texts a row shows (its lines and notes), whole."""
        return self.list.root(row).shown_lines()
