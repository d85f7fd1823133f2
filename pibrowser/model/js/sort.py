"""Sibling order: pi sorts children with `Array.prototype.sort` on timestamp differences.

With valid timestamps that is a stable sort by time, which Python's sort gives
directly. A timestamp that does not parse makes the comparator return NaN,
which V8 reads as "equal"; the comparisons are then inconsistent and the
result depends on every step V8's sort takes. For such lists we replay that
sort, V8's TimSort with its run detection, binary insertion, merge policy and
galloping, step for step (as in the Node 22 and 24 releases pi runs on), so a
hand-edited file orders as pi shows it.
"""

from __future__ import annotations

from typing import TypeVar, cast
from collections.abc import Callable, Iterable

T = TypeVar("T")

_MIN_GALLOP = 7


def sort_by_js_time(items: list[T], time_of: Callable[[T], int | None]) -> list[T]:
    times = [time_of(item) for item in items]
    if None not in times:
        known = cast("list[int]", times)  # no None in it, as just checked
        order = sorted(range(len(items)), key=known.__getitem__)
        return [items[i] for i in order]
    return [items[i] for i in _V8Sort(times).sort()]


class _V8Sort:
    """V8's Array.prototype.sort over indices into `times`, compared by time difference."""

    def __init__(self, times: list[int | None]) -> None:
        self.times = times
        self.work = list(range(len(times)))
        self.min_gallop = _MIN_GALLOP
        self.runs: list[list[int]] = []  # [base, length] of each pending run

    def less(self, a: int, b: int) -> bool:
        """compare(a, b) < 0; a NaN difference counts as 0."""
        ta, tb = self.times[a], self.times[b]
        return ta is not None and tb is not None and ta < tb

    def sort(self) -> list[int]:
        n = len(self.work)
        if n < 2:
            return self.work
        low, remaining = 0, n
        min_run = _min_run_length(n)
        while remaining:
            run = self.count_and_make_run(low, low + remaining)
            if run < min_run:
                forced = min(min_run, remaining)
                self.binary_insertion(low, low + run, low + forced)
                run = forced
            self.runs.append([low, run])
            self.merge_collapse()
            low += run
            remaining -= run
        self.merge_force_collapse()
        return self.work

    # ---- runs -------------------------------------------------------------

    def binary_insertion(self, low: int, start: int, high: int) -> None:
        work = self.work
        start = start + 1 if start == low else start
        for position in range(start, high):
            pivot = work[position]
            left, right = low, position
            while left < right:
                mid = left + ((right - left) >> 1)
                if self.less(pivot, work[mid]):
                    right = mid
                else:
                    left = mid + 1
            work[left + 1 : position + 1] = work[left:position]
            work[left] = pivot

    def count_and_make_run(self, low: int, high: int) -> int:
        work = self.work
        if low + 1 == high:
            return 1
        descending = self.less(work[low + 1], work[low])
        length = 2
        previous = work[low + 1]
        for index in range(low + 2, high):
            current = work[index]
            if self.less(current, previous) != descending:
                break
            previous = current
            length += 1
        if descending:
            work[low : low + length] = work[low : low + length][::-1]
        return length

    # ---- merging ----------------------------------------------------------

    def merge_collapse(self) -> None:
        runs = self.runs
        while len(runs) > 1:
            n = len(runs) - 2
            if not _invariant(runs, n + 1) or not _invariant(runs, n):
                if runs[n - 1][1] < runs[n + 1][1]:
                    n -= 1
                self.merge_at(n)
            elif runs[n][1] <= runs[n + 1][1]:
                self.merge_at(n)
            else:
                break

    def merge_force_collapse(self) -> None:
        # V8 merges the run below instead when the third from the top is shorter than the
        # top one. merge_collapse leaves every run longer than the two above it together,
        # and merging the top two keeps that, so the third is always the longer: the top
        # two are merged, always.
        runs = self.runs
        while len(runs) > 1:
            self.merge_at(len(runs) - 2)

    def merge_at(self, i: int) -> None:
        work = self.work
        base_a, length_a = self.runs[i]
        base_b, length_b = self.runs[i + 1]
        self.runs[i][1] = length_a + length_b
        del self.runs[i + 1]
        k = self.gallop_right(work, work[base_b], base_a, length_a, 0)
        base_a += k
        length_a -= k
        if length_a == 0:
            return
        length_b = self.gallop_left(work, work[base_a + length_a - 1], base_b, length_b, length_b - 1)
        if length_b == 0:
            return
        if length_a <= length_b:
            self.merge_low(base_a, length_a, base_b, length_b)
        else:
            self.merge_high(base_a, length_a, base_b, length_b)

    def gallop_left(self, array: list[int], key: int, base: int, length: int, hint: int) -> int:
        """Where key goes in array[base:base+length]: before any element equal to it."""
        return _gallop(array, base, length, hint, lambda item: self.less(item, key))

    def gallop_right(self, array: list[int], key: int, base: int, length: int, hint: int) -> int:
        """Where key goes in array[base:base+length]: after any element equal to it."""
        return _gallop(array, base, length, hint, lambda item: not self.less(key, item))

    def merge_low(self, base_a: int, length_a: int, base_b: int, length_b: int) -> None:
        work = self.work
        temp = work[base_a : base_a + length_a]
        dest, cursor_temp, cursor_b = base_a, 0, base_b
        work[dest] = work[cursor_b]
        dest += 1
        cursor_b += 1
        length_b -= 1

        def copy_b() -> None:  # A's last element belongs after what is left of B
            work[dest : dest + length_b] = work[cursor_b : cursor_b + length_b]
            work[dest + length_b] = temp[cursor_temp]

        def finish() -> None:
            work[dest : dest + length_a] = temp[cursor_temp : cursor_temp + length_a]

        if length_b == 0:
            return finish()
        if length_a == 1:
            return copy_b()
        min_gallop = self.min_gallop
        while True:
            wins_a = wins_b = 0
            while True:
                if self.less(work[cursor_b], temp[cursor_temp]):
                    work[dest] = work[cursor_b]
                    dest, cursor_b, length_b = dest + 1, cursor_b + 1, length_b - 1
                    wins_b, wins_a = wins_b + 1, 0
                    if length_b == 0:
                        return finish()
                    if wins_b >= min_gallop:
                        break
                else:
                    work[dest] = temp[cursor_temp]
                    dest, cursor_temp, length_a = dest + 1, cursor_temp + 1, length_a - 1
                    wins_a, wins_b = wins_a + 1, 0
                    if length_a == 1:
                        return copy_b()
                    if wins_a >= min_gallop:
                        break
            min_gallop += 1
            first = True
            while wins_a >= _MIN_GALLOP or wins_b >= _MIN_GALLOP or first:
                first = False
                min_gallop = max(1, min_gallop - 1)
                self.min_gallop = min_gallop
                wins_a = self.gallop_right(temp, work[cursor_b], cursor_temp, length_a, 0)
                if wins_a > 0:
                    work[dest : dest + wins_a] = temp[cursor_temp : cursor_temp + wins_a]
                    dest, cursor_temp, length_a = dest + wins_a, cursor_temp + wins_a, length_a - wins_a
                    if length_a == 1:
                        return copy_b()
                    if length_a == 0:
                        return finish()
                work[dest] = work[cursor_b]
                dest, cursor_b, length_b = dest + 1, cursor_b + 1, length_b - 1
                if length_b == 0:
                    return finish()
                wins_b = self.gallop_left(work, temp[cursor_temp], cursor_b, length_b, 0)
                if wins_b > 0:
                    work[dest : dest + wins_b] = work[cursor_b : cursor_b + wins_b]
                    dest, cursor_b, length_b = dest + wins_b, cursor_b + wins_b, length_b - wins_b
                    if length_b == 0:
                        return finish()
                work[dest] = temp[cursor_temp]
                dest, cursor_temp, length_a = dest + 1, cursor_temp + 1, length_a - 1
                if length_a == 1:
                    return copy_b()
            min_gallop += 1  # penalise leaving galloping mode
            self.min_gallop = min_gallop

    def merge_high(self, base_a: int, length_a: int, base_b: int, length_b: int) -> None:
        work = self.work
        temp = work[base_b : base_b + length_b]
        dest, cursor_temp, cursor_a = base_b + length_b - 1, length_b - 1, base_a + length_a - 1
        work[dest] = work[cursor_a]
        dest, cursor_a, length_a = dest - 1, cursor_a - 1, length_a - 1

        def copy_a() -> None:  # B's first element belongs before what is left of A
            start = dest - length_a
            work[start + 1 : dest + 1] = work[cursor_a - length_a + 1 : cursor_a + 1]
            work[start] = temp[cursor_temp]

        def finish() -> None:
            if length_b > 0:
                work[dest - length_b + 1 : dest + 1] = temp[0:length_b]

        # V8 also stops here when A is used up; merge_high only runs with A longer than B
        # (at least one item), so one item of A always remains.
        if length_b == 1:
            return copy_a()
        min_gallop = self.min_gallop
        while True:
            wins_a = wins_b = 0
            while True:
                if self.less(temp[cursor_temp], work[cursor_a]):
                    work[dest] = work[cursor_a]
                    dest, cursor_a, length_a = dest - 1, cursor_a - 1, length_a - 1
                    wins_a, wins_b = wins_a + 1, 0
                    if length_a == 0:
                        return finish()
                    if wins_a >= min_gallop:
                        break
                else:
                    work[dest] = temp[cursor_temp]
                    dest, cursor_temp, length_b = dest - 1, cursor_temp - 1, length_b - 1
                    wins_b, wins_a = wins_b + 1, 0
                    if length_b == 1:
                        return copy_a()
                    if wins_b >= min_gallop:
                        break
            min_gallop += 1
            first = True
            while wins_a >= _MIN_GALLOP or wins_b >= _MIN_GALLOP or first:
                first = False
                min_gallop = max(1, min_gallop - 1)
                self.min_gallop = min_gallop
                k = self.gallop_right(work, temp[cursor_temp], base_a, length_a, length_a - 1)
                wins_a = length_a - k
                if wins_a > 0:
                    dest, cursor_a = dest - wins_a, cursor_a - wins_a
                    work[dest + 1 : dest + 1 + wins_a] = work[cursor_a + 1 : cursor_a + 1 + wins_a]
                    length_a -= wins_a
                    if length_a == 0:
                        return finish()
                work[dest] = temp[cursor_temp]
                dest, cursor_temp, length_b = dest - 1, cursor_temp - 1, length_b - 1
                if length_b == 1:
                    return copy_a()
                k = self.gallop_left(temp, work[cursor_a], 0, length_b, length_b - 1)
                wins_b = length_b - k
                if wins_b > 0:
                    dest, cursor_temp = dest - wins_b, cursor_temp - wins_b
                    work[dest + 1 : dest + 1 + wins_b] = temp[cursor_temp + 1 : cursor_temp + 1 + wins_b]
                    length_b -= wins_b
                    if length_b == 1:
                        return copy_a()
                    if length_b == 0:
                        return finish()
                work[dest] = work[cursor_a]
                dest, cursor_a, length_a = dest - 1, cursor_a - 1, length_a - 1
                if length_a == 0:
                    return finish()
            min_gallop += 1
            self.min_gallop = min_gallop


def _min_run_length(n: int) -> int:
    """32..64 such that n / result is just under a power of two (n itself below 64)."""
    shifted_off = 0
    while n >= 64:
        shifted_off |= n & 1
        n >>= 1
    return n + shifted_off


def _invariant(runs: list[list[int]], n: int) -> bool:
    # run n-2 must be longer than runs n-1 and n together
    if n < 2:
        return True
    return runs[n - 2][1] > runs[n - 1][1] + runs[n][1]


def _gallop(array: list[int], base: int, length: int, hint: int, before: Callable[[int], bool]) -> int:
    """V8's GallopLeft and GallopRight in one: how many of array[base:base+length] come
    `before` the key, found by galloping out from `hint` and then a binary search.

    The two differ only in what "before" means (smaller than the key, or not larger).
    """
    last, offset = 0, 1
    if before(array[base + hint]):
        limit = length - hint
        while offset < limit and before(array[base + hint + offset]):
            last, offset = offset, (offset << 1) + 1
        offset = min(offset, limit)
        last, offset = last + hint, offset + hint
    else:
        limit = hint + 1
        while offset < limit and not before(array[base + hint - offset]):
            last, offset = offset, (offset << 1) + 1
        offset = min(offset, limit)
        last, offset = hint - offset, hint - last
    last += 1
    while last < offset:
        mid = last + ((offset - last) >> 1)
        if before(array[base + mid]):
            last = mid + 1
        else:
            offset = mid
    return offset


def js_sorted_strings(strings: Iterable[str]) -> list[str]:
    """`Array.prototype.sort()` with no comparator over strings: by UTF-16 code units.

    Python compares code points, which orders a character outside the BMP (😀, two
    units from 0xD83D) after U+E000…U+FFFF (！), where JS puts it before."""
    return sorted(strings, key=_utf16_units)


def _utf16_units(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")
