"""The scrolling list of message cards.

Only the cards that fill the view (and a margin around it) are built, and more
as they scroll into view, so a context of thousands of messages opens at once.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QPushButton, QScrollArea, QVBoxLayout, QWidget

from .blocks import Box
from .card_items import CardItem, ContextInfo
from .images import ImageLoader
from .message_card import MessageCard
from .roles import accent
from .widgets import layout_hint, plain_label
from ...model.text.plural import counted
from ...model.session.sequences import shared_prefix


class MessageList(QScrollArea):
    """Cards for a window of rows: those that fill the view and a margin, grown as the user scrolls.

    Only the rows in [start, end) have widgets, at most MAX_LIVE of them; the
    rest are numbers in a list. A card costs milliseconds to build, so a new
    context builds what fills the view plus MARGIN of it beyond each edge the
    user can scroll to; scrolling within MARGIN of an edge builds up to BATCH
    cards an event-loop turn until there is twice that margin again.
    `activated(entry id, card)` on a click.
    """

    activated = Signal(str, object)
    PAGE = 40  # what a click on "show more" builds
    MAX_LIVE = 160
    MARGIN = 1 / 3  # of the view's height
    MARGIN_AFTER_MS = 200  # a new list builds its margin once the user has paused this long
    BATCH = 3
    GROW_IN_PLACE = 8  # new rows after the last card get cards at once up to this many; more, when scrolled to

    def __init__(self, images: ImageLoader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.images = images
        self.info: ContextInfo | None = None
        self.rows: list[CardItem] = []
        self.start = self.end = 0
        self.live: list[MessageCard] = []
        self.expand_thinking = False
        self._adjusting = False
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Always on: the area sizes its widget for the width without a scroll bar, so a bar
        # that came and went would leave the cards a little short of the height they need.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidget(self._build_container())
        self.verticalScrollBar().valueChanged.connect(self._scrolled)
        self._flash_timer = QTimer(self, singleShot=True, interval=1400)
        self._flash_timer.timeout.connect(self._unflash)
        self._fill_timer = QTimer(self, singleShot=True, interval=0)
        self._fill_timer.timeout.connect(lambda: self.fill(self.BATCH))
        self._margin_timer = QTimer(self, singleShot=True, interval=self.MARGIN_AFTER_MS)
        self._margin_timer.timeout.connect(self.fill)
        self._flashed: MessageCard | None = None
        self._update_buttons()

    def _build_container(self) -> QWidget:
        container = _CardColumn()
        container.setObjectName("messageListContainer")
        # Never wider than the view: a long unbreakable line is clipped, not scrolled sideways.
        container.setMinimumWidth(1)
        layout = QVBoxLayout(container)
        layout.setContentsMargins(8, 6, 8, 10)
        layout.setSpacing(8)
        self.earlier = QPushButton()
        self.earlier.setFlat(True)
        self.earlier.clicked.connect(lambda: self.extend_up(self.PAGE))
        self.later = QPushButton()
        self.later.setFlat(True)
        self.later.clicked.connect(lambda: self.extend_down(self.PAGE))
        self._build_tail()
        self.empty_note = plain_label("", muted=True)
        self.empty_note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_note.hide()
        layout.addWidget(self.earlier)
        layout.addWidget(self.empty_note)
        layout.addWidget(self.later)
        layout.addWidget(self.tail)
        layout.addStretch(1)
        # Cards go straight into this layout, after the first two items: a nested
        # layout would not always hear that a card grew.
        self.cards_layout = layout
        self._first = 2
        return container

    def _build_tail(self) -> None:
        # After a click on a card, where the later messages were: says why they went,
        # and keeps the clicked card where it was on screen.
        self.tail = Box(accent("dropped"), dashed=True, tint=0.02)
        self.tail_note = plain_label("", muted=True, small=True, wrap=True)
        self.tail_note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.tail.layout().addWidget(self.tail_note, 0, Qt.AlignmentFlag.AlignTop)
        self.tail.hide()

    # -- content

    def set_rows(self, info: ContextInfo, rows: list[CardItem], focus: Any = "end") -> None:
        """Show these rows. focus: "end", "start", ("row", i) or ("anchor", card index, entry id, offset)."""
        self.info = info
        self.rows = rows
        self._clear()
        self.empty_note.setText("No messages: pi would send nothing for this node." if not rows else "")
        self.empty_note.setVisible(not rows)
        if not rows:
            self.start = self.end = 0
            self._update_buttons()
            return
        target = self._focus_row(focus)
        # Only what shows now: the margin past the view is built once the user pauses (a new
        # selection every few dozen milliseconds would build it for nothing), or at the first scroll.
        self._build_around(target, self._focus_offset(focus), margin=0)
        self._scroll_to_focus(focus, target)
        self._margin_timer.start()

    def _focus_row(self, focus: Any) -> int:
        if focus == "start":
            return 0
        if isinstance(focus, tuple) and focus[0] == "row":
            return max(0, min(focus[1], len(self.rows) - 1))
        if isinstance(focus, tuple) and focus[0] == "anchor":
            return self._row_for(focus[1], focus[2])
        return len(self.rows) - 1

    def _focus_offset(self, focus: Any) -> int | None:
        """Where the focus card's top will be in the view; None: its bottom at the view's bottom."""
        if focus == "end":
            return None
        if focus == "start":
            return 0
        if focus[0] == "anchor":
            return focus[3]
        return self._row_offset()

    def _row_offset(self) -> int:
        return self.viewport().height() // 5  # scroll_to_row puts a card here

    def _build_around(self, target: int, offset: int | None, margin: int | None = None) -> None:
        """Cards from `target` on down, then up, until they fill the view (and the margin) around
        the target's top placed at `offset` (None: the target's bottom at the bottom of the view).

        Each card is measured as it is built, for the width it will get: no layout pass is needed to
        know when to stop.
        """
        self._clear()
        self.start = self.end = target
        view, margin = self.viewport().height(), self._margin() if margin is None else margin
        below = self._build_down()
        below_needed = 0 if offset is None else view - offset + margin
        while below < below_needed and self.end < len(self.rows) and len(self.live) < self.MAX_LIVE:
            below += self._build_down()
        above_needed = view + margin - below if offset is None else offset + margin
        above = 0
        while above < above_needed and self.start > 0 and len(self.live) < self.MAX_LIVE:
            above += self._build_up()
        self._update_buttons()
        # The scroll bar's range follows the new cards: that is not the user scrolling (which
        # builds more at the next turn); the caller scrolls to the focus itself.
        self._adjusting = True
        try:
            self.settle()
        finally:
            self._adjusting = False

    def _margin(self) -> int:
        return int(self.viewport().height() * self.MARGIN)

    def _build_down(self) -> int:
        """A card for the row after the window; the height it adds."""
        self._insert(len(self.live), self.rows[self.end])
        self.end += 1
        return self._measure(self.live[-1])

    def _build_up(self) -> int:
        """A card for the row before the window; the height it adds."""
        self.start -= 1
        self._insert(0, self.rows[self.start])
        return self._measure(self.live[0])

    def _card_width(self) -> int:
        margins = self.cards_layout.contentsMargins()
        return max(self.viewport().width() - margins.left() - margins.right(), 1)

    def _measure(self, card: MessageCard) -> int:
        """The card's height at the width the list will give it, and the space after it."""
        width = self._card_width()
        height = card.heightForWidth(width) if card.hasHeightForWidth() else card.sizeHint().height()
        return max(height, card.minimumSizeHint().height()) + self.cards_layout.spacing()

    def _scroll_to_focus(self, focus: Any, target: int) -> None:
        if focus == "end":
            self.set_scroll(self.verticalScrollBar().maximum())
        elif focus == "start":
            self.set_scroll(0)
        elif focus[0] == "anchor":
            card = self.card_for_row(target)
            if card is not None:
                self.pad_to(card.y() - focus[3])
                self.set_scroll(card.y() - focus[3])
        else:
            self.scroll_to_row(target)

    def update_rows(self, info: ContextInfo, rows: list[CardItem]) -> bool:
        """Move to rows that extend or shorten the shown ones, keeping the cards that stay.

        Returns False (and changes nothing) when one list is not a prefix of the
        other, or the change is too big to be worth it: then call set_rows.
        A few new rows after the last card get cards now; more are built when
        scrolled to (scroll_to_end builds the last ones). Call `fill` once scrolled.
        """
        if not self._can_update(rows):
            return False
        grew_at_end = self.end == len(self.rows)
        self.info, self.rows = info, rows
        while self.live and self.end > len(rows):
            self._discard(self.live.pop())
            self.end -= 1
        self._refresh_live(info)
        if grew_at_end and self.end < len(rows) <= self.end + self.GROW_IN_PLACE:
            while self.end < len(rows):
                self._build_down()
            self._trim(from_end=False)
        self.empty_note.hide()
        self._update_buttons()
        self.settle()
        return True

    def _can_update(self, rows: list[CardItem]) -> bool:
        old = self.rows
        if self.info is None or not self.live or len(rows) - len(old) > self.PAGE or self.start >= len(rows):
            return False
        shared = min(len(old), len(rows))
        same = shared_prefix(old, rows)  # rows taken over from the last context are the same objects
        return all(_same_row(a, b) for a, b in zip(old[same:shared], rows[same:shared]))

    def _refresh_live(self, info: ContextInfo) -> None:
        """Hand the live cards their new rows; a tool call whose result arrived or went shows the change."""
        for position, card in enumerate(self.live):
            card.item, card.info = self.rows[self.start + position], info
            card.set_selected(info.selected == card.source_id)
            for box in list(card.tool_boxes):
                if box in card.tool_boxes:  # not inside a result that an earlier box took away
                    box.refresh_result()

    def scroll_to_end(self) -> None:
        if self.end < len(self.rows):
            self._build_around(len(self.rows) - 1, None)
        self.set_scroll(self.verticalScrollBar().maximum())

    def clear(self) -> None:
        self._clear()
        self.info = None
        self.rows = []
        self.start = self.end = 0
        self.set_tail_note("")
        self._update_buttons()

    def _row_for(self, index: int | None, entry_id: str) -> int:
        for row, item in enumerate(self.rows):
            if item.entry.id == entry_id and (index is None or item.index == index):
                return row
        for row in range(len(self.rows) - 1, -1, -1):
            if self.rows[row].entry.id == entry_id:
                return row
        return len(self.rows) - 1

    def _clear(self) -> None:
        for card in self.live:
            self._discard(card)
        self.live = []
        self._flashed = None

    def _discard(self, card: MessageCard) -> None:
        self.cards_layout.removeWidget(card)
        card.hide()
        # Out of the list before it goes: deleted there at the next turn, it made the list
        # paint its new cards a second time.
        card.setParent(None)
        card.deleteLater()

    def _make(self, item: CardItem) -> MessageCard:
        card = MessageCard(item, self.info)
        card.activated.connect(lambda key, card=card: self.activated.emit(key, card))
        card.jump.connect(self.scroll_to_index)
        if self.expand_thinking:
            for block in card.thinking_blocks:
                block.set_expanded(True)
        return card

    def _insert(self, position: int, item: CardItem) -> None:
        """A card for the item at this place among the live cards."""
        card = self._make(item)
        self.cards_layout.insertWidget(self._first + position, card)
        card.resize(self._card_width(), card.height())  # its texts are laid out for the width it gets, not a default one
        card.show()  # now, not at the next event loop turn: the layout needs its size
        self.live.insert(position, card)

    def _trim(self, from_end: bool) -> None:
        """Drop cards from one end of the window until at most MAX_LIVE are left."""
        while len(self.live) > self.MAX_LIVE:
            card = self.live.pop() if from_end else self.live.pop(0)
            self.cards_layout.removeWidget(card)
            card.deleteLater()
            if from_end:
                self.end -= 1
            else:
                self.start += 1

    def cards(self) -> list[MessageCard]:
        return list(self.live)

    def card_for_row(self, row: int) -> MessageCard | None:
        if self.start <= row < self.end:
            return self.live[row - self.start]
        return None

    def card_for_index(self, index: int) -> MessageCard | None:
        for card in self.live:
            if card.index == index:
                return card
        return None

    # -- growing the window

    def extend_up(self, count: int) -> None:
        if self.start == 0 or self.info is None:
            return
        anchor = self.top_anchor()
        new_start = max(0, self.start - count)
        for position, item in enumerate(self.rows[new_start:self.start]):
            self._insert(position, item)
        self.start = new_start
        self._trim(from_end=True)
        self._update_buttons()
        self._restore(anchor)

    def extend_down(self, count: int) -> None:
        if self.end >= len(self.rows) or self.info is None:
            return
        anchor = self.top_anchor()
        new_end = min(len(self.rows), self.end + count)
        for item in self.rows[self.end:new_end]:
            self._insert(len(self.live), item)
        self.end = new_end
        self._trim(from_end=False)
        self._update_buttons()
        self._restore(anchor)

    def top_anchor(self) -> tuple[MessageCard, int] | None:
        """The first card still on screen and how far its top is from the view's."""
        value = self.verticalScrollBar().value()
        for card in self.live:
            if card.y() + card.height() > value:
                return card, card.y() - value
        return None

    def _restore(self, anchor: tuple[MessageCard, int] | None) -> None:
        self.settle()
        if anchor is not None and anchor[0] in self.live:
            self.set_scroll(anchor[0].y() - anchor[1])

    def _update_buttons(self) -> None:
        before, after = self.start, len(self.rows) - self.end
        self.earlier.setText(f"▲ {counted(before, 'earlier message')} — show {min(before, self.PAGE)} more")
        self.earlier.setVisible(before > 0)
        self.later.setText(f"▼ {counted(after, 'later message')} — show {min(after, self.PAGE)} more")
        self.later.setVisible(after > 0)

    def _scrolled(self, value: int) -> None:
        if not self._adjusting:
            self._fill_timer.start()  # at the next turn: a scroll by dragging sends many values

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        # A view that grew past its cards gets cards at the next turn; otherwise only the margin
        # is short, and it waits for the user to pause (the header above the list changes height
        # from one selection to the next, and building the margin then painted the cards twice).
        (self._margin_timer if self._view_covered() else self._fill_timer).start()

    def _view_covered(self) -> bool:
        """Whether the live cards reach across the whole view (or to the ends of the rows)."""
        if not self.live:
            return not self.rows
        above, below = self._overhang()
        return (self.start == 0 or above >= 0) and (self.end == len(self.rows) or below >= 0)

    def _overhang(self) -> tuple[int, int]:
        """How far the live cards reach past the view's top and its bottom, as last laid out."""
        view, value = self.viewport().height(), self.verticalScrollBar().value()
        return value - self.live[0].y(), self.live[-1].geometry().bottom() + 1 - (value + view)

    def fill(self, limit: int | None = None) -> None:
        """Build cards where the view, or the margin past it, has none yet; what is on screen stays in place.

        limit: build at most this many cards now, and the rest at the next event-loop
        turns (while scrolling); None: all that is needed, at once. A scroll that gets
        within the margin of the last card builds on to twice the margin, so the
        next few scroll steps build nothing.
        """
        if not self.live or self.info is None:
            return
        # The cards' places as last laid out: a scroll moves none of them, and laying the list
        # out again at every scroll step would cost more than the step.
        margin = self._margin()
        goal = margin if limit is None else 2 * margin
        above, below = self._overhang()
        anchor = self.top_anchor()
        built = 0
        if above < margin:
            while above < goal and self.start > 0 and (limit is None or built < limit):
                above += self._build_up()
                built += 1
            self._trim(from_end=True)
        if below < margin:
            while below < goal and self.end < len(self.rows) and (limit is None or built < limit):
                below += self._build_down()
                built += 1
            self._trim(from_end=False)
        if not built:
            return
        self._update_buttons()
        self._restore(anchor)
        if limit is not None and built >= limit:
            self._fill_timer.start()  # more at the next turn, if still short

    def set_scroll(self, value: int) -> None:
        """Scroll without growing the window, as a user's scroll to either end would."""
        self._adjusting = True
        try:
            self.verticalScrollBar().setValue(value)
        finally:
            self._adjusting = False

    def settle(self) -> None:
        # Lay the new cards out now, so positions are right before we scroll; again (three times
        # at most) while that still moves them: a card's size can follow its neighbours'.
        for _ in range(3):
            before = self._placement()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            self.widget().layout().activate()
            # Has the area fit its widget to the new height at once. (setWidgetResizable would too,
            # but it also asks the panel, the dock and the main window to lay themselves out again.)
            QCoreApplication.sendEvent(self, QEvent(QEvent.Type.LayoutRequest))
            if self._placement() == before:
                return

    def _placement(self) -> tuple:
        return self.widget().size(), [card.geometry() for card in self.live]

    # -- going to a message

    def scroll_to_row(self, row: int, flash: bool = True) -> MessageCard | None:
        if not self.rows:
            return None
        row = max(0, min(row, len(self.rows) - 1))
        if not (self.start <= row < self.end):
            self._build_around(row, self._row_offset())
        card = self.card_for_row(row)
        if card is None:
            return None
        self.set_scroll(max(0, card.y() - self._row_offset()))
        self.fill()
        if flash:
            self._flash(card)
        return card

    def _flash(self, card: MessageCard) -> None:
        self._unflash()
        card.set_flash(True)
        self._flashed = card
        self._flash_timer.start()

    def scroll_to_index(self, index: int) -> MessageCard | None:
        row = self.row_of_index(index)
        return self.scroll_to_row(row) if row is not None else None

    def row_of_index(self, index: int) -> int | None:
        """The row of the message at `index` of the context."""
        # Rows are in message order; dropped rows shown among them only push a message later.
        return next((row for row in range(max(index, 0), len(self.rows)) if self.rows[row].index == index), None)

    def _unflash(self) -> None:
        if self._flashed is not None and self._flashed in self.live:
            self._flashed.set_flash(False)
        self._flashed = None

    def set_expand_thinking(self, on: bool) -> None:
        self.expand_thinking = on
        for card in self.live:
            for block in card.thinking_blocks:
                block.set_expanded(on)

    def set_tail_note(self, text: str) -> None:
        self.tail_note.setText(text)
        self.tail.setMinimumHeight(0)
        self.tail.setVisible(bool(text))

    def pad_to(self, value: int) -> None:
        """Grow the tail note so the view can scroll to `value` (keeps a clicked card in place)."""
        bar = self.verticalScrollBar()
        if not self.tail.isVisible() or value <= bar.maximum():
            return
        # Qt's own hint for the frame (its note's height at the hint's width), not the card parts' lighter one.
        self.tail.setMinimumHeight(QFrame.sizeHint(self.tail).height() + value - bar.maximum())
        self.settle()


class _CardColumn(QWidget):
    """The widget the cards are laid out in.

    The area asks its hint at every change of range; Qt's would be every card's height at
    the hint's width, laying all their texts out for a width none of them gets. The area
    sizes the column by its height for the view's width.
    """

    def sizeHint(self) -> QSize:
        return layout_hint(self)


def _same_row(a: CardItem, b: CardItem) -> bool:
    return (
        a.entry.id == b.entry.id
        and a.index == b.index
        and a.dropped == b.dropped
        and (a.message is b.message or a.message == b.message)
        and (a.original is b.original or a.original == b.original)
    )

