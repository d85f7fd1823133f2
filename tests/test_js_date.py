"""`new Date(text).getTime()` replayed (model/js/date.py), checked against V8's own answers.

tests/v8/date_cases.json holds 1500 date strings, ISO-like and legacy, right and wrong,
with the milliseconds (or NaN, as null) V8 gives each in four time zones, and
V8's answers for values that are not strings; it was written
by tests/v8/date_cases.mjs with Node.
"""

from __future__ import annotations

import datetime
import json
import math
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pibrowser.model.js.date import js_iso, js_time, js_times
from pibrowser.model.js.value import MISSING

from .conftest import examples

CASES = json.loads((Path(__file__).parent / "v8" / "date_cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("zone", CASES["zones"])
def test_every_string_parses_as_v8_parses_it(zone, monkeypatch):
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        got = [js_time(text) for text in CASES["texts"]]
    finally:
        monkeypatch.undo()
        time.tzset()
    wrong = [(text, mine, v8) for text, mine, v8 in zip(CASES["texts"], got, CASES["answers"][zone]) if mine != v8]
    assert wrong == []


@pytest.mark.parametrize("value, answer", CASES["values"])
def test_values_that_are_not_strings(value, answer):
    assert js_time(value) == answer


def test_a_missing_timestamp_is_nan():
    assert js_time(MISSING) is None  # new Date(undefined)


def test_the_cases_hold_both_answers_and_depend_on_the_zone():
    utc = CASES["answers"]["UTC"]
    assert 0.2 < sum(answer is not None for answer in utc) / len(utc) < 0.8
    assert CASES["answers"]["UTC"] != CASES["answers"]["Asia/Kolkata"]  # local times move with the zone


def test_a_local_time_beyond_what_the_os_knows_is_read_as_utc(monkeypatch):
    # Where the C library cannot say the zone's offset, there is no V8 answer to follow.
    def unknown(seconds):
        raise OverflowError("timestamp out of range for platform time_t")

    monkeypatch.setattr(time, "localtime", unknown)
    assert js_time("2026-10-30T09:00:00") == js_time("2026-10-30T09:00:00Z") == 1793350800000


@pytest.mark.parametrize("zone", CASES["zones"])
def test_a_batch_of_strings_parses_as_v8_parses_each(zone, monkeypatch):
    # Each string alone (pi's own form read in C where it is a date that exists), and all of them
    # at once (any string of another form reads the batch one by one).
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        alone = [js_times([text])[0] for text in CASES["texts"]]
        together = js_times(CASES["texts"])
    finally:
        monkeypatch.undo()
        time.tzset()
    assert alone == together == CASES["answers"][zone]


def test_a_batch_of_pis_own_timestamps_is_read_as_each_alone():
    stamps = [js_iso(ms) for ms in range(0, 253_402_300_800_000, 7_919_999_999_999)]
    stamps += ["2024-02-29T12:00:00.000Z", "2026-12-03T23:59:59.999Z", "0001-01-01T00:00:00.000Z"]
    assert js_times(stamps) == [js_time(stamp) for stamp in stamps]
    for odd in ("2026-02-30T00:00:00.000Z", "0000-01-01T00:00:00.000Z", "2026-12-03T24:00:00.000Z", 5, MISSING, "2026-12-03"):
        assert js_times([*stamps, odd]) == [js_time(stamp) for stamp in [*stamps, odd]]


@given(
    st.integers(-8_640_000_000_000_000, 8_640_000_000_000_000) | st.sampled_from([0, 999, 1000, 253_402_300_799_999, 253_402_300_800_000])
)
@settings(max_examples=examples(3000), deadline=None)
def test_an_iso_time_is_the_date_of_its_milliseconds(ms):
    # toISOString: the proleptic Gregorian date, six digits and a sign outside years 0 to 9999.
    days, rest = divmod(ms, 86_400_000)
    date = datetime.date(1970, 1, 1) + datetime.timedelta(days=days) if -719_162 <= days <= 2_932_896 else None
    iso = js_iso(ms)
    assert js_time(iso) == ms and js_iso(float(ms)) == iso
    if date is not None:
        assert iso == f"{date.isoformat()}T{rest // 3_600_000:02d}:{rest // 60_000 % 60:02d}:{rest // 1000 % 60:02d}.{rest % 1000:03d}Z"


def test_an_iso_time_of_what_is_not_a_date_is_none():
    assert [js_iso(value) for value in (None, math.nan, math.inf, 8.64e15 + 1, 10**400)] == [None] * 5
