"""Session text on one terminal line, and padded to a column."""

from __future__ import annotations

import re
import unicodedata

from .terminal_text import _ANSI

# For one line on a terminal: every C0 and C1 control, and the bidirectional
# overrides that make text read differently from how it is stored.
_LINE_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]+")


def one_line(text: str, limit: int | None = None) -> str:
    """Text for one terminal line: escapes gone, controls and runs of white space as one space."""
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
    text = " ".join(_LINE_UNSAFE.sub(" ", text).split())
    if limit is not None and len(text) > limit:
        return text[: limit - 1] + "…"
    return text


def pad(text: str, width: int) -> str:
    """`text` followed by spaces to fill `width` terminal columns (wide CJK and emoji take two)."""
    used = sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)
    return text + " " * max(0, width - used)
