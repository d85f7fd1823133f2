"""Counts, costs and sizes as short text, the same in the window and on the command line."""

from __future__ import annotations

import math

LARGEST_SHOWN = 1e12  # beyond, a figure is read in powers of ten: "1.0e300", not three hundred digits


def beyond_shown(value: float, digits: int = 1) -> str | None:
    """A figure too large to write out (or not a number at all), as it reads, with `digits` after the
    point; None for any other."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if abs(value) >= LARGEST_SHOWN:
        mantissa, exponent = f"{value:.{digits}e}".split("e")
        return f"{mantissa}e{int(exponent)}"  # "1.0e300": short enough for an axis
    return None


def as_float(value: float) -> float:
    """`value` as a double, as JS holds it: an integer past the doubles is Infinity."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def format_count(value: float) -> str:
    value = as_float(value)
    odd = beyond_shown(value)
    if odd is not None:
        return odd
    if abs(value) >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if abs(value) >= 10_000:
        return f"{value / 1000:.0f}k"
    if abs(value) >= 1000:
        return f"{value / 1000:.1f}k"
    return f"{value:.0f}"


def format_cost(value: float) -> str:
    odd = beyond_shown(as_float(value))
    if odd is not None:
        return f"${odd}"
    if value == 0:
        return "$0"
    if value < 0.01:
        return f"${value:.4f}"
    return f"${value:.2f}"


def human_size(size: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            # Three figures at most: a column of sizes stays narrow.
            return f"{size:.0f} {unit}" if unit == "B" or size >= 100 else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size} B"
