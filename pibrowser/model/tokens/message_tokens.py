"""pi's estimateTokens: how many tokens one message costs, estimated from its characters.

pi estimates a message's tokens as ceil(chars / 4), where chars counts JavaScript
string length (UTF-16 code units) of the parts that reach the model, with a flat
4800 chars per image (compaction's `estimateTokens`).

pi takes `.length` of whatever a field holds. A number, `true` or an object without
a `length` has none (undefined), and JavaScript's `+` turns the count into NaN; an
object's own `length` is added as whatever it is. Such a message's estimate is
worked out as pi's JavaScript does (`js_estimate_tokens`: NaN, mostly), and its
parts count those fields as 0 (the composition stays a sum of characters).
Where pi would throw (a text block without text, a bashExecution without output,
content that is not a list), we count the missing part as zero: pi gives no answer
to agree with there.
"""

from __future__ import annotations

import math
from typing import Any

from ..session.content import BlockKind, block_kind
from ..js.stringify import js_stringify
from ..js.value import MISSING, js_add, js_length, js_string, js_to_number, js_truthy, object_entries

ESTIMATED_IMAGE_CHARS = 4800
_EXACT = 2**53  # past this a JS number is a double: kept a float, printed as JS prints it

_ODD = ""  # a mark in a message's parts while they are counted: a `.length` that is not a count met


def _length_of(value: Any, parts: Parts) -> int:
    # `.length` of whatever the field holds. A missing or null one (pi throws) counts as zero; one
    # with no count of its own (a number, an object) counts as zero here and marks the message odd.
    if isinstance(value, str):
        return js_length(value)
    if isinstance(value, list):
        return len(value)
    if value is not None and value is not MISSING:
        parts[_ODD] = 0
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

Tokens = int | float  # a JS number: an int, or NaN, an infinity or a double past 2**53


class OddParts(dict[str, int]):
    """The parts of a message where pi's `.length` met a field without a count of its own: `tokens`
    is estimateTokens as pi's JavaScript works it out (js_estimate_tokens), not ceil(sum / 4)."""

    __slots__ = ("tokens",)

    def __init__(self, parts: Parts, tokens: Tokens) -> None:
        super().__init__(parts)
        self.tokens = tokens


def tokens_of(parts: Parts) -> Tokens:
    """pi's estimateTokens of the message these are the parts of: ceil(chars / 4)."""
    if type(parts) is OddParts:
        return parts.tokens
    return -(-sum(parts.values()) // 4)


def _text_and_image_parts(content: Any, text_kind: str, image_kind: str, parts: Parts) -> None:
    if isinstance(content, str):
        parts[text_kind] = parts.get(text_kind, 0) + js_length(content)
        return
    for block in content if type(content) is list else ():  # each block kind as content.py tells it
        kind = block_kind(block)
        if kind is BlockKind.TEXT:
            text = block.get("text")
            if text or type(text) is dict:  # pi skips an empty or missing text ({} is truthy in JS)
                parts[text_kind] = parts.get(text_kind, 0) + _length_of(text, parts)
        elif kind is BlockKind.IMAGE:
            parts[image_kind] = parts.get(image_kind, 0) + ESTIMATED_IMAGE_CHARS


def _assistant_parts(content: Any, parts: Parts) -> None:
    # A string content counts nothing: pi iterates its characters, none of which is a block.
    for block in content if type(content) is list else ():  # per block, estimated once per load: kept lean
        kind = block_kind(block)
        if kind is BlockKind.TEXT:
            parts[ASSISTANT_TEXT] = parts.get(ASSISTANT_TEXT, 0) + _length_of(block.get("text"), parts)
        elif kind is BlockKind.THINKING:
            parts[THINKING] = parts.get(THINKING, 0) + _length_of(block.get("thinking"), parts)
        elif kind is BlockKind.TOOL_CALL:
            name = block.get("name", MISSING)
            arguments = js_stringify(block.get("arguments", MISSING))
            part = TOOL_CALL + js_string(name)
            parts[part] = parts.get(part, 0) + _length_of(name, parts) + (js_length(arguments) if arguments is not None else 0)


def _system_parts(message: dict[str, Any], parts: Parts) -> None:
    _text_and_image_parts(message.get("content"), SYSTEM_TEXT, SYSTEM_IMAGE, parts)
    sections = message.get("sections")
    if sections:
        for section in _object_values(sections):
            if js_truthy(section):
                parts[SYSTEM_SECTIONS] = parts.get(SYSTEM_SECTIONS, 0) + _length_of(section, parts)
    tools = message.get("toolsAdded")
    if tools or type(tools) in (dict, list):  # truthy in JS, even empty
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
        parts[BASH_EXECUTION] = _length_of(message.get("command"), parts) + _length_of(message.get("output"), parts)
    elif role == "branchSummary":
        parts[BRANCH_SUMMARY] = _length_of(message.get("summary"), parts)
    elif role == "compactionSummary":
        parts[COMPACTION_SUMMARY] = _length_of(message.get("summary"), parts)
    if _ODD in parts:
        del parts[_ODD]
        return OddParts(parts, js_estimate_tokens(message))
    return parts


def _object_values(value: Any) -> list[Any]:
    """Object.values of a truthy value (see object_entries)."""
    return value if isinstance(value, list) else [item for _, item in object_entries(value)]


def estimate_chars(message: Any) -> int:
    """The characters pi counts for one message (a field without a count of its own as 0)."""
    return sum(message_parts(message).values())


def estimate_tokens(message: Any) -> Tokens:
    """pi's estimateTokens: ceil(chars / 4)."""
    return tokens_of(message_parts(message))


def estimate_messages_tokens(messages: list[Any]) -> Tokens:
    return sum(map(estimate_tokens, messages))


# ---- estimateTokens as JavaScript runs it ------------------------------------------
#
# For the rare message whose fields are not what pi wrote (message_parts marks it odd):
# pi's steps with JavaScript's `.length`, `+` and Math.ceil, read off its code. A field
# whose reading would throw in pi counts as zero, as above.


def js_estimate_tokens(message: Any) -> Tokens:
    """estimateTokens of any message, as pi's JavaScript works it out (a JS number)."""
    role = message.get("role") if isinstance(message, dict) else None
    chars: Any = 0
    if role == "system":
        chars = _js_text_and_image_chars(message.get("content", MISSING))
        sections = message.get("sections", MISSING)
        if js_truthy(sections):
            for section in _object_values(sections):
                if js_truthy(section):
                    chars = js_add(chars, _js_length(section))
        tools = message.get("toolsAdded", MISSING)
        if js_truthy(tools):
            chars = js_add(chars, js_length(js_stringify(tools) or ""))
    elif role in ("user", "custom", "toolResult"):
        chars = _js_text_and_image_chars(message.get("content", MISSING))
    elif role == "assistant":
        chars = _js_assistant_chars(message.get("content", MISSING))
    elif role == "bashExecution":
        chars = js_add(_js_length(message.get("command", MISSING)), _js_length(message.get("output", MISSING)))
    elif role in ("branchSummary", "compactionSummary"):
        chars = _js_length(message.get("summary", MISSING))
    else:
        return 0
    return _js_ceil_quarter(chars)


def _js_length(value: Any) -> Any:
    """`value.length` in JavaScript; 0 where reading it would throw (null, undefined)."""
    if isinstance(value, str):
        return js_length(value)
    if isinstance(value, list):
        return len(value)
    if isinstance(value, dict):
        return value.get("length", MISSING)
    return 0 if value is None or value is MISSING else MISSING  # a number's or a boolean's: undefined


def _js_text_and_image_chars(content: Any) -> Any:
    if isinstance(content, str):
        return js_length(content)
    chars: Any = 0
    for block in content if type(content) is list else ():
        kind = block_kind(block)
        if kind is BlockKind.TEXT and js_truthy(block.get("text", MISSING)):
            chars = js_add(chars, _js_length(block["text"]))
        elif kind is BlockKind.IMAGE:
            chars = js_add(chars, ESTIMATED_IMAGE_CHARS)
    return chars


def _js_assistant_chars(content: Any) -> Any:
    chars: Any = 0
    for block in content if type(content) is list else ():
        kind = block_kind(block)
        if kind is BlockKind.TEXT:
            chars = js_add(chars, _js_length(block.get("text", MISSING)))
        elif kind is BlockKind.THINKING:
            chars = js_add(chars, _js_length(block.get("thinking", MISSING)))
        elif kind is BlockKind.TOOL_CALL:
            arguments = js_stringify(block.get("arguments", MISSING))
            chars = js_add(chars, js_add(_js_length(block.get("name", MISSING)), js_length(arguments) if arguments is not None else 0))
    return chars


def _js_ceil_quarter(chars: Any) -> Tokens:
    """Math.ceil(chars / 4): an int where a double holds it exactly, else a float (NaN, ±Infinity, huge)."""
    quarter = js_to_number(chars) / 4
    if math.isnan(quarter) or math.isinf(quarter):
        return quarter
    ceiled = math.ceil(quarter)
    return ceiled if abs(ceiled) <= _EXACT else float(ceiled)
