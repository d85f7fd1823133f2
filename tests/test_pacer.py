"""Background loops step aside while the user is busy, and never longer."""

from __future__ import annotations

import pytest

from pibrowser.model import Session
from pibrowser.model.pacer import NAP, Pacer, Stopped

from .conftest import FIXTURES


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_a_step_waits_only_while_the_last_change_is_recent():
    time = FakeTime()
    pacer = Pacer(quiet_for=0.25, clock=time.clock, sleep=time.sleep)
    pacer.step()
    assert time.slept == [] and not pacer.waiting  # nobody busy: at once
    pacer.busy()
    assert pacer.waiting
    time.now += 0.1
    pacer.step()
    assert 0.15 <= sum(time.slept) < 0.15 + NAP  # until 0.25 s after the change, no longer
    time.slept.clear()
    pacer.step()
    assert time.slept == []
    pacer.busy()
    time.now += 0.3  # the change is old news by the time the loop asks
    pacer.step()
    assert time.slept == []


def test_the_files_check_asks_between_lines():
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    asked = []
    assert session.validate(pace=lambda: asked.append(1)) == session.validate()
    assert len(asked) == -(-len(session.file_order) // 256)


def test_once_stopped_a_step_gives_up_even_while_the_user_is_busy_and_the_check_with_it():
    time = FakeTime()
    pacer = Pacer(quiet_for=0.25, clock=time.clock, sleep=time.sleep)
    pacer.busy()
    pacer.stop()  # the application is closing
    with pytest.raises(Stopped):
        pacer.step()
    assert time.slept == []  # at once, not after the user's pause
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    with pytest.raises(Stopped):
        session.validate(pace=pacer.step)
