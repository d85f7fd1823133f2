"""Counting things in English: "1 leaf", "2 leaves", "1,024 entries"."""

from __future__ import annotations

from ..js.value import js_number_string

# Words whose plural is not the singular plus "s".
_IRREGULAR = {"entry": "entries", "leaf": "leaves", "match": "matches", "summary": "summaries", "branch": "branches", "reply": "replies"}


def plural(word: str, count: int | float) -> str:
    """`word` as it reads after `count`."""
    if count == 1:
        return word
    return _IRREGULAR.get(word, word + "s")


def counted(count: int | float, word: str) -> str:
    """`count` (thousands separated) and `word` in the number that goes with it. A count that is no
    whole number (pi's estimate can be NaN) reads as JavaScript prints it."""
    if isinstance(count, float) and not count.is_integer():
        return f"{js_number_string(count)} {plural(word, 2)}"
    return f"{count:,} {plural(word, count)}"
