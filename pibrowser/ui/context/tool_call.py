"""A tool call inside an assistant's card, with the result that answered it nested under it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QWidget

from ...model.session.entry import Entry
from ...model.js.value import MISSING
from .blocks import Box, TextBlock
from .formatting import format_arguments, short_id
from .roles import accent
from .safe_text import plain, safe_tip
from .text_sheet import TextSheet
from .inline_row import InlineRow, Look, Part, spacer
from .widgets import MUTED, SMALL, plain_label

if TYPE_CHECKING:
    from .card_items import CardItem, ContextInfo
    from .message_card import MessageCard

RESULT_TEXT_LIMIT = 1500  # a tool result nested under its call


class ToolCallBox(Box):
    """One tool call of an assistant message, with the result that answered it nested inside."""

    def __init__(self, block: dict[str, Any], card: MessageCard) -> None:
        super().__init__(accent("toolResult"), tint=0.05)
        self.block = block
        self.card = card
        self.result_index: int | None = None
        self.result_block: Box | None = None
        self._result_part: QWidget | None = None  # the nested result, or the line saying why there is none
        self._shown_for = self.result_state(card.info)
        call_id = block.get("id")
        self.layout().addWidget(self._name_row(call_id))
        self.arguments = self._arguments()
        self.layout().addWidget(self.arguments)
        self.clicked.connect(card.activate)
        self._add_result(call_id)

    def result_state(self, info: ContextInfo) -> tuple[int | None, CardItem | None]:
        """What the result part shows of `info`: the result's index, or the dropped result."""
        call_id = self.block.get("id")
        if not isinstance(call_id, str):
            return None, None
        return info.results.get(call_id), info.dropped_results.get(call_id)

    def refresh_result(self) -> bool:
        """Show the result the card's info now has for this call, if that changed (a step along a
        path brings a result or takes it away): the part under the arguments only, not the whole card."""
        state = self.result_state(self.card.info)
        if state == self._shown_for:
            return False
        gone = self._result_part
        if gone is not None:
            self.layout().removeWidget(gone)
            gone.hide()
            self.card.forget(gone)
            gone.deleteLater()
        self.result_index, self.result_block, self._result_part, self._shown_for = None, None, None, state
        self._add_result(self.block.get("id"))
        if self._result_part is not None:
            self.card.mute_if_dropped(self._result_part)
            self._result_part.show()
        return True

    def _name_row(self, call_id: Any) -> InlineRow:
        name = Part(f"→ {plain(self.block.get('name'))}", mono=True, bold=True)
        return InlineRow([name, spacer(), Part(short_id(call_id), size=SMALL, mute=MUTED, tip=safe_tip(plain(call_id)))])

    def _arguments(self) -> TextBlock:
        name = plain(self.block.get("name"))
        arguments = TextBlock(format_arguments(self.block.get("arguments", MISSING)), markdown=False, monospace=True, title=f"Arguments of {name}")
        arguments.clicked.connect(self.card.activate)
        return arguments

    def _add_result(self, call_id: Any) -> None:
        """The result nested here, or a line saying why there is none."""
        card, info = self.card, self.card.info
        index = info.results.get(call_id) if isinstance(call_id, str) else None
        if index is not None and not card.item.dropped:
            self.result_index = index
            self._nest_result(index)
        elif isinstance(call_id, str) and call_id in info.dropped_results:
            dropped = info.dropped_results[call_id]
            edit = dropped.edit.id if dropped.edit else ""
            self._result_part = plain_label(f"↳ its result was dropped by edit {edit} — not sent", muted=True, small=True, wrap=True)
        elif not card.item.dropped:
            self._result_part = plain_label("↳ no result for this call in this context", muted=True, small=True, wrap=True)
        if self._result_part is not None:
            self.layout().addWidget(self._result_part)

    def _nest_result(self, index: int) -> None:
        card, info = self.card, self.card.info
        message = info.message(index)
        source = info.source(index)
        error = isinstance(message, dict) and bool(message.get("isError"))
        box = Box(accent("error" if error else "toolResult"), tint=0.08)
        box.setToolTip(safe_tip(f"Result #{index + 1}, entry {source.id} — click to select it"))
        box.layout().addWidget(self._result_row(index, source, error))
        content = message.get("content", MISSING) if isinstance(message, dict) else message
        self._add_result_content(box, content, source.id)
        box.clicked.connect(lambda: card.activated.emit(source.id))
        self.result_block = self._result_part = box

    def _result_row(self, index: int, source: Entry, error: bool) -> InlineRow:
        card = self.card
        item = card.info.by_index[index] if index < len(card.info.by_index) else None
        edited = f" · edited by {item.edit.id}" if item is not None and item.edit is not None else ""
        what = Part(f"↳ {'error' if error else 'result'} · #{index + 1}{edited}", size=SMALL)
        go = Part(source.id, Look.LINK, tip=safe_tip(f"Select the result's entry {source.id}"))
        row = InlineRow([what, spacer(), go])
        row.followed.connect(lambda: card.activated.emit(source.id))
        return row

    def _add_result_content(self, box: Box, content: Any, source_id: str) -> None:
        card = self.card
        before = len(card.text_blocks)
        # Straight into the box's layout: text that grows must reach the card's layout.
        card.add_content(box.layout(), content, True, markdown=False, monospace=True, limit=RESULT_TEXT_LIMIT)
        # A click on the result's text selects the result's entry, not the card's.
        for block in card.text_blocks[before:]:
            try:
                block.clicked.disconnect(card.activate)
            except (RuntimeError, TypeError):
                pass  # not connected to the card (Qt says so by raising): nothing to undo
            block.clicked.connect(lambda source=source_id: card.activated.emit(source))

    def result_text(self) -> str:
        if self.result_block is None:
            return ""
        return "\n".join(view.toPlainText() for view in self.result_block.findChildren(TextSheet))
