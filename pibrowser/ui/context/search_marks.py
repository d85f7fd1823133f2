"""The tree's search, carried into the context panel: every occurrence in the cards highlighted, F3 steps through them.

Highlights are extra selections over the cards' text, so the text itself (and
what a copy takes) never changes. Cards built later (scrolling pages in more)
are marked as they come.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QColor, QTextCursor, QTextDocument
from PySide6.QtWidgets import QTextEdit

from .safe_text import SafeTextView

MAX_MARKS_PER_TEXT = 500  # a pathological text does not drown the panel in selections


class CardSearch(QObject):
    """Marks `query` in the SafeTextViews of `message_list`'s cards. `marks`: (view, cursor) in reading order."""

    def __init__(self, message_list) -> None:
        super().__init__(message_list)
        self.list = message_list
        self.query = ""
        self.marks: list[tuple[SafeTextView, QTextCursor]] = []
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
            for view in card.findChildren(SafeTextView):
                self.marks.extend((view, cursor) for cursor in self._find_in(view))
        self.current = None
        if was is not None:
            self.current = next((i for i, (view, cursor) in enumerate(self.marks) if view is was[0] and cursor.position() == was[1].position()), None)
        self._paint()

    def _find_in(self, view: SafeTextView) -> list[QTextCursor]:
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
        by_view: dict[SafeTextView, list] = {}
        for view in {view for card in self.list.cards() for view in card.findChildren(SafeTextView)}:
            by_view[view] = []
        for i, (view, cursor) in enumerate(self.marks):
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor
            current = i == self.current
            selection.format.setBackground(QColor(249, 115, 22, 200) if current else QColor(250, 204, 21, 140))
            by_view.setdefault(view, []).append(selection)
        for view, selections in by_view.items():
            view.setExtraSelections(selections)

    def step(self, direction: int) -> bool:
        """Go to the next (or previous) occurrence in the cards; False when there is none."""
        if not self.marks:
            return False
        count = len(self.marks)
        self.current = (direction - 1) // 2 % count if self.current is None else (self.current + direction) % count
        self._paint()
        view, cursor = self.marks[self.current]
        rect = view.cursorRect(cursor)
        top_left = view.viewport().mapTo(self.list.widget(), rect.topLeft())
        self.list.ensureVisible(top_left.x(), top_left.y(), 20, 60)
        return True
