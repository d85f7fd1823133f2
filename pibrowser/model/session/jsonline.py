"""Parsing one line the way pi's JSON.parse would accept it."""

from __future__ import annotations

from typing import Any

import msgspec
import orjson

from ..js import deepjson


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
        pass  # nesting past orjson's limit, or text it refuses: the deep parser decides below
    try:
        return deepjson.loads(text), note
    except ValueError:
        raise ValueError(f"not valid JSON ({_describe(first_error)})") from None


class _Skipped(msgspec.Struct):
    """No fields: decoding into it checks a line's syntax whole and builds nothing."""


_check_syntax = msgspec.json.Decoder(_Skipped).decode


def check_line(raw: bytes) -> str | None:
    """What parse_line would say of `raw` (its note, or ValueError), without building the value.

    msgspec's decoder checks the JSON strictly at a fraction of a full parse. What it
    accepts, JSON.parse accepts as it is, except text that is not UTF-8 (it does not look
    inside strings): that, and anything it refuses, goes to parse_line for the exact answer.
    """
    try:
        _check_syntax(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return parse_line(raw)[1]
    if raw.isascii():
        return None
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return parse_line(raw)[1]
    return None


def _describe(error: orjson.JSONDecodeError) -> str:
    message = str(error.msg if hasattr(error, "msg") else error)
    return message.rstrip(".")
