"""pi's estimateTokens: how many tokens one message costs, estimated from its characters.

pi estimates a message's tokens as ceil(chars / 4), where chars counts JavaScript
string length (UTF-16 code units) of the parts that reach the model, with a flat
4800 chars per image (compaction's `estimateTokens`).

Where pi would throw on a malformed message (a text block without text, a
bashExecution without output), we count the missing part as zero.
"""

from __future__ import annotations

from typing import Any

from ..session.content import BlockKind, block_kind
from ..js.stringify import js_stringify
from ..js.value import MISSING, js_length

ESTIMATED_IMAGE_CHARS = 4800


def _length_of(value: Any) -> int:
    # `.length` of whatever the field holds; a missing or non-string field counts as zero.
    if isinstance(value, str):
        return js_length(value)
    if isinstance(value, list):
        return len(value)
    return 0


# ---- pi's estimateTokens -------------------------------------------------------


def _text_and_image_chars(content: Any) -> int:
    if isinstance(content, str):
        return js_length(content)
    chars = 0
    for block in content if type(content) is list else ():  # each block kind as content.py tells it
        kind = block_kind(block)
        if kind is BlockKind.TEXT:
            text = block.get("text")
            if text:  # pi skips an empty or missing text
                chars += _length_of(text)
        elif kind is BlockKind.IMAGE:
            chars += ESTIMATED_IMAGE_CHARS
    return chars


def _assistant_chars(content: Any) -> int:
    # A string content counts nothing: pi iterates its characters, none of which is a block.
    chars = 0
    for block in content if type(content) is list else ():  # per block, estimated once per load: kept lean
        kind = block_kind(block)
        if kind is BlockKind.TEXT:
            chars += _length_of(block.get("text"))
        elif kind is BlockKind.THINKING:
            chars += _length_of(block.get("thinking"))
        elif kind is BlockKind.TOOL_CALL:
            arguments = js_stringify(block.get("arguments", MISSING))
            chars += _length_of(block.get("name")) + (js_length(arguments) if arguments is not None else 0)
    return chars


def _system_chars(message: dict[str, Any]) -> int:
    chars = _text_and_image_chars(message.get("content"))
    sections = message.get("sections")
    if isinstance(sections, dict):
        for section in sections.values():
            if section:
                chars += _length_of(section)
    tools = message.get("toolsAdded")
    if tools:
        text = js_stringify(tools)
        chars += js_length(text) if text is not None else 0
    return chars


def estimate_chars(message: Any) -> int:
    """The characters pi counts for one message."""
    if not isinstance(message, dict):
        return 0
    role = message.get("role")
    if role == "system":
        return _system_chars(message)
    if role in ("user", "custom", "toolResult"):
        return _text_and_image_chars(message.get("content"))
    if role == "assistant":
        return _assistant_chars(message.get("content"))
    if role == "bashExecution":
        return _length_of(message.get("command")) + _length_of(message.get("output"))
    if role in ("branchSummary", "compactionSummary"):
        return _length_of(message.get("summary"))
    return 0


def estimate_tokens(message: Any) -> int:
    """pi's estimateTokens: ceil(chars / 4)."""
    return -(-estimate_chars(message) // 4)


def estimate_messages_tokens(messages: list[Any]) -> int:
    return sum(estimate_tokens(message) for message in messages)
