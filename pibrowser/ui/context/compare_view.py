"""Two leaves side by side: what their contexts share, and where they part.

The shared prefix (messages equal position by position) collapses into one
row; after it, the differing messages stand in two columns, pair by pair, so
the first difference is at the top. Clicking a message selects its entry.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ...model.compare import Comparison
from ...model.describe import entry_title, message_preview
from ..colors import mix
from .blocks import Collapsible
from .card_items import ContextInfo, context_info
from .formatting import format_model
from .images import ImageLoader
from .message_card import MessageCard
from .roles import accent
from .safe_text import plain
from .widgets import Chip, link_button, plain_label, remute

PAIRS_PAGE = 30
SHARED_LIST_LIMIT = 300


class CompareView(QWidget):
    """The comparison the controller holds (see SessionController.set_compare)."""

    def __init__(self, controller, parent: QWidget | None = None, images: ImageLoader | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.images = images if images is not None else ImageLoader(self)
        self.comparison: Comparison | None = None
        self.left_info: ContextInfo | None = None
        self.right_info: ContextInfo | None = None
        self.pairs_shown = 0
        self._left_cards: list[MessageCard] = []
        self._right_cards: list[MessageCard] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.header = QFrame()
        self.header.setAutoFillBackground(True)
        header = QVBoxLayout(self.header)
        header.setContentsMargins(10, 8, 10, 8)
        header.setSpacing(4)
        self.title = plain_label("Nothing to compare")
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.title.setFont(font)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        self.swap_button = QPushButton("⇄ Swap")
        self.swap_button.setToolTip("Put the right leaf on the left")
        self.swap_button.clicked.connect(self.swap)
        self.clear_button = QPushButton("Clear")
        self.clear_button.setToolTip("Stop comparing")
        self.clear_button.clicked.connect(self.clear)
        top.addWidget(self.swap_button)
        top.addWidget(self.clear_button)
        header.addLayout(top)
        grid = QGridLayout()
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(3)
        self.left_side = self._side_row(grid, 0, "Left", accent("user"))
        self.right_side = self._side_row(grid, 1, "Right", accent("assistant"))
        self.ancestor_name = plain_label("Common ancestor", muted=True, small=True)
        self.ancestor = link_button("", "Select the common ancestor")
        self.ancestor.clicked.connect(lambda: self._select(self._ancestor_id))
        self.ancestor_title = plain_label("", muted=True, small=True)
        self.ancestor_title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        grid.addWidget(self.ancestor_name, 2, 0)
        grid.addWidget(self.ancestor, 2, 1)
        grid.addWidget(self.ancestor_title, 2, 2)
        grid.setColumnStretch(2, 1)
        header.addLayout(grid)
        # One line each for thinking level and model; a difference stands out in bold colour.
        self.setting_lines = [plain_label("", small=True, wrap=True), plain_label("", small=True, wrap=True)]
        for line in self.setting_lines:
            header.addWidget(line)
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
        self._ancestor_id: str | None = None
        self._content: list[QWidget] = []
        controller.compareChanged.connect(self._compare_changed)
        controller.sessionChanged.connect(lambda session: self.refresh())
        self._tint()
        self.refresh()

    def _side_row(self, grid: QGridLayout, row: int, name: str, color) -> dict[str, Any]:
        chip = Chip(name, color)
        button = link_button("", f"Select the {name.lower()} leaf")
        title = plain_label("", muted=True, small=True)
        title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        grid.addWidget(chip, row, 0)
        grid.addWidget(button, row, 1)
        grid.addWidget(title, row, 2)
        side = {"chip": chip, "button": button, "title": title, "id": None}
        button.clicked.connect(lambda: self._select(side["id"]))
        return side

    def _tint(self) -> None:
        palette = self.header.palette()
        window = self.palette().color(QPalette.ColorRole.Window)
        palette.setColor(QPalette.ColorRole.Window, mix(window, self.palette().color(QPalette.ColorRole.Base), 0.5))
        self.header.setPalette(palette)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._tint()
            remute(self)

    # -- following the controller

    def _compare_changed(self, left, right) -> None:
        self.refresh()

    def refresh(self) -> None:
        self._clear_content()
        comparison = self.controller.comparison()
        self.comparison = comparison
        has = comparison is not None
        self.swap_button.setEnabled(has)
        self.clear_button.setEnabled(has)
        if comparison is None:
            self.title.setText("Nothing to compare")
            for line in self.setting_lines:
                line.setText("")
            for side in (self.left_side, self.right_side):
                side["id"] = None
                side["button"].setText("—")
                side["title"].setText("")
            self.ancestor.setText("—")
            self.ancestor_title.setText("")
            note = plain_label("Choose Entry ▸ Compare With… to put two leaves side by side.", muted=True, wrap=True)
            note.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self._add(note)
            self.body_layout.addStretch(1)
            return
        session = self.controller.session
        left, right = comparison.left, comparison.right
        self.title.setText("Contexts are identical" if comparison.identical else "Comparing two contexts")
        for side, context in ((self.left_side, left), (self.right_side, right)):
            side["id"] = context.leaf
            side["button"].setText(str(context.leaf))
            entry = session.entries.get(context.leaf) if session is not None else None
            side["title"].setText(f"{len(context.messages):,} messages · " + (entry_title(entry, 90) if entry is not None else ""))
        self._ancestor_id = comparison.common_ancestor
        if comparison.common_ancestor is not None and session is not None and comparison.common_ancestor in session.entries:
            self.ancestor.setText(comparison.common_ancestor)
            self.ancestor.setEnabled(True)
            self.ancestor_title.setText(entry_title(session.entries[comparison.common_ancestor], 90))
        else:
            self.ancestor.setText("none")
            self.ancestor.setEnabled(False)
            self.ancestor_title.setText("the leaves are in separate trees")
        self._show_settings(comparison)
        controller = self.controller
        self.left_info = context_info(left, controller.provenance(left.leaf), controller.stats(left.leaf).message_tokens)
        self.right_info = context_info(right, controller.provenance(right.leaf), controller.stats(right.leaf).message_tokens)
        for info in (self.left_info, self.right_info):
            info.images = self.images
            info.labels = controller.session.labels
        self._build_shared(comparison)
        self._build_columns(comparison)

    def _show_settings(self, comparison: Comparison) -> None:
        left, right = comparison.left, comparison.right
        rows = (
            ("Thinking", plain(left.thinking_level), plain(right.thinking_level), left.thinking_level == right.thinking_level),
            ("Model", format_model(left.model), format_model(right.model), left.model == right.model),
        )
        for line, (name, a, b, same) in zip(self.setting_lines, rows):
            line.setText(f"{name}: {a} on both" if same else f"{name} differs: {a} ← left · right → {b}")
            font = line.font()
            font.setBold(not same)
            line.setFont(font)
            palette = self.header.palette()
            if not same:
                palette.setColor(QPalette.ColorRole.WindowText, accent("compactionSummary"))
            line.setPalette(palette)

    def settings_text(self) -> str:
        return "\n".join(line.text() for line in self.setting_lines)

    def _add(self, widget: QWidget) -> None:
        self.body_layout.addWidget(widget)
        self._content.append(widget)

    def _clear_content(self) -> None:
        while self.body_layout.count():
            item = self.body_layout.takeAt(0)
            widget = item.widget()
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self._content = []
        self._left_cards = []
        self._right_cards = []
        self.pairs_shown = 0

    # -- the shared prefix

    def _build_shared(self, comparison: Comparison) -> None:
        count = comparison.shared_prefix
        plural = "message" if count == 1 else "messages"

        def build() -> QWidget:
            holder = QWidget()
            rows = QVBoxLayout(holder)
            rows.setContentsMargins(0, 0, 0, 0)
            rows.setSpacing(1)
            sources = comparison.left.message_sources()
            for index, message in enumerate(comparison.left.messages[: min(count, SHARED_LIST_LIMIT)]):
                role = message.get("role") if isinstance(message, dict) else "value"
                text = f"#{index + 1}  {role}: {plain(message_preview(message))[:140]}"
                button = link_button(text, f"Select entry {sources[index].id}")
                button.clicked.connect(lambda checked=False, key=sources[index].id: self._select(key))
                rows.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
            if count > SHARED_LIST_LIMIT:
                rows.addWidget(plain_label(f"… and {count - SHARED_LIST_LIMIT:,} more", muted=True, small=True))
            return holder

        frame = QFrame()
        frame.setFrameShape(QFrame.Shape.StyledPanel)
        box = QVBoxLayout(frame)
        box.setContentsMargins(8, 4, 8, 4)
        if count:
            self.shared_row = Collapsible(f"{count:,} shared {plural} — the same in both contexts", build)
        else:
            self.shared_row = Collapsible("No shared messages — the contexts differ from the first message", lambda: QWidget())
            self.shared_row.toggle.setEnabled(False)
        box.addWidget(self.shared_row)
        self._add(frame)

    # -- the differing messages, pair by pair

    def _build_columns(self, comparison: Comparison) -> None:
        left_only, right_only = comparison.left_only, comparison.right_only
        if comparison.identical:
            note = plain_label("Both leaves send exactly the same messages with the same settings.", muted=True, wrap=True)
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
        for column, (name, items, color) in enumerate((("Left only", left_only, accent("user")), ("Right only", right_only, accent("assistant")))):
            head = QHBoxLayout()
            head.addWidget(Chip(f"{name}: {len(items):,}", color))
            head.addStretch(1)
            self.grid.addLayout(head, 0, column)
        self._add(self.columns)
        self.more = QPushButton()
        self.more.setFlat(True)
        self.more.clicked.connect(self.show_more)
        self._add(self.more)
        self.body_layout.addStretch(1)
        self.show_more()

    def show_more(self) -> None:
        comparison = self.comparison
        if comparison is None or self.left_info is None or self.right_info is None:
            return
        shared = comparison.shared_prefix
        total = max(len(comparison.left_only), len(comparison.right_only))
        end = min(total, self.pairs_shown + PAIRS_PAGE)
        for pair in range(self.pairs_shown, end):
            for column, (info, cards, count) in enumerate(
                ((self.left_info, self._left_cards, len(comparison.left_only)), (self.right_info, self._right_cards, len(comparison.right_only)))
            ):
                if pair >= count:
                    if pair == count:
                        end_note = plain_label("(no more messages on this side)", muted=True, small=True)
                        self.grid.addWidget(end_note, pair + 1, column, Qt.AlignmentFlag.AlignTop)
                    continue
                item = info.by_index[shared + pair]
                card = MessageCard(item, info)
                card.activated.connect(self._select)
                card.jump.connect(lambda index, cards=cards: self._jump(cards, index))
                self.grid.addWidget(card, pair + 1, column, Qt.AlignmentFlag.AlignTop)
                cards.append(card)
        self.pairs_shown = end
        left = total - end
        self.more.setText(f"▼ {left:,} more rows — show {min(left, PAIRS_PAGE)}")
        self.more.setVisible(left > 0)

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
        if key is not None:
            self.controller.select(key)

    def swap(self) -> None:
        if self.controller.compared:
            left, right = self.controller.compared
            self.controller.set_compare(right, left)

    def clear(self) -> None:
        self.controller.set_compare(None, None)

    # -- for tests

    def left_cards(self) -> list[MessageCard]:
        return list(self._left_cards)

    def right_cards(self) -> list[MessageCard]:
        return list(self._right_cards)
