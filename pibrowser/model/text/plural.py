"""Counting things in English: "1 leaf", "2 leaves", "1,024 entries"."""

from __future__ import annotations

# Words whose plural is not the singular plus "s".
_IRREGULAR = {"entry": "entries", "leaf": "leaves", "match": "matches", "summary": "summaries", "branch": "branches", "reply": "replies"}


def plural(word: str, count: int) -> str:
    """`word` as it reads after `count`."""
    if count == 1:
        return word
    return _IRREGULAR.get(word, word + "s")


def counted(count: int, word: str) -> str:
    """`count` (thousands separated) and `word` in the number that goes with it."""
    return f"{count:,} {plural(word, count)}"
