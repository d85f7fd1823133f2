"""A background job that fails is never silent: the user sees a line saying so, and the log has the error."""

import logging

import pytest
from PySide6.QtCore import QThreadPool

from pibrowser.model import Session
from pibrowser.model.session import session as session_module
from pibrowser.ui.compare import leaf_picker
from pibrowser.ui.compare.leaf_picker import LeafPicker
from pibrowser.ui.control.job import Job
from pibrowser.ui.timeline import walk as walk_module

from ..conftest import DEMO, FIXTURES, open_session
from ..sessions import chain, write
from .conftest import load

pytestmark = pytest.mark.usefixtures("isolated_settings")


class Broken(Job):
    failure_text = "The broken job stopped"
    expected = (FileNotFoundError,)

    def __init__(self, error: Exception) -> None:
        super().__init__("tag")
        self.error = error

    def work(self):
        raise self.error


def run_failing(qtbot, caplog, error: Exception) -> list:
    """Run a job that raises `error`; what its `failed` signal said."""
    job = Broken(error)
    with caplog.at_level(logging.DEBUG, logger="pibrowser"):
        with qtbot.waitSignal(job.signals.failed, timeout=10_000) as blocker:
            QThreadPool.globalInstance().start(job)
    return blocker.args


def test_a_job_reports_a_bug_of_ours_with_its_type_and_logs_the_traceback(qtbot, caplog):
    assert run_failing(qtbot, caplog, KeyError("x")) == ["The broken job stopped (KeyError: 'x')", "tag"]
    record = next(record for record in caplog.records if record.name == "pibrowser.ui.control.job")
    assert record.levelno == logging.ERROR and record.exc_info is not None


def test_a_job_reports_an_expected_error_in_its_own_words(qtbot, caplog):
    assert run_failing(qtbot, caplog, FileNotFoundError("/x/y: no such file")) == ["/x/y: no such file", "tag"]
    assert any(record.levelno == logging.INFO and "no such file" in record.getMessage() for record in caplog.records)


def test_a_check_that_crashes_is_a_warning_not_no_problems(qtbot, window, monkeypatch, tmp_path):
    def crash(self, progress=None, pace=None):
        raise RuntimeError("the checker broke")

    monkeypatch.setattr(session_module.Session, "validate", crash)
    path = write(tmp_path / "s.jsonl", *chain(3))
    session = load(qtbot, window, path)
    qtbot.waitUntil(lambda: bool(session.problems), timeout=10_000)
    assert [str(problem) for problem in session.problems] == [
        f"{path}: The check of every line stopped; problems after it are not listed (RuntimeError: the checker broke)"
    ]
    qtbot.waitUntil(lambda: window.problems.count() == 1 and window.problems_dock.isVisible())
    assert "RuntimeError: the checker broke" in window.problems.item(0).text()
    assert window.status_label.text().endswith(", 1 warning")


def test_work_ahead_that_crashes_is_a_warning(qtbot, controller, monkeypatch):
    monkeypatch.setattr("pibrowser.ui.control.controller.AHEAD_AFTER_IDLE_MS", 10)

    def crash(self, session, pace=None):
        raise ValueError("no way ahead")

    monkeypatch.setattr("pibrowser.model.workspace.Workspace.warm", crash)
    with qtbot.waitSignal(controller.workedAhead, timeout=20_000):
        session = open_session(qtbot, controller, FIXTURES / "generated-s2.jsonl")
    assert [problem.reason for problem in session.problems] == [
        "Working ahead stopped; answers are worked out when asked for (ValueError: no way ahead)"
    ]


def test_a_timeline_walk_that_crashes_is_a_warning_and_leaves_the_strip_empty(qtbot, window, monkeypatch):
    def crash(session, timeline, leaf, stop=None):
        raise ZeroDivisionError("the walk broke")

    monkeypatch.setattr(walk_module, "build_series", crash)
    session = load(qtbot, window, DEMO)
    reason = "The context over time could not be worked out (ZeroDivisionError: the walk broke)"
    qtbot.waitUntil(lambda: any(problem.reason == reason for problem in session.problems), timeout=20_000)
    assert not window.timeline.busy and window.timeline.series == []
    others = [leaf for leaf in session.leaves() if leaf != session.leaf_id]
    window.controller.select(others[0])  # it fails again: said once
    qtbot.waitUntil(lambda: not window.timeline.busy, timeout=20_000)
    assert [problem.reason for problem in session.problems].count(reason) == 1


def test_a_leaf_picker_whose_sizes_fail_says_so(qtbot, monkeypatch):
    def crash(session, rows, resolve_context=None):
        raise KeyError("gone")
        yield

    monkeypatch.setattr(leaf_picker, "fill_sizes", crash)
    session = Session.load(FIXTURES / "generated-s2.jsonl")
    picker = LeafPicker(session, session.leaf_id)
    qtbot.addWidget(picker)
    picker.open()
    qtbot.waitUntil(lambda: "Sizes could not be worked out (KeyError: 'gone')" in picker.status.text(), timeout=10_000)
    assert "sizing contexts" not in picker.status.text()
