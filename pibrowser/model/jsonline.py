"""Parsing one line the way pi's JSON.parse would accept it."""

from __future__ import annotations

from typing import Any

import orjson

from .js import deepjson


def parse_line(raw: bytes) -> tuple[Any, str | None]:
    """Return (value, note). Raises ValueError with a reason when JSON.parse would fail.

    pi decodes the file as UTF-8 with replacement characters before parsing, so a
    line with invalid UTF-8 still parses there; the note says that it was repaired.
    orjson refuses a few things JSON.parse accepts (lone surrogate escapes,
    nesting past its limit); a parser of our own takes those.
    """
    try:
        return orjson.loads(raw), None
    except orjson.JSONDecodeError as error:
        first_error = error
    try:
        text = raw.decode("utf-8")
        note = None
    except UnicodeDecodeError:
        text = raw.decode("utf-8", errors="replace")
        note = "invalid UTF-8 replaced with U+FFFD"
    try:
        return orjson.loads(text), note
    except orjson.JSONDecodeError:
        pass
    try:
        return deepjson.loads(text), note
    except ValueError:
        raise ValueError(f"not valid JSON ({_describe(first_error)})") from None


def _describe(error: orjson.JSONDecodeError) -> str:
    message = str(error.msg if hasattr(error, "msg") else error)
    return message.rstrip(".")
