"""Background jobs never touch GUI-thread objects after their test, window or application is gone."""

import gc
import threading
import weakref

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, QThreadPool

from pibrowser.ui.control.controller import SessionController
from pibrowser.model.pacer import Pacer
from pibrowser.ui.control.gui_collector import GuiCollector, collect_on_gui_thread
from pibrowser.ui.control.job import Job, JobSignals, tell
from pibrowser.ui.control.loader import ValidateJob
from pibrowser.model import Session

from ..conftest import DEMO


def test_telling_a_deleted_signals_object_is_not_an_error(qapp):
    signals = JobSignals()
    received = []
    signals.failed.connect(lambda message, generation: received.append(message))
    assert tell(signals.failed, "one", 1)
    shiboken6.delete(signals)  # what the application's exit does under a job still running
    assert not tell(signals.failed, "two", 2)
    assert received == ["one"]


class GatedCheck(ValidateJob):
    def __init__(self, session: Session, gate: threading.Event) -> None:
        super().__init__(session)
        self.gate = gate

    def run(self) -> None:
        self.gate.wait(30)
        super().run()


def test_a_check_finishing_after_its_controller_is_gone_tells_nobody_else(qtbot):
    controller = SessionController()
    gate = threading.Event()
    job = GatedCheck(Session.load(DEMO), gate)
    seen = []
    job.signals.done.connect(controller._validated)
    job.signals.done.connect(lambda *args: seen.append(args[0]))
    QThreadPool.globalInstance().start(job)
    shiboken6.delete(controller)  # the receiver goes first, as when a window closes mid-check
    gate.set()
    qtbot.waitUntil(lambda: len(seen) == 1, timeout=30_000)  # delivered to who is left, no crash


def test_the_cycle_collector_runs_on_the_gui_thread_only(qapp):
    collector = collect_on_gui_thread(qapp)
    assert collect_on_gui_thread(qapp) is collector  # one per application
    assert not gc.isenabled()  # a pool thread that allocates never frees a cycle holding a Qt object

    class Holder(QObject):
        pass

    holder = Holder()
    holder.cycle = holder
    gone = weakref.ref(holder)
    del holder
    assert gone() is not None  # a cycle: only a collection frees it
    garbage = [[] for _ in range(gc.get_threshold()[0] + 1)]  # what makes the timer's next round collect
    # A window of an earlier test whose user was busy, or whose background work (a fold, answers)
    # still runs on a loaded machine, may still hold collections back: each wait has its bound.
    for _ in range(GuiCollector.MAX_DEFERRED + GuiCollector.MAX_HELD + 2):
        collector.collect()
    assert gone() is None
    del garbage


def test_the_cycle_collector_waits_while_the_user_is_busy_but_not_for_ever(qapp, monkeypatch):
    owner = QObject()
    collector = GuiCollector(owner, interval_ms=3_600_000)  # its own, driven by hand: no other window's clicks count
    now = [100.0]
    pacer = Pacer(clock=lambda: now[0])
    collector.defer_while(pacer)
    collected = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation))
    monkeypatch.setattr(gc, "get_count", lambda: (10_000, 0, 0))  # always due for a young collection
    pacer.busy()
    for _ in range(collector.MAX_DEFERRED):
        collector.collect()  # a tick while a click is being shown: skipped
    assert collected == []
    collector.collect()  # busy for too long: collected anyway
    assert collected == [0]
    now[0] += pacer.quiet_for  # the user paused
    collector.collect()
    assert collected == [0, 0]
    pacer.busy()
    del pacer  # a window that is gone holds nothing back
    collector.collect()
    assert collected == [0, 0, 0]


def test_a_loaded_session_is_frozen_out_of_collections_once_the_user_pauses(qapp, monkeypatch):
    owner = QObject()
    collector = GuiCollector(owner, interval_ms=3_600_000)  # driven by hand
    now = [100.0]
    pacer = Pacer(clock=lambda: now[0])
    collector.defer_while(pacer)
    calls = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: calls.append(("collect", generation)))
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(("freeze",)))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append(("unfreeze",)))
    monkeypatch.setattr(gc, "get_count", lambda: (0, 0, 0))  # nothing due otherwise
    collector.freeze_once_idle()
    pacer.busy()
    for _ in range(collector.MAX_DEFERRED + 1):
        collector.collect()  # busy, even past the deferrals a collection waits: never frozen on a click
    assert calls == []
    now[0] += pacer.quiet_for
    collector.collect()
    assert calls == [("unfreeze",), ("collect", 2), ("freeze",)]
    collector.collect()
    assert len(calls) == 3  # once per load
    collector.thaw_before_freeze = False  # a process that freezes its own objects keeps them frozen
    collector.freeze_once_idle()
    collector.collect()
    assert calls[3:] == [("collect", 2), ("freeze",)]


class Maker:
    """Background work that makes what lives on, while `making` says so."""

    def __init__(self) -> None:
        self.making = True


def test_collections_wait_while_background_work_makes_what_lives_on_then_freeze_it_once(qapp, monkeypatch):
    # A million-entry session's answers: each collection meanwhile walked millions of new objects, alive.
    owner = QObject()
    collector = GuiCollector(owner, interval_ms=3_600_000)  # driven by hand
    calls = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: calls.append(("collect", generation)))
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(("freeze",)))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append(("unfreeze",)))
    monkeypatch.setattr(gc, "get_count", lambda: (10_000, 0, 0))  # always due for a young collection
    maker = Maker()
    collector.hold_while(maker)
    for _ in range(collector.MAX_HELD):
        collector.collect()
    assert calls == []
    collector.collect()  # held for too long: collected anyway, what was made frozen
    assert calls == [("collect", 2), ("freeze",)]
    collector.collect()
    assert calls[2:] == []  # held again
    maker.making = False
    collector.collect()  # the work is done: what it made is collected and frozen, once (nothing thawed)
    assert calls[2:] == [("collect", 2), ("freeze",)]
    collector.collect()
    assert calls[4:] == [("collect", 0)]
    maker.making = True
    del maker  # work that is gone holds nothing back
    collector.collect()
    assert calls[5:] == [("collect", 0)]


class Quick(Job):
    def work(self) -> str:
        return "answer"


def test_a_jobs_signals_object_dies_on_the_gui_thread_after_its_answer(qtbot):
    deaths, answers = [], []
    for _ in range(20):  # a race: run it often enough for the pool thread to lose it now and then
        job = Quick()
        job.signals.done.connect(lambda result, tag: answers.append(result))
        job.signals.destroyed.connect(lambda *_: deaths.append(threading.current_thread()), Qt.ConnectionType.DirectConnection)
        QThreadPool.globalInstance().start(job)
        del job
    qtbot.waitUntil(lambda: len(deaths) == 20, timeout=30_000)
    assert answers == ["answer"] * 20
    assert set(deaths) == {threading.main_thread()}


def test_a_list_reporting_progress_after_its_sessions_controller_is_gone_raises_nothing(qtbot, tmp_path, monkeypatch):
    from pibrowser.ui.control import sessions_jobs
    from pibrowser.ui.control.sessions_controller import SessionsController

    gate, reported = threading.Event(), threading.Event()

    def gated(self):  # the list's progress comes after the controller went, as when a window closes mid-scan
        gate.wait(30)
        self.report_progress(1, 2)
        reported.set()
        return []

    monkeypatch.setattr(sessions_jobs.ListJob, "work", gated)
    pool = QThreadPool()
    controller = SessionsController(pool=pool)
    controller.populate(tmp_path)
    shiboken6.delete(controller)
    gate.set()
    qtbot.waitUntil(reported.is_set, timeout=30_000)
    pool.waitForDone(30_000)
    QCoreApplication.sendPostedEvents()  # the queued progress is delivered (or dropped) here: an exception fails the test
    QCoreApplication.processEvents()
