"""What a card shows for each kind of message, as pieces.

The role, time and model; the content: markdown text, collapsible thinking, tool calls
with their results nested, thumbnails; and the special messages (system checkpoint,
compaction and branch summaries, custom messages, shell commands). A message of no
known kind shows as JSON. Everything the session wrote goes through `safe_text`, so it
is shown, never interpreted.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtGui import QColor

from ...model.context import provenance
from ...model.js.value import MISSING
from ...model.session.content import BlockKind, ContentShape, blocks, content_shape
from .message_card import Card, label_of
from .message_items import CardItem, ContextInfo
from .message_tool_call import CallSetting, tool_call
from ...model.text.amounts import format_count
from ..common.formatting import ARGUMENT_LIMIT, content_size, display_json, message_time, message_usage_text, short_id
from ..cards import (
    Action,
    ActionKind,
    CARD_TEXT_LIMIT,
    CardState,
    Frame,
    Line,
    Part,
    Picture,
    Piece,
    Section,
    Shape,
    Stack,
    Text,
    WrappedText,
    link,
    spacer,
    text_with_more,
)
from .roles import LABEL_COLOR, ROLE_NAMES, accent
from ..common.safe_text import plain, safe_tip
from ..common.widgets import MUTED, SMALL

_NO_CONTENT: tuple[Any, ...] = ("", None, MISSING, [])  # what a system prompt without text can hold
BLOCK_PAGE = 100  # content blocks built into a card at a time


def build_card(item: CardItem, info: ContextInfo, state: CardState | None = None, expand_thinking: bool = False) -> Card:
    """The card of one row, as `state` has it opened."""
    return CardBuilder(item, info, state or CardState(), expand_thinking).build()


class CardBuilder:
    """Builds one card; `add_content` and `add_text` are also what a tool call's result is made with."""

    def __init__(self, item: CardItem, info: ContextInfo, state: CardState, expand_thinking: bool) -> None:
        self.item, self.info, self.state = item, info, state
        self.expand_thinking = expand_thinking
        self.card = Card(item, info, self._header_color(), state)
        self.select = Action(ActionKind.SELECT, item.entry.id)

    def build(self) -> Card:
        card, item = self.card, self.item
        self._build_header()
        if item.dropped:
            edit = item.edit
            card.banner = card.add(
                WrappedText(
                    f"✕ DROPPED by context edit {edit.id if edit else ''} — NOT sent to the model",
                    size=SMALL,
                    bold=True,
                    color=accent("error"),
                )
            )
        self.add_message(item.message, card, record=True, path="")
        if item.original is not None and not item.dropped:
            card.original = card.add(
                Section("Show original (before the edit)", "original", self.state.is_open("original", False), self._original)
            )
        return card

    # -- header

    def title(self) -> str:
        message, role = self.item.message, self.item.role
        if role == "system" and self.item.entry.type == "compaction":
            return "System prompt · checkpoint"
        if role == "custom" and isinstance(message, dict):
            return f"Custom · {short_id(message.get('customType'), 40)}"
        return ROLE_NAMES.get(role, role)

    def _header_color(self) -> QColor:
        message = self.item.message
        if isinstance(message, dict) and message.get("isError"):
            return accent("error")
        return accent(self.item.role if not self.item.dropped else "dropped")

    def _build_header(self) -> None:
        card, item, message = self.card, self.item, self.item.message
        card.add(self._title_row())
        if isinstance(message, dict) and item.role == "assistant":
            parts = []
            model = message.get("responseModel") or message.get("model")
            if model:
                parts.append(f"{plain(model)} ({plain(message.get('provider'))})")
            usage = message.get("usage")
            if isinstance(usage, dict):
                parts.append(message_usage_text(usage))
            if parts:
                card.model_line = card.add(WrappedText(" · ".join(parts), size=SMALL, mute=MUTED))
        if isinstance(message, dict) and message.get("errorMessage"):
            card.add(WrappedText(plain(message.get("errorMessage")), size=SMALL))

    def _title_row(self) -> Line:
        """Role, number, label, time, badges, tokens and the entry link."""
        card, item, entry = self.card, self.item, self.item.entry
        role = card.role_part = Part(self.title(), Shape.CHIP, color=card.color)
        number = card.number_part = Part(f"#{item.index + 1}" if item.index is not None else "not sent", size=SMALL, mute=MUTED)
        label = card.label = label_of(self.info, item)
        tip = safe_tip(f"Label of entry {entry.id}: {label}") if label is not None else ""
        label_part = card.label_part = Part(label or "", Shape.CHIP, color=LABEL_COLOR, max_width=220, visible=label is not None, tip=tip)
        # In a narrow card the time gives way first (its tooltip keeps it): the date goes before the clock.
        when = message_time(item.message, entry)
        time = card.time_part = Part(
            when, size=SMALL, mute=MUTED, tip=safe_tip(when), stretch=True, shorter=(when[11:],) if len(when) > 11 else ()
        )
        parts = [role, number, label_part, time, *self._badges()]
        if item.tokens:
            parts.append(
                Part(f"≈{format_count(item.tokens)} tok", size=SMALL, mute=MUTED, tip="pi's estimate for this message: characters / 4")
            )
        entry_part = card.entry_part = link(entry.id, self.select, f"Select entry {entry.id} (line {entry.line})")
        parts.append(entry_part)
        header = card.header = Line(parts)
        return header

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

    def _original(self) -> Piece:
        edit = self.item.edit
        frame = Frame(accent("dropped"), dashed=True, mute=0.35)
        frame.add(WrappedText(f"Original before edit {edit.id if edit else ''} — replaced, not sent", size=SMALL, mute=MUTED))
        self.add_message(self.item.original, frame, record=False, path="o/")
        return frame

    # -- content

    def add_message(self, message: Any, into: Stack, record: bool, path: str) -> None:
        """The message as its kind shows it; one of no known kind as JSON.

        `record` is False for an edit's original: its pieces are not the card's own."""
        role = message.get("role") if isinstance(message, dict) else None
        build = self._builders().get(role) if isinstance(role, str) else None
        if build is None:
            self.add_json(into, message, record, path)
            return
        build(message, into, record, path)

    def _builders(self) -> dict[str, Callable[[dict[str, Any], Stack, bool, str], None]]:
        return {
            "toolResult": self._tool_result,
            "bashExecution": self._bash,
            "system": self._system,
            "compactionSummary": self._compaction,
            "branchSummary": self._branch_summary,
            "user": self._chat,
            "assistant": self._chat,
            "custom": self._custom,
        }

    def add_text(
        self,
        into: Stack,
        text: Any,
        record: bool,
        key: str,
        markdown: bool = True,
        mono: bool = False,
        limit: int = CARD_TEXT_LIMIT,
        action: Action | None = None,
    ) -> Text:
        title = f"{self.title()} {self.card.number_text()}"
        piece, shown = text_with_more(text, key, key in self.state.whole, markdown, mono, limit, action or self.select, title)
        into.add(piece)
        if record:
            self.card.texts.append(shown)
        return shown

    def add_json(self, into: Stack, value: Any, record: bool, key: str, action: Action | None = None) -> None:
        self.add_text(into, display_json(value)[0], record, key, markdown=False, mono=True, action=action)

    def add_content(
        self,
        into: Stack,
        content: Any,
        record: bool,
        path: str,
        markdown: bool = True,
        mono: bool = False,
        limit: int = CARD_TEXT_LIMIT,
        action: Action | None = None,
    ) -> None:
        """A message's content: a string, or a list of text, thinking, image and tool-call blocks."""
        shape = content_shape(content)
        if shape is ContentShape.STRING:
            self.add_text(into, content, record, path, markdown, mono, limit, action)
        elif shape is ContentShape.NONE:
            into.add(WrappedText("(no content)", size=SMALL, mute=MUTED))
        elif shape is ContentShape.VALUE:
            self.add_json(into, content, record, path, action)
        else:
            if not content:
                into.add(WrappedText("(empty content)", size=SMALL, mute=MUTED))
            first, pager = self._page(content, path)
            if pager is not None:
                into.add(pager)
            page = content[first : first + BLOCK_PAGE]
            for number, (kind, block) in enumerate(blocks(page), start=first):
                self._add_block(into, kind, block, record, f"{path}{number}.", markdown, mono, limit, action)
            last = self._page(content, path)[1] if pager is not None else None  # the same pager, below the page too
            if last is not None:
                into.add(last)

    def _page(self, content: list[Any], path: str) -> tuple[int, Line | None]:
        """Where the page of `content`'s blocks shown starts, and the line that turns the pages (None
        when they fit on one): a message of a million blocks is built and measured a page at a time."""
        if len(content) <= BLOCK_PAGE:
            return 0, None
        key = path + "blocks"
        last = (len(content) - 1) // BLOCK_PAGE
        page = min(max(self.state.pages.get(key, 0), 0), last)
        first = page * BLOCK_PAGE
        shown = Part(f"Blocks {first + 1:,}–{min(first + BLOCK_PAGE, len(content)):,} of {len(content):,}", size=SMALL, mute=MUTED)
        parts = [shown]
        for text, target, tip in (
            ("« first", 0, "The first page of blocks"),
            ("‹ previous", page - 1, f"The {BLOCK_PAGE} blocks before these"),
            ("next ›", page + 1, f"The {BLOCK_PAGE} blocks after these"),
            ("last »", last, "The last page of blocks"),
        ):
            if 0 <= target <= last and target != page:
                parts.append(link(text, Action(ActionKind.PAGE, (key, target)), tip))
        return first, Line([*parts, spacer()], spacing=8)

    def _result_content(self, into: Stack, content: Any, key: str, limit: int, action: Action) -> list[Text]:
        """A tool result's content, nested in its call's frame: its texts are the card's too."""
        before = len(self.card.texts)
        self.add_content(into, content, True, key, markdown=False, mono=True, limit=limit, action=action)
        return self.card.texts[before:]

    def _add_block(
        self,
        into: Stack,
        kind: BlockKind,
        block: Any,
        record: bool,
        key: str,
        markdown: bool,
        mono: bool,
        limit: int,
        action: Action | None,
    ) -> None:
        card = self.card
        if kind is BlockKind.TEXT:
            self.add_text(into, block.get("text", ""), record, key, markdown, mono, limit, action)
        elif kind is BlockKind.THINKING:
            section = into.add(self._thinking(block, key + "think"))
            if record:
                card.thinking.append(section)
        elif kind is BlockKind.IMAGE:
            picture = into.add(Picture(block, self.info.images))
            if record:
                card.pictures.append(picture)
        elif kind is BlockKind.TOOL_CALL:
            setting = CallSetting(self.info, self.state.whole, self.select, self.item.dropped, self._result_content)
            call = tool_call(setting, block, key)
            into.add(call.frame)
            if record:
                card.tool_calls.append(call)
        else:
            self.add_json(into, block, record, key, action)

    def _thinking(self, block: dict[str, Any], key: str) -> Section:
        text = block.get("thinking")
        text = text if isinstance(text, str) else ""
        title = "Thinking (redacted)" if block.get("redacted") else f"Thinking · {len(text):,} characters"
        opened = self.state.is_open(key, self.expand_thinking)

        def build() -> Piece:
            piece, _ = text_with_more(
                text, key + "t", key + "t" in self.state.whole, action=self.select, title="Thinking", italic=True, mute=0.25
            )
            return piece

        return Section(title, key, opened, build)

    def _chat(self, message: dict[str, Any], into: Stack, record: bool, path: str) -> None:
        self.add_content(into, message.get("content", MISSING), record, path)

    def _tool_result(self, message: dict[str, Any], into: Stack, record: bool, path: str) -> None:
        call_id = message.get("toolCallId")
        call = self.info.calls.get(call_id) if isinstance(call_id, str) else None
        into.add(self._result_reference(message, call[0] if call is not None else None))
        content = message.get("content", MISSING)
        if call is not None and record and self.item.edit is None:
            return  # its content shows once, nested under its call: this card is the one-line link to it
        if call is not None and record:
            # An edited result shows its replacement at once; the original is one more click away.
            def build() -> Piece:
                holder = Stack()
                self.add_content(holder, content, True, path + "c.", markdown=False, mono=True)
                return holder

            opened = self.state.is_open("content", self.item.edit is not None)
            tip = f"Also shown under its call in #{call[0] + 1}"
            self.card.result_content = into.add(Section(f"Content · {content_size(content)}", "content", opened, build, tip=tip))
        else:
            self.add_content(into, content, record, path, markdown=False, mono=True)

    def _result_reference(self, message: dict[str, Any], index: int | None) -> Piece:
        """Which call the result answers: a link to its card, or a note that it is not in this context."""
        name = plain(message.get("toolName"))
        status = "error from" if message.get("isError") else "result of"
        tip = safe_tip(f"Answers tool call {plain(message.get('toolCallId'))}")
        if index is None:
            reference: Piece = WrappedText(f"↩ {status} {name} — its call is not in this context", size=SMALL, tip=tip)
        else:
            size = content_size(message.get("content", MISSING))
            note = Part(f"↩ {status} {name} — shown under its call in #{index + 1} · {size}", size=SMALL, tip=tip)
            go = link(f"go to #{index + 1}", Action(ActionKind.JUMP, index), "Scroll to the assistant message that made this call")
            reference = Line([note, go, spacer()], spacing=4)
        self.card.reference = reference
        return reference

    def _bash(self, message: dict[str, Any], into: Stack, record: bool, path: str) -> None:
        box = into.add(Frame(accent("bashExecution"), tint=0.05))
        self.add_text(box, "$ " + str(message.get("command", "")), record, path + "$", markdown=False, mono=True, limit=ARGUMENT_LIMIT)
        output = message.get("output", "")
        if output:
            self.add_text(box, output, record, path + ">", markdown=False, mono=True)
        else:
            box.add(WrappedText("(no output)", size=SMALL, mute=MUTED))
        notes = _bash_notes(message)
        if notes:
            failed = message.get("exitCode", MISSING) not in (0, MISSING, None) or message.get("cancelled")
            into.add(WrappedText(" · ".join(notes), size=SMALL, color=accent("error") if failed else None, mute=0.0 if failed else MUTED))

    def _system(self, message: dict[str, Any], into: Stack, record: bool, path: str) -> None:
        if self.item.entry.type == "compaction":
            into.add(
                WrappedText(
                    f"Carried by compaction {self.item.entry.id}: the system prompt in force when it was made", size=SMALL, mute=MUTED
                )
            )
        content = message.get("content", "")
        if content not in _NO_CONTENT:
            self.add_content(into, content, record, path, markdown=False)
        sections = message.get("sections")
        if isinstance(sections, dict):
            for name, text in sections.items():
                if text is None:
                    into.add(WrappedText(f"§ {plain(name)} removed", size=SMALL, mute=MUTED))
                    continue
                size = len(text) if isinstance(text, str) else 0
                key = f"{path}§{plain(name)}"
                into.add(
                    Section(
                        f"§ {plain(name)} · {size:,} characters",
                        key,
                        self.state.is_open(key, False),
                        partial(self._detached, text, key),
                    )
                )
        for field, verb in (("toolsAdded", "tools added"), ("toolsRemoved", "tools removed")):
            tools = message.get(field)
            if isinstance(tools, list) and tools:
                names = ", ".join(plain(tool.get("name")) if isinstance(tool, dict) else plain(tool) for tool in tools)
                key = path + field
                into.add(
                    Section(
                        f"{len(tools)} {verb}: {names}",
                        key,
                        self.state.is_open(key, False),
                        partial(self._detached_json, tools, key),
                    )
                )
        if content in _NO_CONTENT and not sections:
            into.add(WrappedText("(empty system prompt)", size=SMALL, mute=MUTED))

    def _detached_json(self, value: Any, key: str) -> Piece:
        return self._detached(display_json(value)[0], key, mono=True)

    def _detached(self, text: Any, key: str, mono: bool = False) -> Piece:
        """Text of a section built when it opens: not one of the card's own texts."""
        piece, _ = text_with_more(
            text, key + "t", key + "t" in self.state.whole, markdown=False, mono=mono, action=self.select, title=self.title()
        )
        return piece

    def _compaction(self, message: dict[str, Any], into: Stack, record: bool, path: str) -> None:
        tokens = message.get("tokensBefore")
        tokens_text = (
            f"{tokens:,} tokens before" if isinstance(tokens, (int, float)) and not isinstance(tokens, bool) else "tokens before unknown"
        )
        summarized = self.info.summarized
        note = f"Summarizes {summarized} {'entry' if summarized == 1 else 'entries'} · {tokens_text} · compaction {self.item.entry.id}"
        tip = "Entries on the path before the compaction that pi no longer sends; this summary stands in for them"
        self.card.compaction_note = into.add(WrappedText(note, size=SMALL, tip=tip))
        self.add_text(into, message.get("summary", ""), record, path)

    def _branch_summary(self, message: dict[str, Any], into: Stack, record: bool, path: str) -> None:
        source = message.get("fromId")
        action = Action(ActionKind.SELECT, source) if isinstance(source, str) else None
        left_at = Part(plain(source), Shape.LINK, tip=safe_tip("Select the entry the branch was left at"), action=action)
        into.add(Line([Part("Summary of an abandoned branch, left at", size=SMALL, mute=MUTED), left_at, spacer()]))
        self.add_text(into, message.get("summary", ""), record, path)

    def _custom(self, message: dict[str, Any], into: Stack, record: bool, path: str) -> None:
        if message.get("display") is False:
            into.add(WrappedText("Not displayed in pi's chat (display: false), but sent to the model", size=SMALL, mute=MUTED))
        details = message.get("details", MISSING)
        if details is not MISSING:
            key = path + "details"
            into.add(
                Section("details", key, self.state.is_open(key, False), lambda: self._detached(display_json(details)[0], key, mono=True))
            )
        self._chat(message, into, record, path)


def _badge(text: str, role: str, tip: str = "") -> Part:
    return Part(text, Shape.OUTLINE, color=accent(role), tip=tip)


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
