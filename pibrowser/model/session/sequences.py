"""Searching sequences in C: a path runs to 100,000 entries, and a Python loop over it is felt.

Shared prefixes (by identity or equality) and the position of an item, each one
call into C (operator.indexOf over map, list.index) instead of a Python loop.
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


def _prefix(same: Callable[[Any, Any], bool], a: Sequence[Any], b: Sequence[Any]) -> int:
    try:
        return indexOf(map(same, a, b), False)
    except ValueError:
        return min(len(a), len(b))
