"""Label edits: written as pi writes them, announced with what pi appended first, waiting for pi, failing loudly, undone."""

import orjson
import pytest
from PySide6.QtWidgets import QWidget

from pibrowser.model import Session, SessionLoadError
from pibrowser.model.writing import label_writer
from pibrowser.model.writing.label_writer import Patience
from pibrowser.ui.labels.label_editor import LabelEditor

from ..changes import appended
from ..conftest import BACKGROUND_MS, open_session
from ..sessions import append, chain, message, write


@pytest.fixture
def editor(qtbot, controller):
    window = QWidget()  # the editor's actions and dialog belong to a window; kept while the test runs
    qtbot.addWidget(window)
    yield LabelEditor(controller, window)


def test_a_label_appends_and_links_the_new_line(qtbot, controller, editor, fixture_copy):
    path = fixture_copy("blog-example")
    before = path.read_bytes()
    session = open_session(qtbot, controller, path, timeout=20_000)
    controller.select("e5")
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000) as blocker:
        new_id = editor.write("e5", "nice")
    assert blocker.args[0].appended == (new_id,)
    assert controller.session is session and session.labels["e5"] == "nice" and session.leaf_id == new_id
    assert path.read_bytes().startswith(before)
    assert controller.selected == "e5"
    assert Session.load(path).labels == session.labels


def test_a_label_catches_up_with_what_pi_appended_first(qtbot, controller, editor, tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    session = open_session(qtbot, controller, path, timeout=20_000)
    controller.follow_changes = False  # pi's append is not seen before the label is written
    append(path, message("m3", "m2", "user", "pi wrote this", second=9))
    new_id = editor.write("m0", "first")
    written = orjson.loads(path.read_bytes().splitlines()[-1])
    assert written["id"] == new_id and written["parentId"] == "m3"
    assert session.leaf_id == new_id and session.labels == {"m0": "first"}


def test_a_label_waits_for_the_line_pi_is_writing_without_blocking(qtbot, controller, editor, tmp_path):
    pi_line = orjson.dumps(message("pi1", "m2", "user", "hello", second=9))
    path = write(tmp_path / "s.jsonl", *chain(3), pi_line[:-7], newline_at_end=False)
    before = path.read_bytes()
    session = open_session(qtbot, controller, path, timeout=20_000)
    waits, written = [], []
    editor.waiting.connect(waits.append)
    editor.written.connect(written.append)
    assert editor.write("m1", "after pi") is None  # returns at once: the window stays live
    assert waits and "pi" in waits[0] and path.read_bytes() == before
    with qtbot.waitSignal(editor.written, timeout=10_000):
        with open(path, "ab") as handle:
            handle.write(pi_line[-7:] + b"\n")
    label = orjson.loads(path.read_bytes().splitlines()[-1])
    assert path.read_bytes().startswith(before + pi_line[-7:] + b"\n")
    assert label["id"] == written[0] and label["parentId"] == "pi1"
    qtbot.waitUntil(lambda: session.labels == {"m1": "after pi"} and "pi1" in session.entries, timeout=BACKGROUND_MS)
    assert Session.load(path, lazy=False).problems == []


def test_a_label_set_while_pi_writes_is_undoable_once_it_is_in_the_file(qtbot, controller, editor, tmp_path):
    pi_line = orjson.dumps(message("pi1", "m2", "user", "hello", second=9))
    path = write(tmp_path / "s.jsonl", *chain(3), pi_line[:-7], newline_at_end=False)
    open_session(qtbot, controller, path, timeout=20_000)
    editor.set("m1", "later")
    assert not editor.undo_action.isEnabled()  # nothing is in the file yet
    with qtbot.waitSignal(editor.written, timeout=10_000):
        with open(path, "ab") as handle:
            handle.write(pi_line[-7:] + b"\n")
    assert editor.undo_action.isEnabled() and "later" in editor.undo_action.text()
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000):
        editor.undo_action.trigger()
    assert "m1" not in Session.load(path).labels


def test_a_label_reports_a_file_renamed_over_and_writes_nothing(qtbot, controller, editor, tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    open_session(qtbot, controller, path, timeout=20_000)
    controller.follow_changes = False
    other = write(tmp_path / "other.jsonl", *chain(4))
    replaced = other.read_bytes()
    other.replace(path)
    with pytest.raises(SessionLoadError, match="replaced"):
        editor.write("m1", "x")
    assert path.read_bytes() == replaced
    failures = []
    editor.failed.connect(failures.append)
    editor.set("m1", "x")  # the user's edit: the failure is reported, not raised
    assert len(failures) == 1 and "replaced" in failures[0] and not editor.undo_action.isEnabled()
    assert path.read_bytes() == replaced


def test_a_label_announces_pi_s_entries_read_before_it(qtbot, controller, editor, tmp_path, monkeypatch):
    """pi appends, and before the watcher fires the user sets a label: one announcement names both."""
    path = write(tmp_path / "s.jsonl", *chain(3))
    open_session(qtbot, controller, path, timeout=20_000)
    changes = []
    controller.changed.connect(changes.append)
    reads = []  # the watcher's reads of the file
    follow = controller.workspace.follow
    monkeypatch.setattr(controller.workspace, "follow", lambda *args: reads.append(args) or follow(*args))
    with open(path, "ab") as handle:
        handle.write(orjson.dumps(message("m3", "m2", "user", "pi wrote this", second=9)) + b"\n")
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000) as blocker:
        new_id = editor.write("m0", "first")
    assert blocker.args[0].appended == ("m3", new_id)
    assert [change.appended for change in changes] == [("m3", new_id)]
    # The watcher fires later: its read, and the one once the burst has settled, find nothing new.
    qtbot.waitUntil(lambda: bool(reads) and not controller._read_queued and not controller._follow_timer.isActive(), timeout=10_000)
    assert [change.appended for change in changes if change.appended] == [("m3", new_id)]


def test_a_failed_label_still_announces_what_pi_appended(qtbot, controller, editor, tmp_path, monkeypatch):
    path = write(tmp_path / "s.jsonl", *chain(3))
    open_session(qtbot, controller, path, timeout=20_000)
    with open(path, "ab") as handle:
        handle.write(orjson.dumps(message("m3", "m2", "user", second=9)) + b"\n")
    before = path.read_bytes()

    def disk_full(fd, path, line):
        raise SessionLoadError(path, "label not written: the disk is full")

    monkeypatch.setattr(label_writer, "_write_whole", disk_full)  # fails after pi's line was read
    with qtbot.waitSignal(controller.changed, check_params_cb=appended, timeout=10000) as blocker:
        with pytest.raises(SessionLoadError, match="disk is full"):
            editor.write("m0", "x")
    assert blocker.args[0].appended == ("m3",) and controller.selected == "m3"
    assert path.read_bytes() == before


def test_a_label_pi_keeps_from_the_file_fails_after_the_wait(qtbot, controller, editor, tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3), b'{"type":"message","id":"pi1"', newline_at_end=False)
    open_session(qtbot, controller, path, timeout=20_000)
    # pi's line changes within the wait (the append below comes at once, however loaded the machine), so
    # the label is refused when the wait ends.
    editor.patience = Patience(seconds=3)
    before = path.read_bytes()
    assert editor.write("m1", "x") is None
    with open(path, "ab") as handle:  # pi still writing, slowly, when the wait ends
        handle.write(b',"parentId":"m2"')
    with qtbot.waitSignal(editor.failed, timeout=30_000) as blocker:
        pass
    assert "still writing" in blocker.args[0]
    assert path.read_bytes() == before + b',"parentId":"m2"'
