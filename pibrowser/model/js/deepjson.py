"""JSON.parse without recursion, for the lines orjson and the standard library refuse.

JSON.parse takes nesting of any depth; orjson stops at a fixed depth and the
standard library at Python's recursion limit. This loop keeps its own stack
instead. It is the slow path: only what the fast parsers refused comes here.
(Writing such values is `stringify`'s slow path.)
"""

from __future__ import annotations

import re
from json import JSONDecodeError
from json.decoder import scanstring  # type: ignore[attr-defined]  # there at run time; the stubs do not declare it
from typing import Any

_SPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?", re.ASCII)
_LITERALS = (("true", True), ("false", False), ("null", None))


def loads(text: str) -> Any:
    """JSON.parse: raises ValueError where it would throw."""
    stack: list[list[Any]] = []  # [container, key awaiting its value] per open object or array
    at = _past_space(text, 0)
    while True:
        value, at, opened = _value(text, at)
        if opened is not None:
            stack.append(opened)
            continue
        while True:
            if not stack:
                if _past_space(text, at) != len(text):
                    raise ValueError("extra data after the value")
                return value
            top = stack[-1]
            if isinstance(top[0], list):
                top[0].append(value)
            else:
                top[0][top[1]] = value  # a repeated key keeps its place and takes the last value
            at = _past_space(text, at)
            char = text[at : at + 1]
            if char == ",":
                at = _past_space(text, at + 1)
                if isinstance(top[0], dict):
                    top[1], at = _key(text, at)
                break
            if char != ("]" if isinstance(top[0], list) else "}"):
                raise ValueError(f"unexpected {char!r} at {at}")
            stack.pop()
            value, at = top[0], at + 1


def _past_space(text: str, at: int) -> int:
    """Where the whitespace from `at` ends."""
    match = _SPACE.match(text, at)
    assert match is not None, "the pattern matches the empty string"
    return match.end()


def _value(text: str, at: int) -> tuple[Any, int, list[Any] | None]:
    """The value at `at` and where it ends, or the container it opens (filled later)."""
    char = text[at : at + 1]
    if char in ("[", "{"):
        inner = _past_space(text, at + 1)
        if text[inner : inner + 1] == ("]" if char == "[" else "}"):
            return ([] if char == "[" else {}), inner + 1, None
        if char == "[":
            return None, inner, [[], None]
        key, after = _key(text, inner)
        return None, after, [{}, key]
    if char == '"':
        try:
            value, end = scanstring(text, at + 1, True)
        except JSONDecodeError as error:
            raise ValueError(str(error)) from None
        return value, end, None
    number = _NUMBER.match(text, at)
    if number:
        digits = number.group()
        if number.group(1) or number.group(2):
            return float(digits), number.end(), None
        # Python refuses to parse integers of thousands of digits; JS holds them as doubles.
        return (int(digits) if len(digits) < 4000 else float(digits)), number.end(), None
    for word, value in _LITERALS:
        if text.startswith(word, at):
            return value, at + len(word), None
    raise ValueError(f"unexpected {char!r} at {at}")


def _key(text: str, at: int) -> tuple[str, int]:
    """An object key and the position of its value."""
    if text[at : at + 1] != '"':
        raise ValueError(f"expected a key at {at}")
    try:
        key, end = scanstring(text, at + 1, True)
    except JSONDecodeError as error:
        raise ValueError(str(error)) from None
    end = _past_space(text, end)
    if text[end : end + 1] != ":":
        raise ValueError(f"expected ':' at {end}")
    return key, _past_space(text, end + 1)
