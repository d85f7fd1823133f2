"""A word-level diff of two texts, lines first so that long texts stay cheap.

Lines are aligned first; only the lines that changed are compared word by word,
and a changed block too large for that is shown as removed and added whole.
The result is a list of (op, text) segments: " " kept, "-" removed, "+" added,
whose "-"-less concatenation is the right text and "+"-less the left.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

KEPT, REMOVED, ADDED = " ", "-", "+"
ELIDED = "…"  # in condensed(): unchanged lines left out, the text says how many
# Word-level comparison of one changed block; beyond this many words a side is replaced whole.
WORD_LIMIT = 4000
# Below this share of words in common, a block reads better removed and added whole than shredded.
MIN_COMMON = 0.4

_WORD = re.compile(r"\s+|\w+|[^\w\s]")

Segment = tuple[str, str]


def word_diff(left: str, right: str) -> list[Segment]:
    if left == right:
        return [(KEPT, left)] if left else []
    left_lines, right_lines = left.splitlines(keepends=True), right.splitlines(keepends=True)
    segments: list[Segment] = []
    matcher = SequenceMatcher(None, left_lines, right_lines, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        a, b = "".join(left_lines[i1:i2]), "".join(right_lines[j1:j2])
        if op == "equal":
            segments.append((KEPT, a))
        elif op == "delete":
            segments.append((REMOVED, a))
        elif op == "insert":
            segments.append((ADDED, b))
        else:
            segments.extend(_words(a, b))
    return _merged(segments)


def _words(left: str, right: str) -> list[Segment]:
    a, b = _WORD.findall(left), _WORD.findall(right)
    if len(a) > WORD_LIMIT or len(b) > WORD_LIMIT:
        return [(REMOVED, left), (ADDED, right)]
    codes = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    if _common_words(a, codes) < MIN_COMMON * max(_count_words(a), _count_words(b)):
        return [(REMOVED, left), (ADDED, right)]
    segments: list[Segment] = []
    for op, i1, i2, j1, j2 in codes:
        if op == "equal":
            segments.append((KEPT, "".join(a[i1:i2])))
            continue
        if i2 > i1:
            segments.append((REMOVED, "".join(a[i1:i2])))
        if j2 > j1:
            segments.append((ADDED, "".join(b[j1:j2])))
    return segments


def _count_words(tokens: list[str]) -> int:
    return sum(1 for token in tokens if not token.isspace())


def _common_words(a: list[str], codes: Sequence[tuple[str, int, int, int, int]]) -> int:
    return sum(_count_words(a[i1:i2]) for op, i1, i2, _, _ in codes if op == "equal")


def _merged(segments: list[Segment]) -> list[Segment]:
    merged: list[Segment] = []
    for op, text in segments:
        if not text:
            continue
        if merged and merged[-1][0] == op:
            merged[-1] = (op, merged[-1][1] + text)
        else:
            merged.append((op, text))
    return merged


def condensed(segments: list[Segment], context: int = 2) -> list[Segment]:
    """Long unchanged stretches cut to `context` lines beside each change, as a unified diff does.

    What is left out becomes one ELIDED segment on a line of its own, naming how many lines.
    """
    result: list[Segment] = []
    last = len(segments) - 1
    for position, (op, text) in enumerate(segments):
        lines = text.split("\n") if op == KEPT else []
        # The first piece ends the changed line before, the last begins the changed line after.
        head = context + 1 if position > 0 else 0
        tail = context + 1 if position < last else 0
        hidden = len(lines) - head - tail
        if hidden < 3:
            result.append((op, text))
            continue
        if head:
            result.append((KEPT, "\n".join(lines[:head]) + "\n"))
        result.append((ELIDED, f"⋯ {hidden:,} unchanged lines ⋯"))
        if tail:
            result.append((KEPT, "\n" + "\n".join(lines[len(lines) - tail :])))
    return result
