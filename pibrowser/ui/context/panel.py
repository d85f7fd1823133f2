"""The context panel: for the selected node, the messages pi would send, as readable cards.

The header gives the settings and numbers (thinking level, model, message
count, estimated tokens, usage and cost recorded on the path). Below it the
cards, built a page at a time as they scroll into view so a context of
thousands of messages opens at once; and a tab with the selected entry's JSON.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...model.context import Context
from ...model.describe import entry_kind, entry_title
from ...model.entry import Entry
from ...model.provenance import Edit
from ...model.stats import ContextStats
from ..colors import mix
from .cards import (
    Box,
    CardItem,
    ContextInfo,
    ImageLoader,
    MessageCard,
    accent,
    context_info,
    display_json,
    plain_label,
    pretty_json,
)
from .safe_text import plain


def _number(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.2f}"


def _tokens(value: Any) -> str:
    return _number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else plain(value)


def format_usage(stats: ContextStats) -> str:
    total = stats.usage.total
    if not total.records:
        return "none recorded"
    parts = [
        f"in {_number(total.input)}",
        f"out {_number(total.output)}",
        f"cache read {_number(total.cache_read)}",
        f"cache write {_number(total.cache_write)}",
    ]
    return " · ".join(parts) + f" · ${total.cost:.4f}"


def format_model(model: Any) -> str:
    if isinstance(model, dict):
        return f"{plain(model.get('provider'))}/{plain(model.get('modelId'))}"
    return "none"


# ---- header -------------------------------------------------------------------------------


class ContextHeader(QFrame):
    """Settings and numbers of the shown context, and the view's switches."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(10, 8, 10, 6)
        outer.setSpacing(4)
        self.title = plain_label("")
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.title.setFont(font)
        self.subtitle = plain_label("", muted=True, small=True)
        self.subtitle.setWordWrap(True)
        outer.addWidget(self.title)
        outer.addWidget(self.subtitle)
        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(2)
        self.values: dict[str, QLabel] = {}
        fields = [("thinking", "Thinking"), ("model", "Model"), ("messages", "Messages"), ("tokens", "Tokens"), ("usage", "Usage on path"), ("compaction", "Compaction")]
        for row, (key, name) in enumerate(fields):
            label = plain_label(name, muted=True, small=True)
            value = plain_label("", small=True)
            value.setWordWrap(True)
            grid.addWidget(label, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(value, row, 1)
            self.values[key] = value
            setattr(self, f"{key}_label", label)
        grid.setColumnStretch(1, 1)
        outer.addLayout(grid)
        self.values["tokens"].setToolTip(
            "pi's estimate: characters / 4 for each message (images count 4,800 characters).\n"
            "pi's running estimate starts from the last assistant usage and adds what came after it."
        )
        self.values["usage"].setToolTip("Recorded by assistant messages, usage entries, tool results and summaries on the path, as pi totals them")
        controls = QHBoxLayout()
        controls.setSpacing(6)
        self.show_dropped = QCheckBox("Show dropped")
        self.show_dropped.setToolTip("Show messages a context edit removed, greyed out. They are NOT sent to the model.")
        self.expand_thinking = QCheckBox("Expand thinking")
        self.top_button = QToolButton()
        self.top_button.setText("⤒")
        self.top_button.setToolTip("Go to the first message")
        self.end_button = QToolButton()
        self.end_button.setText("⤓")
        self.end_button.setToolTip("Go to the last message")
        self.copy_button = QToolButton()
        self.copy_button.setText("Copy")
        self.copy_button.setToolTip("Copy the whole context as a Markdown transcript")
        for widget in (self.show_dropped, self.expand_thinking):
            controls.addWidget(widget)
        controls.addStretch(1)
        for widget in (self.top_button, self.end_button, self.copy_button):
            widget.setAutoRaise(True)
            controls.addWidget(widget)
        outer.addLayout(controls)

    def show_context(self, context: Context, stats: ContextStats, info: ContextInfo, entry: Entry | None) -> None:
        self.title.setText(f"Context at {context.leaf}")
        self.subtitle.setText(entry_title(entry, 120) if entry is not None else "")
        self.values["thinking"].setText(plain(context.thinking_level))
        self.values["model"].setText(format_model(context.model))
        dropped = sum(1 for item in info.items if item.dropped)
        count = f"{stats.messages:,} sent to the model"
        if dropped:
            count += f" · {dropped} dropped by edits (not sent)"
        self.values["messages"].setText(count)
        tokens = f"≈{stats.estimated_tokens:,} (chars/4)"
        estimate = stats.pi_estimate
        if estimate.last_usage_index is not None:
            tokens += f" · pi's estimate {estimate.tokens:,} = last usage {estimate.usage_tokens:,} (#{estimate.last_usage_index + 1}) + {estimate.trailing_tokens:,} after"
        self.values["tokens"].setText(tokens)
        usage = format_usage(stats)
        if stats.usage.total.records:
            usage += f" · {stats.usage.total.records} records"
        self.values["usage"].setText(usage)
        compaction = context.compaction
        if compaction is not None:
            self.values["compaction"].setText(f"{compaction.id} · summarizes {info.summarized} entries · {_tokens(compaction.get('tokensBefore'))} tokens before")
        else:
            self.values["compaction"].setText("none on this path")
        self.show_dropped.setText(f"Show dropped ({dropped})" if dropped else "Show dropped")
        self.show_dropped.setEnabled(bool(dropped) or self.show_dropped.isChecked())

    def clear(self, text: str) -> None:
        self.title.setText(text)
        self.subtitle.setText("")
        for value in self.values.values():
            value.setText("")


# ---- the card list ---------------------------------------------------------------------------


class MessageList(QScrollArea):
    """Cards for a window of rows, grown a page at a time as the user scrolls to either end.

    Only the rows in [start, end) have widgets, at most MAX_LIVE of them; the
    rest are numbers in a list. `activated(entry id, card)` on a click.
    """

    activated = Signal(str, object)
    PAGE = 40
    MAX_LIVE = 160

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
        container = QWidget()
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
        # After a click on a card, where the later messages were: says why they went,
        # and keeps the clicked card where it was on screen.
        self.tail = Box(accent("dropped"), dashed=True, tint=0.02)
        self.tail_note = plain_label("", muted=True, small=True, wrap=True)
        self.tail_note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.tail.layout().addWidget(self.tail_note, 0, Qt.AlignmentFlag.AlignTop)
        self.tail.hide()
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
        self.setWidget(container)
        self.verticalScrollBar().valueChanged.connect(self._scrolled)
        self._flash_timer = QTimer(self, singleShot=True, interval=1400)
        self._flash_timer.timeout.connect(self._unflash)
        self._flashed: MessageCard | None = None
        self._update_buttons()

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
        target = len(rows) - 1
        if focus == "start":
            target = 0
        elif isinstance(focus, tuple) and focus[0] == "row":
            target = max(0, min(focus[1], len(rows) - 1))
        elif isinstance(focus, tuple) and focus[0] == "anchor":
            target = self._row_for(focus[1], focus[2])
        start = max(0, min(target - self.PAGE // 2, len(rows) - self.PAGE)) if focus != "start" else 0
        if focus == "end":
            start = max(0, len(rows) - self.PAGE)
        self._build(start, min(len(rows), start + self.PAGE))
        self._settle()
        if focus == "end":
            self._set_scroll(self.verticalScrollBar().maximum())
        elif focus == "start":
            self._set_scroll(0)
        elif focus[0] == "anchor":
            card = self.card_for_row(target)
            if card is not None:
                self._pad_to(card.y() - focus[3])
                self._set_scroll(card.y() - focus[3])
        else:
            self.scroll_to_row(target)

    def update_rows(self, info: ContextInfo, rows: list[CardItem]) -> bool:
        """Move to rows that extend or shorten the shown ones, keeping the cards that stay.

        Returns False (and changes nothing) when one list is not a prefix of the
        other, or the change is too big to be worth it: then call set_rows.
        """
        old = self.rows
        shared = min(len(old), len(rows))
        if self.info is None or not self.live or len(rows) - len(old) > self.PAGE or self.start >= len(rows):
            return False
        if any(not _same_row(a, b) for a, b in zip(old[:shared], rows[:shared])):
            return False
        grew_at_end = self.end == len(old)
        self.info, self.rows = info, rows
        while self.live and self.end > len(rows):
            card = self.live.pop()
            self.cards_layout.removeWidget(card)
            card.hide()
            card.deleteLater()
            self.end -= 1
        for position, card in enumerate(list(self.live)):
            row = rows[self.start + position]
            if _needs_rebuild(card, info):
                fresh = self._make(row)
                self.cards_layout.replaceWidget(card, fresh)
                fresh.show()
                card.hide()
                card.deleteLater()
                self.live[position] = fresh
            else:
                card.item, card.info = row, info
                card.set_selected(info.selected == card.source_id)
        if grew_at_end and len(rows) > self.end:
            for item in rows[self.end:]:
                card = self._make(item)
                self.cards_layout.insertWidget(self._first + len(self.live), card)
                card.show()
                self.live.append(card)
            self.end = len(rows)
            while len(self.live) > self.MAX_LIVE:
                card = self.live.pop(0)
                self.cards_layout.removeWidget(card)
                card.deleteLater()
                self.start += 1
        self.empty_note.hide()
        self._update_buttons()
        self._settle()
        return True

    def scroll_to_end(self) -> None:
        self._set_scroll(self.verticalScrollBar().maximum())

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
            self.cards_layout.removeWidget(card)
            card.hide()
            card.deleteLater()
        self.live = []
        self._flashed = None

    def _make(self, item: CardItem) -> MessageCard:
        card = MessageCard(item, self.info)
        card.activated.connect(lambda key, card=card: self.activated.emit(key, card))
        card.jump.connect(self.scroll_to_index)
        if self.expand_thinking:
            for block in card.thinking_blocks:
                block.set_expanded(True)
        return card

    def _build(self, start: int, end: int) -> None:
        self.start, self.end = start, end
        for item in self.rows[start:end]:
            card = self._make(item)
            self.cards_layout.insertWidget(self._first + len(self.live), card)
            card.show()  # now, not at the next event loop turn: the layout needs its size
            self.live.append(card)
        self._update_buttons()

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
        anchor = self._anchor()
        new_start = max(0, self.start - count)
        for position, item in enumerate(self.rows[new_start:self.start]):
            card = self._make(item)
            self.cards_layout.insertWidget(self._first + position, card)
            card.show()
            self.live.insert(position, card)
        self.start = new_start
        while len(self.live) > self.MAX_LIVE:
            card = self.live.pop()
            self.cards_layout.removeWidget(card)
            card.deleteLater()
            self.end -= 1
        self._update_buttons()
        self._restore(anchor)

    def extend_down(self, count: int) -> None:
        if self.end >= len(self.rows) or self.info is None:
            return
        anchor = self._anchor()
        new_end = min(len(self.rows), self.end + count)
        for item in self.rows[self.end:new_end]:
            card = self._make(item)
            self.cards_layout.insertWidget(self._first + len(self.live), card)
            card.show()
            self.live.append(card)
        self.end = new_end
        while len(self.live) > self.MAX_LIVE:
            card = self.live.pop(0)
            self.cards_layout.removeWidget(card)
            card.deleteLater()
            self.start += 1
        self._update_buttons()
        self._restore(anchor)

    def _anchor(self) -> tuple[MessageCard, int] | None:
        value = self.verticalScrollBar().value()
        for card in self.live:
            if card.y() + card.height() > value:
                return card, card.y() - value
        return None

    def _restore(self, anchor: tuple[MessageCard, int] | None) -> None:
        self._settle()
        if anchor is not None and anchor[0] in self.live:
            self._set_scroll(anchor[0].y() - anchor[1])

    def _update_buttons(self) -> None:
        before, after = self.start, len(self.rows) - self.end
        self.earlier.setText(f"▲ {before:,} earlier message{'s' if before != 1 else ''} — show {min(before, self.PAGE)} more")
        self.earlier.setVisible(before > 0)
        self.later.setText(f"▼ {after:,} later message{'s' if after != 1 else ''} — show {min(after, self.PAGE)} more")
        self.later.setVisible(after > 0)

    def _scrolled(self, value: int) -> None:
        if self._adjusting:
            return
        bar = self.verticalScrollBar()
        if value <= bar.minimum() and self.start > 0:
            QTimer.singleShot(0, lambda: self.extend_up(self.PAGE))
        elif value >= bar.maximum() and self.end < len(self.rows) and bar.maximum() > 0:
            QTimer.singleShot(0, lambda: self.extend_down(self.PAGE))

    def _set_scroll(self, value: int) -> None:
        self._adjusting = True
        try:
            self.verticalScrollBar().setValue(value)
        finally:
            self._adjusting = False

    def _settle(self) -> None:
        # Lay the new cards out now, so positions are right before we scroll.
        for _ in range(3):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            self.widget().layout().activate()
            self.setWidgetResizable(True)  # has the area fit its widget to the new height at once

    # -- going to a message

    def scroll_to_row(self, row: int, flash: bool = True) -> MessageCard | None:
        if not self.rows:
            return None
        row = max(0, min(row, len(self.rows) - 1))
        if not (self.start <= row < self.end):
            self._clear()
            start = max(0, min(row - self.PAGE // 2, len(self.rows) - self.PAGE))
            self._build(start, min(len(self.rows), start + self.PAGE))
            self._settle()
        card = self.card_for_row(row)
        if card is None:
            return None
        self._set_scroll(max(0, card.y() - self.viewport().height() // 5))
        if flash:
            self._unflash()
            card.set_flash(True)
            self._flashed = card
            self._flash_timer.start()
        return card

    def scroll_to_index(self, index: int) -> MessageCard | None:
        for row, item in enumerate(self.rows):
            if item.index == index:
                return self.scroll_to_row(row)
        return None

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

    def _pad_to(self, value: int) -> None:
        """Grow the tail note so the view can scroll to `value` (keeps a clicked card in place)."""
        bar = self.verticalScrollBar()
        if not self.tail.isVisible() or value <= bar.maximum():
            return
        self.tail.setMinimumHeight(self.tail.sizeHint().height() + value - bar.maximum())
        self._settle()


# ---- raw JSON ---------------------------------------------------------------------------------


class RawJsonView(QWidget):
    """The selected entry as pretty JSON: read-only, long values clipped, Copy takes it all."""

    DISPLAY_LIMIT = 2_000_000

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entry: Entry | None = None
        self._shown_for: Entry | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        bar = QHBoxLayout()
        self.info = plain_label("", muted=True, small=True)
        self.note = plain_label("", small=True)
        self.copy_button = QPushButton("Copy full JSON")
        self.copy_button.setToolTip("Copy the entry's complete JSON, nothing clipped")
        self.copy_button.clicked.connect(self.copy)
        bar.addWidget(self.info, 1)
        bar.addWidget(self.copy_button)
        layout.addLayout(bar)
        layout.addWidget(self.note)
        self.note.hide()
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        layout.addWidget(self.text, 1)

    def set_entry(self, entry: Entry | None) -> None:
        self.entry = entry
        if self.isVisible():
            self.refresh()

    def refresh(self) -> None:
        entry = self.entry
        if entry is self._shown_for:
            return
        self._shown_for = entry
        if entry is None:
            self.info.setText("No entry selected")
            self.text.setPlainText("")
            self.note.hide()
            return
        text, clipped = display_json(entry.data)
        self.info.setText(f"Entry {entry.id} · {plain(entry.type)} · line {entry.line}")
        notes = []
        if clipped:
            notes.append(f"{clipped} long value{'s' if clipped != 1 else ''} clipped for display")
        if len(text) > self.DISPLAY_LIMIT:
            text = text[: self.DISPLAY_LIMIT] + "\n… [display stops here]"
            notes.append("display stops after 2,000,000 characters")
        if notes:
            self.note.setText(" · ".join(notes) + " — “Copy full JSON” copies the complete text")
            self.note.show()
        else:
            self.note.hide()
        self.text.setPlainText(text)

    def full_text(self) -> str:
        return pretty_json(self.entry.data) if self.entry is not None else ""

    def copy(self) -> None:
        QApplication.clipboard().setText(self.full_text())

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.refresh()


# ---- the panel -------------------------------------------------------------------------------------


class ContextPanel(QWidget):
    """What pi would send for the selected node, message by message."""

    def __init__(self, controller, parent: QWidget | None = None, images: ImageLoader | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.images = images if images is not None else ImageLoader(self)
        self.context: Context | None = None
        self.info: ContextInfo | None = None
        self.stats: ContextStats | None = None
        self.key: str | None = None
        self.previous_key: str | None = None
        self._click: tuple[str, str | None, int | None, int] | None = None
        self._dirty = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.header = ContextHeader()
        layout.addWidget(self.header)
        self.notice = self._build_notice()
        layout.addWidget(self.notice)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.list = MessageList(self.images)
        self.raw = RawJsonView()
        self.stack = QStackedWidget()
        self.placeholder = plain_label("Open a session to see what pi sends for each node.", muted=True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(self.list)
        self.tabs.addTab(self.stack, "Messages")
        self.tabs.addTab(self.raw, "Entry JSON")
        layout.addWidget(self.tabs, 1)
        self.list.activated.connect(self._card_activated)
        self.header.show_dropped.toggled.connect(self.set_show_dropped)
        self.header.expand_thinking.toggled.connect(self.list.set_expand_thinking)
        self.header.top_button.clicked.connect(lambda: self.list.scroll_to_row(0, flash=False))
        self.header.end_button.clicked.connect(lambda: self.list.scroll_to_row(len(self.list.rows) - 1, flash=False))
        self.header.copy_button.clicked.connect(self.copy_markdown)
        controller.sessionChanged.connect(self._session_changed)
        controller.selectionChanged.connect(self._selection_changed)
        self.header.clear("No session")
        self._paint_header()

    def _build_notice(self) -> QFrame:
        notice = QFrame()
        notice.setAutoFillBackground(True)
        row = QHBoxLayout(notice)
        row.setContentsMargins(10, 5, 6, 5)
        self.notice_text = plain_label("", small=True)
        self.notice_text.setWordWrap(True)
        self.back_button = QPushButton("Back")
        self.back_button.setToolTip("Select the node shown before")
        self.back_button.clicked.connect(self.back)
        close = QToolButton()
        close.setText("✕")
        close.setAutoRaise(True)
        close.clicked.connect(lambda: notice.hide())
        row.addWidget(self.notice_text, 1)
        row.addWidget(self.back_button)
        row.addWidget(close)
        notice.hide()
        return notice

    def _paint_header(self) -> None:
        palette = self.palette()
        base = palette.color(QPalette.ColorRole.Window)
        for widget, color, amount in ((self.header, palette.color(QPalette.ColorRole.Base), 0.5), (self.notice, accent("user"), 0.14)):
            tinted = widget.palette()
            tinted.setColor(QPalette.ColorRole.Window, mix(base, color, amount))
            widget.setPalette(tinted)
            widget.setAutoFillBackground(True)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._paint_header()

    # -- following the controller

    def _session_changed(self, session) -> None:
        if session is None:
            self._show_nothing("No session")

    def _selection_changed(self, key: str | None) -> None:
        click, self._click = self._click, None
        if not self.isVisible():
            self._dirty = True
            self.notice.hide()
            return
        self.show_key(key, click)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._dirty:
            self._dirty = False
            self.show_key(self.controller.selected)

    def _show_nothing(self, text: str) -> None:
        self.context = self.info = self.stats = None
        self.key = None
        self.header.clear(text)
        self.list.clear()
        self.stack.setCurrentWidget(self.placeholder)
        self.placeholder.setText("Open a session to see what pi sends for each node." if text == "No session" else text)
        self.raw.set_entry(None)
        self.notice.hide()

    def show_key(self, key: str | None, click: tuple[str, str | None, int | None, int] | None = None) -> None:
        session = self.controller.session
        if session is None:
            self._show_nothing("No session")
            return
        if key is None:
            self._show_nothing("No entry selected")
            return
        context = self.controller.context(key)
        same = self.context is not None and self.key == key and _same_messages(self.context, context)
        self.previous_key = self.key if self.key != key else self.previous_key
        self.key = key
        self.context = context
        provenance = self.controller.provenance(key)
        stats = self.controller.stats(key)
        self.stats = stats
        info = context_info(context, provenance, stats.message_tokens)
        info.selected = key
        info.images = self.images
        self.info = info
        entry = session.entries.get(key)
        self.header.show_context(context, stats, info, entry)
        self.raw.set_entry(entry)
        self.stack.setCurrentWidget(self.list)
        if same and self.list.info is not None and len(self.list.rows) == len(self._rows()):
            # A reload that left this context as it was: keep the cards and the scroll position.
            self.list.info = info
            for card in self.list.live:
                card.info = info
            return
        rows = self._rows()
        bar = self.list.verticalScrollBar()
        value, at_bottom = bar.value(), bar.value() >= bar.maximum() - 4
        top = self.list.mapTo(self, self.list.rect().topLeft()).y()
        shown = len(self.list.rows)
        if self.list.update_rows(info, rows):
            # The same branch, longer or shorter: the cards that stay, stay where they are.
            if click is not None:
                self._explain_click(key, click[1], len(context.messages))
                QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
                self.layout().activate()
                value += self.list.mapTo(self, self.list.rect().topLeft()).y() - top
                self.list._pad_to(value)
                self.list._set_scroll(value)
            else:
                self.notice.hide()
                self.list.set_tail_note(self._silent_note(key, entry))
                self.list._settle()
                if len(rows) < shown or at_bottom:
                    self.list.scroll_to_end()  # the selected node is the last card
                else:
                    self.list._set_scroll(value)
            return
        if click is not None:
            entry_id, old_key, index, offset = click
            self._explain_click(key, old_key, len(context.messages))
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            self.layout().activate()
            # The banner may push the list down; keep the card where it was on screen.
            offset -= self.list.mapTo(self, self.list.rect().topLeft()).y() - top
            self.list.set_rows(info, rows, ("anchor", index, entry_id, offset))
        else:
            self.notice.hide()
            self.list.set_tail_note(self._silent_note(key, entry))
            self.list.set_rows(info, rows, "end")

    def _silent_note(self, key: str, entry: Entry | None) -> str:
        """Say so when the selected entry adds no message: the cards are the path's up to it."""
        provenance = self.controller.provenance(key).get(key)
        if entry is None or provenance is None or provenance.sends_messages:
            return ""
        kind = plain(entry_kind(entry))
        if provenance.edit is Edit.DROPPED:
            return f"The selected entry {key} ({kind}) was dropped by context edit {provenance.edit_id}; this is the context of the path up to it."
        return f"The selected entry {key} ({kind}) adds no message of its own; this is the context of the path up to it."

    def _rows(self) -> list[CardItem]:
        if self.info is None:
            return []
        show = self.header.show_dropped.isChecked()
        return [item for item in self.info.items if show or not item.dropped]

    def _explain_click(self, key: str, old_key: str | None, count: int) -> None:
        if old_key is None:
            self.notice.hide()
            return
        old = self.controller.context(old_key)
        later = len(old.messages) - count
        text = f"Now showing the context at {key}, the entry you clicked: {count:,} messages (the context at {old_key} had {len(old.messages):,})."
        if later > 0 and old.messages[:count] == self.context.messages:
            many = later != 1
            text += f" {'The' if many else 'One'} {f'{later:,} ' if many else ''}later message{'s' if many else ''} of that context {'come' if many else 'comes'} after this entry, so {'they are' if many else 'it is'} not part of its context."
            self.list.set_tail_note(f"{later:,} later message{'s' if many else ''} of the context at {old_key} {'come' if many else 'comes'} after this entry — not part of this context")
        else:
            self.list.set_tail_note("")
        self.notice_text.setText(text)
        self.back_button.setText(f"Back to {old_key}")
        self.notice.show()

    # -- actions

    def _card_activated(self, entry_id: str, card: MessageCard) -> None:
        if entry_id == self.controller.selected:
            self.list.scroll_to_row(self.list.live.index(card) + self.list.start if card in self.list.live else 0)
            return
        offset = card.y() - self.list.verticalScrollBar().value() if card in self.list.live else 0
        index = card.index if card.source_id == entry_id else None
        self._click = (entry_id, self.key, index, offset)
        self.controller.select(entry_id)
        self._click = None

    def back(self) -> None:
        if self.previous_key is not None:
            self.controller.select(self.previous_key)
        self.notice.hide()

    def set_show_dropped(self, on: bool) -> None:
        if self.header.show_dropped.isChecked() != on:
            self.header.show_dropped.setChecked(on)
            return
        if self.info is None:
            return
        anchor = self.list._anchor()
        focus: Any = "end"
        if anchor is not None:
            card, offset = anchor
            focus = ("anchor", card.index, card.source_id, offset)
        self.list.set_rows(self.info, self._rows(), focus)

    def copy_markdown(self) -> None:
        if self.context is None:
            return
        from ...model.transcript import render

        QApplication.clipboard().setText(render(self.context, markdown=True))

    # -- for callers and tests

    def cards(self) -> list[MessageCard]:
        return self.list.cards()

    def scroll_to_message(self, index: int) -> MessageCard | None:
        return self.list.scroll_to_index(index)


def _same_messages(a: Context, b: Context) -> bool:
    if a is b:
        return True
    if len(a.messages) != len(b.messages) or a.thinking_level != b.thinking_level or a.model != b.model:
        return False
    return all(x is y or x == y for x, y in zip(a.messages, b.messages))


def _same_row(a: CardItem, b: CardItem) -> bool:
    return (
        a.entry.id == b.entry.id
        and a.index == b.index
        and a.dropped == b.dropped
        and (a.message is b.message or a.message == b.message)
        and (a.original is b.original or a.original == b.original)
    )


def _needs_rebuild(card: MessageCard, info: ContextInfo) -> bool:
    """A card whose tool calls now have a different result (one arrived or went) is built afresh."""
    for box in card.tool_boxes:
        call_id = box.block.get("id")
        found = info.results.get(call_id) if isinstance(call_id, str) else None
        if found != box.result_index:
            return True
    return False
