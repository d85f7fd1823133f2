"""A tool call inside an assistant's card, with the result that answered it nested under it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...model.js.value import MISSING
from .card import ToolCall, result_state
from ..common.formatting import format_arguments, short_id
from .part_line import Line, Part, link, spacer
from .pieces import Action, Do, Frame, Piece, Words
from .roles import accent
from ..common.safe_text import plain, safe_tip
from .text_piece import text_with_more
from ..common.widgets import MUTED, SMALL

if TYPE_CHECKING:
    from .card_build import CardBuilder

RESULT_TEXT_LIMIT = 1500  # a tool result nested under its call


def tool_call(builder: CardBuilder, block: dict[str, Any], key: str) -> ToolCall:
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
        key + "a" in builder.state.whole,
        markdown=False,
        mono=True,
        action=builder.select,
        title=f"Arguments of {name}",
    )
    frame = Frame(accent("toolResult"), [name_line, arguments], tint=0.05, action=builder.select)
    call = ToolCall(frame, block, name_line, shown, None, None, [], result_state(block, builder.info))
    result = _result(builder, call, key)
    if result is not None:
        frame.add(result)
    return call


def _result(builder: CardBuilder, call: ToolCall, key: str) -> Piece | None:
    index, dropped = call.state
    if index is not None and not builder.item.dropped:
        call.result_index = index
        call.result_frame = _nested(builder, call, index, key)
        return call.result_frame
    if dropped is not None:
        edit = dropped.edit.id if dropped.edit else ""
        return Words(f"↳ its result was dropped by edit {edit} — not sent", size=SMALL, mute=MUTED)
    if not builder.item.dropped:
        return Words("↳ no result for this call in this context", size=SMALL, mute=MUTED)
    return None


def _nested(builder: CardBuilder, call: ToolCall, index: int, key: str) -> Piece:
    """The result that answered the call, in a frame of its own: a click there selects the result's entry."""
    info = builder.info
    message = info.message(index)
    source = info.source(index)
    error = isinstance(message, dict) and bool(message.get("isError"))
    select = Action(Do.SELECT, source.id)
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
    before = len(builder.card.texts)
    builder.add_content(box, content, True, key + "r", markdown=False, mono=True, limit=RESULT_TEXT_LIMIT, action=select)
    call.result_texts = builder.card.texts[before:]
    return box
