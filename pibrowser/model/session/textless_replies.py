"""Which assistant messages pi's /tree never shows: no text, and not an error or an abort.

Decided from a parsed message, or (while loading, for speed) from an assistant line's
content and stop reason alone; the filter (tree_filter) and the reader both ask here.
"""

from __future__ import annotations

from typing import Any

from .content import has_decoded_text, has_text
from .entry import Entry
from .line_fields import message_text
from ..js.value import MISSING, js_truthy


def is_textless_reply(entry: Entry) -> bool:
    """An assistant message pi's tree never shows: no text, and not an error or abort."""
    if entry.type != "message" or entry.role != "assistant":
        return False
    if not entry.is_parsed:
        textless = entry.textless  # learned while loading, which had the line's bytes
        if textless is None:
            raw = entry.raw
            textless = textless_line(raw) if raw is not None else None
        if textless is not None:
            return textless
    message = entry.message
    if not isinstance(message, dict):
        return False
    return _no_text(has_text(message.get("content")), message.get("stopReason", MISSING))


def textless_line(raw: bytes | memoryview) -> bool | None:
    """is_textless_reply for an assistant message's unparsed line, from its content and
    stop reason alone (a whole parse of every assistant line would cost seconds on a long
    session); None when those cannot be decoded alone: parse the line then."""
    decoded = message_text(raw)
    return None if decoded is None else _no_text(has_decoded_text(decoded.content), decoded.stopReason)


def _no_text(shows_text: bool, stop: Any) -> bool:
    return not shows_text and not (js_truthy(stop) and stop != "stop" and stop != "toolUse")
