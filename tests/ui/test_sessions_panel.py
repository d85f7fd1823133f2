"""The Sessions dock: pi's session folders listed by project, newest first; opening one by activating it."""

import os
import shutil
from datetime import datetime
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import Qt

from pibrowser.model.library.discovery import start_target
from pibrowser.model.js.date import js_time
from pibrowser.ui.window.demo import demo_copy, demo_copy_path
from pibrowser.ui.control.controller import SessionController
from pibrowser.ui.sessions.sessions_panel import FIGURES, PATH_ROLE, TITLE_ROOM, SessionsPanel, short_time

from ..conftest import DEMO, FIXTURES, open_session
from ..changes import replaced


@pytest.fixture
def sessions_root(tmp_path) -> Path:
    """Two projects as pi lays them out, with file times a minute apart (blog newest)."""
    root = tmp_path / "sessions"
    files = [
        ("--home-alex-taskboard--", "2026-11-24T10-00-00-000Z_a.jsonl", DEMO, 100),
        ("--home-alex-taskboard--", "2026-11-20T10-00-00-000Z_b.jsonl", FIXTURES / "generated-s1.jsonl", 40),
        ("--work-other--", "2026-11-21T10-00-00-000Z_c.jsonl", FIXTURES / "blog-example.jsonl", 160),
    ]
    base = datetime(2026, 11, 30, 12, 0).timestamp()
    for folder, name, source, offset in files:
        target = root / folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        os.utime(target, (base + offset, base + offset))
    return root


@pytest.fixture
def panel(qtbot):
    controller = SessionController()
    widget = SessionsPanel(controller)
    controller.setParent(widget)  # the widget owns it: freed with it on the GUI thread, never by the cycle collector on a loader's thread
    qtbot.addWidget(widget)
    widget.resize(360, 400)
    widget.show()
    return widget


def fill(qtbot, panel, root=None):
    """Populate and wait for the background scan; returns how many files it listed."""
    with qtbot.waitSignal(panel.scanned, timeout=20000) as blocker:
        panel.populate(root)
    return blocker.args[0]


def rows(panel):
    tree = panel.tree
    out = []
    for index in range(tree.topLevelItemCount()):
        project = tree.topLevelItem(index)
        children = [project.child(row) for row in range(project.childCount())]
        out.append(
            (
                project.text(0),
                project.text(1),
                [Path(child.data(0, PATH_ROLE)).name for child in children if not child.isHidden()],
                project.isHidden(),
            )
        )
    return out


def test_sessions_are_grouped_by_project_newest_first(qtbot, panel, sessions_root):
    assert panel.populate(sessions_root) == 3  # counted at once; the rows come from the background scan
    assert fill(qtbot, panel, sessions_root) == 3
    # Projects are named by the last part of the cwd in each session's header, newest project first
    # (newest by pi's rule: the last user or assistant message).
    assert [name for name, *_ in rows(panel)] == ["taskboard (1)", "project (1)", "demo (1)"]
    last = panel.tree.topLevelItem(2).child(0)
    assert Path(last.data(0, PATH_ROLE)).name == "2026-11-21T10-00-00-000Z_c.jsonl"
    assert "D:/demo" in panel.tree.topLevelItem(2).toolTip(0)
    assert str(sessions_root) in last.toolTip(0) and last.text(2).endswith("KB")
    demo = panel.tree.topLevelItem(0).child(0)
    # As pi's picker shows it: the session's name, else its first user message (here a hover away).
    assert demo.text(0) == "Fix: wrong task deleted under the Active filter"
    assert "When the **Active** filter" in demo.toolTip(0)
    untitled = panel.tree.topLevelItem(1).child(0)
    assert untitled.text(0) == "parser 配置 in fix 配置 parser"  # no name: the first user message
    assert demo.text(1) == short_time(datetime.fromtimestamp(js_time("2026-11-24T14:46:06.803Z") / 1000))


def test_a_project_lists_its_sessions_newest_first(qtbot, panel, tmp_path):
    folder = tmp_path / "sessions" / "--home-alex-taskboard--"
    folder.mkdir(parents=True)
    for offset, name in ((10, "old.jsonl"), (30, "new.jsonl"), (20, "middle.jsonl")):
        shutil.copyfile(DEMO, folder / name)
        os.utime(folder / name, (1_700_000_000 + offset, 1_700_000_000 + offset))
    fill(qtbot, panel, tmp_path / "sessions")
    assert rows(panel) == [("taskboard (3)", "", ["new.jsonl", "middle.jsonl", "old.jsonl"], False)]


def test_filter_keeps_matching_sessions_and_projects(qtbot, panel, sessions_root):
    fill(qtbot, panel, sessions_root)
    panel.filter.setText("active** filter")  # words of a first message
    assert [(row[0], row[2]) for row in rows(panel) if not row[3]] == [("taskboard (1)", ["2026-11-24T10-00-00-000Z_a.jsonl"])]
    panel.filter.setText("d:/DEMO")  # a project's cwd matches all of its sessions, in any case
    assert [row[0] for row in rows(panel) if not row[3]] == ["demo (1)"]
    panel.filter.setText("nothing like this")
    assert all(row[3] for row in rows(panel))
    panel.filter.clear()
    assert sum(len(row[2]) for row in rows(panel)) == 3


def test_activating_a_session_opens_it_and_marks_it(qtbot, panel, sessions_root):
    fill(qtbot, panel, sessions_root)
    item = panel.tree.topLevelItem(0).child(0)
    panel.tree.setFocus()
    panel.tree.setCurrentItem(item)
    with qtbot.waitSignal(panel.controller.changed, check_params_cb=replaced, timeout=20000):
        qtbot.keyClick(panel.tree, Qt.Key.Key_Return)
    assert panel.controller.session.path == Path(item.data(0, PATH_ROLE))
    assert item.font(0).bold()
    others = [
        panel.tree.topLevelItem(i).child(j)
        for i in range(panel.tree.topLevelItemCount())
        for j in range(panel.tree.topLevelItem(i).childCount())
    ]
    assert sum(1 for other in others if other.font(0).bold()) == 1


def test_short_times():
    now = datetime(2026, 12, 2, 18, 0)
    assert short_time(datetime(2026, 12, 2, 9, 5), now) == "09:05"
    assert short_time(datetime(2026, 3, 4, 9, 5), now) == "Mar 4"
    assert short_time(datetime(2025, 12, 2, 9, 5), now) == "2025-12-02"


def test_a_folder_given_at_start_fills_the_dock(qtbot, sessions_root, window):
    assert start_target(sessions_root) == sessions_root
    assert start_target(None, demo=demo_copy) == demo_copy_path()
    assert window.sessions_dock.isHidden()
    with qtbot.waitSignal(window.controller.changed, check_params_cb=replaced, timeout=20000):
        window.open_path(start_target(sessions_root))
    assert window.sessions_dock.isVisible()
    assert fill(qtbot, window.sessions) == 3  # listing the folder that was opened
    assert window.controller.session.path.name == "2026-11-21T10-00-00-000Z_c.jsonl"  # the newest


def test_opening_a_session_file_at_start_opens_just_it(qtbot, sessions_root):
    target = sessions_root / "--work-other--" / "2026-11-21T10-00-00-000Z_c.jsonl"
    assert start_target(target) == target
    controller = SessionController()
    try:
        assert open_session(qtbot, controller, target).path == target
    finally:
        shiboken6.delete(controller)  # on the GUI thread, never by the cycle collector on a loader's thread


def test_an_extracted_branch_shows_as_a_fork_of_its_session(qtbot, panel, tmp_path):
    from pibrowser.model import Session
    from pibrowser.model.writing.extract import extract_branch

    folder = tmp_path / "sessions" / "--home-alex-taskboard--"
    folder.mkdir(parents=True)
    original = folder / "2026-11-01T10-00-00-000Z_original.jsonl"
    shutil.copyfile(FIXTURES / "generated-s3.jsonl", original)
    session = Session.load(original)
    written = extract_branch(session, session.leaf_id)
    fill(qtbot, panel, tmp_path / "sessions")
    project = panel.tree.topLevelItem(0)
    assert project.childCount() == 1
    parent = project.child(0)
    assert parent.data(0, PATH_ROLE) == str(original) and parent.childCount() == 1
    fork = parent.child(0)
    assert fork.data(0, PATH_ROLE) == str(written) and f"forked from {original}" in fork.toolTip(0)
    panel.filter.setText(fork.text(0)[:20])
    assert not fork.isHidden() and not parent.isHidden()


@pytest.mark.parametrize("width", [180, 300, 360, 370, 420, 500, 700])
def test_the_titles_keep_their_room_and_the_figures_give_way_from_the_right(qtbot, panel, sessions_root, width):
    """At any width of the dock a session's title has room to be read (at ~360 px it was cut to "…" while
    every figure kept its column); the figures hide from the right, each still in the rows' tooltips."""
    fill(qtbot, panel, sessions_root)
    panel.resize(width, 400)
    tree = panel.tree
    qtbot.waitUntil(lambda: tree.viewport().width() > width - 40, timeout=3000)
    shown = [not tree.isColumnHidden(column) for column in FIGURES]
    assert shown == sorted(shown, reverse=True)  # those that show come first
    title = tree.header().sectionSize(0)
    assert title >= min(TITLE_ROOM, tree.viewport().width()), (width, title, shown)
    figures = sum(tree.header().sectionSize(column) for column in FIGURES if not tree.isColumnHidden(column))
    assert title + figures <= tree.viewport().width() + 1  # nothing runs off the side
    if width >= 700:
        assert all(shown)
    project = tree.topLevelItem(0)
    assert "tokens" in project.toolTip(0)


def click_row(qtbot, panel, item, double: bool = False) -> None:
    spot = panel.tree.visualItemRect(item).center()
    if double:  # a double-click as the user makes it: a press and release, then the second click
        qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=spot)
        qtbot.mouseDClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=spot)
    else:
        qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=spot)


def test_one_click_on_a_row_opens_its_session_and_a_double_click_opens_it_once(qtbot, panel, sessions_root):
    """As pi's /resume opens the row Enter is pressed on, one click opens a row's session; a double-click
    still opens it, once; a click on the open session's row, or on a project's, reads nothing again."""
    fill(qtbot, panel, sessions_root)
    loads: list[str] = []
    panel.controller.loading.connect(loads.append)
    first, second = panel.tree.topLevelItem(0).child(0), panel.tree.topLevelItem(1).child(0)
    with qtbot.waitSignal(panel.controller.changed, check_params_cb=replaced, timeout=20000):
        click_row(qtbot, panel, first)
    assert panel.controller.session.path == Path(first.data(0, PATH_ROLE)) and first.font(0).bold()
    with qtbot.waitSignal(panel.controller.changed, check_params_cb=replaced, timeout=20000):
        click_row(qtbot, panel, second, double=True)
    assert panel.controller.session.path == Path(second.data(0, PATH_ROLE)) and second.font(0).bold()
    assert loads == [first.data(0, PATH_ROLE), second.data(0, PATH_ROLE)]
    click_row(qtbot, panel, second)
    click_row(qtbot, panel, panel.tree.topLevelItem(0))
    assert len(loads) == 2 and not panel.controller.is_loading()
    assert panel.controller.session.path == Path(second.data(0, PATH_ROLE))
