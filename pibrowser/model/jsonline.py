"""Parsing one line the way pi's JSON.parse would accept it."""

from __future__ import annotations

import json
from typing import Any

import orjson


def parse_line(raw: bytes) -> tuple[Any, str | None]:
    """Return (value, note). Raises ValueError with a reason when JSON.parse would fail.

    pi decodes the file as UTF-8 with replacement characters before parsing, so a
    line with invalid UTF-8 still parses there; the note says that it was repaired.
    orjson refuses a few things JSON.parse accepts (lone surrogate escapes,
    integers beyond 64 bits); the standard library takes those.
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
        return json.loads(text, parse_constant=_reject_constant), note
    except (ValueError, RecursionError):
        raise ValueError(f"not valid JSON ({_describe(first_error)})") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _describe(error: orjson.JSONDecodeError) -> str:
    message = str(error.msg if hasattr(error, "msg") else error)
    return message.rstrip(".")


def dump_json(value: Any) -> bytes:
    """Compact JSON like JSON.stringify, for any value a session can hold.

    orjson is the fast path; the standard library takes over for what orjson
    refuses (integers beyond 64 bits, lone surrogates, nesting past its limit).
    """
    try:
        return orjson.dumps(value)
    except (orjson.JSONEncodeError, TypeError):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_unknown)
        return text.encode("utf-8", errors="surrogatepass")


def _unknown(value: Any) -> Any:
    return None
