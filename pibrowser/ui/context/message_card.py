"""One context message as a card: the pieces it is drawn from, where they go, and what is where.

A card is built (card_build) from its row (a CardItem), the context's cross references
(ContextInfo) and what the user opened in it (CardState); it is laid out at the width
it gets, painted by whoever shows it (the list's delegate, the live card over the row
under the mouse, a compare column), and answers what is under a point. It draws its
own frame: tinted by its role, a stripe of the role's colour, a highlighted border
when its entry is the selected one (or it was just jumped to), hatched and dashed
when an edit dropped the message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import QMenu, QWidget

from ..style.colors import mix
from .message_items import CardItem, ContextInfo
from .message_menu import card_menu
from ..cards import (
    Action,
    ActionKind,
    CardPiece,
    CardState,
    Line,
    PaintState,
    Part,
    Picture,
    Piece,
    Section,
    Text,
    WrappedText,
    paint_rounded,
)
from .roles import accent
from ..common.safe_text import plain

MARGINS = (14, 8, 10, 8)


@dataclass(eq=False)
class ToolCall:
    """A tool call's frame in an assistant's card, and what it shows of its result."""

    frame: Piece
    block: dict[str, Any]
    name_line: Line
    arguments: Text
    result_index: int | None  # the result nested under it, if one is
    result_frame: Piece | None
    result_texts: list[Text]
    state: tuple  # the result as the info had it when built: (index, dropped item)

    def result_text(self) -> str:
        return "\n".join(text.plain_text() for text in self.result_texts)


class Card(CardPiece):
    """One message's card. The facts the panel, menus and tests ask are attributes set as it is built."""

    def __init__(self, item: CardItem, info: ContextInfo, color: QColor, state: CardState) -> None:
        mute = 0.4 if item.dropped else 0.0
        super().__init__(state, spacing=4, margins=MARGINS, mute=mute, action=Action(ActionKind.SELECT, item.entry.id))
        self.item = item
        self.info = info
        self.color = color
        self.header: Line | None = None
        # The header's parts, set as it is built (message_build._title_row).
        self.role_part: Part | None = None
        self.number_part: Part | None = None
        self.label_part: Part | None = None
        self.time_part: Part | None = None
        self.entry_part: Part | None = None
        self.texts: list[Text] = []  # the message's own texts, in order (not an original's)
        self.thinking: list[Section] = []
        self.tool_calls: list[ToolCall] = []
        self.pictures: list[Picture] = []
        self.original: Section | None = None
        self.result_content: Section | None = None
        self.banner: WrappedText | None = None
        self.compaction_note: WrappedText | None = None
        self.reference: Piece | None = None  # a tool result's line naming its call
        self.model_line: WrappedText | None = None
        self.label: str | None = None  # the label as built
        self.summarized = info.summarized

    # -- facts

    @property
    def index(self) -> int | None:
        return self.item.index

    @property
    def source_id(self) -> str:
        return self.item.entry.id

    @property
    def message(self) -> Any:
        return self.item.message

    @property
    def role(self) -> str:
        return self.item.role

    def role_label(self) -> str:
        return _built(self.role_part).text

    def number_text(self) -> str:
        """The message's number in the context ("#3"), or "not sent"."""
        return _built(self.number_part).text

    def shown_label(self) -> str | None:
        part = _built(self.label_part)
        return part.text if part.visible else None

    def menu(self, select: Callable[[], None], parent: QWidget) -> QMenu:
        return card_menu(self.item, select, parent)

    def accessible_name(self) -> str:
        """What a screen reader says for the card: its header line, then the start of its text."""
        head = " ".join(self.header.texts()) if self.header is not None else ""
        text = " ".join(self.shown_text().split())
        return plain(f"{head}. {text[:400]}")

    # -- out of date?

    def stale(self, info: ContextInfo) -> bool:
        """Whether the card shows something of `info` other than what it was built from: a label
        written, a tool call's result that arrived or went (a step along the path)."""
        if self.label != label_of(info, self.item):
            return True
        if any(call.state != result_state(call.block, info) for call in self.tool_calls):
            return True
        return self.compaction_note is not None and self.summarized != info.summarized

    # -- painting

    def paint(self, painter: QPainter, rect: QRect, look: PaintState, mute: float) -> None:
        box = QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if self.item.dropped:
            self._paint_dropped(painter, rect, box, look)
        else:
            self._paint_sent(painter, rect, look)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        stripe = QPainterPath()
        stripe.addRoundedRect(QRectF(box.left(), box.top(), 5, box.height()), 2.5, 2.5)
        painter.fillPath(stripe, self.color if not self.item.dropped else accent("dropped"))
        painter.restore()

    def _paint_dropped(self, painter: QPainter, rect: QRect, box: QRectF, look: PaintState) -> None:
        """Hatched and dashed, so a message the model never sees cannot pass for one it does."""
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        path = QPainterPath()
        path.addRoundedRect(box, 7, 7)
        base = look.palette.color(QPalette.ColorRole.Base)
        fill = mix(look.palette.color(QPalette.ColorRole.Window), base, 0.4)
        painter.fillPath(path, fill)
        painter.setClipPath(path, Qt.ClipOperation.IntersectClip)
        painter.setPen(QPen(mix(fill, accent("dropped"), 0.35), 1))
        height = rect.height()
        for x in range(-height, rect.width(), 12):
            painter.drawLine(rect.x() + x, rect.y() + height, rect.x() + x + height, rect.y())
        painter.restore()
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(mix(base, accent("dropped"), 0.9), 1.2, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
        painter.restore()

    def _paint_sent(self, painter: QPainter, rect: QRect, look: PaintState) -> None:
        palette = look.palette
        base = palette.color(QPalette.ColorRole.Base)
        if (look.selected is not None and look.selected == self.source_id) or (look.flashed is not None and look.flashed is self.item):
            border = QPen(palette.color(QPalette.ColorRole.Highlight), 2)
        else:
            border = QPen(mix(base, palette.color(QPalette.ColorRole.Text), 0.16), 1)
        paint_rounded(painter, rect, 7, mix(base, self.color, 0.035), border)


def result_state(block: dict[str, Any], info: ContextInfo) -> tuple:
    """What a tool call's result part shows of `info`: the result's index, or the dropped result."""
    call_id = block.get("id")
    if not isinstance(call_id, str):
        return None, None
    return info.results.get(call_id), info.dropped_results.get(call_id)


def label_of(info: ContextInfo, item: CardItem) -> str | None:
    """The entry's label as a card shows it (one line, inert), or None."""
    label = info.labels.get(item.entry.id)
    return plain(label) if label is not None else None


def _built(part: Part | None) -> Part:
    """A part of the card's header, which build_card makes before anyone asks."""
    assert part is not None, "the card's header is built with the card"
    return part
