"""`new Date(value).getTime()` as pi's JavaScript computes it.

Entry timestamps order siblings in the tree and become the epoch-millisecond
`timestamp` of synthesised context messages, so the parse must agree with V8:
the ECMAScript date-time format (date-only forms are UTC, date-time forms
without an offset are local time), plus the few legacy spellings V8 also
accepts that a hand-edited file is likely to contain. Anything else is NaN,
which we return as None (JSON.stringify writes NaN as null).
"""

from __future__ import annotations

import math
import re
import time
from calendar import timegm
from datetime import datetime, timedelta
from typing import Any

from .jsvalue import MISSING

_MAX_TIME = 8.64e15
_DAY_MS = 86_400_000
_EPOCH = datetime(1970, 1, 1)

_ISO = re.compile(
    r"(?P<year>[+-]\d{6}|\d{4})"
    r"(?:-(?P<month>\d{2})(?:-(?P<day>\d{2}))?)?"
    r"(?:[Tt](?P<hour>\d{2}):(?P<minute>\d{2})"
    r"(?::(?P<second>\d{2})(?:\.(?P<fraction>\d+))?)?"
    r"(?P<zone>[Zz]|[+-]\d{2}:?\d{2})?)?"
)
# V8's fallback parser: "2026-10-30 09:00:00", "2026/10/30", "2026-1-5" (local time).
_LEGACY = re.compile(
    r"(?P<year>\d{4})[-/](?P<month>\d{1,2})[-/](?P<day>\d{1,2})"
    r"(?:[ T](?P<hour>\d{1,2}):(?P<minute>\d{2})"
    r"(?::(?P<second>\d{2})(?:\.(?P<fraction>\d+))?)?)?"
)


def js_time(value: Any) -> int | None:
    """Epoch milliseconds of `new Date(value)`, or None where JS yields NaN."""
    if value is MISSING:
        return None
    if value is None:
        return 0
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return _time_clip(float(value))
    if isinstance(value, str):
        return _parse_string(value)
    return None


def _time_clip(ms: float) -> int | None:
    if math.isnan(ms) or math.isinf(ms) or abs(ms) > _MAX_TIME:
        return None
    return int(ms)  # truncates toward zero, as ToIntegerOrInfinity does


def _parse_string(text: str) -> int | None:
    match = _ISO.fullmatch(text)
    if match:
        return _from_iso(match)
    match = _LEGACY.fullmatch(text)
    if match:
        return _from_fields(match, zone_minutes=None)
    return None


def _from_iso(match: re.Match[str]) -> int | None:
    if match["year"] == "-000000":
        return None  # the spec forbids negative zero years
    zone = match["zone"]
    if match["hour"] is None:
        zone_minutes: int | None = 0  # date-only forms are UTC
    elif zone is None:
        zone_minutes = None  # date-time without offset: local time
    elif zone in ("Z", "z"):
        zone_minutes = 0
    else:
        digits = zone[1:].replace(":", "")
        zone_minutes = int(digits[:2]) * 60 + int(digits[2:])
        if int(digits[:2]) > 23 or int(digits[2:]) > 59:
            return None
        if zone[0] == "-":
            zone_minutes = -zone_minutes
    return _from_fields(match, zone_minutes)


def _from_fields(match: re.Match[str], zone_minutes: int | None) -> int | None:
    year = int(match["year"])
    month = int(match["month"] or 1)
    day = int(match["day"] or 1)
    hour = int(match["hour"] or 0)
    minute = int(match["minute"] or 0)
    second = int(match["second"] or 0)
    millis = int((match["fraction"] or "0")[:3].ljust(3, "0"))
    if not (1 <= month <= 12 and 1 <= day <= 31 and minute <= 59 and second <= 59):
        return None
    if hour > 24 or (hour == 24 and (minute or second or millis)):
        return None
    # Day overflow rolls into the next month, as V8's MakeDay does ("02-30" is 2 March).
    days = _days_from_civil(year, month, 1) + day - 1
    ms = days * _DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millis
    if zone_minutes is None:
        ms -= _local_offset_ms(ms)
    else:
        ms -= zone_minutes * 60_000
    return _time_clip(float(ms))


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 in the proleptic Gregorian calendar, for any year."""
    year -= month <= 2
    era = (year if year >= 0 else year - 399) // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _local_offset_ms(local_ms: int) -> int:
    """Offset of local time from UTC at a local wall-clock instant (the TZ JS would use)."""
    try:
        wall = _EPOCH + timedelta(milliseconds=local_ms)
        utc_seconds = time.mktime(wall.timetuple())
    except (OverflowError, ValueError, OSError):
        return 0
    return (timegm(wall.timetuple()) - int(utc_seconds)) * 1000
