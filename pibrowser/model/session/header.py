"""A session file's header: the first line pi keeps, which must say it is a session.

pi parses lines until one gives a value it keeps (a truthy one: `if (entry) entries.push`);
that one must be an object of type "session" with a string id, or the file is not a
session. Lines before it that do not parse, or give nothing, are skipped (and reported).
Every reader finds the header here, and a file refused is refused in the same words.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..js.stringify import dump_json
from ..js.value import MISSING
from .jsonline import parse_line
from .problems import Problem, SessionLoadError

Found = tuple[dict[str, Any], int, int]  # the header, its line number, its index in the lines searched


def is_header(value: Any) -> bool:
    return isinstance(value, dict) and value.get("type") == "session" and isinstance(value.get("id"), str)


class HeaderSearch:
    """Looks for the header over as many batches of lines as it takes (`find`), and says why a
    file has none (`missing`). Lines pi skips on the way are reported into `problems`."""

    def __init__(self, path: Path, problems: list[Problem]) -> None:
        self.path, self.problems = path, problems
        self.content = False  # a line that is not blank was seen
        self.falsy = False  # … one that parses to a value pi skips (null, false, 0, "")

    def find(self, lines: Iterable[bytes], first_number: int = 1) -> Found | None:
        """The header among `lines` (numbered from `first_number`); None when they hold nothing
        pi keeps; raises SessionLoadError when what comes first is not a header."""
        path, problems = self.path, self.problems
        for index, raw in enumerate(lines):
            if not raw.strip():
                continue
            self.content = True
            number = first_number + index
            try:
                value, note = parse_line(raw)
            except ValueError as error:
                problems.append(Problem(path, number, f"skipped: {error}"))
                continue
            if not js_truthy_json(value):
                problems.append(Problem(path, number, f"skipped: {kind_of(value)} is not an entry"))
                self.falsy = True
                continue
            if is_header(value):
                if note:
                    problems.append(Problem(path, number, note))
                return value, number, index
            raise SessionLoadError(path, f"not a pi session: line {number}, its first JSON line, {not_a_header(value)}")
        return None

    def missing(self) -> SessionLoadError:
        """What to say of a file in which no header was found."""
        if not self.content:
            return SessionLoadError(self.path, "the file is empty: not a pi session")
        if self.falsy:
            return SessionLoadError(self.path, 'not a pi session: its only JSON values are null, false, 0 or "", which pi skips')
        return SessionLoadError(self.path, "not a pi session: no line parses as JSON")


def find_header(path: Path, lines: Iterable[bytes], problems: list[Problem], first_number: int = 1) -> Found | None:
    """HeaderSearch.find over one batch of lines."""
    return HeaderSearch(path, problems).find(lines, first_number)


def not_a_header(value: Any) -> str:
    """What is wrong with the value where pi wants the session header (pi checks `type` and `id`, nothing else)."""
    if not isinstance(value, dict):
        return f"is {kind_of(value)}, not a session header"
    kind = value.get("type", MISSING)
    if kind != "session":
        shown = "no type" if kind is MISSING else f"type {_shown(kind)}"
        return f'has {shown}, where a session header has type "session"'
    key = value.get("id", MISSING)
    return "is a session header without an id" if key is MISSING else f"is a session header whose id is {kind_of(key)}, not a string"


def _shown(value: Any) -> str:
    text = dump_json(value).decode("utf-8", errors="replace")
    return text if len(text) <= 40 else text[:39] + "…"


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
    if isinstance(value, dict):
        return "an object"
    return "a value"
