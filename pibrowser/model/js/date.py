"""`new Date(value).getTime()` as pi's JavaScript computes it.

Entry timestamps order siblings in the tree and become the epoch-millisecond
`timestamp` of synthesised context messages, so the parse must agree with V8
(the engine under Node) on every string, not only on pi's own ISO output:
a hand-edited or foreign file may hold "2026-10-30 09:00:00+00:00", "Oct 30
2026" or "2026-10-30T9:00". V8 first tries the ECMAScript date-time format
and hands whatever is left to its legacy parser; `_V8DateParser` follows
those steps token by token. Anything V8 rejects is NaN, returned as None
(JSON.stringify writes NaN as null).

(Over 400 lines as one file: V8's legacy parser is one state machine whose
steps read in V8's order; split, each part would need the others' tokens.)
"""

from __future__ import annotations

import math
import re
import time
from datetime import UTC, datetime, timedelta
from itertools import islice, repeat
from operator import floordiv, sub
from typing import Any

from .value import MISSING, js_string

_MAX_TIME = 8.64e15
_DAY_MS = 86_400_000
# V8 converts a local time to UTC only this close to the representable range.
_MAX_LOCAL_TIME = _MAX_TIME + 10 * _DAY_MS

# pi's own timestamps (toISOString): the common case, parsed without the tokenizer.
_PI_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})Z", re.ASCII)


# pi's ISO form with a day that exists in every year: such strings compare as their times do.
_ALWAYS_VALID_ISO = re.compile(
    r"\d{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)"
    r"T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z",
    re.ASCII,
)


def in_time_order(stamps: list[Any]) -> bool:
    """True when these timestamps are already in order of `js_time`, none of them NaN, judged
    from the strings alone: a million siblings written by pi need not be parsed to be sorted.
    False means only that the strings do not tell (parse and sort them)."""
    valid = _ALWAYS_VALID_ISO.fullmatch
    return all(type(stamp) is str and valid(stamp) for stamp in stamps) and all(
        earlier <= later for earlier, later in zip(stamps, islice(stamps, 1, None))
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
    # An array becomes the string of its elements joined by commas; an object
    # becomes "[object Object]", which never parses.
    return _parse_string(js_string(value))


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)


def js_times(values: list[Any]) -> list[int | None]:
    """js_time of each value. pi's own timestamps are read in C: a batch of them all in its
    ISO form (each a day that exists, as datetime checks) is the proleptic Gregorian time JS
    reads; any other batch is read a value at a time."""
    try:
        if all(map(_PI_ISO.fullmatch, values)):
            instants = map(datetime.fromisoformat, values)  # ValueError for a day the month has not
            return list(map(floordiv, map(sub, instants, repeat(_EPOCH)), repeat(_ONE_MS)))
    except (TypeError, ValueError):
        pass  # a value that is not a string, or not a date that exists: V8's rules, one by one
    return list(map(js_time, values))


# toISOString of whole seconds, "YYYY-MM-DDTHH:MM:SS.", of years 1970 to 9999: the times of a
# session lie in a few hours, and a trace writes one for each of 100,000 entries.
_SECONDS: dict[int, str] = {}
_SECONDS_KEPT = 1 << 16
_YEAR_10000_MS = 253_402_300_800_000
_MILLIS = [f"{millis:03d}Z" for millis in range(1000)]


def js_iso(ms: float | None) -> str | None:
    """`new Date(ms)` as JSON.stringify writes it: its toISOString(), or None (null) for an invalid date:
    none given, not finite, or beyond ±8.64e15 ms, where toISOString throws and toJSON gives null."""
    if type(ms) is int and 0 <= ms < _YEAR_10000_MS:
        seconds, millis = divmod(ms, 1000)
        whole = _SECONDS.get(seconds)
        if whole is None:
            if len(_SECONDS) >= _SECONDS_KEPT:
                _SECONDS.clear()
            whole = _SECONDS[seconds] = _iso(seconds * 1000)[:-4]
        return whole + _MILLIS[millis]
    return _iso(ms)


def _iso(ms: float | None) -> str | None:
    try:
        ms = _time_clip(float(ms)) if ms is not None else None
    except OverflowError:  # an int beyond a double: Infinity in JS
        ms = None
    if ms is None:
        return None
    days, rest = divmod(int(ms), _DAY_MS)
    year, month, day = _civil_from_days(days)
    hours, rest = divmod(rest, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    # Years outside 0..9999 take six digits and a sign, as in JS.
    year_text = f"{year:04d}" if 0 <= year <= 9999 else f"{'+' if year > 0 else '-'}{abs(year):06d}"
    return f"{year_text}-{month:02d}-{day:02d}T{hours:02d}:{minutes:02d}:{seconds:02d}.{millis:03d}Z"


def _civil_from_days(days: int) -> tuple[int, int, int]:
    # Howard Hinnant's algorithm: days since 1970-01-01 to (year, month, day), proleptic Gregorian.
    days += 719_468
    era = days // 146_097
    day_of_era = days - era * 146_097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36_524 - day_of_era // 146_096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    return year_of_era + era * 400 + (month <= 2), month, day


def _time_clip(ms: float) -> int | None:
    if math.isnan(ms) or math.isinf(ms) or abs(ms) > _MAX_TIME:
        return None
    return int(ms)  # truncates toward zero, as ToIntegerOrInfinity does


def _parse_string(text: str) -> int | None:
    match = _PI_ISO.fullmatch(text)
    if match:
        year, month, day, hour, minute, second, millis = map(int, match.groups())
        if 1 <= month <= 12 and 1 <= day <= 31 and hour <= 23 and minute <= 59 and second <= 59:
            return _time_clip(float(_make_date(year, month, day, hour, minute, second, millis)))
    fields = _V8DateParser(text).parse()
    if fields is None:
        return None
    *date, offset = fields
    ms = _make_date(*date)
    if offset is None:
        if abs(ms) > _MAX_LOCAL_TIME:
            return None
        ms = _local_to_utc(ms)
    else:
        ms -= offset * 1000
    return _time_clip(float(ms))


def _make_date(year: int, month: int, day: int, hour: int, minute: int, second: int, millis: int) -> int:
    # Day overflow rolls into the next month, as V8's MakeDay does ("02-30" is 2 March).
    days = _days_from_civil(year, month, 1) + day - 1
    return days * _DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millis


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 in the proleptic Gregorian calendar, for any year."""
    year -= month <= 2
    era = year // 400  # Python's floor division already rounds negative years down
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _utc_offset_ms(utc_ms: int) -> int | None:
    """The local zone's offset from UTC at a UTC instant (None beyond what the OS knows)."""
    try:
        return time.localtime(utc_ms // 1000).tm_gmtoff * 1000
    except (OverflowError, ValueError, OSError):
        return None


def _local_to_utc(local_ms: int) -> int:
    """A local wall-clock time as UTC, resolving clock changes the way V8 (via ICU) does.

    A wall time that occurs twice (clocks going back) is taken at its first
    occurrence, and one that is skipped (clocks going forward) is read with
    the offset in force before the change: both are ICU's "former" choice.
    """
    before = _utc_offset_ms(local_ms - _DAY_MS)
    after = _utc_offset_ms(local_ms + _DAY_MS)
    if before is None or after is None:
        return local_ms
    valid = [offset for offset in {before, after} if _utc_offset_ms(local_ms - offset) == offset]
    if valid:
        return local_ms - max(valid)  # the larger offset is the earlier instant
    return local_ms - before


# ---- V8's date string parser ------------------------------------------------

_KEYWORDS = {
    "jan": ("month", 1),
    "feb": ("month", 2),
    "mar": ("month", 3),
    "apr": ("month", 4),
    "may": ("month", 5),
    "jun": ("month", 6),
    "jul": ("month", 7),
    "aug": ("month", 8),
    "sep": ("month", 9),
    "oct": ("month", 10),
    "nov": ("month", 11),
    "dec": ("month", 12),
    "am": ("ampm", 0),
    "pm": ("ampm", 12),
    "ut": ("zone", 0),
    "utc": ("zone", 0),
    "z": ("zone", 0),
    "gmt": ("zone", 0),
    "cdt": ("zone", -5),
    "cst": ("zone", -6),
    "edt": ("zone", -4),
    "est": ("zone", -5),
    "mdt": ("zone", -6),
    "mst": ("zone", -7),
    "pdt": ("zone", -7),
    "pst": ("zone", -8),
    "t": ("separator", 0),
}
# JS WhiteSpace ends a word even above 'A'; line terminators count as space only below it.
_SPACE = "\t\v\f \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\ufeff"
_ASCII_LINE_BREAKS = "\n\r"


class _Token:
    __slots__ = ("kind", "value", "length")

    def __init__(self, kind: str, value: Any = None, length: int = 0) -> None:
        self.kind = kind  # number, symbol, space, word, unknown, end, invalid
        self.value = value  # a number, a symbol character, or (keyword kind, value) for a word
        self.length = length

    def is_symbol(self, char: str) -> bool:
        return self.kind == "symbol" and self.value == char

    def is_sign(self) -> bool:
        return self.kind == "symbol" and self.value in "+-"

    def is_number(self, length: int | None = None) -> bool:
        return self.kind == "number" and (length is None or self.length == length)

    def keyword(self) -> str | None:
        return self.value[0] if self.kind == "word" else None

    def is_z(self) -> bool:
        return self.kind == "word" and self.value == ("zone", 0) and self.length == 1


def _tokens(text: str) -> list[_Token]:
    """V8's tokenizer: a NUL ends the input, every character from 'A' up but spaces is a word letter."""
    tokens: list[_Token] = []
    at, end = 0, text.find("\0")
    end = len(text) if end < 0 else end
    while at < end:
        char = text[at]
        if "0" <= char <= "9":
            start = at
            while at < end and "0" <= text[at] <= "9":
                at += 1
            tokens.append(_Token("number", int(text[start : min(at, start + 9)]), at - start))
        elif char in ":-+.)":
            tokens.append(_Token("symbol", char, 1))
            at += 1
        elif char >= "A" and char not in _SPACE:
            start = at
            while at < end and text[at] >= "A" and text[at] not in _SPACE:
                at += 1
            word = text[start:at]
            # Keywords are matched on their first three letters; only month names may run on.
            found = _KEYWORDS.get(word[:3].lower()) if word[:3].isascii() else None
            if found is not None and len(word) > 3 and found[0] != "month":
                found = None
            tokens.append(_Token("word", found or ("", 0), at - start))
        elif char in _SPACE or char in _ASCII_LINE_BREAKS:
            tokens.append(_Token("space", None, 1))
            at += 1
        elif char == "(":
            depth = 0
            while True:
                depth += (text[at] == "(") - (text[at] == ")")
                at += 1
                if depth <= 0 or at >= end:
                    break
            tokens.append(_Token("unknown"))
        else:
            tokens.append(_Token("unknown"))
            at += 1
    tokens.append(_Token("end"))
    return tokens


class _Day:
    def __init__(self) -> None:
        self.parts: list[int] = []
        self.named_month: int | None = None
        self.iso = False

    def add(self, value: int) -> bool:
        if len(self.parts) >= 3:
            return False
        self.parts.append(value)
        return True

    def write(self) -> tuple[int, int, int] | None:
        if not self.parts:
            return None
        # Missing parts count as 1, so a date without a year falls in 2001.
        first, second, third = (self.parts + [1, 1])[:3]
        if self.named_month is None:
            if self.iso or not 1 <= first <= 31:
                year, month, day = first, second, third
            else:
                month, day, year = first, second, third
        else:
            month = self.named_month
            if not 1 <= first <= 31:
                year, day = first, second
            else:
                day, year = first, second
        if not self.iso:
            year += 2000 if 0 <= year <= 49 else 1900 if 50 <= year <= 99 else 0
        if not (1 <= month <= 12 and 1 <= day <= 31 and -(2**31) <= year < 2**31):
            return None
        return year, month, day


class _Time:
    def __init__(self) -> None:
        self.parts: list[int] = []
        self.hour_offset: int | None = None

    def empty(self) -> bool:
        return not self.parts

    def expecting(self, value: int) -> bool:
        index = len(self.parts)
        return (index == 1 and 0 <= value <= 59) or (index == 2 and 0 <= value <= 59) or (index == 3 and 0 <= value <= 999)

    def add(self, value: int) -> bool:
        if len(self.parts) >= 4:
            return False
        self.parts.append(value)
        return True

    def add_final(self, value: int) -> bool:
        if not self.add(value):
            return False
        self.parts += [0] * (4 - len(self.parts))
        return True

    def write(self) -> tuple[int, int, int, int] | None:
        hour, minute, second, millis = (self.parts + [0, 0, 0, 0])[:4]
        if self.hour_offset is not None:
            if not 0 <= hour <= 12:
                return None
            hour = hour % 12 + self.hour_offset
        in_range = 0 <= hour <= 23 and 0 <= minute <= 59 and 0 <= second <= 59 and 0 <= millis <= 999
        if not in_range and (hour, minute, second, millis) != (24, 0, 0, 0):  # 24:00 is the day's end
            return None
        return hour, minute, second, millis


class _Zone:
    def __init__(self) -> None:
        self.sign: int | None = None
        self.hour: int | None = None
        self.minute: int | None = None

    def set(self, hours: int) -> None:
        self.sign = -1 if hours < 0 else 1
        self.hour, self.minute = abs(hours), 0

    def expecting(self, value: int) -> bool:
        return self.hour is not None and self.minute is None and 0 <= value <= 59

    def is_utc(self) -> bool:
        return self.hour == 0 and self.minute == 0

    def write(self) -> int | None | bool:
        """The offset in seconds, None for local time, False when out of range."""
        if self.sign is None:
            return None
        seconds = (self.hour or 0) * 3600 + (self.minute or 0) * 60
        if seconds > 2**31 - 1:
            return False
        return self.sign * seconds


def _milliseconds(token: _Token) -> int:
    # The first three digits of the fraction, wherever its value came from.
    number, length = token.value, min(token.length, 9)
    if length < 3:
        return number * (100 if length == 1 else 10)
    return number // 10 ** (length - 3)


class _V8DateParser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.at = 0
        self.day, self.time, self.zone = _Day(), _Time(), _Zone()

    def peek(self) -> _Token:
        return self.tokens[self.at]

    def next(self) -> _Token:
        token = self.tokens[self.at]
        if token.kind != "end":
            self.at += 1
        return token

    def skip(self, char: str) -> bool:
        if self.peek().is_symbol(char):
            self.at += 1
            return True
        return False

    def parse(self) -> tuple[int, int, int, int, int, int, int, int | None] | None:
        token = self._es5()
        if token.kind == "invalid":
            return None
        if not self._legacy(token):
            return None
        day, clock, offset = self.day.write(), self.time.write(), self.zone.write()
        if day is None or clock is None or offset is False:
            return None
        return (*day, *clock, offset)

    # The ECMAScript format, as far as the string follows it.
    def _es5(self) -> _Token:
        day, clock, zone = self.day, self.time, self.zone
        if self.peek().is_sign():
            sign = self.next()
            if not self.peek().is_number(6):
                return sign
            year = self.next().value
            if sign.value == "-" and year == 0:
                return sign
            day.add(-year if sign.value == "-" else year)
        elif self.peek().is_number(4):
            day.add(self.next().value)
        else:
            return self.next()
        if self.skip("-"):
            if not (self.peek().is_number(2) and 1 <= self.peek().value <= 12):
                return self.next()
            day.add(self.next().value)
            if self.skip("-"):
                if not (self.peek().is_number(2) and 1 <= self.peek().value <= 31):
                    return self.next()
                day.add(self.next().value)
        if self.peek().keyword() != "separator":
            if self.peek().kind != "end":
                return self.next()
        else:
            self.next()
            if not self._es5_time(clock, zone):
                return _Token("invalid")
            if self.peek().kind != "end":
                return _Token("invalid")
        if zone.hour is None and clock.empty():
            zone.set(0)  # date-only forms are UTC, date-time forms local
        day.iso = True
        return _Token("end")

    def _es5_time(self, clock: _Time, zone: _Zone) -> bool:
        if not (self.peek().is_number(2) and 0 <= self.peek().value <= 24):
            return False
        hour_24 = self.peek().value == 24
        clock.add(self.next().value)
        if not self.skip(":"):
            return False
        if not (self.peek().is_number(2) and 0 <= self.peek().value <= 59) or (hour_24 and self.peek().value > 0):
            return False
        clock.add(self.next().value)
        if self.skip(":"):
            if not (self.peek().is_number(2) and 0 <= self.peek().value <= 59) or (hour_24 and self.peek().value > 0):
                return False
            clock.add(self.next().value)
            if self.skip("."):
                if not self.peek().is_number() or (hour_24 and self.peek().value > 0):
                    return False
                clock.add(_milliseconds(self.next()))
        if self.peek().is_z():
            self.next()
            zone.set(0)
        elif self.peek().is_sign():
            zone.sign = 1 if self.next().value == "+" else -1
            return self._es5_offset(zone)
        return True

    def _es5_offset(self, zone: _Zone) -> bool:
        if self.peek().is_number(4):
            hour, minute = divmod(self.next().value, 100)
            if not (hour <= 23 and minute <= 59):
                return False
            zone.hour, zone.minute = hour, minute
            return True
        if not (self.peek().is_number(2) and self.peek().value <= 23):
            return False
        zone.hour = self.next().value
        if not self.skip(":"):
            return False
        if not (self.peek().is_number(2) and self.peek().value <= 59):
            return False
        zone.minute = self.next().value
        return True

    # The legacy parser, from the first token the ECMAScript format did not take.
    def _legacy(self, token: _Token) -> bool:
        day, clock, zone = self.day, self.time, self.zone
        has_number = bool(day.parts)
        while token.kind != "end":
            if token.kind == "number":
                has_number = True
                if not self._legacy_number(token.value):
                    return False
            elif token.kind == "word":
                kind, value = token.value
                if kind == "ampm" and not clock.empty():
                    clock.hour_offset = value
                elif kind == "month":
                    day.named_month = value
                    self.skip("-")
                elif kind == "zone" and has_number:
                    zone.set(value)
                elif has_number or self.peek().kind == "number":
                    return False  # stray words only before the first number, and apart from it
            elif token.is_sign() and (zone.is_utc() or not clock.empty()):
                has_number = True
                if not self._legacy_offset(token.value):
                    return False
            elif (token.is_sign() or token.is_symbol(")")) and has_number:
                return False
            token = self.next()
        return True

    def _legacy_number(self, value: int) -> bool:
        day, clock, zone = self.day, self.time, self.zone
        if self.skip(":"):
            if self.skip(":"):
                if not clock.empty():
                    return False
                clock.add(value)
                clock.add(0)
                return True
            if not clock.add(value):
                return False
            if self.peek().is_symbol("."):
                self.next()
            return True
        if self.peek().is_symbol(".") and clock.expecting(value):
            self.next()
            clock.add(value)
            if not self.peek().is_number():
                return False
            clock.add_final(_milliseconds(self.next()))  # V8 ignores a time already full here
            return True
        if self.skip("."):
            pass  # a '.' not ending a time is dropped, as V8 consumes it while testing
        if zone.expecting(value):
            zone.minute = value
            return True
        if clock.expecting(value):
            clock.add_final(value)
            following = self.peek()
            return following.kind in ("end", "space") or following.is_z() or following.is_sign()
        if not day.add(value):
            return False
        self.skip("-")
        return True

    def _legacy_offset(self, sign: str) -> bool:
        zone = self.zone
        zone.sign = 1 if sign == "+" else -1
        number, length = 0, 0
        if self.peek().is_number():
            token = self.next()
            number, length = token.value, token.length
        if self.peek().is_symbol(":"):
            zone.hour, zone.minute = number, None
        elif length in (1, 2):
            zone.hour, zone.minute = number, 0
        elif length in (3, 4):
            zone.hour, zone.minute = divmod(number, 100)
        else:
            return False
        return True
