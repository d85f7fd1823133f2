"""Times read as strftime writes them: the one form every view shows, whatever the year and the zone."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pibrowser.model.text.timefmt import format_millis

# From the second year a datetime holds to its last but one (a zone's offset stays inside), fractions and all.
FIRST, LAST = -62_104_060_800_000, 253_370_764_800_000
MILLIS = st.one_of(st.integers(FIRST, LAST), st.floats(FIRST, LAST), st.sampled_from([-0.0, 1999.9999999, 999.5, -30_610_224_000_001]))


@pytest.fixture(params=["UTC", "Asia/Kolkata", "America/St_Johns"])
def zone(request, monkeypatch):
    """The local time zone, as the reader's machine may have it."""
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield request.param
    monkeypatch.undo()
    time.tzset()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(millis=MILLIS)
def test_a_time_reads_as_strftime_writes_it(zone, millis):
    moment = datetime.fromtimestamp(millis / 1000, tz=UTC)
    assert format_millis(millis, utc=True) == moment.strftime("%Y-%m-%d %H:%M:%S UTC")
    assert format_millis(millis) == moment.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def test_a_year_before_1000_keeps_strftime_s_digits():
    assert format_millis(-30_610_224_000_001, utc=True) == "999-12-31 23:59:59 UTC"
    assert format_millis(1_793_350_800_000, utc=True) == "2026-10-30 09:00:00 UTC"


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 10**20, True, None, "1793350800000"])
def test_what_is_no_time_reads_as_nothing(value):
    assert format_millis(value) == format_millis(value, utc=True) == ""
