"""Matching two sequences of hashable items in near-linear time (patience diff).

difflib's matcher alone turns quadratic when many short matches alternate with
differences (10,000 messages: seconds). Patience diff first pairs the items
that occur exactly once on each side, keeps the longest run of those pairs that
is in order on both sides, and only then solves the small gaps between them
(recursively, and with difflib once no unique item is left).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from difflib import SequenceMatcher
from collections.abc import Hashable, Sequence

Opcode = tuple[str, int, int, int, int]
# Past this depth of nested gaps the rest goes to difflib in one piece.
_MAX_DEPTH = 40


def opcodes(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[Opcode]:
    """difflib-style opcodes ("equal", "replace", "delete", "insert") for a against b."""
    pairs: list[tuple[int, int]] = []
    _match(a, b, 0, len(a), 0, len(b), pairs, 0)
    result: list[Opcode] = []
    i = j = 0
    for mi, mj in [*pairs, (len(a), len(b))]:
        if i < mi or j < mj:
            kind = "replace" if i < mi and j < mj else "delete" if i < mi else "insert"
            result.append((kind, i, mi, j, mj))
        if mi < len(a) and mj < len(b):
            last = result[-1] if result else None
            if last is not None and last[0] == "equal" and last[2] == mi and last[4] == mj:
                result[-1] = ("equal", last[1], mi + 1, last[3], mj + 1)
            else:
                result.append(("equal", mi, mi + 1, mj, mj + 1))
        i, j = mi + 1, mj + 1
    return result


def _match(
    a: Sequence[Hashable], b: Sequence[Hashable], a_lo: int, a_hi: int, b_lo: int, b_hi: int, pairs: list[tuple[int, int]], depth: int
) -> None:
    """Append the matched (i, j) pairs within the ranges, in order."""
    while a_lo < a_hi and b_lo < b_hi and a[a_lo] == b[b_lo]:
        pairs.append((a_lo, b_lo))
        a_lo, b_lo = a_lo + 1, b_lo + 1
    tail: list[tuple[int, int]] = []
    while a_lo < a_hi and b_lo < b_hi and a[a_hi - 1] == b[b_hi - 1]:
        a_hi, b_hi = a_hi - 1, b_hi - 1
        tail.append((a_hi, b_hi))
    if a_lo < a_hi and b_lo < b_hi:
        anchors = _unique_anchors(a, b, a_lo, a_hi, b_lo, b_hi) if depth < _MAX_DEPTH else []
        if anchors:
            i, j = a_lo, b_lo
            for ai, bj in anchors:
                _match(a, b, i, ai, j, bj, pairs, depth + 1)
                pairs.append((ai, bj))
                i, j = ai + 1, bj + 1
            _match(a, b, i, a_hi, j, b_hi, pairs, depth + 1)
        else:
            matcher = SequenceMatcher(None, a[a_lo:a_hi], b[b_lo:b_hi], autojunk=False)
            for block in matcher.get_matching_blocks():
                pairs.extend((a_lo + block.a + k, b_lo + block.b + k) for k in range(block.size))
    pairs.extend(reversed(tail))


def _unique_anchors(a: Sequence[Hashable], b: Sequence[Hashable], a_lo: int, a_hi: int, b_lo: int, b_hi: int) -> list[tuple[int, int]]:
    """Items once on each side, paired, then the longest run increasing on both sides."""
    count_a = Counter(a[a_lo:a_hi])
    count_b = Counter(b[b_lo:b_hi])
    where_b = {b[j]: j for j in range(b_lo, b_hi) if count_b[b[j]] == 1}
    candidates = [(i, where_b[a[i]]) for i in range(a_lo, a_hi) if count_a[a[i]] == 1 and a[i] in where_b]
    return _longest_increasing(candidates)


def _longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of pairs (sorted by i) whose j increase (patience sorting)."""
    tops: list[int] = []  # smallest j ending a run of each length
    top_index: list[int] = []
    previous: list[int] = [-1] * len(pairs)
    for index, (_, j) in enumerate(pairs):
        at = bisect_left(tops, j)
        if at == len(tops):
            tops.append(j)
            top_index.append(index)
        else:
            tops[at] = j
            top_index[at] = index
        previous[index] = top_index[at - 1] if at > 0 else -1
    run: list[tuple[int, int]] = []
    index = top_index[-1] if top_index else -1
    while index >= 0:
        run.append(pairs[index])
        index = previous[index]
    return run[::-1]
