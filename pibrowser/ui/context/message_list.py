"""The context's messages as a list of cards, one row per message (see RowList for how rows are shown).

A new context is shown by a diff of its rows with the ones shown (MessageRows): a step
along a path removes or inserts the rows after the fork, and every card that stays
stays built, unless it shows something of the new context it was not built with (a
tool call whose result arrived, a label written). Under the last card, after a click on
a card, a note says where the later messages of the context clicked away went.
"""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QWidget

from .message_card import Card, label_of
from .message_build import build_card
from .message_items import CardItem, ContextInfo
from .message_rows import MessageRows, same_row
from ..cards import (
    CardState,
    Frame,
    ImageLoader,
    PaintState,
    Piece,
    RowList,
    RowPieces,
    RowState,
    ScrollTarget,
    Stay,
    ToAnchor,
    ToEnd,
    ToRow,
    WrappedText,
    paint_placed,
    placed_in,
)
from .roles import accent
from ..common.widgets import MUTED, SMALL

NO_MESSAGES = "No messages: pi would send nothing for this node."


class MessageList(RowList):
    """The cards of the context shown. `activated(entry id, card)` when a card asks for an entry to be selected."""

    def __init__(self, images: ImageLoader, parent: QWidget | None = None) -> None:
        self.expand_thinking = False
        self.tail_text = ""
        self._tail: Frame | None = None
        self.message_rows = MessageRows()
        super().__init__(self.message_rows, images, parent)
        self.message_rows.setParent(self)

    @property
    def info(self) -> ContextInfo | None:
        return self.message_rows.info

    def build_root(self, row: CardItem, state: RowState) -> RowPieces:
        info = self.info
        assert info is not None, "rows are shown with the info they were made from"
        return build_card(row, info, state.setdefault("", CardState()), self.expand_thinking)

    def card(self, row: int) -> RowPieces:
        """The card of a row, built now if it is not (a failure line where it could not be built)."""
        return self.root(row)

    def cards(self) -> list[tuple[CardItem, Card]]:
        """The rows whose cards are built, and the cards; not the failure lines of rows that could not be."""
        return [(item, root) for item, root in self.built() if isinstance(root, Card)]

    # -- showing a context

    def show_rows(self, info: ContextInfo, rows: list[CardItem], target: ScrollTarget) -> None:
        """Show these rows, keeping the cards of the rows the last ones shared with them, and scroll to `target`."""
        before = self.top_anchor()
        old = list(self.rows)
        start, removed, inserted = self.message_rows.show(info, rows)
        self._take_over(info, old, start, removed, inserted)
        self.empty_text = "" if rows else NO_MESSAGES
        if isinstance(target, Stay) and before is not None:
            target = _stayed(before, start, removed, inserted)
        self.scroll_to(target)

    def clear(self) -> None:
        self.message_rows.show(None, [])
        self.forget_all()
        self.set_tail_note("")
        self.empty_text = ""
        self.live.hide()
        self.updateGeometries()
        self.viewport().update()

    def shares_start(self, rows: list[CardItem]) -> bool:
        """Whether these rows and the ones shown are one the start of the other (the same branch, longer or shorter)."""
        old = self.rows
        shorter = min(len(old), len(rows))
        return all(same_row(a, b) for a, b in zip(old[:shorter], rows[:shorter]))

    def _take_over(self, info: ContextInfo, old: list[CardItem], start: int, removed: int, inserted: int) -> None:
        """After a diff: the cards of the rows that stay go with their (maybe new, equal) items; cards that
        show something of the new info they were not built with are built again."""
        rows = self.rows
        for gone in old[start : start + removed]:
            self.forget_state(gone)
        kept_end = len(old) - start - removed
        pairs = [*zip(old[:start], rows[:start]), *zip(old[len(old) - kept_end :], rows[len(rows) - kept_end :])]
        for was, item in pairs:
            if was is not item:
                self.take_over(was, item)
        for item, card in self.cards():
            if card.stale(info):
                self.forget_row(item)

    def refresh_labels(self) -> None:
        """A label was written: the cards that show another label than they were built with are built again."""
        if self.info is None:
            return
        for item, card in self.cards():
            if card.label != label_of(self.info, item):
                self.forget_row(item)
        self.stay_put()

    def set_expand_thinking(self, on: bool) -> None:
        """Open (or close) every thinking block, now and in the cards built later."""
        self.expand_thinking = on
        for state in self.states():
            for card_state in state.values():
                for key in [key for key in card_state.opened if key.endswith("think")]:
                    del card_state.opened[key]
        for item, card in self.cards():
            if card.thinking:
                self.forget_row(item)
        self.stay_put()

    # -- going to a card

    def scroll_to(self, target: ScrollTarget) -> None:
        if isinstance(target, ToAnchor):
            row = self._row_for(target)
            if row is None:
                target = ToEnd()
            else:
                self.pad_to(self.geometry_of_rows.top(row) - target.offset)
                target = ToRow(row, offset=target.offset)
        super().scroll_to(target)

    def _row_for(self, target: ToAnchor) -> int | None:
        rows = self.rows
        for row, item in enumerate(rows):
            if item.entry.id == target.entry_id and (target.index is None or item.index == target.index):
                return row
        return next((row for row in range(len(rows) - 1, -1, -1) if rows[row].entry.id == target.entry_id), None)

    def row_of_index(self, index: int) -> int | None:
        """The row of the message at `index` of the context."""
        # Rows are in message order; dropped rows shown among them only push a message later.
        rows = self.rows
        return next((row for row in range(max(index, 0), len(rows)) if rows[row].index == index), None)

    def scroll_to_index(self, index: int) -> RowPieces | None:
        row = self.row_of_index(index)
        return self.scroll_to_row(row) if row is not None else None

    def jump(self, root: RowPieces, card: Piece | None, index: int) -> None:
        self.scroll_to_index(index)

    def look_for(self, root: RowPieces, widget: QWidget) -> PaintState:
        look = super().look_for(root, widget)
        look.selected = self.info.selected if self.info is not None else None
        return look

    # -- the tail note: after a click, where the later messages were

    def set_tail_note(self, text: str) -> None:
        self.tail_text = text
        self._tail = (
            Frame(accent("dropped"), [WrappedText(text, size=SMALL, mute=MUTED, center=True)], dashed=True, tint=0.02) if text else None
        )
        self.updateGeometries()

    def pad_to(self, value: int) -> None:
        """Grow the tail note so the view can scroll to `value` (keeps a clicked card in place)."""
        tail = self._tail
        if tail is None:
            return
        short = value - (self.content_height() - self.viewport().height())
        if short > 0:
            tail.min_height = self.footer_height() + short
            tail.forget()
            self.updateGeometries()

    def footer_height(self) -> int:
        return self._tail.height(self.card_width()) if self._tail is not None else 0

    def paint_footer(self, painter: QPainter, rect: QRect) -> None:
        if self._tail is not None:
            # A painter on a widget reports no clipping of its own (clipBoundingRect() is empty): the note is painted whole.
            paint_placed(placed_in(self._tail, rect.width()), painter, rect.topLeft(), PaintState(self.palette(), self))


def _stayed(before: tuple[int, int], start: int, removed: int, inserted: int) -> ToRow:
    """Where the row that was at the top is after a diff, with its offset."""
    row, offset = before
    if row >= start + removed:
        row += inserted - removed
    elif row >= start:
        row = start
    return ToRow(row, offset=offset)
