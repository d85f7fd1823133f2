"""Sibling order: pi sorts children with `Array.prototype.sort` on timestamp differences.

With valid timestamps that is a stable sort by time, which Python's sort gives
directly. A timestamp that does not parse makes the comparator return NaN; V8's
TimSort then treats the pair as "not less", and the result depends on its exact
steps. For such lists we replay V8's run detection and binary insertion (what
it does for fewer than 64 elements), so a hand-edited file orders as pi shows it.
"""

from __future__ import annotations

from typing import Callable, TypeVar

T = TypeVar("T")

_MIN_MERGE = 64


def sort_by_js_time(items: list[T], time_of: Callable[[T], int | None]) -> list[T]:
    times = [time_of(item) for item in items]
    if None not in times:
        order = sorted(range(len(items)), key=times.__getitem__)
        return [items[i] for i in order]
    return [items[i] for i in _v8_sort(list(range(len(items))), times)]


def _compare(times: list[int | None], a: int, b: int) -> float:
    ta, tb = times[a], times[b]
    if ta is None or tb is None:
        return 0.0  # SortCompare turns a NaN result into +0: "equal"
    return float(ta - tb)


def _v8_sort(work: list[int], times: list[int | None]) -> list[int]:
    # Beyond 64 elements V8 also merges runs with galloping; a list that long
    # with unparseable timestamps is approximated by sorting it in chunks.
    for low in range(0, len(work), _MIN_MERGE):
        high = min(low + _MIN_MERGE, len(work))
        _sort_run(work, times, low, high)
    return work


def _sort_run(work: list[int], times: list[int | None], low: int, high: int) -> None:
    if high - low < 2:
        return
    run = _count_and_make_run(work, times, low, high)
    if run < high - low:
        _binary_insertion(work, times, low, low + run, high)


def _count_and_make_run(work: list[int], times: list[int | None], low: int, high: int) -> int:
    if low + 1 == high:
        return 1
    descending = _compare(times, work[low + 1], work[low]) < 0
    length = 2
    previous = work[low + 1]
    for idx in range(low + 2, high):
        order = _compare(times, work[idx], previous)
        if (order >= 0) if descending else (order < 0):
            break
        previous = work[idx]
        length += 1
    if descending:
        work[low:low + length] = reversed(work[low:low + length])
    return length


def _binary_insertion(work: list[int], times: list[int | None], low: int, start: int, high: int) -> None:
    for position in range(start, high):
        pivot = work[position]
        left, right = low, position
        while left < right:
            mid = left + ((right - left) >> 1)
            if _compare(times, pivot, work[mid]) < 0:
                right = mid
            else:
                left = mid + 1
        work[left + 1:position + 1] = work[left:position]
        work[left] = pivot
