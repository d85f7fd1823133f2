"""The context panel: for the selected node, the messages pi would send, as readable cards.

A header with the context's settings and numbers, a banner that explains a
jump after a click, the card list, and a tab with the selected entry's JSON.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...model.context.resolve import Context
from ...model.text.describe import entry_kind
from ...model.session.entry import Entry
from ...model.js.stringify import dump_json
from ...model.context.provenance import Edit
from ...model.tokens.composition import Composition, message_kinds
from ...model.tokens.stats import ContextStats
from ...model.text.transcript import render
from ..style.colors import mix
from .message_items import CardItem, ContextInfo, context_info
from .context_header import ContextHeader
from ..common.fitted_scroll import FittedScroll
from ..cards import ImageLoader, RowPieces, ScrollTarget, Stay, ToAnchor, ToEnd, ToStart
from .message_card import Card
from .message_list import MessageList
from .raw_json import RawJsonView
from .roles import accent
from ..common.safe_text import plain
from .search_marks import CardSearch
from ..common.widgets import plain_label, remute
from ..guard import guarded

NO_SESSION_TEXT = "Open a session to see what pi sends for each node."

# A click on a card that selects another entry: (entry id, key shown before, card index, card offset on screen).
Click = tuple[str, str | None, int | None, int]


class ContextPanel(QWidget):
    """What pi would send for the selected node, message by message."""

    def __init__(self, controller, parent: QWidget | None = None, images: ImageLoader | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        # A long path's cards are made with its answers, in the pool (the controller's AnswersJob).
        controller.preparers["cards"] = lambda answers: context_info(answers.context, answers.provenance, answers.stats.message_tokens)
        self.images = images if images is not None else ImageLoader(self)
        self.context: Context | None = None
        self.info: ContextInfo | None = None
        self.stats: ContextStats | None = None
        self.key: str | None = None
        self.working_out: str | None = None  # the entry whose context the panel says is being worked out
        self.previous_key: str | None = None
        self._click: Click | None = None
        self._dirty = False
        self.kind_filter: str | None = None  # only cards holding this kind (the composition bar's click)
        self.composition: Composition | None = None
        layout = self._column = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.header = ContextHeader()
        layout.addWidget(FittedScroll(self.header))  # whole where the dock has room, scrolled where not
        self.notice = self._build_notice()
        layout.addWidget(self.notice)
        self.tabs = self._build_tabs()
        layout.addWidget(self.tabs, 1)
        self.search = CardSearch(self.list)
        for keys, direction in (("F3", 1), ("Shift+F3", -1)):
            # Here F3 steps through the occurrences in the cards; in the tree, through the entries.
            shortcut = QShortcut(QKeySequence(keys), self, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda direction=direction: self.search.step(direction))
        self._connect()
        self.header.clear("No session")
        self._paint_header()

    def _build_tabs(self) -> QTabWidget:
        tabs = QTabWidget()
        tabs.setDocumentMode(True)
        self.list = MessageList(self.images)
        self.raw = RawJsonView()
        self.stack = QStackedWidget()
        self.placeholder = plain_label(NO_SESSION_TEXT, muted=True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(self.list)
        tabs.addTab(self.stack, "Messages")
        tabs.addTab(self.raw, "Entry JSON")
        return tabs

    def _connect(self) -> None:
        self.list.activated.connect(self._card_activated)
        self.header.show_dropped.toggled.connect(self.set_show_dropped)
        self.header.expand_thinking.toggled.connect(self.list.set_expand_thinking)
        self.header.top_button.clicked.connect(lambda: self.list.scroll_to(ToStart()))
        self.header.end_button.clicked.connect(lambda: self.list.scroll_to(ToEnd()))
        self.header.copy_button.clicked.connect(self.copy_markdown)
        self.header.copy_markdown_action.triggered.connect(self.copy_markdown)
        self.header.copy_json_action.triggered.connect(self.copy_pi_json)
        self.header.labelChosen.connect(self.controller.select)
        self.header.composition_bar.kindChosen.connect(self.set_kind_filter)
        self.controller.changed.connect(self._on_change)

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

    @guarded
    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._paint_header()
            remute(self)

    # -- following the controller

    def _on_change(self, change) -> None:
        """Show the selection's context again when it or the session changed; else refresh labels written."""
        if change.replaced or change.selection or (change.answered and self.key != self.controller.selected):
            self._show_selection()
        elif change.problems and self.working_out is not None and self.controller.answers_failed(self.working_out):
            self.show_key(self.working_out)  # says it could not be worked out, rather than "Working out…" for good
        elif change.appended:
            self._labels_appended(change.appended)
        elif (change.figures or change.answered) and self.key is not None and self.context is not None and self.info is not None:
            if not self.controller.answers_now(self.key):
                return  # a long path's figures: worked out in the pool, shown when `answered` comes
            # The fold worked the figures out (the usage on the path), here or, for a long path, in
            # the pool (answered again, the context shown the same): the header alone changes.
            self.stats = self.controller.stats(self.key)
            self.header.show_context(self.context, self.stats, self.info, self.controller.session.entries.get(self.key))

    def _show_selection(self) -> None:
        click, self._click = self._click, None
        if not self.isVisible():
            self._dirty = True
            self.notice.hide()
            return
        self.show_key(self.controller.selected, click)

    @guarded
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._dirty:
            self._dirty = False
            self.show_key(self.controller.selected)

    def _labels_appended(self, ids: tuple[str, ...]) -> None:
        """A label written (here or by pi) shows at once on the header and the cards."""
        session = self.controller.session
        if self.context is None:
            return
        if any(session.entries[key].type == "label" for key in ids):
            self.header.show_labels(self.key, session.labels, self.context.path)
            self.list.refresh_labels()

    def _show_nothing(self, text: str) -> None:
        self.context = self.info = self.stats = self.composition = None
        self.key = None
        self.header.clear(text)
        self.list.clear()
        self.stack.setCurrentWidget(self.placeholder)
        self.placeholder.setText(NO_SESSION_TEXT if text == "No session" else text)
        self.raw.set_entry(None)
        self.notice.hide()

    def show_key(self, key: str | None, click: Click | None = None) -> None:
        self.working_out = None
        session = self.controller.session
        if session is None:
            self._show_nothing("No session")
            return
        if key is None:
            self._show_nothing("No entry selected")
            return
        if self.controller.answers_failed(key):
            self._show_nothing(f"The context at {key} could not be worked out: Warnings says why.")
            return
        if not self.controller.answers_now(key):
            self._show_nothing(f"Working out the context at {key}: this session is long, its paths take a while…")
            self.working_out = key
            return
        context = self.controller.context(key)
        same = self.context is not None and self.key == key and _same_messages(self.context, context)
        entry = session.entries.get(key)
        info = self._load(key, context, entry)
        if same and self.list.info is not None and len(self.list.rows) == len(self._rows()):
            # A reload that left this context as it was: keep the cards and the scroll position
            # (the reload may have brought labels).
            self.list.show_rows(info, self._rows(), Stay())
            self.list.refresh_labels()
            return
        self._show_rows(info, key, entry, click)
        self.search.apply()

    def set_search(self, query: str) -> None:
        """Highlight the tree's search in the cards."""
        self.search.set_query(query)

    def _load(self, key: str, context: Context, entry: Entry | None) -> ContextInfo:
        """Make the context at `key` the shown one, and fill the header and the JSON tab; its info."""
        self.previous_key = self.key if self.key != key else self.previous_key
        self.key = key
        self.context = context
        provenance = self.controller.provenance(key)
        stats = self.controller.stats(key)
        self.stats = stats
        info = self.controller.prepared(key, "cards")
        if info is None or info.context is not context:
            info = context_info(context, provenance, stats.message_tokens, previous=self.info)
        info.selected = key
        info.images = self.images
        info.labels = self.controller.session.labels
        self.info = info
        self.header.show_context(context, stats, info, entry)
        self.composition = self.controller.composition(key)
        if self.kind_filter is not None and self.kind_filter not in self.composition.chars:
            self.kind_filter = None  # this context holds none of it: every card again
        self.header.show_composition(self.composition, self.kind_filter, len(self._rows()))
        self.header.show_labels(key, info.labels, context.path)
        self.raw.set_entry(entry)
        self.stack.setCurrentWidget(self.list)
        return info

    def _show_rows(self, info: ContextInfo, key: str, entry: Entry | None, click: Click | None) -> None:
        rows = self._rows()
        place, top = self.list.place(), self._list_top()
        target: ScrollTarget
        if click is not None:
            entry_id, old_key, index, offset = click
            # The banner may push the list down; the clicked card stays where it was on screen.
            offset -= self._explain_and_measure(key, old_key, top)
            target = ToAnchor(index, entry_id, offset)
        else:
            self._note_silently(key, entry)
            # The same branch, longer, while the user reads higher up: what they read stays. Else the
            # selected entry's message (the last card) shows.
            longer = len(rows) >= place.rows and self.list.shares_start(rows)
            target = Stay() if longer and not place.at_bottom else ToEnd()
        self.list.show_rows(info, rows, target)

    def _list_top(self) -> int:
        return self.list.mapTo(self, self.list.rect().topLeft()).y()

    def _explain_and_measure(self, key: str, old_key: str | None, top: int) -> int:
        """Explain the click in the banner; returns how far that moved the list down."""
        self._explain_click(key, old_key, len(self._shown_context().messages))
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self._column.activate()
        return self._list_top() - top

    def _note_silently(self, key: str, entry: Entry | None) -> None:
        self.notice.hide()
        self.list.set_tail_note(self._silent_note(key, entry))

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
        kind = self.kind_filter
        return [item for item in self.info.items if (show or not item.dropped) and (kind is None or kind in message_kinds(item.message))]

    def set_kind_filter(self, kind: str) -> None:
        """Show only the cards holding `kind` (a kind of the composition); "" shows every card."""
        self.kind_filter = kind or None
        if self.info is None:
            return
        self.header.show_composition(self.composition, self.kind_filter, len(self._rows()))
        self.list.show_rows(self.info, self._rows(), ToEnd() if self.kind_filter is None else ToStart())

    def _shown_context(self) -> Context:
        """The context shown, for what runs only once one is (a click on a card of it)."""
        assert self.context is not None, "no context is shown"
        return self.context

    def _explain_click(self, key: str, old_key: str | None, count: int) -> None:
        if old_key is None:
            self.notice.hide()
            return
        old = self.controller.context(old_key)
        later = len(old.messages) - count
        text = f"Now showing the context at {key}, the entry you clicked: {count:,} messages (the context at {old_key} had {len(old.messages):,})."
        if later > 0 and old.messages[:count] == self._shown_context().messages:
            banner, tail = _later_notes(later, old_key)
            text += banner
            self.list.set_tail_note(tail)
        else:
            self.list.set_tail_note("")
        self.notice_text.setText(text)
        self.back_button.setText(f"Back to {old_key}")
        self.notice.show()

    # -- actions

    def _card_activated(self, entry_id: str, card: Card) -> None:
        row = self.list.row_of(card.item)
        if entry_id == self.controller.selected:
            self.list.scroll_to_row(row if row is not None else 0)
            return
        offset = self.list.row_rect(row).top() if row is not None else 0
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
        self.list.show_rows(self.info, self._rows(), Stay())  # the card at the top stays there

    def copy_markdown(self) -> None:
        if self.context is None:
            return
        QApplication.clipboard().setText(render(self.context, markdown=True, limit=None))

    def copy_pi_json(self) -> None:
        """The context exactly as `pibrowser context --format json` prints it: pi's buildSessionContext."""
        if self.context is None:
            return
        QApplication.clipboard().setText(dump_json({"leaf": self.context.leaf, **self.context.to_pi()}).decode("utf-8"))

    # -- for callers and tests

    def rows(self) -> list[CardItem]:
        """What the list shows, one row per card, whether its card is built or not."""
        return list(self.list.rows)

    def card_at(self, row: int) -> RowPieces | None:
        """The card of `row`, built if it was not, its row scrolled into view (None when there is no such row)."""
        if not 0 <= row < len(self.list.rows):
            return None
        self.list.ensure_visible(row)
        return self.list.card(row)

    def scroll_to_message(self, index: int) -> RowPieces | None:
        return self.list.scroll_to_index(index)


def _later_notes(later: int, old_key: str) -> tuple[str, str]:
    """For the banner and for the list's tail: the clicked-away context's later messages are not in this one."""
    many = later != 1
    banner = f" {'The' if many else 'One'} {f'{later:,} ' if many else ''}later message{'s' if many else ''} of that context {'come' if many else 'comes'} after this entry, so {'they are' if many else 'it is'} not part of its context."
    tail = f"{later:,} later message{'s' if many else ''} of the context at {old_key} {'come' if many else 'comes'} after this entry — not part of this context"
    return banner, tail


def _same_messages(a: Context, b: Context) -> bool:
    if a is b:
        return True
    if len(a.messages) != len(b.messages) or a.thinking_level != b.thinking_level or a.model != b.model:
        return False
    return all(x is y or x == y for x, y in zip(a.messages, b.messages))
