"""Epoch milliseconds as the one date-and-time form every view shows."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any


def format_millis(millis: Any, utc: bool = False) -> str:
    """Local "YYYY-MM-DD HH:MM:SS", or UTC with " UTC" after it; "" for anything that is not a time.

    Exported text says UTC so it reads the same wherever it is opened; the GUI shows the reader's clock.
    """
    if not isinstance(millis, (int, float)) or isinstance(millis, bool):
        return ""
    try:
        moment = datetime.fromtimestamp(millis / 1000, tz=timezone.utc)
        if not utc:
            moment = moment.astimezone()
    except (OverflowError, OSError, ValueError):
        return ""
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC" if utc else "%Y-%m-%d %H:%M:%S")
