"""Extract Branch as New Session… and Continue in pi…, from the window, with a fake pi and terminal."""

from __future__ import annotations

import pytest
import json
import sys

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from pibrowser.model import Session, resolve
from pibrowser.model.js.stringify import dump_json
from pibrowser.ui.window.preferences_dialog import TERMINAL_SETTING

from .conftest import load
from ..changes import replaced

# The window and throwaway settings come from the ui tests' conftest.
pytestmark = pytest.mark.usefixtures("isolated_settings")


def run(qtbot, window, action):
    with qtbot.waitSignal(window.branch.finished, timeout=20_000) as blocker:
        action.trigger()
    return blocker.args[0]


def test_extract_writes_beside_the_original_and_offers_to_open_it(qtbot, window, fixture_copy):
    original = fixture_copy("generated-s4")
    before = original.read_bytes()
    session = load(qtbot, window, original)
    key = session.leaf_id
    assert window.branch.extract_action in window.tree.view.node_actions
    run(qtbot, window, window.branch.extract_action)
    written = window.branch.last_written
    assert written.parent == original.parent and written.exists()
    assert original.read_bytes() == before
    box = window.branch.message_box
    assert box.isVisible()  # opened with open(): nothing waited for an answer
    assert str(written) in box.text()
    with qtbot.waitSignal(window.controller.changed, check_params_cb=replaced, timeout=20_000):
        box.button(QMessageBox.StandardButton.Open).click()
    opened = window.controller.session
    assert opened.path == written and opened.header["parentSession"] == str(original)
    assert dump_json(resolve(opened, opened.leaf_id).to_pi()) == dump_json(resolve(Session.load(original), key).to_pi())


def test_nothing_to_extract_before_the_conversation_says_so(qtbot, window, fixture_copy):
    original = fixture_copy("generated-s1")
    load(qtbot, window, original)
    window.controller.select("2e0557bd")  # a system prompt: pi writes no file for it yet
    message = run(qtbot, window, window.branch.extract_action)
    assert message.startswith("Nothing written: the branch to 2e0557bd holds no user or assistant message")
    assert window.branch.last_written is None
    assert not list(original.parent.glob("*_*.jsonl"))


def test_continue_in_pi_starts_the_terminal_with_pi_on_the_new_file(qtbot, window, fixture_copy, tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "terminal.json"
    for name, body in (("pi", "pass"), ("xterm", f"import json, os, sys\njson.dump(sys.argv[1:], open({str(record)!r}, 'w'))")):
        (bin_dir / name).write_text(f"#!{sys.executable}\n{body}\n")
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.delenv("TERMINAL", raising=False)
    original = fixture_copy("blog-example")
    load(qtbot, window, original)
    message = run(qtbot, window, window.branch.continue_action)
    written = window.branch.last_written
    assert message == f"Started pi on {written.name} in xterm"
    qtbot.waitUntil(record.exists, timeout=20_000)
    qtbot.waitUntil(lambda: record.read_text().endswith("]"), timeout=20_000)
    assert json.loads(record.read_text()) == ["-e", str(bin_dir / "pi"), "--session", str(written)]


def test_continue_without_pi_writes_nothing_and_says_why(qtbot, window, fixture_copy, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    original = fixture_copy("blog-example")
    load(qtbot, window, original)
    before = sorted(original.parent.iterdir())
    message = run(qtbot, window, window.branch.continue_action)
    assert message == "pi is not on PATH: nothing written" and window.branch.last_written is None
    assert sorted(original.parent.iterdir()) == before  # checked before writing: nothing left behind
    assert window.branch.message_box.text() == message


def test_preferences_keep_the_terminal(qtbot, window):
    window.branch.preferences_action.trigger()
    dialog = window.branch.preferences
    assert dialog.isVisible()  # opened with open(): the trigger returned without waiting for it
    dialog.terminal_edit.setText("alacritty -e")
    dialog.accept()
    assert QSettings().value(TERMINAL_SETTING) == "alacritty -e"
    window.branch.preferences_action.trigger()
    assert window.branch.preferences.terminal_edit.text() == "alacritty -e"
    window.branch.preferences.terminal_edit.clear()
    window.branch.preferences.accept()
    assert QSettings().value(TERMINAL_SETTING) is None


def test_continue_at_the_current_leaf_whatever_is_selected(qtbot, window, fixture_copy, tmp_path, monkeypatch):
    for name in ("pi", "xterm"):  # a pi and a terminal that do nothing: the branch is what is checked
        (tmp_path / name).write_text(f"#!{sys.executable}\npass\n")
        (tmp_path / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("TERMINAL", raising=False)
    original = fixture_copy("generated-s3")
    session = load(qtbot, window, original)
    window.controller.select(session.path_to(session.leaf_id)[3])
    run(qtbot, window, window.branch.continue_leaf_action)
    copy = Session.load(window.branch.last_written)
    assert dump_json(resolve(copy, copy.leaf_id).to_pi()) == dump_json(resolve(session, session.leaf_id).to_pi())
