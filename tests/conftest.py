import os
import shutil
import tempfile
from pathlib import Path

import pytest

# Headless by default: the GUI tests drive real widgets on the offscreen platform.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The session list cache and the search index live in the user's cache folder: never the real one in tests
# (commands run as subprocesses inherit this too).
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="pibrowser-test-cache-")
# The app's own files (the demo's copy) go to a throwaway folder, never the user's.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="pibrowser-test-data-")

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO.parent / "shared" / "fixtures"
DEMO = REPO / "resources" / "demo-session.jsonl"


def fixture_names() -> list[str]:
    return sorted(path.stem for path in FIXTURES.glob("*.jsonl"))


def open_session(qtbot, controller, path, timeout: int = 30_000):
    """Open through the controller (loading is asynchronous) and return the loaded session."""
    with qtbot.waitSignal(controller.sessionChanged, timeout=timeout) as blocker:
        controller.open(path)
    return blocker.args[0]


@pytest.fixture
def fixture_copy(tmp_path):
    """Copy a shared fixture into tmp_path, so tests that write never touch the original."""

    def make(name: str) -> Path:
        target = tmp_path / f"{name}.jsonl"
        shutil.copyfile(FIXTURES / f"{name}.jsonl", target)
        return target

    return make
