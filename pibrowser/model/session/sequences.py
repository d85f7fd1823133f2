"""Searching sequences in C: a path runs to 100,000 entries, and a Python loop over it is felt.

Shared prefixes (by identity or equality) and the position of an item, each one
call into C (operator.indexOf over map, list.index) instead of a Python loop; and the
shared prefix of two paths of a tree, found by bisection (`paths_shared`).
"""

from __future__ import annotations

from operator import eq, indexOf, is_
from typing import Any
from collections.abc import Callable, Sequence


def shared_prefix(a: Sequence[Any], b: Sequence[Any]) -> int:
    """How many leading items two sequences share, the very same objects (compared in C, not Python)."""
    return _prefix(is_, a, b)


def index_of(items: list[Any], key: Any, stop: int) -> int:
    """Where `key` is in items[:stop] (searched in C); `stop` when it is not there."""
    try:
        return items.index(key, 0, stop)
    except ValueError:
        return stop


def equal_prefix(a: Sequence[Any], b: Sequence[Any]) -> int:
    """How many leading items of two sequences are equal."""
    return _prefix(eq, a, b)


def paths_shared(length: int, agree: Callable[[int], bool]) -> int:
    """How many leading entries two paths of a tree share, `length` at most, where `agree(i)` says
    whether they hold the same entry at depth i. Paths agree from the root down to where they fork
    and differ after it, so a bisection reads some twenty depths, not the paths."""
    low, high = 0, length  # they share `low` entries, and at most `high`
    while low < high:
        middle = (low + high + 1) // 2
        if agree(middle - 1):
            low = middle
        else:
            high = middle - 1
    return low


def _prefix(same: Callable[[Any, Any], bool], a: Sequence[Any], b: Sequence[Any]) -> int:
    try:
        return indexOf(map(same, a, b), False)
    except ValueError:
        return min(len(a), len(b))
