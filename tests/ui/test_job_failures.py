"""A background job that fails is never silent: the user sees a line saying so, and the log has the error."""

import logging

import pytest
from PySide6.QtCore import QThreadPool

from pibrowser.model import Session
from pibrowser.model.session import session as session_module
from pibrowser.ui.compare import leaf_picker
from pibrowser.ui.compare.leaf_picker import LeafPicker
from pibrowser.ui.control.job import Job

from ..conftest import BACKGROUND_MS, DEMO, FIXTURES
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


def test_a_job_given_up_as_the_application_closes_tells_nobody(qtbot, caplog):
    from pibrowser.model.pacer import Stopped

    job = Broken(Stopped())
    told = []
    job.signals.done.connect(lambda *args: told.append(("done", args)))
    job.signals.failed.connect(lambda *args: told.append(("failed", args)))
    with caplog.at_level(logging.DEBUG, logger="pibrowser"):
        job.run()  # here, not in a pool: what it emits would be delivered at once
    assert told == []
    assert not any(record.levelno >= logging.WARNING for record in caplog.records)


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
    qtbot.waitUntil(lambda: window.problems.count() == 1 and window.problems_dock.isVisible(), timeout=BACKGROUND_MS)
    assert "RuntimeError: the checker broke" in window.problems.item(0).text()
    assert window.status_label.text().endswith(", 1 warning")


def test_a_fold_that_crashes_is_a_warning_and_contexts_are_still_shown(qtbot, window, monkeypatch):
    def crash(self, session, pace=None):
        raise ZeroDivisionError("the fold broke")

    monkeypatch.setattr("pibrowser.model.workspace.Workspace.fold", crash)
    with qtbot.waitSignal(window.controller.changed, check_params_cb=lambda change: change.figures, timeout=20_000):
        session = load(qtbot, window, DEMO)
    reason = "The figures along the path could not be worked out; contexts are still shown (ZeroDivisionError: the fold broke)"
    assert [problem.reason for problem in session.problems] == [reason]
    qtbot.waitUntil(lambda: window.problems.count() == 1, timeout=BACKGROUND_MS)
    assert window.timeline.series == [] and window.controller.context(session.leaf_id).messages
    others = [leaf for leaf in session.leaves() if leaf != session.leaf_id]
    window.controller.select(others[0])  # the figures are not asked again: said once
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


def test_a_context_that_cannot_be_worked_out_says_so_instead_of_working_on(qtbot, window, monkeypatch, tmp_path):
    # A long session's answers are worked out in the pool. When that fails, the panel said "Working out
    # the context…" for good (a million-entry session's screenshot showed it).
    def crash(self, key, version):
        raise RuntimeError("the context broke")

    monkeypatch.setattr("pibrowser.model.workspace.LONG_SESSION", 1)  # every session is long: answers in the pool
    monkeypatch.setattr("pibrowser.model.workspace.Workspace.work_out", crash)
    session = load(qtbot, window, write(tmp_path / "s.jsonl", *chain(3)))
    panel = window.context_panel
    qtbot.waitUntil(lambda: window.controller.answers_failed(session.leaf_id), timeout=BACKGROUND_MS)
    qtbot.waitUntil(lambda: panel.working_out is None, timeout=BACKGROUND_MS)
    assert panel.placeholder.text() == f"The context at {session.leaf_id} could not be worked out: Warnings says why."
    assert any("RuntimeError: the context broke" in problem.reason for problem in session.problems)
