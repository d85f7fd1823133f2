"""Days, weeks and months in a time zone: where a record's time falls when usage is grouped by time.

A record's time is epoch milliseconds; its day is the calendar day in the zone the user
asks for (UTC unless told otherwise: `--tz Europe/Berlin`, `--tz local`, `--tz +05:30`).
Days are numbered from 1970-01-01 in that zone, so a day costs an integer division once
the zone's offset is known; the offset is looked up once per UTC day and per record only
on the days the zone changes its clocks. Weeks are ISO weeks (Monday first, `2026-W10`),
months `2026-03`.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo

DAY_MS = 86_400_000
_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
_OFFSET = re.compile(r"([+-])(\d{1,2})(?::?(\d{2}))?")
PERIODS = ("day", "week", "month")
# Every grouping (grouping.py), here with the periods: the command line offers them before it imports any more.
GROUPINGS = (*PERIODS, "project", "model", "session")


def zone_named(name: str | None) -> tzinfo:
    """The zone `--tz` names: UTC (also when None), `local`, an IANA name or an offset like +05:30.
    ValueError says what is wrong with any other name."""
    if name is None or name.strip().upper() in ("UTC", "Z", "GMT"):
        return UTC
    text = name.strip()
    if text.lower() == "local":
        local = datetime.now().astimezone().tzinfo
        return local if local is not None else UTC
    offset = _OFFSET.fullmatch(text)
    if offset:
        sign, hours, minutes = offset.groups()
        delta = timedelta(hours=int(hours), minutes=int(minutes or 0))
        if delta >= timedelta(hours=24):
            raise ValueError(f"--tz: {name!r} is more than a day away from UTC")
        return timezone(-delta if sign == "-" else delta)
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # (here: UTC, the default, needs no zone database)

    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"--tz: {name!r} is not a time zone (use UTC, local, an IANA name such as Europe/Berlin, or +05:30)") from None


class Calendar:
    """Days, weeks and months of epoch milliseconds in one zone."""

    def __init__(self, zone: tzinfo = UTC) -> None:
        self.zone = zone
        self._offsets: dict[int, int | None] = {}  # UTC day → the zone's offset all that day (None: it changes)
        self._days: dict[int, str] = {}
        self._weeks: dict[int, str] = {}
        self._months: dict[int, str] = {}

    def day(self, millis: int) -> int:
        """The day `millis` falls on in the zone, numbered from 1970-01-01."""
        utc_day = millis // DAY_MS
        offset = self._offsets.get(utc_day, -1)
        if offset == -1:
            offset = self._offsets[utc_day] = self._day_offset(utc_day)
        if offset is None:
            offset = self._offset_at(millis)
        return (millis + offset) // DAY_MS

    def _day_offset(self, utc_day: int) -> int | None:
        first, last = self._offset_at(utc_day * DAY_MS), self._offset_at((utc_day + 1) * DAY_MS - 1)
        return first if first == last else None

    def _offset_at(self, millis: int) -> int:
        moment = datetime.fromtimestamp(millis / 1000, UTC)
        offset = moment.astimezone(self.zone).utcoffset()
        return int(offset.total_seconds() * 1000) if offset is not None else 0

    def day_key(self, day: int) -> str:
        key = self._days.get(day)
        if key is None:
            key = self._days[day] = date.fromordinal(day + _EPOCH_ORDINAL).isoformat()
        return key

    def week_key(self, day: int) -> str:
        key = self._weeks.get(day)
        if key is None:
            year, week, _ = date.fromordinal(day + _EPOCH_ORDINAL).isocalendar()
            key = self._weeks[day] = f"{year}-W{week:02d}"
        return key

    def month_key(self, day: int) -> str:
        key = self._months.get(day)
        if key is None:
            when = date.fromordinal(day + _EPOCH_ORDINAL)
            key = self._months[day] = f"{when.year:04d}-{when.month:02d}"
        return key

    def period_key(self, period: str, day: int) -> str:
        """The day's day, week or month."""
        if period == "day":
            return self.day_key(day)
        if period == "week":
            return self.week_key(day)
        return self.month_key(day)

    def start_of(self, text: str) -> int | None:
        """Epoch ms of a bare date's midnight in the zone (`2026-03-02`); None for any other text."""
        try:
            when = date.fromisoformat(text.strip()) if len(text.strip()) == 10 else None
        except ValueError:
            return None
        if when is None:
            return None
        local = datetime(when.year, when.month, when.day, tzinfo=self.zone)
        return int(local.timestamp() * 1000)
