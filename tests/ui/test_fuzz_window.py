"""Fuzzing the window: every fixture with one field given a hostile value (tests/hostile.py,
`mutations`: every role, type, content block, tool-call field, usage and cost field, timestamp and
header field, given an object, an array, a string, null, a bool, 1e300, -1, 1e400, NaN-like
strings, year 0 / 9999 / ±8.64e15 ms, 2,000 levels of nesting, 100,000 blocks), opened in the real
window offscreen with every tab shown once, under a watchdog: no crash, no traceback (nothing
logged as an error, no exception out of a slot), the GUI thread never busy over two seconds
between two turns of its event loop.

Seeded: the same mutations every run; by default a few of each fixture's, all of them with
--slow or PIBROWSER_SLOW_TESTS=1. The command line's fuzz test is tests/test_fuzz.py.
"""

from __future__ import annotations

import logging

import pytest

from .. import conftest
from ..conftest import FIXTURES
from ..hostile import mutations
from .window_checks import HANG_S, STALL_CPU_S, Watchdog, errors_logged, show_everything

SEED = 30
PER_FIXTURE = 3  # mutations of each fixture opened in a default run
SOURCES = sorted(FIXTURES.glob("*.jsonl")) + sorted((FIXTURES / "bytes").glob("*.jsonl"))


def _cases():
    count = None if conftest.SLOW else PER_FIXTURE
    return [
        pytest.param(source, mutation, id=f"{source.stem}: {mutation}") for source in SOURCES for mutation in mutations(source, SEED, count)
    ]


@pytest.mark.parametrize("source, mutation", _cases())
def test_the_window_shows_a_file_with_one_hostile_value(qtbot, window, tmp_path, caplog, source, mutation):
    path = mutation.apply(source, tmp_path / source.name)
    caplog.set_level(logging.ERROR, logger="pibrowser")
    controller = window.controller
    with Watchdog() as watchdog:
        window.open_path(path)
        qtbot.waitUntil(lambda: not controller.is_loading(), timeout=HANG_S * 1000)
        if controller.session is None or controller.session.path != path:
            # Only a header that is no longer one may stop the file from opening, said in one line.
            assert mutation.kind == "header" and controller.failed_path == path and str(path) in (window.last_error or "")
        else:
            show_everything(qtbot, window)
    assert errors_logged(caplog) == []
    assert watchdog.worst <= STALL_CPU_S, f"the GUI thread was busy {watchdog.worst:.1f} s between two turns of its loop"
