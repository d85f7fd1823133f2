"""A few fields of an entry's line, decoded without building the rest of it.

Passes that need a field or two of every assistant message on a 100,000-entry
session (the tree filter's textless replies, usage summed down the leaf's path)
would spend seconds parsing each line whole. msgspec, typed to a struct of the
fields wanted, checks the whole line's syntax while building only those: the
answer is the one parsing the line gives, at a fraction of its cost. Values are
built as json builds them (floats through `float`, as json reads them), and what
the struct cannot hold (a message that is not an object, a content list of
non-objects, text that is not UTF-8, a lone surrogate) answers None: the caller
parses the line then (jsonline.py says what pi accepts there).
"""

from __future__ import annotations

from typing import Any, TypedDict

import msgspec

from .content import TextFields
from ..js.value import MISSING


class MessageText(msgspec.Struct):
    """What decides whether a message shows text: its content and how it stopped."""

    content: str | list[TextFields] | None = None  # missing reads as no text, like null
    stopReason: Any = MISSING


class _TextLine(msgspec.Struct):
    message: MessageText


class MessageUsage(msgspec.Struct):
    """What usage.py sums from a message: its role, where it ran, and its usage."""

    role: Any = None
    provider: Any = None
    model: Any = None
    responseModel: Any = None
    usage: Any = None


class _UsageLine(msgspec.Struct):
    message: MessageUsage


class PreviewBlock(TypedDict, total=False):
    """What a message's one-line preview reads of a content block (text/describe.message_preview)."""

    type: Any
    text: Any
    name: Any


class PreviewMessage(TypedDict, total=False):
    """What text/describe.message_preview reads of a message beside its role, nothing else: decoded
    as the plain dicts it reads (a field the line leaves out is left out here too), for a title on
    every row of a tree without building each line's thinking, tool arguments and usage. The path
    index decodes it with the role, in its one pass (PathIndex.scan's `previews`)."""

    content: str | list[PreviewBlock] | None
    toolName: Any
    command: Any


_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)
_decode_text = msgspec.json.Decoder(_TextLine, float_hook=float).decode
_decode_usage = msgspec.json.Decoder(_UsageLine, float_hook=float).decode


def message_text(raw: bytes | memoryview) -> MessageText | None:
    """A message entry's content (as text blocks) and stop reason; None: parse the line."""
    try:
        return _decode_text(raw).message
    except _ERRORS:
        return None


def message_usage(raw: bytes) -> MessageUsage | None:
    """A message entry's role, provider, model, responseModel and usage; None: parse the line."""
    try:
        return _decode_usage(raw).message
    except _ERRORS:
        return None
