"""Counts, costs and sizes as short text, the same in the window and on the command line.

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


def as_float(value: float) -> float:
    """`value` as a double, as JS holds it: an integer past the doubles (JSON may spell one) is ±Infinity."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def format_count(value: float) -> str:
    value = as_float(value)
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
    huge = beyond_words(as_float(value))
    if huge is not None:
        return f"${huge}"
    if value == 0:
        return "$0"
    if value < 0.01:
        return f"${value:.4f}"
    return f"${value:,.2f}"  # thousands separated: a folder's cost runs to thousands


def human_size(size: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            # Three figures at most: a column of sizes stays narrow.
            return f"{size:.0f} {unit}" if unit == "B" or size >= 100 else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size} B"
