"""A tool call inside an assistant's card, with the result that answered it nested under it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...model.js.value import MISSING
from .message_card import ToolCall, result_state
from .message_items import ContextInfo
from ..common.formatting import format_arguments, short_id
from ..cards import Action, ActionKind, Frame, Line, Part, Piece, Stack, Text, WrappedText, link, spacer, text_with_more
from .roles import accent
from ..common.safe_text import plain, safe_tip
from ..common.widgets import MUTED, SMALL

RESULT_TEXT_LIMIT = 1500  # a tool result nested under its call


@dataclass(frozen=True)
class CallSetting:
    """What a tool call is built with, from the card it is in."""

    info: ContextInfo
    whole: set[str]  # the keys of the texts the user asked to see whole
    select: Action  # the card's own action (selects its entry)
    dropped: bool  # the card's message was dropped by an edit: its calls show no result
    # Puts a result's content into a frame (into, content, key, limit, action); returns the texts it made.
    add_content: Callable[[Stack, Any, str, int, Action], list[Text]]


def tool_call(setting: CallSetting, block: dict[str, Any], key: str) -> ToolCall:
    """One tool call of an assistant message: its name and id, its arguments, and its result
    nested inside (or a line saying why there is none)."""
    name = plain(block.get("name"))
    call_id = block.get("id")
    name_line = Line(
        [Part(f"→ {name}", mono=True, bold=True), spacer(), Part(short_id(call_id), size=SMALL, mute=MUTED, tip=safe_tip(plain(call_id)))]
    )
    arguments, shown = text_with_more(
        format_arguments(block.get("arguments", MISSING)),
        key + "a",
        key + "a" in setting.whole,
        markdown=False,
        mono=True,
        action=setting.select,
        title=f"Arguments of {name}",
    )
    frame = Frame(accent("toolResult"), [name_line, arguments], tint=0.05, action=setting.select)
    call = ToolCall(frame, block, name_line, shown, None, None, [], result_state(block, setting.info))
    result = _result(setting, call, key)
    if result is not None:
        frame.add(result)
    return call


def _result(setting: CallSetting, call: ToolCall, key: str) -> Piece | None:
    index, dropped = call.state
    if index is not None and not setting.dropped:
        call.result_index = index
        call.result_frame = _nested(setting, call, index, key)
        return call.result_frame
    if dropped is not None:
        edit = dropped.edit.id if dropped.edit else ""
        return WrappedText(f"↳ its result was dropped by edit {edit} — not sent", size=SMALL, mute=MUTED)
    if not setting.dropped:
        return WrappedText("↳ no result for this call in this context", size=SMALL, mute=MUTED)
    return None


def _nested(setting: CallSetting, call: ToolCall, index: int, key: str) -> Piece:
    """The result that answered the call, in a frame of its own: a click there selects the result's entry."""
    info = setting.info
    message = info.message(index)
    source = info.source(index)
    error = isinstance(message, dict) and bool(message.get("isError"))
    select = Action(ActionKind.SELECT, source.id)
    row = info.by_index[index] if index < len(info.by_index) else None
    edited = f" · edited by {row.edit.id}" if row is not None and row.edit is not None else ""
    line = Line(
        [
            Part(f"↳ {'error' if error else 'result'} · #{index + 1}{edited}", size=SMALL),
            spacer(),
            link(source.id, select, f"Select the result's entry {source.id}"),
        ]
    )
    box = Frame(
        accent("error" if error else "toolResult"),
        [line],
        tint=0.08,
        tip=safe_tip(f"Result #{index + 1}, entry {source.id} — click to select it"),
        action=select,
    )
    content = message.get("content", MISSING) if isinstance(message, dict) else message
    call.result_texts = setting.add_content(box, content, key + "r", RESULT_TEXT_LIMIT, select)
    return box
