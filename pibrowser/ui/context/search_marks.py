"""The tree's search, carried into the context panel: every occurrence in the cards marked, F3 steps through them.

Marks are painted over the cards' text (search selections of a text document), so the
text itself, and what a copy takes, never changes. Only the texts of cards that are
painted are searched; F3 goes from the mark it is on to the next one in reading order,
through the texts of that card and on to the next rows whose messages hold the query
(a tool call's card holds its result's text), building those cards as it goes, and
round from the other end of the context.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextDocument

from ...model.session.content import tool_calls
from ...model.session.search import value_text
from .message_items import CardItem
from ..cards import Text

if TYPE_CHECKING:
    from .message_list import MessageList

MAX_MARKS_PER_TEXT = 500  # a pathological text does not drown the panel in marks
MAX_EMPTY_TRIES = 50  # rows whose raw text holds the query but whose card does not show it (markup)
FOUND = QColor(250, 204, 21, 140)
CURRENT = QColor(249, 115, 22, 200)


@dataclass(frozen=True)
class Mark:
    """An occurrence: in the card of `item`, its `text`-th text, at `position`."""

    item: CardItem
    text: int
    position: int


class CardSearch(QObject):
    """Marks `query` in the texts of `cards`; `current` is the occurrence F3 went to."""

    def __init__(self, cards: MessageList) -> None:
        super().__init__(cards)
        self.cards = cards
        self.query = ""
        self.current: Mark | None = None
        self._found: dict[int, tuple[QTextDocument, list[QTextCursor]]] = {}  # by id() of a document

    def set_query(self, query: str) -> None:
        self.query = query.strip()
        self.apply()

    def apply(self) -> None:
        """Mark the query afresh (a new query, or new cards)."""
        self.current = None
        self._found = {}
        self.cards.marks = self.marks_of if self.query else None
        self._repaint()

    def _repaint(self) -> None:
        self.cards.viewport().update()
        self.cards.live.refresh_marks()

    # -- marks

    def found_in(self, document: QTextDocument) -> list[QTextCursor]:
        """Every occurrence of the query in a document (case-insensitive, as the tree's search)."""
        known = self._found.get(id(document))
        if known is not None and known[0] is document:
            return known[1]
        found: list[QTextCursor] = []
        if self.query:
            cursor = document.find(self.query, 0)
            while not cursor.isNull() and len(found) < MAX_MARKS_PER_TEXT:
                found.append(cursor)
                cursor = document.find(self.query, cursor, QTextDocument.FindFlag(0))
        if len(self._found) > 2000:
            self._found = {}
        self._found[id(document)] = (document, found)
        return found

    def marks_of(self, document: QTextDocument) -> list[tuple[QTextCursor, QTextCharFormat]]:
        """The marks to paint over a document: the current one in another colour."""
        current = self._current_cursor()
        marks = []
        for cursor in self.found_in(document):
            text_format = QTextCharFormat()
            is_current = current is not None and current.document() is document and current.position() == cursor.position()
            text_format.setBackground(CURRENT if is_current else FOUND)
            marks.append((cursor, text_format))
        return marks

    def _current_cursor(self) -> QTextCursor | None:
        mark = self.current
        if mark is None:
            return None
        row = self.cards.row_of(mark.item)
        if row is None:
            return None
        texts = self.cards.card(row).all_texts()
        if mark.text >= len(texts):
            return None
        return next((cursor for cursor in self.found_in(texts[mark.text].document) if cursor.position() == mark.position), None)

    # -- stepping

    def step(self, direction: int) -> bool:
        """Go to the next (or, with -1, the previous) occurrence in reading order, round the
        context's ends; False when there is none."""
        cards = self.cards
        if not self.query or not cards.rows:
            return False
        count = len(cards.rows)
        start = self._start_row(direction)
        tries = 0
        for step in range(count + 1):
            row = (start + step * direction) % count
            if step and not self._may_hold(row):
                continue
            mark = self._next_in(row, direction, first_row=step == 0)
            if mark is not None:
                self._go(row, mark)
                return True
            tries += step > 0
            if tries >= MAX_EMPTY_TRIES:
                break
        return False

    def _start_row(self, direction: int) -> int:
        cards = self.cards
        if self.current is not None:
            row = cards.row_of(self.current.item)
            if row is not None:
                return row
            self.current = None
        shown = cards.visible_rows()
        if shown:
            return shown[0] if direction > 0 else shown[-1]
        return 0 if direction > 0 else len(cards.rows) - 1

    def _next_in(self, row: int, direction: int, first_row: bool) -> Mark | None:
        """The next occurrence in this row's card, after the current one if it is in this row."""
        item = self.cards.rows[row]
        places = [
            (number, cursor.position())
            for number, text in enumerate(self.cards.card(row).all_texts())
            for cursor in self.found_in(text.document)
        ]
        if direction < 0:
            places.reverse()
        current = self.current if first_row and self.current is not None and self.current.item is item else None
        if current is not None:
            at = (current.text, current.position)
            later = [place for place in places if (place > at if direction > 0 else place < at)]
            places = later
        return Mark(item, *places[0]) if places else None

    def _may_hold(self, row: int) -> bool:
        """Whether the row's card can show the query: its message, or a result nested under a call of it, holds it."""
        needle, info = self.query.casefold(), self.cards.info
        item = self.cards.rows[row]
        message = item.message
        if _folded_result(item, info):
            return False  # its text shows under its call, in that row's card
        if needle in value_text(message):
            return True
        if info is None or item.dropped or not isinstance(message, dict) or message.get("role") != "assistant":
            return False
        for call in tool_calls(message.get("content")):
            call_id = call.get("id")
            index = info.results.get(call_id) if isinstance(call_id, str) else None
            if index is not None and needle in value_text(info.message(index)):
                return True
        return False

    def _go(self, row: int, mark: Mark) -> None:
        self.current = mark
        cards = self.cards
        card = cards.card(row)
        text = card.all_texts()[mark.text]
        cursor = next(cursor for cursor in self.found_in(text.document) if cursor.position() == mark.position)
        area = card.rect_of(text, cards.card_width())
        if area is not None:
            spot = text.cursor_rect(cursor, area.width()).translated(area.topLeft())
            cards.show_area(row, spot.adjusted(0, -20, 20, 40))
        self._repaint()

    def current_text(self) -> tuple[int, Text, QTextCursor] | None:
        """The row, text and cursor of the current occurrence."""
        cursor = self._current_cursor()
        if cursor is None or self.current is None:
            return None
        row = self.cards.row_of(self.current.item)
        if row is None:
            return None  # as _current_cursor found: the row is gone
        return row, self.cards.card(row).all_texts()[self.current.text], cursor


def _folded_result(item: CardItem, info) -> bool:
    message = item.message
    if info is None or item.dropped or item.edit is not None or not isinstance(message, dict) or message.get("role") != "toolResult":
        return False
    call_id = message.get("toolCallId")
    return isinstance(call_id, str) and call_id in info.calls
