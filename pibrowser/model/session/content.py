"""Walking a message's content: a string, or a list of text, thinking, image and toolCall blocks.

pi's messages carry their content either as one string or as a list of blocks
(`{"type": "text", "text": …}`, `thinking`, `image`, `toolCall`). A session file is
untrusted, so a list may also hold blocks of a type pi does not know, blocks
without the field their type promises, and items that are not objects at all;
content may be missing, null or any other JSON value. Every reader of content
goes through here, so these cases are decided once.
"""

from __future__ import annotations

from enum import Enum
from typing import Any
from collections.abc import Iterator

import msgspec

from ..js.value import MISSING, js_trim


class BlockKind(str, Enum):
    TEXT = "text"
    THINKING = "thinking"
    IMAGE = "image"
    TOOL_CALL = "toolCall"
    OTHER = "other"  # an object of a type pi does not know (or without a type)
    VALUE = "value"  # not an object: a number, a string, null, a list


_KNOWN = {kind.value: kind for kind in (BlockKind.TEXT, BlockKind.THINKING, BlockKind.IMAGE, BlockKind.TOOL_CALL)}


class ContentShape(str, Enum):
    STRING = "string"
    BLOCKS = "blocks"
    NONE = "none"  # missing or null
    VALUE = "value"  # any other JSON value


def content_shape(content: Any) -> ContentShape:
    if isinstance(content, str):
        return ContentShape.STRING
    if isinstance(content, list):
        return ContentShape.BLOCKS
    if content is None or content is MISSING:
        return ContentShape.NONE
    return ContentShape.VALUE


def block_kind(block: Any) -> BlockKind:
    if type(block) is not dict:
        return _VALUE
    kind = block.get("type")
    return _KNOWN.get(kind, _OTHER) if type(kind) is str else _OTHER


_VALUE, _OTHER = BlockKind.VALUE, BlockKind.OTHER


def blocks(content: Any) -> list[tuple[BlockKind, Any]]:
    """(kind, block) for each item of a block list; nothing for content that is not a list.

    A string is not walked: pi's code that loops over blocks meets no block in one.
    """
    if type(content) is not list:
        return []
    return [(block_kind(block), block) for block in content]


def block_text(block: dict[str, Any]) -> str | None:
    """A text block's text when it is a string (a hand-edited block may hold anything)."""
    text = block.get("text")
    return text if isinstance(text, str) else None


def texts(content: Any) -> Iterator[str]:
    """The texts of a content value: a string itself, else each text block's string text."""
    if isinstance(content, str):
        yield content
        return
    for block in content if type(content) is list else ():  # one at a time: the first of a million is asked for
        if block_kind(block) is BlockKind.TEXT:
            text = block_text(block)
            if text is not None:
                yield text


def first_text(content: Any) -> str | None:
    """The first of `texts(content)`, found in one loop (block_kind's rule and block_text's, written
    out: a tree's text asks it of every message, and the calls were most of its cost)."""
    if isinstance(content, str):
        return content
    if type(content) is list:
        for block in content:
            if type(block) is dict and block.get("type") == "text" and isinstance(text := block.get("text"), str):
                return text
    return None


def has_text(content: Any) -> bool:
    """pi's hasTextContent: a non-blank string, or a text block with non-blank text."""
    return any(js_trim(text) for text in texts(content))


class TextFields(msgspec.Struct):
    """The two fields of a content block that has_text reads, decoded without the rest of the
    block (see line_fields.py): a content list of these is what `has_decoded_text` takes."""

    type: Any = None
    text: Any = None


def has_decoded_text(content: str | list[TextFields] | None) -> bool:
    """has_text for content decoded as a string or a list of TextFields (a list holding
    anything but objects does not decode so, and is read by parsing instead)."""
    if isinstance(content, str):
        return bool(js_trim(content))
    if content is not None:
        for block in content:
            if block.type == "text" and type(text := block.text) is str and js_trim(text):
                return True
    return False


def tool_calls(content: Any) -> list[dict[str, Any]]:
    """The toolCall blocks of a content value, in order (block_kind's rule, in one comprehension:
    the context panel asks this of every assistant message of a context, thousands at a time)."""
    if type(content) is not list:
        return []
    return [block for block in content if type(block) is dict and block.get("type") == "toolCall"]


def image_count(content: Any) -> int:
    return sum(1 for kind, _ in blocks(content) if kind is BlockKind.IMAGE)
