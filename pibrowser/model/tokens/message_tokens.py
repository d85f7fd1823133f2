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
from ..js.value import MISSING, js_length, js_string

ESTIMATED_IMAGE_CHARS = 4800


def _length_of(value: Any) -> int:
    # `.length` of whatever the field holds; a missing or non-string field counts as zero.
    if isinstance(value, str):
        return js_length(value)
    if isinstance(value, list):
        return len(value)
    return 0


# ---- pi's estimateTokens, part by part --------------------------------------------
#
# Each message's characters are split by what they are (the kinds below); pi's count for
# the message is their sum. The composition of a context adds these parts up, so the
# estimate and the composition are one walk and cannot disagree.

SYSTEM_TEXT, SYSTEM_SECTIONS, SYSTEM_TOOLS, SYSTEM_IMAGE = "system_text", "system_sections", "system_tools", "system_image"
USER_TEXT, USER_IMAGE = "user_text", "user_image"
ASSISTANT_TEXT, THINKING = "assistant_text", "thinking"
CUSTOM_TEXT, CUSTOM_IMAGE = "custom_text", "custom_image"
BASH_EXECUTION, BRANCH_SUMMARY, COMPACTION_SUMMARY = "bash_execution", "branch_summary", "compaction_summary"
TOOL_CALL, TOOL_RESULT, TOOL_RESULT_IMAGE = "tool_call:", "tool_result:", "tool_result_image:"  # + the tool's name

# Roles whose content is text and images: (kind of their text, kind of their images).
_TEXT_AND_IMAGE_KINDS = {
    "user": (USER_TEXT, USER_IMAGE),
    "custom": (CUSTOM_TEXT, CUSTOM_IMAGE),
}

Parts = dict[str, int]


def _text_and_image_parts(content: Any, text_kind: str, image_kind: str, parts: Parts) -> None:
    if isinstance(content, str):
        parts[text_kind] = parts.get(text_kind, 0) + js_length(content)
        return
    for block in content if type(content) is list else ():  # each block kind as content.py tells it
        kind = block_kind(block)
        if kind is BlockKind.TEXT:
            text = block.get("text")
            if text:  # pi skips an empty or missing text
                parts[text_kind] = parts.get(text_kind, 0) + _length_of(text)
        elif kind is BlockKind.IMAGE:
            parts[image_kind] = parts.get(image_kind, 0) + ESTIMATED_IMAGE_CHARS


def _assistant_parts(content: Any, parts: Parts) -> None:
    # A string content counts nothing: pi iterates its characters, none of which is a block.
    for block in content if type(content) is list else ():  # per block, estimated once per load: kept lean
        kind = block_kind(block)
        if kind is BlockKind.TEXT:
            parts[ASSISTANT_TEXT] = parts.get(ASSISTANT_TEXT, 0) + _length_of(block.get("text"))
        elif kind is BlockKind.THINKING:
            parts[THINKING] = parts.get(THINKING, 0) + _length_of(block.get("thinking"))
        elif kind is BlockKind.TOOL_CALL:
            name = block.get("name", MISSING)
            arguments = js_stringify(block.get("arguments", MISSING))
            part = TOOL_CALL + js_string(name)
            parts[part] = parts.get(part, 0) + _length_of(name) + (js_length(arguments) if arguments is not None else 0)


def _system_parts(message: dict[str, Any], parts: Parts) -> None:
    _text_and_image_parts(message.get("content"), SYSTEM_TEXT, SYSTEM_IMAGE, parts)
    sections = message.get("sections")
    if isinstance(sections, dict):
        for section in sections.values():
            if section:
                parts[SYSTEM_SECTIONS] = parts.get(SYSTEM_SECTIONS, 0) + _length_of(section)
    tools = message.get("toolsAdded")
    if tools:
        text = js_stringify(tools)
        parts[SYSTEM_TOOLS] = js_length(text) if text is not None else 0


def message_parts(message: Any) -> Parts:
    """The characters pi counts for one message, by kind (kinds that count nothing may be
    listed with 0). Tool calls and results are kinds of their own per tool name."""
    parts: Parts = {}
    if not isinstance(message, dict):
        return parts
    role = message.get("role")
    if type(role) is not str:
        return parts  # pi's switch matches no case: an object, an array or a number for a role counts 0
    if role == "assistant":
        _assistant_parts(message.get("content"), parts)
    elif role == "toolResult":
        name = js_string(message.get("toolName", MISSING))
        _text_and_image_parts(message.get("content"), TOOL_RESULT + name, TOOL_RESULT_IMAGE + name, parts)
    elif role == "system":
        _system_parts(message, parts)
    elif role in _TEXT_AND_IMAGE_KINDS:
        _text_and_image_parts(message.get("content"), *_TEXT_AND_IMAGE_KINDS[role], parts)
    elif role == "bashExecution":
        parts[BASH_EXECUTION] = _length_of(message.get("command")) + _length_of(message.get("output"))
    elif role == "branchSummary":
        parts[BRANCH_SUMMARY] = _length_of(message.get("summary"))
    elif role == "compactionSummary":
        parts[COMPACTION_SUMMARY] = _length_of(message.get("summary"))
    return parts


def estimate_chars(message: Any) -> int:
    """The characters pi counts for one message."""
    return sum(message_parts(message).values())


def estimate_tokens(message: Any) -> int:
    """pi's estimateTokens: ceil(chars / 4)."""
    return -(-estimate_chars(message) // 4)


def estimate_messages_tokens(messages: list[Any]) -> int:
    return sum(estimate_tokens(message) for message in messages)
