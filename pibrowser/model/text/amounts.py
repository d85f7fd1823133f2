"""Counts, costs, usage and sizes as short text, the same in the window and on the command line."""

from __future__ import annotations


def format_count(value: float) -> str:
    value = float(value)
    if abs(value) >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if abs(value) >= 10_000:
        return f"{value / 1000:.0f}k"
    if abs(value) >= 1000:
        return f"{value / 1000:.1f}k"
    return f"{value:.0f}"


def format_cost(value: float) -> str:
    if value == 0:
        return "$0"
    if value < 0.01:
        return f"${value:.4f}"
    return f"${value:.2f}"


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
