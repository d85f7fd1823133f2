import gc
import os
import sys
import shutil
from pathlib import Path

import pytest
from .changes import replaced
from .home import isolate_home

# Headless by default: the GUI tests drive real widgets on the offscreen platform.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


# Nothing the suite does touches the user's files (home.py).
isolate_home("pibrowser-test-home-")

# Property tests run a fifth of their examples by default, all of them with --slow (or PIBROWSER_SLOW_TESTS=1).
SLOW = os.environ.get("PIBROWSER_SLOW_TESTS") == "1"


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", help="run every property test with all its examples")


def pytest_configure(config):
    global SLOW
    SLOW = SLOW or config.getoption("--slow")
    if not hasattr(config, "workerinput"):  # once, before any worker starts
        compile_once()


def compile_once() -> None:
    """pibrowser's bytecode written before the run: where PYTHONDONTWRITEBYTECODE is set (some CI
    images set it), every `python -m pibrowser` a test starts compiled the whole window's code again,
    over a second each. compileall writes whatever the variable says, and only what changed."""
    import compileall

    if not compileall.compile_dir(REPO / "pibrowser", quiet=1, workers=1):
        raise pytest.UsageError("pibrowser/ does not compile")


def examples(count: int) -> int:
    """How many examples a property test written for `count` runs now (read when its module is collected)."""
    return count if SLOW else max(20, count // 5)


# How long a GUI test waits for work off the GUI thread (a load, the fold, the check of every line,
# the trace facts, the leaf picker's sizes): that work steps aside whenever the user (here, the
# test) has just changed something, so it can take many times its own length on a loaded machine.
BACKGROUND_MS = 20_000

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
DEMO = REPO / "pibrowser" / "assets" / "demo-session.jsonl"


def fixture_names() -> list[str]:
    return sorted(path.stem for path in FIXTURES.glob("*.jsonl"))


def session_file(name: str) -> Path:
    """A fixture by name (tests/fixtures), or the demo session as "demo-session"; a missing one fails
    the test that asked, naming it."""
    path = DEMO if name == "demo-session" else FIXTURES / f"{name}.jsonl"
    if not path.is_file():
        pytest.fail(f"test input missing: {path} (tests/fixtures/README.md says where the fixtures come from)")
    return path


def open_session(qtbot, controller, path, timeout: int = 30_000):
    """Open through the controller (loading is asynchronous) and return the loaded session."""
    with qtbot.waitSignal(controller.changed, check_params_cb=replaced, timeout=timeout):
        controller.open(path)
    return controller.session


def shown(qtbot, widget, width: int, height: int):
    """A widget on screen at this size, closed with the test."""
    qtbot.addWidget(widget)
    widget.resize(width, height)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


@pytest.fixture
def fixture_copy(tmp_path):
    """Copy a fixture (or the demo session) into tmp_path, so tests that write never touch the original."""

    def make(name: str) -> Path:
        target = tmp_path / f"{name}.jsonl"
        shutil.copyfile(session_file(name), target)
        return target

    return make


@pytest.fixture(scope="session")
def pi_written_sessions(tmp_path_factory) -> list[Path]:
    """Sessions pi's own SessionManager writes with random operations (tests/pi/pi_generate.mjs,
    seeded: PIBROWSER_PI_SEED sets another seed, PIBROWSER_PI_SESSIONS how many), once per worker for
    every check against pi."""
    import subprocess

    from .pi.locate import node_binary, pi_package

    node = node_binary()
    pi_dir = pi_package() if node else None
    assert node is not None and pi_dir is not None, "asked for by a check against pi that should have been skipped without pi"
    out = tmp_path_factory.mktemp("pi-sessions")
    count = os.environ.get("PIBROWSER_PI_SESSIONS", "40")
    script = Path(__file__).parent / "pi" / "pi_generate.mjs"
    seed = os.environ.get("PIBROWSER_PI_SEED", "20261203")
    result = subprocess.run([node, str(script), str(pi_dir), str(out), seed, count], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    files = [Path(line) for line in result.stdout.splitlines()]
    assert len(files) == int(count)
    return files


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory, monkeypatch):
    """Each test its own HOME and XDG folders (inside the run's throwaway one): nothing one test leaves
    in settings, caches or the demo's copy reaches the next."""
    home = tmp_path_factory.mktemp("home")
    for name, folder in (
        ("HOME", home),
        ("XDG_CONFIG_HOME", home / ".config"),
        ("XDG_CACHE_HOME", home / ".cache"),
        ("XDG_DATA_HOME", home / ".local" / "share"),
        ("XDG_STATE_HOME", home / ".local" / "state"),
        ("PI_CODING_AGENT_DIR", home / ".pi" / "agent"),
    ):
        monkeypatch.setenv(name, str(folder))
    if "PySide6.QtCore" in sys.modules:
        from PySide6.QtCore import QSettings

        # Qt reads the config folder once per process; point its settings at this test's.
        for kind in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(kind, QSettings.Scope.UserScope, str(home / ".config"))
    return home


@pytest.fixture(autouse=True)
def no_job_outlives_its_test(request):
    """After a test that used Qt: its jobs finished, its deleteLater done, its cycles freed here.

    The cycle collector runs on the GUI thread only (as in the app): a window or controller freed
    by it on a loader's thread would be deleted there and corrupt the heap of a later test. A test
    without Qt starts no job, so the automatic collector is safe (and cheaper) for it.
    """
    uses_qt = "qapp" in request.fixturenames
    if uses_qt:
        _collect_on_gui_thread(request.getfixturevalue("qapp"))  # before the test's first object
    elif _qt_application() is not None:
        gc.enable()
    yield
    app = _qt_application()
    if app is not None:
        _settle_qt(app, uses_qt)
    gc.collect()
    # What outlives a test (the sessions and layouts modules cache, Qt's wrappers) would be walked by
    # every later collection: at some 800k objects a full collection takes 0.4 s, and seconds in a
    # worker that has run half the suite. Frozen, each collection walks only the next test's objects.
    gc.freeze()


def _settle_qt(app, uses_qt: bool) -> None:
    from PySide6.QtCore import QCoreApplication, QEvent, QThreadPool

    gc.disable()
    _collect_on_gui_thread(app)
    if not uses_qt:
        return
    assert QThreadPool.globalInstance().waitForDone(60_000), "a background job was still running a minute after its test"
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QCoreApplication.processEvents()


def _qt_application():
    if "PySide6.QtCore" not in sys.modules:
        return None  # no test has used Qt yet: nothing to settle
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.instance()


def _collect_on_gui_thread(app) -> None:
    from pibrowser.ui.control.gui_collector import collect_on_gui_thread

    # The suite freezes what outlives each test (no_job_outlives_its_test); the window's thaw after a
    # load would make each load's collection walk every earlier test's objects again.
    collect_on_gui_thread(app).thaw_before_freeze = False
