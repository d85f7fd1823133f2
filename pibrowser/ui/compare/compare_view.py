"""Two contexts side by side, as the model sees them: what they share, then every row after the fork.

The shared prefix (messages the same for the model) collapses into one row.
After it, the aligned rows (model.compare) come a page at a time: a pair the
model receives alike is one quiet line ("same text, other time"); a pair that
changed shows both cards and a word diff; a message on one side only stands in
its column, with the compaction or edit that explains it when there is one, and
a run of such messages with one cause folds into one row that opens into them.
Clicking any card or line selects its entry in the tree.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ...model.compare.alignment import Row, RowKind
from ...model.compare.comparison import Cause, CauseKind, Comparison, RowRun
from ...model.text.describe import message_preview
from ...model.compare.side_totals import SideTotals
from ...model.compare.word_diff import KEPT
from ..context.blocks import Collapsible
from ..context.card_items import ContextInfo, context_info
from .compare_header import CompareHeader, side_color
from .files_box import CompareFiles
from ..context.images import ImageLoader
from ..context.message_card import MessageCard
from ..context.roles import accent
from ..context.safe_text import plain
from ..context.widgets import Chip, link_button, plain_label, remute, set_text_color
from .word_diff_view import WordDiffView

PAIRS_PAGE = 30
SHARED_LIST_LIMIT = 300
RUN_CARDS_LIMIT = 200  # cards a group of one-sided rows opens into


class CompareView(QWidget):
    """The comparison the controller holds (see SessionController.set_compare)."""

    def __init__(self, controller, parent: QWidget | None = None, images: ImageLoader | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.images = images if images is not None else ImageLoader(self)
        self.comparison: Comparison | None = None
        self.infos: tuple[ContextInfo, ContextInfo] | None = None
        self.pairs_shown = 0
        self._cards: tuple[list[MessageCard], list[MessageCard]] = ([], [])
        self.diff_views: list[WordDiffView] = []
        self.runs: list[Collapsible] = []  # groups of one-sided rows with one cause
        self._blocks: list = []
        self.picker = None
        self.facts = None  # the session's trace facts (trace/facts_keeper.py), where the window has them
        self.files: CompareFiles | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.header = CompareHeader(self)
        self.header.selectRequested.connect(self._select)
        self.header.changeRequested.connect(self.change_side)
        self.header.swapRequested.connect(self.swap)
        self.header.clearRequested.connect(self.clear)
        layout.addWidget(self.header)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)  # see MessageList
        self.body = QWidget()
        self.body.setMinimumWidth(1)
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(8, 8, 8, 8)
        self.body_layout.setSpacing(8)
        self.scroll.setWidget(self.body)
        layout.addWidget(self.scroll, 1)
        # Never ask for more room than the context panel it shares a tab with: opening compare must not resize docks.
        self.setMinimumWidth(0)
        controller.changed.connect(self._on_change)
        self.refresh()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            remute(self)

    # -- following the controller

    def _on_change(self, change) -> None:
        if change.replaced or change.compare or (change.figures and self.controller.compared):
            self.refresh()

    def refresh(self) -> None:
        self._clear_content()
        comparison = self.controller.comparison()
        self.comparison = comparison
        if comparison is None:
            self.header.show_nothing()
            note = plain_label("Choose Entry ▸ Compare With… (Ctrl+D), or Ctrl+click a node in the tree, to compare two contexts.", muted=True, wrap=True)
            note.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self._add(note)
            self.body_layout.addStretch(1)
            return
        controller = self.controller
        left, right = comparison.left, comparison.right
        totals = (SideTotals.of(left, controller.stats(left.leaf)), SideTotals.of(right, controller.stats(right.leaf)))
        self.header.show_comparison(comparison, controller.session, totals)
        self.infos = tuple(self._info(context) for context in (left, right))
        self._build_shared(comparison)
        self.files = CompareFiles(controller, self.facts)
        self._add(self.files)
        self.files.show_sides(left.leaf, right.leaf)
        self._build_rows(comparison)

    def _info(self, context) -> ContextInfo:
        info = context_info(context, self.controller.provenance(context.leaf), self.controller.stats(context.leaf).message_tokens)
        info.images = self.images
        info.labels = self.controller.session.labels
        return info

    def settings_text(self) -> str:
        return self.header.settings_text()

    def _add(self, widget: QWidget) -> None:
        self.body_layout.addWidget(widget)

    def _clear_content(self) -> None:
        while self.body_layout.count():
            item = self.body_layout.takeAt(0)
            widget = item.widget()
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self._cards = ([], [])
        self.diff_views = []
        self.runs: list[Collapsible] = []
        self._blocks = []
        self.pairs_shown = 0
        self.files = None

    # -- the shared prefix

    def _build_shared(self, comparison: Comparison) -> None:
        count = comparison.shared_prefix
        quiet = sum(1 for row in comparison.rows[:count] if row.note)
        frame = QFrame()
        frame.setFrameShape(QFrame.Shape.StyledPanel)
        box = QVBoxLayout(frame)
        box.setContentsMargins(8, 4, 8, 4)
        if count:
            title = f"{count:,} shared message{'' if count == 1 else 's'} — the same for the model"
            if quiet:
                title += f" · {quiet:,} only in time or model"
            self.shared_row = Collapsible(title, lambda: self._shared_lines(comparison))
        else:
            self.shared_row = Collapsible("No shared messages — the contexts differ from the first message", QWidget)
            self.shared_row.toggle.setEnabled(False)
        box.addWidget(self.shared_row)
        self._add(frame)

    def _shared_lines(self, comparison: Comparison) -> QWidget:
        holder = QWidget()
        rows = QVBoxLayout(holder)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(1)
        for row in comparison.rows[: min(comparison.shared_prefix, SHARED_LIST_LIMIT)]:
            rows.addWidget(self._quiet_line(comparison, row), 0, Qt.AlignmentFlag.AlignLeft)
        if comparison.shared_prefix > SHARED_LIST_LIMIT:
            rows.addWidget(plain_label(f"… and {comparison.shared_prefix - SHARED_LIST_LIMIT:,} more", muted=True, small=True))
        return holder

    def _quiet_line(self, comparison: Comparison, row: Row) -> QWidget:
        """One line for a pair the model receives alike; it selects the left side's entry."""
        message = comparison.left.messages[row.left]
        role = message.get("role") if isinstance(message, dict) else "value"
        numbers = f"#{row.left + 1}" if row.left == row.right else f"#{row.left + 1} ↔ #{row.right + 1}"
        text = f"= {numbers}  {role}: {plain(message_preview(message))[:120]}"
        if row.note:
            text += f"  — {row.note}"
        source = comparison.source("left", row.left).id
        button = link_button(text, f"Select entry {source}")
        button.clicked.connect(lambda checked=False, key=source: self._select(key))
        return button

    # -- the rows after the fork

    def _build_rows(self, comparison: Comparison) -> None:
        if comparison.identical:
            note = plain_label("Both send exactly the same messages, with the same settings, to the model.", muted=True, wrap=True)
            note.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self._add(note)
            self.body_layout.addStretch(1)
            return
        self.columns = QWidget()
        self.grid = QGridLayout(self.columns)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setHorizontalSpacing(8)
        self.grid.setVerticalSpacing(8)
        self.grid.setColumnStretch(0, 1)
        self.grid.setColumnStretch(1, 1)
        after = comparison.rows_after_fork
        for column, side in enumerate("AB"):
            only = sum(1 for row in after if row.kind is (RowKind.LEFT if side == "A" else RowKind.RIGHT))
            head = QHBoxLayout()
            head.addWidget(Chip(f"{side} · {only:,} only here", side_color(side)))
            head.addStretch(1)
            self.grid.addLayout(head, 0, column)
        self._grid_row = 1
        self._blocks = comparison.blocks()
        self._add(self.columns)
        self.more = QPushButton()
        self.more.setFlat(True)
        self.more.clicked.connect(self.show_more)
        self._add(self.more)
        self.body_layout.addStretch(1)
        self.show_more()

    def show_more(self) -> None:
        comparison = self.comparison
        if comparison is None or self.infos is None:
            return
        blocks = self._blocks
        end = min(len(blocks), self.pairs_shown + PAIRS_PAGE)
        for block in blocks[self.pairs_shown:end]:
            if isinstance(block, RowRun):
                self._add_run(block)
            else:
                self._add_row(comparison, block)
        self.pairs_shown = end
        left = len(blocks) - end
        self.more.setText(f"▼ {left:,} more rows — show {min(left, PAIRS_PAGE)}")
        self.more.setVisible(left > 0)

    def _add_run(self, run: RowRun) -> None:
        """Many messages on one side that one compaction or edit explains: one row that opens into their cards."""
        column = 0 if run.side == "left" else 1
        side = "A" if column == 0 else "B"
        count = len(run.rows)
        frame = QFrame()
        frame.setFrameShape(QFrame.Shape.StyledPanel)
        box = QVBoxLayout(frame)
        box.setContentsMargins(6, 2, 6, 4)
        title = f"{count:,} messages only in {side}"
        toggle = Collapsible(title, lambda: self._run_cards(run, column), muted=False)
        box.addWidget(toggle)
        box.addWidget(_cause_label(run.cause))
        self.runs.append(toggle)
        self.grid.addWidget(frame, self._grid_row, column, Qt.AlignmentFlag.AlignTop)
        self._grid_row += 1

    def _run_cards(self, run: RowRun, column: int) -> QWidget:
        holder = QWidget()
        cards = QVBoxLayout(holder)
        cards.setContentsMargins(0, 0, 0, 0)
        cards.setSpacing(6)
        for row in run.rows[:RUN_CARDS_LIMIT]:
            cards.addWidget(self._card(column, row.left if column == 0 else row.right, None))
        if len(run.rows) > RUN_CARDS_LIMIT:
            cards.addWidget(plain_label(f"… and {len(run.rows) - RUN_CARDS_LIMIT:,} more: select an entry to see its whole context", muted=True, small=True))
        return holder

    def _add_row(self, comparison: Comparison, row: Row) -> None:
        at = self._grid_row
        if not row.differs:
            self.grid.addWidget(self._quiet_line(comparison, row), at, 0, 1, 2, Qt.AlignmentFlag.AlignLeft)
            self._grid_row += 1
            return
        cause = comparison.cause(row)
        for column, index in enumerate((row.left, row.right)):
            if index is not None:
                self.grid.addWidget(self._card(column, index, cause if row.kind is not RowKind.CHANGED else None), at, column, Qt.AlignmentFlag.AlignTop)
        self._grid_row += 1
        if row.kind is RowKind.CHANGED:
            self.grid.addWidget(self._diff_box(comparison, row, cause), self._grid_row, 0, 1, 2)
            self._grid_row += 1

    def _card(self, column: int, index: int, cause: Cause | None) -> QWidget:
        info = self.infos[column]
        card = MessageCard(info.by_index[index], info)
        card.activated.connect(self._select)
        cards = self._cards[column]
        card.jump.connect(lambda target, cards=cards: self._jump(cards, target))
        cards.append(card)
        if cause is None:
            return card
        holder = QWidget()
        box = QVBoxLayout(holder)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        box.addWidget(card)
        box.addWidget(_cause_label(cause))
        return holder

    def _diff_box(self, comparison: Comparison, row: Row, cause: Cause | None) -> QWidget:
        """What changed inside a pair, word by word, with what explains it."""
        frame = QFrame()
        frame.setFrameShape(QFrame.Shape.StyledPanel)
        box = QVBoxLayout(frame)
        box.setContentsMargins(8, 4, 8, 6)
        box.setSpacing(3)
        segments = comparison.word_diff(row)
        common = any(op == KEPT for op, _ in segments)
        title = f"What changed in #{row.left + 1} ↔ #{row.right + 1}, word by word (struck: only in A; marked: only in B)"
        box.addWidget(plain_label(title if common else f"#{row.left + 1} ↔ #{row.right + 1}: no words in common", muted=True, small=True, wrap=True))
        if cause is not None:
            box.addWidget(_cause_label(cause))
        if common:
            view = WordDiffView(segments)
            self.diff_views.append(view)
            box.addWidget(view)
        return frame

    # -- actions

    def _jump(self, cards: list[MessageCard], index: int) -> None:
        for card in cards:
            if card.index == index:
                self.scroll.ensureWidgetVisible(card, 0, 40)
                card.set_flash(True)
                # The card as context: the timer dies with it if a refresh deletes it first.
                QTimer.singleShot(1400, card, lambda card=card: card.set_flash(False))
                return

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
        self.picker = LeafPicker(self.controller.session, keep, self, title=f"Compare: choose side {side}")
        self.picker.chosen.connect(lambda key: self.controller.set_compare(key, right) if side == "A" else self.controller.set_compare(left, key))
        self.picker.open()

    # -- for tests

    def left_cards(self) -> list[MessageCard]:
        return list(self._cards[0])

    def right_cards(self) -> list[MessageCard]:
        return list(self._cards[1])


def _cause_label(cause: Cause):
    """Why a row differs, in the colour the tree uses for compactions or edits."""
    label = plain_label(f"↳ {cause.text}", small=True, wrap=True)
    set_text_color(label, accent("compactionSummary") if cause.kind is CauseKind.COMPACTION else accent("error"))
    return label
