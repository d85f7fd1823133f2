"""`new Date(text).getTime()` replayed (model/js/date.py), checked against V8's own answers.

tests/v8/date_cases.json holds 1500 date strings, ISO-like and legacy, right and wrong,
with the milliseconds (or NaN, as null) V8 gives each in four time zones, and
V8's answers for values that are not strings; it was written
by tests/v8/date_cases.mjs with Node.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from pibrowser.model.js.date import js_time
from pibrowser.model.js.value import MISSING

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
