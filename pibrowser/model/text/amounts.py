"""Counts, costs, usage and sizes as short text, the same in the window and on the command line.

A session may record any number (1e300, or Infinity from 1e400): a figure beyond what a
column can show reads as such ("∞", "1e300"), never as 300 digits.
"""

from __future__ import annotations

import math

_HUGE = 1e15  # from here on a figure is written with an exponent


def beyond_words(value: float) -> str | None:
    """How a figure too large to write out reads ("∞", "−∞", "NaN", "1e300"); None for one that is not."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return exponent_form(value) if abs(value) >= _HUGE else None


def exponent_form(value: float) -> str:
    """A finite figure as its first digit and power of ten, short enough for any column: "1e300", "-3e15"."""
    mantissa, exponent = f"{value:.0e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def format_count(value: float) -> str:
    value = float(value)
    huge = beyond_words(value)
    if huge is not None:
        return huge
    if abs(value) >= 1_000_000_000:
        return f"{value / 1_000_000_000:.1f}B"
    if abs(value) >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if abs(value) >= 10_000:
        return f"{value / 1000:.0f}k"
    if abs(value) >= 1000:
        return f"{value / 1000:.1f}k"
    return f"{value:.0f}"


def format_cost(value: float) -> str:
    huge = beyond_words(float(value))
    if huge is not None:
        return f"${huge}"
    if value == 0:
        return "$0"
    if value < 0.01:
        return f"${value:.4f}"
    return f"${value:,.2f}"  # thousands separated: a folder's cost runs to thousands


def exact_count(value: float) -> str:
    """Every digit, grouped by thousands (where there is room for them)."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.2f}"


def usage_text(
    input: float, output: float, cache_read: float, cache_write: float, cost: float | None, *, exact: bool = False, brief: bool = False
) -> str:
    """Tokens (and cost) as people read them, in one form wherever usage is shown:
    "in 1.2k · out 56 · cache read 7 · cache write 8 · $0.01". `exact` writes every digit and the
    cost to a hundredth of a cent (where there is room); `brief` leaves out the cache and the cost
    when there are none (a message's line); a cost of None is left out (said elsewhere)."""
    count = exact_count if exact else format_count
    parts = [f"in {count(input)}", f"out {count(output)}"]
    if not brief or cache_read or cache_write:
        parts += [f"cache read {count(cache_read)}", f"cache write {count(cache_write)}"]
    if cost is not None and (cost or not brief):
        parts.append(f"${cost:.4f}" if exact else format_cost(cost))
    return " · ".join(parts)


def human_size(size: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            # Three figures at most: a column of sizes stays narrow.
            return f"{size:.0f} {unit}" if unit == "B" or size >= 100 else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size} B"
