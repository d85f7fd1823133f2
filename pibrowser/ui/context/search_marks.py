"""The tree's search, carried into the context panel: every occurrence in the cards highlighted, F3 steps through them.

Highlights are extra selections over the cards' text, so the text itself (and
what a copy takes) never changes. Only the cards on screen are built: those
built later are marked as they come, and F3 past the last one built goes on to
the next message whose text holds the query.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QColor, QTextCursor, QTextDocument
from PySide6.QtWidgets import QTextEdit

from ...model.session.search import value_text
from .text_sheet import TextSheet

MAX_MARKS_PER_TEXT = 500  # a pathological text does not drown the panel in selections
MAX_EMPTY_TRIES = 20  # messages whose raw text holds the query but whose card does not show it (markup)


class CardSearch(QObject):
    """Marks `query` in the texts (TextSheets) of `message_list`'s cards. `marks`: (view, cursor) in reading order."""

    def __init__(self, message_list) -> None:
        super().__init__(message_list)
        self.list = message_list
        self.query = ""
        self.marks: list[tuple[TextSheet, QTextCursor]] = []
        self.current: int | None = None
        self._later = QTimer(self, singleShot=True, interval=0)
        self._later.timeout.connect(self.apply)
        # New cards change the scroll range: mark them once they are laid out.
        message_list.verticalScrollBar().rangeChanged.connect(lambda *_: self._later.start())

    def set_query(self, query: str) -> None:
        self.query = query.strip()
        self.current = None
        self.apply()

    def apply(self) -> None:
        """Mark every occurrence in the cards now shown; keep the stepped-to one if it is still there."""
        was = self.marks[self.current] if self.current is not None and self.current < len(self.marks) else None
        self.marks = []
        for card in self.list.cards():
            for view in card.findChildren(TextSheet):
                self.marks.extend((view, cursor) for cursor in self._find_in(view))
        self.current = None
        if was is not None:
            self.current = next((i for i, (view, cursor) in enumerate(self.marks) if view is was[0] and cursor.position() == was[1].position()), None)
        self._paint()

    def _find_in(self, view: TextSheet) -> list[QTextCursor]:
        if not self.query:
            return []
        document = view.document()
        found = []
        cursor = document.find(self.query, 0)  # without flags: case-insensitive, as the tree's search
        while not cursor.isNull() and len(found) < MAX_MARKS_PER_TEXT:
            found.append(cursor)
            cursor = document.find(self.query, cursor, QTextDocument.FindFlag(0))
        return found

    def _paint(self) -> None:
        by_view: dict[TextSheet, list] = {}
        for i, (view, cursor) in enumerate(self.marks):
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor
            current = i == self.current
            selection.format.setBackground(QColor(249, 115, 22, 200) if current else QColor(250, 204, 21, 140))
            by_view.setdefault(view, []).append(selection)
        for card in self.list.cards():
            for view in card.findChildren(TextSheet):
                selections = by_view.get(view, [])
                # Setting selections repaints the text: a text that had none and gets none is left alone
                # (new cards come at every step along a path, mostly with no search on).
                if selections or view.extraSelections():
                    view.setExtraSelections(selections)

    def step(self, direction: int) -> bool:
        """Go to the next (or previous) occurrence; past the cards built, on to the next message
        that has one (only the cards on screen are built). False when there is none."""
        count = len(self.marks)
        if self.current is None:
            at = 0 if direction > 0 else count - 1
        else:
            at = self.current + direction
        if not 0 <= at < count:
            # On past the built cards; from the other end of the context once this one is passed.
            listing = self.list
            ahead = range(listing.end, len(listing.rows)) if direction > 0 else range(listing.start - 1, -1, -1)
            around = range(0, listing.start) if direction > 0 else range(len(listing.rows) - 1, listing.end - 1, -1)
            if self._beyond(direction, ahead) or self._beyond(direction, around):
                return True
            if not count:
                return False
            at %= count
        self.current = at
        self._paint()
        self._show_current()
        return True

    def _show_current(self) -> None:
        view, cursor = self.marks[self.current]
        rect = view.cursorRect(cursor)
        top_left = view.mapTo(self.list.widget(), rect.topLeft())
        self.list.ensureVisible(top_left.x(), top_left.y(), 20, 60)

    def _beyond(self, direction: int, candidates: range) -> bool:
        """Build the cards around the first of these rows (not built) whose message holds the
        query, and go to its first (or, going back, last) occurrence there."""
        listing, needle = self.list, self.query.casefold()
        if not needle or listing.info is None:
            return False
        rows = listing.rows
        tries = 0
        for row in candidates:
            if needle not in value_text(rows[row].message):
                continue
            shown = self._shown_in(row)
            if listing.start <= shown < listing.end:
                continue  # its text shows under its call, in a card already built (and marked)
            card = listing.scroll_to_row(shown, flash=False)
            self.apply()
            found = [at for at, (view, _) in enumerate(self.marks) if card is not None and card.isAncestorOf(view)]
            if found:
                self.current = found[0] if direction > 0 else found[-1]
                self._paint()
                self._show_current()
                return True
            tries += 1
            if tries >= MAX_EMPTY_TRIES:
                return False
        return False

    def _shown_in(self, row: int) -> int:
        """The row whose card shows this row's text: a tool result's shows under its call."""
        item, info = self.list.rows[row], self.list.info
        message = item.message
        if item.dropped or item.edit is not None or not isinstance(message, dict) or message.get("role") != "toolResult":
            return row
        call = info.calls.get(message.get("toolCallId")) if isinstance(message.get("toolCallId"), str) else None
        if call is None:
            return row
        found = self.list.row_of_index(call[0])
        return found if found is not None else row
