"""Parsing one line the way pi's JSON.parse would accept it."""

from __future__ import annotations

import re
from typing import Any

import orjson

from . import deepjson


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


def dump_json(value: Any) -> bytes:
    """Compact JSON with the values JSON.stringify writes, for any value a session can hold.

    orjson is the fast path. What it refuses is written by our own encoder:
    integers beyond 2**53 (which JS only holds rounded to a double), lone
    surrogates (JS writes them as escapes, never as bytes that are not UTF-8)
    and nesting past orjson's limit.
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_STRICT_INTEGER)
    except (orjson.JSONEncodeError, TypeError):
        return _LONE_SURROGATE.sub(_escape, deepjson.dumps(value)).encode("utf-8")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"
