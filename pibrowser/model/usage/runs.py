"""A file's records summed: into runs (consecutive records of one quarter hour and one model key) and in all.

Sums follow pi's addUsageToTotals (tokens/usage.js_plus): doubles while the figures are
numbers, JavaScript's + for anything else. The file's total adds its records one after the
other in file order, as pi's session statistics sum a session. Reading a file packs the runs of
all its records into it (`pack`); the ledger sums the records it keeps of a file with copies,
or of a file a time filter cuts, the same way (`summed`).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..tokens.usage import js_plus
from .records import BUCKET_MS, FIGURES, NO_TIME, REPLY, FileUsage, Figures


@dataclass(slots=True)
class Sums:
    """Counts and the five figures of some records, added as pi adds a usage."""

    replies: int = 0
    records: int = 0
    tools: int = 0
    figures: Figures = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0, 0.0])
    plain: bool = True  # every sum is still a float

    def add_values(self, values: Iterable[object]) -> None:
        sums = self.figures
        for position, value in enumerate(values):
            sums[position] = js_plus(sums[position], value)
        self.plain = all(type(value) is float for value in sums)


@dataclass(slots=True)
class Run(Sums):
    bucket: int = NO_TIME
    key: int = 0  # names: the model key


def summed(usage: FileUsage, indexes: Iterable[int]) -> tuple[list[Run], Sums]:
    """The records `indexes` (in file order) as runs, and in all."""
    times, kinds, keys, calls = usage.column("times"), usage.column("kinds"), usage.column("model_keys"), usage.column("tool_calls")
    figures, odd = usage.column("figures"), usage.odd
    if not odd:
        return _summed_plain(times, kinds, keys, calls, figures, indexes)
    runs: list[Run] = []
    total = Sums()
    run: Run | None = None
    for index in indexes:
        millis = times[index]
        bucket = millis // BUCKET_MS if millis != NO_TIME else NO_TIME
        key = keys[index]
        if run is None or run.bucket != bucket or run.key != key:
            run = Run(bucket=bucket, key=key)
            runs.append(run)
        reply = kinds[index] == REPLY
        made = calls[index]
        values = usage.record_figures(index, figures) if index in odd else None
        at = index * FIGURES
        for target in (run, total):
            target.records += 1
            target.replies += reply
            target.tools += made
            if index in odd:
                if values is not None:
                    target.add_values(values)
            elif target.plain:
                sums = target.figures
                sums[0] += figures[at]
                sums[1] += figures[at + 1]
                sums[2] += figures[at + 2]
                sums[3] += figures[at + 3]
                sums[4] += figures[at + 4]
            else:
                target.add_values(figures[at : at + FIGURES])
    return runs, total


def _summed_plain(times: Any, kinds: Any, keys: Any, calls: Any, figures: Any, indexes: Iterable[int]) -> tuple[list[Run], Sums]:
    """summed() of records whose figures are all numbers (the common case): the same additions in the
    same order, kept in locals."""
    runs: list[Run] = []
    total = Sums()
    t0 = t1 = t2 = t3 = t4 = 0.0
    replies = records = tools = 0
    run: Run | None = None
    r0 = r1 = r2 = r3 = r4 = 0.0
    bucket = key = None
    for index in indexes:
        millis = times[index]
        here = millis // BUCKET_MS if millis != NO_TIME else NO_TIME
        model = keys[index]
        if run is None or here != bucket or model != key:
            if run is not None:
                run.figures = [r0, r1, r2, r3, r4]
            bucket, key = here, model
            run = Run(bucket=here, key=model)
            runs.append(run)
            r0 = r1 = r2 = r3 = r4 = 0.0
        reply = kinds[index] == REPLY
        made = calls[index]
        run.records += 1
        run.replies += reply
        run.tools += made
        records += 1
        replies += reply
        tools += made
        at = index * FIGURES
        a, b, c, d, e = figures[at : at + FIGURES]
        r0 += a
        r1 += b
        r2 += c
        r3 += d
        r4 += e
        t0 += a
        t1 += b
        t2 += c
        t3 += d
        t4 += e
    if run is not None:
        run.figures = [r0, r1, r2, r3, r4]
    total.replies, total.records, total.tools, total.figures = replies, records, tools, [t0, t1, t2, t3, t4]
    return runs, total


def pack(usage: FileUsage) -> None:
    """Sum all the file's records into its runs and total, and note the first and last record's time."""
    runs, total = summed(usage, range(len(usage)))
    buckets, keys, counts, figures = array("q"), array("I"), array("I"), array("d")
    usage.run_odd = {}
    for number, run in enumerate(runs):
        buckets.append(run.bucket)
        keys.append(run.key)
        counts.extend((run.replies, run.records, run.tools))
        if run.plain:
            figures.extend(run.figures)
        else:
            figures.extend((float("nan"),) * FIGURES)
            usage.run_odd[number] = run.figures
    usage.run_buckets, usage.run_keys, usage.run_counts, usage.run_figures = (
        buckets.tobytes(),
        keys.tobytes(),
        counts.tobytes(),
        figures.tobytes(),
    )
    usage.total = [total.replies, total.records, total.tools, *total.figures]
    known = [millis for millis in usage.column("times") if millis != NO_TIME]
    usage.first_time, usage.last_time = (min(known), max(known)) if known else (None, None)
