"""Epoch milliseconds as the one date-and-time form every view shows."""

from __future__ import annotations

import math
from datetime import datetime, UTC
from typing import Any

from .amounts import exponent_form


def format_millis(millis: Any, utc: bool = False) -> str:
    """Local "YYYY-MM-DD HH:MM:SS", or UTC with " UTC" after it; "" for anything that is not a time.

    Exported text says UTC so it reads the same wherever it is opened; the GUI shows the reader's clock.
    """
    if not isinstance(millis, (int, float)) or isinstance(millis, bool):
        return ""
    try:
        moment = datetime.fromtimestamp(millis / 1000, tz=UTC)
        if not utc:
            moment = moment.astimezone()
    except (OverflowError, OSError, ValueError):
        return ""
    if moment.year < 1000:  # strftime writes such a year without leading zeros; isoformat would pad it
        return moment.strftime("%Y-%m-%d %H:%M:%S UTC" if utc else "%Y-%m-%d %H:%M:%S")
    text = moment.isoformat(" ", "seconds")[:19]  # strftime's text in a third of its time (a transcript has one per message)
    return text + " UTC" if utc else text


_YEAR_MS = 365.2425 * 86_400_000
_YEARS_MS = 1000 * _YEAR_MS


def format_duration(millis: float | None) -> str:
    """A span of time as people say it: "340 ms", "4.2 s", "3 min 5 s", "2 h 10 min"; "" for none."""
    if millis is None or not math.isfinite(millis):
        return ""
    if abs(millis) >= _YEARS_MS:  # a clock off by millennia (or Infinity): no one counts it in days
        return "∞" if math.isinf(millis) else f"{exponent_form(millis / _YEAR_MS)} years"
    if millis < 1000:
        return f"{millis:.0f} ms"
    seconds = millis / 1000
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, seconds = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    if days >= 1000:  # a clock set wrong, or a date typed by hand: centuries read in years
        return f"{days / 365.25:,.0f} years"
    return f"{days} d {hours} h" if hours else f"{days} d"
