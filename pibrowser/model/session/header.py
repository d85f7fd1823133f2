"""A session file's header: the first line pi keeps, which must say it is a session.

pi parses lines until one gives a value it keeps (a truthy one: `if (entry) entries.push`);
that one must be an object of type "session" with a string id, or the file is not a
session. Lines before it that do not parse, or give nothing, are skipped (and reported).
Every reader finds the header here.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .jsonline import parse_line
from .problems import Problem, SessionLoadError


def is_header(value: Any) -> bool:
    return isinstance(value, dict) and value.get("type") == "session" and isinstance(value.get("id"), str)


def find_header(path: Path, lines: Iterable[bytes], problems: list[Problem], first_number: int = 1) -> tuple[dict[str, Any], int, int] | None:
    """(the header, its line number, its index in `lines`), the lines numbered from `first_number`.
    None when the lines hold nothing pi keeps (blank, or skipped: see `problems`); raises
    SessionLoadError when what comes first is not a header."""
    for index, raw in enumerate(lines):
        if not raw.strip():
            continue
        number = first_number + index
        try:
            value, note = parse_line(raw)
        except ValueError as error:
            problems.append(Problem(path, number, f"skipped: {error}"))
            continue
        if not js_truthy_json(value):
            problems.append(Problem(path, number, f"skipped: {kind_of(value)} is not an entry"))
            continue
        if is_header(value):
            if note:
                problems.append(Problem(path, number, note))
            return value, number, index
        raise SessionLoadError(path, f"not a pi session: line {number} is not a session header")
    return None


def no_header(path: Path, any_content: bool) -> SessionLoadError:
    """What to say of a file in which no header was found."""
    if not any_content:
        return SessionLoadError(path, "the file is empty: not a pi session")
    return SessionLoadError(path, "not a pi session: no line parses as JSON")


def js_truthy_json(value: Any) -> bool:
    # pi keeps a parsed line only when the value is truthy (`if (entry) entries.push`).
    return not (value is None or value is False or value == 0 and not isinstance(value, bool) or value == "")


def kind_of(value: Any) -> str:
    """A JSON value's kind in words, for a problem's message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "a value"
