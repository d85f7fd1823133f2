"""Message cards: one readable card per context message, built only when shown.

A card draws its own frame (no style sheet per card, so hundreds stay cheap),
shows the role, time and model, and renders the content: markdown text,
collapsible thinking, tool calls with their results nested, thumbnails, and
the special messages (system checkpoint, compaction and branch summaries,
custom messages, shell commands). Everything the session wrote goes through
`safe_text`, so it is shown, never interpreted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ...model.session.content import BlockKind, ContentShape, blocks, content_shape
from ...model.js.value import MISSING
from ...model.context import provenance
from ..style.colors import mix
from .blocks import (
    CARD_TEXT_LIMIT,
    Box,
    Collapsible,
    ImageBlock,
    TextBlock,
    ThinkingBlock,
)
from .card_items import CardItem, ContextInfo
from .card_menu import card_menu
from .inline_row import InlineRow, Look, Part, spacer
from .frames import paint_rounded
from .formatting import (
    ARGUMENT_LIMIT,
    content_size,
    display_json,
    format_count,
    message_time,
    short_id,
    usage_parts,
)
from .roles import LABEL_COLOR, ROLE_NAMES, accent
from .safe_text import plain, safe_tip
from .text_sheet import TextSheet
from .tool_call import ToolCallBox
from .widgets import (
    MUTED,
    SMALL,
    layout_hint,
    plain_label,
    set_bold,
    set_muted,
    set_text_color,
)

_NO_CONTENT = ("", None, MISSING, [])  # what a system prompt without text can hold


class MessageCard(QFrame):
    """One context message. `activated(entry id)` on a click; `jump(index)` to go to another card."""

    activated = Signal(str)
    jump = Signal(int)

    def __init__(self, item: CardItem, info: ContextInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        self.info = info
        self.selected = info.selected == item.entry.id
        self.flash = False
        self.text_blocks: list[TextBlock] = []
        self.thinking_blocks: list[ThinkingBlock] = []
        self.image_blocks: list[ImageBlock] = []
        self.tool_boxes: list[ToolCallBox] = []
        self.original_section: Collapsible | None = None
        self.result_content: Collapsible | None = None
        self.body = self._make_body()
        self._build_header()
        if item.dropped:
            self._build_dropped_banner()
        self._build_content(item.message, self.body)
        if item.original is not None and not item.dropped:
            self._build_original()
        self.mute_if_dropped(self)

    def _make_body(self) -> QVBoxLayout:
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        # A card never asks for more width than the panel has; its layout gets the real width.
        self.setMinimumWidth(1)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 8, 10, 8)
        layout.setSpacing(4)
        return layout

    # -- facts for the panel and for tests

    @property
    def index(self) -> int | None:
        return self.item.index

    @property
    def message(self) -> Any:
        return self.item.message

    @property
    def source_id(self) -> str:
        return self.item.entry.id

    @property
    def role(self) -> str:
        return self.item.role

    def sizeHint(self) -> QSize:
        return layout_hint(self)

    def role_label(self) -> str:
        return self.role_part.text

    def number_text(self) -> str:
        """The message's number in the context ("#3"), or "not sent"."""
        return self.number_part.text

    def shown_label(self) -> str | None:
        """The entry's label as the card shows it; None when it shows none."""
        return self.label_part.text if self.label_part.visible else None

    def shown_lines(self) -> list[str]:
        """The one-line texts the card shows (its header, notes, tool-call and result lines), in no set order."""
        lines = [label.text() for label in self.findChildren(QLabel) if label.isVisibleTo(self)]
        return lines + [text for row in self.findChildren(InlineRow) if row.isVisibleTo(self) for text in row.texts()]

    def shown_text(self) -> str:
        """The plain text of every text view in the card, in order."""
        views = [view for view in self.findChildren(TextSheet) if view.isVisibleTo(self)]
        return "\n".join(view.toPlainText() for view in views)

    # -- header

    def _title(self) -> str:
        message = self.item.message
        role = self.item.role
        if role == "system" and self.item.entry.type == "compaction":
            return "System prompt · checkpoint"
        if role == "custom" and isinstance(message, dict):
            return f"Custom · {short_id(message.get('customType'), 40)}"
        return ROLE_NAMES.get(role, role)

    def _build_header(self) -> None:
        message = self.item.message
        self.accent = self._header_color()
        self.body.addWidget(self._title_row())
        if isinstance(message, dict) and self.item.role == "assistant":
            self._build_model_line(message)
        if isinstance(message, dict) and message.get("errorMessage"):
            self.body.addWidget(plain_label(plain(message.get("errorMessage")), small=True, wrap=True))

    def _header_color(self) -> QColor:
        item, message = self.item, self.item.message
        if isinstance(message, dict) and message.get("isError"):
            return accent("error")
        return accent(item.role if not item.dropped else "dropped")

    def _title_row(self) -> InlineRow:
        """Role, number, label, time, badges, tokens and the entry link: one painted line, not a widget each."""
        item = self.item
        entry = item.entry
        self.role_part = Part(self._title(), Look.CHIP, color=self.accent)
        self.number_part = Part(f"#{item.index + 1}" if item.index is not None else "not sent", size=SMALL, mute=MUTED)
        self.label_part = Part("", Look.CHIP, color=LABEL_COLOR, max_width=220, visible=False)
        # In a narrow panel the time gives way first (its tooltip keeps it); the date goes before the clock.
        when = message_time(item.message, entry)
        self.time_part = Part(when, size=SMALL, mute=MUTED, tip=safe_tip(when), stretch=True, shorter=(when[11:],) if len(when) > 11 else ())
        parts = [self.role_part, self.number_part, self.label_part, self.time_part, *self._badges()]
        if item.tokens:
            parts.append(Part(f"≈{format_count(item.tokens)} tok", size=SMALL, mute=MUTED, tip="pi's estimate for this message: characters / 4"))
        self.entry_part = Part(entry.id, Look.LINK, tip=safe_tip(f"Select entry {entry.id} (line {entry.line})"))
        parts.append(self.entry_part)
        self.header = InlineRow(parts)
        # Read at click time: the panel may hand the card an updated item.
        self.header.followed.connect(lambda: self.activated.emit(self.item.entry.id))
        self.refresh_label()
        return self.header

    def refresh_label(self) -> None:
        """Show the source entry's label (the info's label map is the session's, so it is current)."""
        label = self.info.labels.get(self.item.entry.id)
        part = self.label_part
        if (label is None and not part.visible) or (label is not None and part.visible and part.text == plain(label)):
            return
        part.visible = label is not None
        part.text = plain(label) if label is not None else ""
        part.tip = safe_tip(f"Label of entry {self.item.entry.id}: {plain(label)}") if label is not None else ""
        self.header.changed()

    def _badges(self) -> list[Part]:
        item, message = self.item, self.item.message
        badges = []
        if item.edit is not None and not item.dropped:
            badges.append(_badge("edited", "compactionSummary"))
        if item.part is provenance.Part.KEPT:
            badges.append(_badge("kept", "system", "Before the compaction in the file, kept after it"))
        if isinstance(message, dict):
            stop = message.get("stopReason")
            if stop in ("error", "aborted", "length"):
                badges.append(_badge(str(stop), "error"))
            if message.get("excludeFromContext"):
                badges.append(_badge("excluded", "error", "pi leaves this shell run out of what the model sees (run with !!)"))
        return badges

    def _build_model_line(self, message: dict[str, Any]) -> None:
        parts = []
        model = message.get("responseModel") or message.get("model")
        if model:
            parts.append(f"{plain(model)} ({plain(message.get('provider'))})")
        usage = message.get("usage")
        if isinstance(usage, dict):
            parts.extend(usage_parts(usage))
        if parts:
            self.model_label = plain_label(" · ".join(parts), muted=True, small=True, wrap=True)
            self.body.addWidget(self.model_label)

    def _build_dropped_banner(self) -> None:
        edit = self.item.edit
        banner = plain_label(f"✕ DROPPED by context edit {edit.id if edit else ''} — NOT sent to the model", small=True, wrap=True)
        set_bold(banner)
        set_text_color(banner, accent("error"))
        self.banner = banner
        self.body.addWidget(banner)

    def _build_original(self) -> None:
        edit = self.item.edit
        original = self.item.original

        def build() -> QWidget:
            box = Box(accent("dropped"), dashed=True)
            note = plain_label(f"Original before edit {edit.id if edit else ''} — replaced, not sent", muted=True, small=True, wrap=True)
            box.layout().addWidget(note)
            self._build_content(original, box.layout(), record=False)
            _mute_all(box, 0.35)
            return box

        self.original_section = Collapsible("Show original (before the edit)", build)
        self.body.addWidget(self.original_section)

    # -- content

    def _build_content(self, message: Any, layout: QVBoxLayout, record: bool = True) -> None:
        """Content as its kind of message shows it; a message of no known kind as JSON.

        `record` is False for an edit's original: its blocks are not the card's own.
        """
        role = message.get("role") if isinstance(message, dict) else None
        build = self._builders().get(role) if isinstance(role, str) else None
        if build is None:
            self._add_json(layout, message, record)
            return
        build(message, layout, record)

    def _builders(self) -> dict[str, Callable[[dict[str, Any], QVBoxLayout, bool], None]]:
        return {
            "toolResult": self._build_tool_result,
            "bashExecution": self._build_bash,
            "system": self._build_system,
            "compactionSummary": self._build_compaction,
            "branchSummary": self._build_branch_summary,
            "user": self._build_chat,
            "assistant": self._build_chat,
            "custom": self._build_custom,
        }

    def _add_text(self, layout: QVBoxLayout, text: Any, record: bool, markdown: bool = True, monospace: bool = False, limit: int = CARD_TEXT_LIMIT) -> TextBlock:
        block = TextBlock(text, markdown=markdown, monospace=monospace, limit=limit, title=f"{self._title()} {self.number_part.text}")
        block.clicked.connect(self.activate)
        _add_kept(layout, block, self.text_blocks if record else None)
        return block

    def _add_json(self, layout: QVBoxLayout, value: Any, record: bool) -> None:
        self._add_text(layout, display_json(value)[0], record, markdown=False, monospace=True)

    def add_content(self, layout: QVBoxLayout, content: Any, record: bool, markdown: bool = True, monospace: bool = False, limit: int = CARD_TEXT_LIMIT) -> None:
        """A message's content: a string, or a list of text, thinking, image and tool-call blocks."""
        shape = content_shape(content)
        if shape is ContentShape.STRING:
            self._add_text(layout, content, record, markdown, monospace, limit)
        elif shape is ContentShape.NONE:
            layout.addWidget(plain_label("(no content)", muted=True, small=True))
        elif shape is ContentShape.VALUE:
            self._add_json(layout, content, record)
        else:
            if not content:
                layout.addWidget(plain_label("(empty content)", muted=True, small=True))
            for kind, block in blocks(content):
                self._add_block(layout, kind, block, record, markdown, monospace, limit)

    def _add_block(self, layout: QVBoxLayout, kind: BlockKind, block: Any, record: bool, markdown: bool, monospace: bool, limit: int) -> None:
        if kind is BlockKind.TEXT:
            self._add_text(layout, block.get("text", ""), record, markdown, monospace, limit)
        elif kind is BlockKind.THINKING:
            _add_kept(layout, ThinkingBlock(block), self.thinking_blocks if record else None)
        elif kind is BlockKind.IMAGE:
            _add_kept(layout, ImageBlock(block, self.info.images), self.image_blocks if record else None)
        elif kind is BlockKind.TOOL_CALL:
            _add_kept(layout, ToolCallBox(block, self), self.tool_boxes if record else None)
        else:
            self._add_json(layout, block, record)

    def _build_chat(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        self.add_content(layout, message.get("content", MISSING), record)

    def _build_tool_result(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        call_id = message.get("toolCallId")
        call = self.info.calls.get(call_id) if isinstance(call_id, str) else None
        layout.addWidget(self._result_reference(message, call[0] if call is not None else None))
        content = message.get("content", MISSING)
        if call is not None and record and self.item.edit is None:
            return  # its content shows once, nested under its call: this card is the one-line link to it
        if call is not None and record:
            self._build_folded_result(layout, content, call[0])
        else:
            self.add_content(layout, content, record, markdown=False, monospace=True)

    def _result_reference(self, message: dict[str, Any], index: int | None) -> QWidget:
        """Which call the result answers: a link to its card, or a note that it is not in this context."""
        name = plain(message.get("toolName"))
        status = "error from" if message.get("isError") else "result of"
        tip = safe_tip(f"Answers tool call {plain(message.get('toolCallId'))}")
        if index is None:
            self.reference = plain_label(f"↩ {status} {name} — its call is not in this context", small=True, wrap=True)
            self.reference.setToolTip(tip)
            return self.reference
        size = content_size(message.get("content", MISSING))
        note = Part(f"↩ {status} {name} — shown under its call in #{index + 1} · {size}", size=SMALL, tip=tip)
        go = Part(f"go to #{index + 1}", Look.LINK, tip=safe_tip("Scroll to the assistant message that made this call"))
        self.reference = InlineRow([note, go, spacer()], spacing=4)
        self.reference.followed.connect(lambda: self.jump.emit(index))
        return self.reference

    def _build_folded_result(self, layout: QVBoxLayout, content: Any, call_index: int) -> None:
        # The content is shown under its call; here it is one click away.
        def build() -> QWidget:
            holder = QWidget()
            inner = QVBoxLayout(holder)
            inner.setContentsMargins(0, 0, 0, 0)
            self.add_content(inner, content, True, markdown=False, monospace=True)
            return holder

        # An edited result shows its replacement at once; the original is one more click away.
        self.result_content = Collapsible(f"Content · {content_size(content)}", build, expanded=self.item.edit is not None)
        self.result_content.toggle.setToolTip(f"Also shown under its call in #{call_index + 1}")
        layout.addWidget(self.result_content)

    def _build_bash(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        box = Box(accent("bashExecution"), tint=0.05)
        self._add_text(box.layout(), "$ " + str(message.get("command", "")), record, markdown=False, monospace=True, limit=ARGUMENT_LIMIT)
        output = message.get("output", "")
        if output:
            self._add_text(box.layout(), output, record, markdown=False, monospace=True)
        else:
            box.layout().addWidget(plain_label("(no output)", muted=True, small=True))
        layout.addWidget(box)
        notes = _bash_notes(message)
        if notes:
            layout.addWidget(_bash_status(message, notes))

    def _build_system(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        if self.item.entry.type == "compaction":
            layout.addWidget(plain_label(f"Carried by compaction {self.item.entry.id}: the system prompt in force when it was made", muted=True, small=True, wrap=True))
        content = message.get("content", "")
        if content not in _NO_CONTENT:
            self.add_content(layout, content, record, markdown=False)
        sections = message.get("sections")
        if isinstance(sections, dict):
            self._add_sections(layout, sections)
        self._add_tool_changes(layout, message)
        if content in _NO_CONTENT and not sections:
            layout.addWidget(plain_label("(empty system prompt)", muted=True, small=True))

    def _add_sections(self, layout: QVBoxLayout, sections: dict[Any, Any]) -> None:
        for name, text in sections.items():
            if text is None:
                layout.addWidget(plain_label(f"§ {plain(name)} removed", muted=True, small=True))
                continue
            size = len(text) if isinstance(text, str) else 0
            layout.addWidget(Collapsible(f"§ {plain(name)} · {size:,} characters", lambda text=text: self._detached_text(text)))

    def _add_tool_changes(self, layout: QVBoxLayout, message: dict[str, Any]) -> None:
        for key, verb in (("toolsAdded", "tools added"), ("toolsRemoved", "tools removed")):
            tools = message.get(key)
            if isinstance(tools, list) and tools:
                names = ", ".join(plain(tool.get("name")) if isinstance(tool, dict) else plain(tool) for tool in tools)
                layout.addWidget(Collapsible(f"{len(tools)} {verb}: {names}", lambda tools=tools: self._detached_json(tools)))

    def _detached_text(self, text: Any, monospace: bool = False) -> QWidget:
        """Text for a section built on first opening; not one of the card's recorded blocks."""
        block = TextBlock(text, markdown=False, monospace=monospace, title=self._title())
        block.clicked.connect(self.activate)
        return block

    def _detached_json(self, value: Any) -> QWidget:
        return self._detached_text(display_json(value)[0], monospace=True)

    def _build_compaction(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        tokens = message.get("tokensBefore")
        tokens_text = f"{tokens:,} tokens before" if isinstance(tokens, (int, float)) and not isinstance(tokens, bool) else "tokens before unknown"
        entry_word = "entry" if self.info.summarized == 1 else "entries"
        self.compaction_note = plain_label(
            f"Summarizes {self.info.summarized} {entry_word} · {tokens_text} · compaction {self.item.entry.id}", small=True, wrap=True
        )
        self.compaction_note.setToolTip("Entries on the path before the compaction that pi no longer sends; this summary stands in for them")
        layout.addWidget(self.compaction_note)
        self._add_text(layout, message.get("summary", ""), record)

    def _build_branch_summary(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        source = message.get("fromId")
        link = Part(plain(source), Look.LINK, tip=safe_tip("Select the entry the branch was left at"))
        row = InlineRow([Part("Summary of an abandoned branch, left at", size=SMALL, mute=MUTED), link, spacer()])
        if isinstance(source, str):
            row.followed.connect(lambda: self.activated.emit(source))
        layout.addWidget(row)
        self._add_text(layout, message.get("summary", ""), record)

    def _build_custom(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        if message.get("display") is False:
            layout.addWidget(plain_label("Not displayed in pi's chat (display: false), but sent to the model", muted=True, small=True, wrap=True))
        details = message.get("details", MISSING)
        if details is not MISSING:
            layout.addWidget(Collapsible("details", lambda: self._detached_json(details)))
        self._build_chat(message, layout, record)

    def mute_if_dropped(self, part: QWidget) -> None:
        """Grey out everything in `part` (the card, or a part built later) when the message is not sent."""
        if self.item.dropped:
            _mute_all(part, 0.4)
            if part is not self:
                set_muted(part, 0.4)

    def forget(self, gone: QWidget) -> None:
        """Drop the blocks inside `gone` (a part of the card being replaced) from the card's lists."""
        for name in ("text_blocks", "thinking_blocks", "image_blocks", "tool_boxes"):
            setattr(self, name, [block for block in getattr(self, name) if not gone.isAncestorOf(block)])

    # -- interaction

    def activate(self) -> None:
        """Ask for this card's entry to be selected."""
        self.activated.emit(self.item.entry.id)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.activate()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def contextMenuEvent(self, event) -> None:
        self.menu = card_menu(self, self)
        self.menu.popup(event.globalPos())
        event.accept()

    def set_selected(self, on: bool) -> None:
        if on != self.selected:
            self.selected = on
            self.update()

    def set_flash(self, on: bool) -> None:
        self.flash = on
        self.update()

    # -- painting

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        rect = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        if self.item.dropped:
            self._paint_dropped(painter, rect)
        else:
            self._paint_sent(painter)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        stripe = QPainterPath()
        stripe.addRoundedRect(QRectF(rect.left(), rect.top(), 5, rect.height()), 2.5, 2.5)
        painter.fillPath(stripe, self.accent if not self.item.dropped else accent("dropped"))

    def _paint_dropped(self, painter: QPainter, rect: QRectF) -> None:
        """Hatched and dashed, so a message the model never sees cannot pass for one it does."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        path = QPainterPath()
        path.addRoundedRect(rect, 7, 7)
        base = self.palette().color(QPalette.ColorRole.Base)
        fill = mix(self.palette().color(QPalette.ColorRole.Window), base, 0.4)
        painter.fillPath(path, fill)
        painter.setClipPath(path)
        painter.setPen(QPen(mix(fill, accent("dropped"), 0.35), 1))
        step = 12
        for x in range(-self.height(), self.width(), step):
            painter.drawLine(x, self.height(), x + self.height(), 0)
        painter.setClipping(False)
        painter.setPen(QPen(mix(base, accent("dropped"), 0.9), 1.2, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)

    def _paint_sent(self, painter: QPainter) -> None:
        palette = self.palette()
        base = palette.color(QPalette.ColorRole.Base)
        if self.selected or self.flash:
            border = QPen(palette.color(QPalette.ColorRole.Highlight), 2)
        else:
            border = QPen(mix(base, palette.color(QPalette.ColorRole.Text), 0.16), 1)
        paint_rounded(painter, self.rect(), 7, mix(base, self.accent, 0.035), border)

def _add_kept(layout: QVBoxLayout, widget: QWidget, kept: list | None) -> None:
    """Add the widget, and keep it in the card's list of its kind unless it belongs to an original."""
    layout.addWidget(widget)
    if kept is not None:
        kept.append(widget)


def _badge(text: str, role: str, tip: str = "") -> Part:
    return Part(text, Look.OUTLINE, color=accent(role), tip=tip)


def _bash_notes(message: dict[str, Any]) -> list[str]:
    notes = []
    code = message.get("exitCode", MISSING)
    if code is not MISSING:
        notes.append(f"exit {plain(code)}")
    if message.get("cancelled"):
        notes.append("cancelled")
    if message.get("truncated"):
        notes.append("output truncated")
    if message.get("fullOutputPath"):
        notes.append(f"full output in {plain(message.get('fullOutputPath'))}")
    return notes


def _bash_status(message: dict[str, Any], notes: list[str]) -> QLabel:
    """The notes under a shell run, in the error colour when it failed or was cancelled."""
    label = plain_label(" · ".join(notes), small=True, wrap=True)
    if message.get("exitCode", MISSING) not in (0, MISSING, None) or message.get("cancelled"):
        set_text_color(label, accent("error"))
    else:
        set_muted(label)
    return label


def _mute_all(widget: QWidget, amount: float) -> None:
    for child in widget.findChildren(QWidget):
        set_muted(child, amount)
