"""The main window as a user meets it: opening, warnings, labels, compare, screenshots."""

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QRect, Qt, QTimer, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox, QTabBar, QToolButton

from pibrowser.ui.common.safe_text import safe_tip
from pibrowser.model import Session
from pibrowser.model.writing.label_writer import Patience
from pibrowser.ui.window.main_window import MainWindow
from pibrowser.ui.window.app import window_size
from pibrowser.model.session.tree_filter import FilterMode

from ..conftest import BACKGROUND_MS, DEMO, FIXTURES, session_file
from ..hostile import LOADABLE, REFUSED, capped_memory, make, refuse_to_read, special_file
from ..sessions import chain, message, write
from .conftest import load, window_of
from ..changes import appended, compared, replaced


pytestmark = pytest.mark.usefixtures("isolated_settings")


def test_opening_a_fixture_shows_name_counts_and_selects_the_leaf(qtbot, window):
    session = load(qtbot, window, FIXTURES / "blog-example.jsonl")
    assert window.windowTitle() == "配置排查 — blog-example.jsonl — pibrowser"
    assert "13 entries" in window.status_label.text()
    assert window.controller.selected == session.leaf_id == "e13"
    assert window.problems_dock.isHidden()


def test_demo_session_opens_and_has_every_feature(qtbot, window):
    session = load(qtbot, window, DEMO)
    kinds = {entry.type for entry in session.entries.values()}
    assert {
        "compaction",
        "branch_summary",
        "context_edit",
        "label",
        "model_change",
        "thinking_level_change",
        "custom_message",
        "session_info",
    } <= kinds
    assert sum(1 for e in session.entries.values() if e.type == "compaction") >= 2
    assert len(session.leaves()) >= 3 and session.labels and session.header.get("parentSession")
    assert session.problems == []


@pytest.mark.parametrize("name", sorted(LOADABLE - {"huge_line"}))
def test_broken_files_load_and_list_their_problems(qtbot, window, tmp_path, name):
    path = make(tmp_path, name)
    before = path.read_bytes()
    session = load(qtbot, window, path)
    # The background check is done once work ahead is due (it is scheduled after the check).
    qtbot.waitUntil(lambda: window.controller.working_ahead, timeout=20_000)
    listed = [window.problems.item(i).text() for i in range(window.problems.count())]
    # The reason in sight: line and reason, the open file's path only in the tip.
    assert listed == [f"line {p.line}: {p.reason}" if p.line is not None else p.reason for p in window.controller.session.problems]
    assert [window.problems.item(i).toolTip() for i in range(window.problems.count())] == [
        safe_tip(str(p)) for p in window.controller.session.problems
    ]
    if session.problems:
        assert window.problems_dock.isVisible()
    assert path.read_bytes() == before


def test_a_50_mb_message_loads_and_shows(qtbot, window, tmp_path):
    path = make(tmp_path, "huge_line")
    load(qtbot, window, path)
    window.controller.select("big")
    assert window.controller.selected == "big"
    assert len(window.controller.context("big").messages) == 3
    listing = window.context_panel.list
    assert len(listing.rows) == 3
    assert listing.card(len(listing.rows) - 1).source_id == "big"


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_unloadable_files_give_one_clear_message(qtbot, window, tmp_path, name):
    path = make(tmp_path, name)
    with qtbot.waitSignal(window.controller.loadFailed, timeout=10000) as blocker:
        window.controller.open(path)
    assert blocker.args[0].startswith(str(path))
    assert window.status_label.text() == blocker.args[0]
    reason = blocker.args[0][len(f"{path}: ") :]
    assert window.problems.item(0).text() == f"{reason} — {path}"


def test_an_unreadable_file_gives_one_clear_message(qtbot, window, tmp_path, monkeypatch):
    path = write(tmp_path / "locked.jsonl", *chain(2))
    refuse_to_read(monkeypatch, path)
    with qtbot.waitSignal(window.controller.loadFailed, timeout=10000) as blocker:
        window.controller.open(path)
    assert blocker.args[0] == f"{path}: cannot be read: permission denied"
    assert window.status_label.text() == blocker.args[0]


def test_dropping_a_file_opens_it(qtbot, window):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(FIXTURES / "generated-s1.jsonl"))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.controller.changed, check_params_cb=replaced, timeout=10000):
        window.dropEvent(event)
    assert window.controller.session.path == FIXTURES / "generated-s1.jsonl"


def test_recent_files_remember_what_was_opened(qtbot, window):
    load(qtbot, window, FIXTURES / "generated-s1.jsonl")
    load(qtbot, window, FIXTURES / "generated-s2.jsonl")
    names = [action.text() for action in window.recent_menu.actions()]
    assert names[:2] == [str(FIXTURES / "generated-s2.jsonl"), str(FIXTURES / "generated-s1.jsonl")]
    with qtbot.waitSignal(window.controller.changed, check_params_cb=replaced, timeout=10000):
        window.recent_menu.actions()[1].trigger()
    assert window.controller.session.path == FIXTURES / "generated-s1.jsonl"


def test_label_shortcut_writes_a_label_as_pi_does(qtbot, window, fixture_copy, monkeypatch):
    path = fixture_copy("blog-example")
    before = path.read_bytes()
    load(qtbot, window, path)
    window.controller.select("e5")
    window.label_action.trigger()
    dialog = window.labels.dialog
    assert dialog.isVisible() and dialog.edit.text() == "" and not dialog.clear_button.isEnabled()
    qtbot.keyClicks(dialog.edit, "  reviewed  ")
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10000):
        qtbot.mouseClick(dialog.set_button, Qt.MouseButton.LeftButton)
    session = Session.load(path)
    assert session.labels["e5"] == "reviewed" == window.controller.session.labels["e5"]
    assert path.read_bytes().startswith(before)
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10000):
        window.clear_label_action.trigger()
    assert "e5" not in Session.load(path).labels


def test_label_dialog_offers_the_sessions_labels_and_clears_with_a_click(qtbot, window, fixture_copy):
    path = fixture_copy("generated-s3")
    session = load(qtbot, window, path)
    labeled, label = next(iter(session.labels.items()))
    other = next(key for key in session.entries if key not in session.labels and session.entries[key].type == "message")
    window.controller.select(other)
    window.label_action.trigger()
    dialog = window.labels.dialog
    completer = dialog.edit.completer()
    completer.setCompletionPrefix(label[1:4])  # a middle part of the label finds it
    offered = [completer.completionModel().index(i, 0).data() for i in range(completer.completionCount())]
    assert label in offered
    dialog.reject()
    assert other not in Session.load(path).labels
    # On a labeled entry the dialog starts from its label, and "Clear Label" removes it.
    window.controller.select(labeled)
    window.label_action.trigger()
    dialog = window.labels.dialog
    assert dialog.edit.text() == label and dialog.clear_button.isEnabled()
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10000):
        qtbot.mouseClick(dialog.clear_button, Qt.MouseButton.LeftButton)
    assert labeled not in Session.load(path).labels and labeled not in window.controller.session.labels


def test_a_label_waiting_for_pi_says_so_in_the_status_bar(qtbot, window, tmp_path):
    pi_line = orjson.dumps(message("pi1", "m2", "user", "hello", second=9))
    path = write(tmp_path / "s.jsonl", *chain(3), pi_line[:-7], newline_at_end=False)
    load(qtbot, window, path)
    window.controller.select("m1")
    window.labels.set("m1", "while pi writes")
    assert "Waiting for pi to finish writing" in window.status_label.text()
    with qtbot.waitSignal(window.labels.written, timeout=10_000):
        with open(path, "ab") as handle:
            handle.write(pi_line[-7:] + b"\n")
    qtbot.waitUntil(lambda: "entries" in window.status_label.text(), timeout=5000)
    assert Session.load(path, lazy=False).labels == {"m1": "while pi writes"}


def test_a_label_pi_keeps_from_the_file_is_reported(qtbot, window, tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3), b'{"type":"message","id":"pi1"', newline_at_end=False)
    load(qtbot, window, path)
    # pi's line changes within the wait (the append below comes at once, however loaded the machine), so
    # the label is refused when the wait ends.
    window.labels.patience = Patience(seconds=3)
    window.labels.set("m1", "x")
    with open(path, "ab") as handle:  # pi still writing, slowly, when the wait ends
        handle.write(b',"parentId":"m2"')
    with qtbot.waitSignal(window.labels.failed, timeout=30_000):
        pass
    assert "still writing" in window.status_label.text() and window.warning is not None
    window.warning.accept()


def test_a_label_waiting_for_pi_is_shown_and_can_be_cancelled(qtbot, window, tmp_path):
    rest = b',"parentId":"m2","timestamp":"2026-10-30T09:00:09.000Z","message":{"role":"user","content":"hi","timestamp":1}}\n'
    path = write(tmp_path / "s.jsonl", *chain(3), b'{"type":"message","id":"pi1"', newline_at_end=False)
    before = path.read_bytes()
    load(qtbot, window, path)
    window.labels.patience = Patience(seconds=600)  # pi is slow: the label would wait long
    window.labels.set("m1", "x")
    assert window.label_cancel.isVisible() and "Waiting for pi" in window.status_label.text()
    qtbot.mouseClick(window.label_cancel, Qt.MouseButton.LeftButton)
    assert not window.label_cancel.isVisible() and "cancelled" in window.status_label.text()
    assert window.warning is None  # the user's own choice: no box
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10_000) as blocker:
        with open(path, "ab") as handle:  # pi finishes its line: it is followed, and no label comes after it
            handle.write(rest)
    assert blocker.args[0].appended == ("pi1",)
    assert path.read_bytes() == before + rest and window.controller.session.labels == {}
    assert not window.labels.undo_stack.canUndo()


def test_compare_with_picks_another_leaf(qtbot, window):
    session = load(qtbot, window, FIXTURES / "generated-s2.jsonl")
    leaves = session.leaves()
    window.controller.select(leaves[0])
    window.compare_action.trigger()
    picker = window.leaf_picker
    qtbot.waitUntil(lambda: picker.proxy.rowCount() == len(leaves), timeout=BACKGROUND_MS)
    qtbot.keyClicks(picker.filter_edit, leaves[3])
    qtbot.waitUntil(lambda: picker.proxy.rowCount() == 1)
    sizes = [dock.width() for dock in (window.context_dock, window.compare_dock)]
    with qtbot.waitSignal(window.controller.changed, check_params_cb=compared, timeout=5000):
        qtbot.keyClick(picker.filter_edit, Qt.Key.Key_Return)
    assert window.controller.compared == (leaves[0], leaves[3])
    assert window.compare_dock.isVisible()
    # Opening compare resizes no dock.
    assert window.compare_dock.width() == sizes[0]


def test_screenshot_command_renders_a_png(tmp_path):
    out = tmp_path / "shot.png"
    # The user's settings as a run of theirs left them: a screenshot's run keeps out of them.
    settings = Path(os.environ["XDG_CONFIG_HOME"]) / "pibrowser" / "pibrowser.conf"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_bytes(b"[General]\nrecentFiles=/nowhere/theirs.jsonl\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pibrowser",
            str(FIXTURES / "generated-s3.jsonl"),
            "--screenshot",
            str(out),
            "--select",
            Session.load(FIXTURES / "generated-s3.jsonl").leaves()[0],
        ],
        capture_output=True,
        timeout=120,
        env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.returncode == 0, result.stderr.decode()
    from PySide6.QtGui import QImage

    image = QImage(str(out))
    assert image.width() == 1400 and image.height() == 900
    assert settings.read_bytes() == b"[General]\nrecentFiles=/nowhere/theirs.jsonl\n"


@pytest.mark.parametrize(
    "case", ["missing", "not_a_session", "empty", "unknown_select", "unknown_compare", "fifo", "device", "empty_folder"]
)
def test_a_screenshot_that_cannot_be_taken_exits_1_with_one_line(tmp_path, case):
    path = {"missing": tmp_path / "missing.jsonl", "not_a_session": Path("/bin/ls"), "empty": tmp_path / "empty.jsonl"}.get(
        case, FIXTURES / "blog-example.jsonl"
    )
    if case == "empty":
        path.write_bytes(b"")
    if case in ("fifo", "device", "empty_folder"):
        path = special_file(tmp_path, case.removesuffix("_folder"))
    extra = {"unknown_select": ["--select", "nope"], "unknown_compare": ["--compare", "e13", "nope"]}.get(case, [])
    out = tmp_path / "x.png"
    try:
        result = subprocess.run(
            [sys.executable, "-m", "pibrowser", str(path), "--screenshot", str(out), *extra],
            capture_output=True,
            timeout=60,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
            preexec_fn=capped_memory,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the screenshot of {case} did not end")
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 1 and len(lines) == 1, result.stderr.decode()
    assert lines[0].startswith(f"pibrowser: {path}") and not out.exists()
    if case.startswith("unknown"):
        assert lines[0] == f"pibrowser: {path}: no entry with id 'nope'"


def test_a_failed_open_warns_without_blocking(qtbot):
    window = MainWindow(restore_layout=False)  # a window a user sees: the warning is a box, but not a modal loop
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.controller.loadFailed, timeout=10000):
        window.open_path(FIXTURES / "no-such-fixture.jsonl")
    qtbot.waitUntil(lambda: window.warning is not None and window.warning.isVisible(), timeout=3000)
    assert "no such file" in window.warning.text()
    window.warning.accept()


def test_open_asks_for_a_file_without_a_modal_loop(qtbot, window):
    window.open_action.trigger()  # returns at once: the dialog waits for its answer, nothing waits for it
    dialog = window.file_dialog
    assert dialog.isVisible()
    chosen = FIXTURES / "blog-example.jsonl"
    assert chosen.is_file(), f"missing test input {chosen}"  # else the dialog's own "not found" box would wait for a click
    # Whatever modal box the dialog might still raise is closed, so nothing here can wait forever.
    guard = QTimer(dialog, singleShot=True, interval=10_000)
    guard.timeout.connect(lambda: [box.close() for box in QApplication.topLevelWidgets() if isinstance(box, QMessageBox)])
    guard.start()
    dialog.selectFile(str(chosen))
    with qtbot.waitSignal(window.controller.changed, check_params_cb=replaced, timeout=20000):
        dialog.accept()
    assert window.controller.session.path == FIXTURES / "blog-example.jsonl"


def test_a_window_without_a_user_never_opens_a_box(qtbot):
    window = MainWindow(restore_layout=False, interactive=False)
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.controller.loadFailed, timeout=10000):
        window.open_path(FIXTURES / "no-such-fixture.jsonl")
    assert window.warning is None and "no such file" in window.status_label.text()


def active_window_on_demo(qtbot) -> MainWindow:
    """A window shown for real and active (shortcuts need one), with the demo session open."""
    window = MainWindow(restore_layout=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitActive(window)
    load(qtbot, window, DEMO)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    return window


def test_f1_lists_every_shortcut_the_menus_offer(qtbot):
    window = active_window_on_demo(qtbot)
    qtbot.keyClick(window.tree.view, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: getattr(window, "shortcuts_dialog", None) is not None and window.shortcuts_dialog.isVisible(), timeout=3000)
    rows = window.shortcuts_dialog.rows()
    assert list(rows)[:3] == ["Tree", "Tree filter, as in pi's /tree", "Search"]
    assert ("↑", "Parent entry (outline: the row above)") in rows["Tree"] and ("End", "Current leaf (where pi resumes)") in rows["Tree"]
    assert ("Ctrl+→ / Alt+→", "Open the fold, or down to the next branch") in rows["Tree"]
    assert [keys for keys, _ in rows["Tree filter, as in pi's /tree"]] == [
        "Ctrl+D",
        "Ctrl+T",
        "Ctrl+U",
        "Ctrl+L",
        "Ctrl+A",
        "Ctrl+O",
        "Ctrl+Shift+O",
    ]
    assert ("Ctrl+T", "No tools ↔ Default") in rows["Tree filter, as in pi's /tree"]
    assert ("L", "Set Label") in rows["Entry"] and ("Shift+L", "Clear Label") in rows["Entry"]
    assert ("Ctrl+0", "Fit Tree to Window") in rows["View"]
    assert ("F5", "Reload") in rows["File"] and ("Ctrl+O", "Open") in rows["File"]
    # Every menu action that has a key is listed: the list is read from the menus, not kept by hand.
    listed = {text for group in rows.values() for _, text in group}
    for menu_action in window.menuBar().actions():
        for action in menu_action.menu().actions():
            if not action.shortcut().isEmpty():
                assert action.text().replace("&", "").rstrip("…") in listed
    window.shortcuts_dialog.reject()
    assert not window.shortcuts_dialog.isVisible()


def test_pis_filter_keys_are_the_trees_only_while_it_has_focus(qtbot):
    from pibrowser.model.session.tree_filter import FilterMode

    window = active_window_on_demo(qtbot)
    tree, view = window.tree, window.tree.view
    view.setFocus()
    qtbot.waitUntil(view.hasFocus, timeout=3000)
    ctrl, shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
    # pi's toggles are the tree's: Ctrl+T hides tool results, Ctrl+A shows all.
    qtbot.keyClick(view, Qt.Key.Key_T, ctrl)
    assert tree.mode is FilterMode.NO_TOOLS and tree.filter_combo.currentText() == FilterMode.NO_TOOLS.title
    qtbot.keyClick(view, Qt.Key.Key_A, ctrl)
    assert tree.mode is FilterMode.ALL
    # Even in the tree, Ctrl+O and Shift+Ctrl+O stay Open and Open Folder, as in every desktop app.
    with qtbot.waitSignal(window.open_action.triggered, timeout=3000):
        qtbot.keyClick(view, Qt.Key.Key_O, ctrl)
    window.file_dialog.reject()
    assert tree.mode is FilterMode.ALL
    window.activateWindow()
    view.setFocus()
    qtbot.waitUntil(lambda: window.isActiveWindow() and view.hasFocus(), timeout=3000)
    with qtbot.waitSignal(window.open_folder_action.triggered, timeout=3000):
        qtbot.keyClick(view, Qt.Key.Key_O, ctrl | shift)
    window.file_dialog.reject()
    assert tree.mode is FilterMode.ALL
    window.activateWindow()
    view.setFocus()
    qtbot.waitUntil(lambda: window.isActiveWindow() and view.hasFocus(), timeout=3000)
    # Ctrl+D sets the default filter while another is on; with the default on it compares, as before.
    with qtbot.assertNotEmitted(window.compare_action.triggered):
        qtbot.keyClick(view, Qt.Key.Key_D, ctrl)
    assert tree.mode is FilterMode.DEFAULT
    with qtbot.waitSignal(window.compare_action.triggered, timeout=3000):
        qtbot.keyClick(view, Qt.Key.Key_D, ctrl)
    assert window.leaf_picker.isVisible() and tree.mode is FilterMode.DEFAULT
    window.leaf_picker.reject()
    # Anywhere else Ctrl+O is File ▸ Open, and the filter stays.
    window.context_panel.setFocus()
    qtbot.waitUntil(lambda: not view.hasFocus(), timeout=3000)
    with qtbot.waitSignal(window.open_action.triggered, timeout=3000):
        qtbot.keyClick(window.context_panel, Qt.Key.Key_O, ctrl)
    assert tree.mode is FilterMode.DEFAULT
    window.file_dialog.reject()


def test_the_context_headers_label_buttons_edit_and_clear(qtbot, window, fixture_copy):
    path = fixture_copy("blog-example")
    load(qtbot, window, path)
    window.controller.select("e5")
    header = window.context_panel.header
    qtbot.mouseClick(header.set_label_button, Qt.MouseButton.LeftButton)
    dialog = window.labels.dialog
    qtbot.keyClicks(dialog.edit, "from the header")
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10000):
        qtbot.keyClick(dialog.edit, Qt.Key.Key_Return)
    assert Session.load(path).labels["e5"] == "from the header"
    assert header.label_value.text().startswith("“from the header”")
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10000):
        qtbot.mouseClick(header.clear_label_button, Qt.MouseButton.LeftButton)
    assert "e5" not in Session.load(path).labels and not header.clear_label_button.isEnabled()


def test_a_file_with_a_problem_per_line_lists_the_first_thousands(qtbot, window, tmp_path):
    from pibrowser.ui.window.problems_panel import MAX_LISTED

    path = tmp_path / "noisy.jsonl"
    lines = [DEMO.read_bytes().rstrip(b"\n")]
    lines += [b"not json %d" % number for number in range(MAX_LISTED + 250)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    session = load(qtbot, window, path)
    assert len(session.problems) == MAX_LISTED + 250
    problems = window.problems
    assert problems.count() == MAX_LISTED + 1
    assert problems.item(0).text() == f"line {session.problems[0].line}: {session.problems[0].reason}"
    assert problems.item(MAX_LISTED).text().startswith("… and 250 more problems in ")


def test_activating_a_problem_selects_the_entry_on_that_line(qtbot, window, tmp_path):
    # A label whose target names nothing: a problem on the label's own line, which is an entry.
    path = tmp_path / "label.jsonl"
    path.write_bytes(DEMO.read_bytes())
    with open(path, "ab") as handle:
        handle.write(
            b'{"type":"label","id":"badlabel","parentId":"5c753be3","timestamp":"2026-11-24T15:00:00.000Z","targetId":"nosuchid","label":"x"}\n'
        )
    session = load(qtbot, window, path)
    problems = window.problems
    index = next(i for i in range(problems.count()) if "nosuchid" in problems.item(i).text())
    assert problems.item(index).text().startswith(f"line {session.entries['badlabel'].line}: label for 'nosuchid'")
    problems.setCurrentRow(index)
    qtbot.keyClick(problems, Qt.Key.Key_Return)
    assert window.controller.selected == "badlabel"


def test_a_problem_on_an_entry_whose_id_is_a_number_selects_that_entry_not_the_string(qtbot, window):
    # The fixture holds an entry whose id is the number 123 and another whose id is the string "123".
    from pibrowser.model.js.map_key import js_key

    session = load(qtbot, window, FIXTURES / "ids" / "non-string-ids.jsonl")
    problems = window.problems
    line = session.entries[js_key(123)].line
    index = next(i for i in range(problems.count()) if problems.item(i).text().startswith(f"line {line}: entry id 123 is a number"))
    problems.setCurrentRow(index)
    qtbot.keyClick(problems, Qt.Key.Key_Return)
    assert window.controller.selected == js_key(123) and window.controller.selected != "123"


def test_dock_sizes_persist_across_runs_and_compare_keeps_them(qtbot):
    first = MainWindow(restore_layout=True)
    first.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    qtbot.addWidget(first)
    first.resize(780, 560)  # inside the offscreen platform's 800×600 screen, which restoring a geometry clamps to
    first.show()
    qtbot.waitExposed(first)
    first.resizeDocks([first.context_dock], [395], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: first.context_dock.width() == 395)
    first.close()
    second = MainWindow(restore_layout=True)
    second.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    qtbot.addWidget(second)
    second.show()
    qtbot.waitExposed(second)
    qtbot.waitUntil(lambda: second.context_dock.width() == 395)
    session = load(qtbot, second, FIXTURES / "generated-s5.jsonl")
    leaves = session.leaves()
    second.controller.select(leaves[0])
    second.controller.set_compare(leaves[0], leaves[1])
    qtbot.waitUntil(lambda: second.compare_dock.isVisible())
    assert second.compare_dock.width() == 395
    second.controller.set_compare(None, None)
    second.context_dock.raise_()
    assert second.context_dock.width() == 395


@pytest.mark.parametrize("size", [(800, 600), (1000, 700)])
def test_docks_tabbed_together_show_their_titles_whole(qtbot, isolated_settings, size):
    # A small window tabs its docks together; Qt's tabs elided every title to "Co…" there.
    window = window_of(qtbot, size)
    load(qtbot, window, DEMO)
    window.layout().activate()
    bars = [bar for bar in window.findChildren(QTabBar) if bar.parent() is window and bar.isVisible() and bar.count() > 1]
    assert bars, "no docks tabbed together at this size"
    for bar in bars:
        for index in range(bar.count()):  # each tab as wide as its whole title asks, none squeezed
            assert bar.tabRect(index).width() >= bar.tabSizeHint(index).width(), bar.tabText(index)


@pytest.mark.parametrize("size", [(800, 600), (1000, 700)])
def test_the_context_header_shows_every_line_of_its_wrapped_values(qtbot, isolated_settings, size):
    # At 800x600 the "Made of" words were cut to a line and a half: the dock gave the header less
    # height than its wrapped lines need at its width, and the messages below kept theirs. Where
    # the column is too short for all of it, the header scrolls; no line is cut.
    window = window_of(qtbot, size)
    load(qtbot, window, DEMO)
    window.layout().activate()
    header = window.context_panel.header
    qtbot.waitUntil(lambda: bool(header.composition_text.text()))

    def whole() -> None:
        for label in (header.composition_text, header.title, header.subtitle, *header.values.values()):
            if label.isVisible() and label.text():
                assert label.height() >= label.heightForWidth(label.width()), label.text()

    qtbot.waitUntil(whole)  # once the layouts have settled
    assert window.size().toTuple() == size  # by scrolling what does not fit, not by growing the window


@pytest.mark.parametrize("size", [(800, 600), (1000, 700), (1600, 1000)])
@pytest.mark.parametrize("name, left, right", [("demo-session", "5c753be3", "8f6c16a9"), ("generated-s5", "331df647", "97921114")])
def test_comparing_never_changes_the_window_or_the_docks_sizes(qtbot, isolated_settings, size, name, left, right):
    """Entry ▸ Compare With…, a leaf picked, then Clear: the window and the right dock keep their sizes,
    with the dock as the window first lays it out and as narrow as the user can drag it."""
    window = window_of(qtbot, size)
    load(qtbot, window, session_file(name))
    for narrowest in (False, True):
        if narrowest:
            window.resizeDocks([window.context_dock], [1], Qt.Orientation.Horizontal)  # as far as a drag goes
            window.layout().activate()
        before = window.context_dock.width()
        window.controller.select(left)
        window.compare_action.trigger()
        picker = window.leaf_picker
        qtbot.keyClicks(picker.filter_edit, right)
        with qtbot.waitSignal(window.controller.changed, check_params_cb=compared, timeout=5000):
            qtbot.keyClick(picker.filter_edit, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: window.compare_view.files.comparison is not None, timeout=20_000)  # its longest line
        window.layout().activate()
        assert (window.width(), window.height()) == size
        assert window.compare_dock.isVisible() and window.compare_dock.width() == before
        window.compare_view.header.clear_button.click()
        window.layout().activate()
        assert window.context_dock.isVisible() and window.context_dock.width() == before
        assert (window.width(), window.height()) == size
    # At its narrowest the dock still shows the context's controls whole (those at the row's end go under).
    header = window.context_panel.header
    controls = (header.show_dropped, header.expand_thinking, header.top_button, header.end_button, header.copy_button)
    places = [QRect(control.mapTo(header, QPoint(0, 0)), control.size()) for control in controls]
    assert all(header.rect().contains(place) for place in places)
    assert not any(a.intersects(b) for i, a in enumerate(places) for b in places[i + 1 :])


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_screenshot_of_a_comparison_has_the_size_asked_for(tmp_path, theme):
    out = tmp_path / "compare.png"
    env = {**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [sys.executable, "-m", "pibrowser", str(DEMO), "--screenshot", str(out), "--size", "800x600", "--theme", theme]
    result = subprocess.run([*command, "--compare", "5c753be3", "8f6c16a9"], capture_output=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr.decode()
    from PySide6.QtGui import QImage

    image = QImage(str(out))
    assert (image.width(), image.height()) == (800, 600)


def test_screenshot_of_a_comparison(tmp_path):
    out = tmp_path / "compare.png"
    env = {**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [sys.executable, "-m", "pibrowser", str(FIXTURES / "generated-s5.jsonl"), "--screenshot", str(out), "--size", "1000x700"]
    result = subprocess.run([*command, "--compare", "10e36670", "nope"], capture_output=True, timeout=120, env=env)
    assert result.returncode == 1 and "no entry with id 'nope'" in result.stderr.decode()
    result = subprocess.run([*command, "--compare", "10e36670", "d1f74e9a", "--theme", "light"], capture_output=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr.decode()
    from PySide6.QtGui import QColor, QImage

    from pibrowser.ui.style.colors import COMPARE

    image = QImage(str(out))
    assert image.width() == 1000 and image.height() == 700
    # What it shows: the tree (the left half) draws side A's path and side B's in the pair's
    # colours, and the Compare tab (the right half) marks its two sides with them. A blank window,
    # or one that compares nothing, holds neither.
    sides = {side: QColor(COMPARE[side][0]).rgb() for side in ("A", "B")}
    for left, right in ((0, image.width() // 2), (image.width() // 2, image.width())):
        found = {side: 0 for side in sides}
        for y in range(0, image.height(), 2):
            for x in range(left, right):
                pixel = image.pixel(x, y)
                for side, color in sides.items():
                    found[side] += pixel == color
        assert min(found.values()) > 50, (left, found)


def test_a_broken_line_pi_appends_is_listed_without_popping_the_warnings_up(qtbot, window, tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(3))
    session = load(qtbot, window, path)
    assert window.problems.count() == 0 and window.problems_dock.isHidden()
    with open(path, "ab") as handle:
        handle.write(b'{"type":"message","id":\n')
    qtbot.waitUntil(lambda: window.problems.count() == 1, timeout=10000)
    assert window.problems.item(0).text() == f"line 5: {session.problems[0].reason}"
    assert window.problems_dock.isHidden()
    assert window.status_label.text().endswith(", 1 warning")  # counted in the status line all the same


@pytest.mark.parametrize(
    "size, reason",
    [(size, "expected width x height in pixels, like 1400x900") for size in ("10", "0x0", "x700", "1000x", "wide", "-5x10", "1e3x10")]
    + [(size, "at most 8192 pixels a side") for size in ("99999999999999999999x10", "100000x100000", "10x8193")],
)
def test_a_screenshot_size_that_is_not_w_by_h_is_refused_saying_why(size, reason):
    with pytest.raises(ValueError) as refused:
        window_size(size)
    assert str(refused.value) == f"--size {size!r}: {reason}"


def test_a_screenshot_size_is_read_as_width_by_height():
    assert window_size("1400x900") == (1400, 900) and window_size("8192X1") == (8192, 1)


def test_a_screenshot_size_that_cannot_be_is_one_line_and_no_picture(tmp_path):
    out = tmp_path / "x.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [sys.executable, "-m", "pibrowser", str(FIXTURES / "generated-s5.jsonl"), "--screenshot", str(out), "--size", "wide"]
    result = subprocess.run(command, capture_output=True, timeout=120, env=env)
    assert result.returncode == 1 and not out.exists()
    assert result.stderr.decode().splitlines() == ["pibrowser: --size 'wide': expected width x height in pixels, like 1400x900"]


def test_a_selection_paints_the_tree_and_the_cards_once(qtbot, window):
    from PySide6.QtCore import QCoreApplication, QEvent, QObject

    session = load(qtbot, window, DEMO)
    window.resize(1400, 900)
    cards = window.context_panel.list.viewport()
    painted: dict[QObject, list[int]] = {}  # widget → the area of each paint
    resized: list[QObject] = []

    class Painted(QObject):
        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint and watched in (cards, window.tree.view.viewport()):
                painted.setdefault(watched, []).append(event.rect().width() * event.rect().height())
            elif event.type() == QEvent.Type.Resize and watched is cards:
                resized.append(watched)
            return False

    spy = Painted()
    trees = 0
    for key in [session.path_to(leaf)[len(session.path_to(leaf)) // 2] for leaf in session.leaves()]:
        QCoreApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        window.controller.select(key)
        painted.clear()
        resized.clear()
        QCoreApplication.instance().installEventFilter(spy)
        for _ in range(3):  # what an event loop does next: paint, then the deferred deletes
            QCoreApplication.processEvents()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        QCoreApplication.instance().removeEventFilter(spy)
        assert cards in painted, key  # it did paint
        # The cards once, and again only if the panel gave them another size (its header took the new context);
        # the tree once, at most a strip again.
        assert len(painted[cards]) <= 1 + len(resized), (key, painted[cards])
        areas = painted.get(window.tree.view.viewport(), [1])
        assert sum(areas) <= 1.25 * max(areas), key
        trees += window.tree.view.viewport() in painted
    assert trees  # the tree was painted too


def tree_button(window, action) -> QToolButton:
    """The button of the tree's bar that runs `action` (Fit, Fold, Unfold)."""
    return next(b for b in window.tree.findChildren(QToolButton) if b.defaultAction() is action and b.isVisible())


def test_fold_with_everything_folded_says_so(qtbot):
    """s5 opens folded: the tree bar's Fold changes nothing, and the status bar says why; after Unfold,
    Fold folds again and says nothing of the kind."""
    window = window_of(qtbot, (1000, 700))
    load(qtbot, window, FIXTURES / "generated-s5.jsonl")
    view, actions = window.tree.view, window.tree.view.tree_actions
    folded = window.tree.info_label.text()
    assert "folded" in folded
    qtbot.mouseClick(tree_button(window, actions.fold_all), Qt.MouseButton.LeftButton)
    assert window.tree.info_label.text() == folded
    assert "already" in window.statusBar().currentMessage()
    window.statusBar().clearMessage()
    qtbot.mouseClick(tree_button(window, actions.unfold_all), Qt.MouseButton.LeftButton)
    assert len(view.fold_items()) == 0
    qtbot.mouseClick(tree_button(window, actions.fold_all), Qt.MouseButton.LeftButton)
    assert window.tree.info_label.text() == folded
    assert window.statusBar().currentMessage() == ""


@pytest.mark.parametrize("mode", [FilterMode.DEFAULT, FilterMode.USER_ONLY])
def test_a_label_set_leaves_no_note_of_the_label_entry_it_appended(qtbot, fixture_copy, mode):
    """Entry ▸ Set Label… on the demo's leaf: pi appends a label entry and moves its leaf there, which the
    filter hides; the tree bar's note does not then tell the user of the label they just set (it said
    'Hidden by the filter: the current leaf label …'), and it still names what the filter hides otherwise."""
    window = window_of(qtbot, (1000, 700))
    session = load(qtbot, window, fixture_copy("demo-session"))
    pane = window.tree
    pane.set_filter(mode)
    before = pane.hidden_note.text()
    labelled = window.controller.selected
    window.label_action.trigger()
    window.labels.dialog.edit.setText("mine")
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=20_000):
        window.labels.dialog.set_button.click()
    assert session.labels[labelled] == "mine" and session.entries[session.leaf_id].type == "label"
    assert pane.hidden_note.text() == before
    assert ("label" not in before) and (mode is FilterMode.DEFAULT) == (before == "")


def test_waiting_for_background_work_sleeps_between_its_looks(qtbot):
    from pibrowser.ui.window.app import wait_until

    looks, done = [], []
    QTimer.singleShot(400, lambda: done.append(True))

    def condition() -> bool:
        looks.append(1)
        return bool(done)

    assert wait_until(condition, 10_000, poll_ms=50)
    # A look every 50 ms for 400 ms: a loop that spun instead (processEvents with a time does not wait) looked
    # thousands of times, and took a core from the work it waited for.
    assert len(looks) <= 20
    assert not wait_until(lambda: False, 200, poll_ms=50)
