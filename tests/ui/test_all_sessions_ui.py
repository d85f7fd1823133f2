"""The window's view of every session: the Sessions dock's forks and totals, and Search All Sessions."""

import os

import pytest
from PySide6.QtCore import Qt

from pibrowser.ui.control.controller import SessionController
from pibrowser.ui.sessions.search_panel import HIT_ROLE, split_marks
from pibrowser.ui.sessions.sessions_panel import PATH_ROLE, SessionsPanel

from ..session_tree import build
from ..changes import replaced, selected

# The window as the ui tests' conftest makes it: throwaway settings, no sessions of the machine's own.
pytestmark = pytest.mark.usefixtures("isolated_settings")


@pytest.fixture
def tree(tmp_path):
    return build(tmp_path / "sessions")


def scan(qtbot, panel, root):
    with qtbot.waitSignal(panel.scanned, timeout=20000):
        panel.populate(root)


def search(qtbot, window, text):
    panel = window.search_dock.widget()
    window.search_action.trigger()
    assert window.search_dock.isVisible() and window.focusWidget() is panel.query
    assert panel.progress.isVisible()  # showing the dock starts bringing the index up to date
    with qtbot.waitSignal(panel.searched, timeout=30000):
        qtbot.keyClicks(panel.query, text)
        qtbot.keyClick(panel.query, Qt.Key.Key_Return)
    return panel


def test_choosing_a_hit_opens_its_session_with_the_entry_selected(qtbot, window, tree):
    scan(qtbot, window.sessions, tree.root)
    panel = search(qtbot, window, "tokenizer_state")
    results = panel.results
    assert results.topLevelItemCount() == 1
    item = results.topLevelItem(0)
    assert item.data(0, HIT_ROLE).entry == "t1"
    # The session's name, its file, the role and tool.
    assert (item.text(1), item.text(2), item.text(3)) == ("Parser work", tree.parent.name, "toolResult · bash")
    results.setFocus()
    with qtbot.waitSignal(
        window.controller.changed, timeout=30000, check_params_cb=lambda change: selected(change) and window.controller.selected == "t1"
    ):
        qtbot.keyClick(results, Qt.Key.Key_Return)
    assert window.controller.session.path == tree.parent
    assert window.controller.selected == "t1"


def test_a_label_hit_in_the_open_session_selects_the_labelled_entry(qtbot, window, tree):
    from ..conftest import open_session

    open_session(qtbot, window.controller, tree.parent)
    scan(qtbot, window.sessions, tree.root)
    panel = search(qtbot, window, "zebra")
    hit = panel.results.topLevelItem(0).data(0, HIT_ROLE)
    assert (hit.role, hit.entry) == ("label", "u1")
    with qtbot.waitSignal(window.controller.changed, check_params_cb=selected, timeout=10000):
        panel.open_hit(hit)
    assert window.controller.selected == "u1"


def test_role_filter_and_no_hits(qtbot, window, tree):
    scan(qtbot, window.sessions, tree.root)
    panel = search(qtbot, window, '"refactor the parser"')
    assert panel.results.topLevelItemCount() == 2
    with qtbot.waitSignal(panel.searched, timeout=30000):
        panel.role.setCurrentIndex(panel.role.findText("Assistant"))
    assert panel.results.topLevelItemCount() == 0 and panel.status.text() == "No hits."


def test_this_project_only_follows_the_open_session(qtbot, window, tree):
    from ..conftest import open_session

    open_session(qtbot, window.controller, tree.other)  # beta
    scan(qtbot, window.sessions, tree.root)
    panel = search(qtbot, window, "giraffes")
    assert {item.data(0, HIT_ROLE).file for item in map(panel.results.topLevelItem, range(panel.results.topLevelItemCount()))} == {
        str(tree.fork),
        str(tree.other),
    }
    with qtbot.waitSignal(panel.searched, timeout=30000):
        panel.this_project.setChecked(True)
    assert [panel.results.topLevelItem(i).data(0, HIT_ROLE).file for i in range(panel.results.topLevelItemCount())] == [str(tree.other)]
    panel.query.setFocus()
    qtbot.keyClick(panel.query, Qt.Key.Key_Down)
    assert window.focusWidget() is panel.results


def test_snippet_marks_are_counted_as_qt_counts():
    text, spans = split_marks("😀 \ue000parser\ue001 and \ue000lexer\ue001")
    assert text == "😀 parser and lexer"
    assert spans == [(3, 6), (14, 5)]  # the emoji is two UTF-16 units


@pytest.fixture
def panel(qtbot):
    controller = SessionController()
    widget = SessionsPanel(controller)
    controller.setParent(widget)  # freed with the widget on the GUI thread, never by the cycle collector on a loader's thread
    qtbot.addWidget(widget)
    widget.resize(520, 400)
    widget.show()
    return widget


def test_forks_sit_under_their_parent_and_the_parent_is_one_click_away(qtbot, panel, tree):
    scan(qtbot, panel, tree.root)
    projects = {panel.tree.topLevelItem(i).text(0): panel.tree.topLevelItem(i) for i in range(panel.tree.topLevelItemCount())}
    alpha = projects["alpha (2)"]
    assert alpha.childCount() == 1 and (alpha.text(3), alpha.text(4)) == ("120", "$0.50")  # the project's totals
    assert "2 sessions, 120 tokens, $0.50 recorded" in alpha.toolTip(0)
    parent = alpha.child(0)
    assert parent.text(0) == "Parser work" and parent.data(0, PATH_ROLE) == str(tree.parent)
    assert (parent.text(3), parent.text(4)) == ("120", "$0.50")
    fork = parent.child(0)
    assert fork.data(0, PATH_ROLE) == str(tree.fork)
    panel.tree.setCurrentItem(fork)
    assert panel.fork_link.isVisible() and panel.fork_link.text() == "↰ Forked from: Parser work"
    with qtbot.waitSignal(panel.controller.changed, check_params_cb=replaced, timeout=20000):
        qtbot.mouseClick(panel.fork_link, Qt.MouseButton.LeftButton)
    assert panel.controller.session.path == tree.parent and panel.tree.currentItem() is parent
    assert not panel.fork_link.isVisible()
    # Files that are not sessions are listed, named, with the reason a hover away.
    loose = projects["sessions (2)"]
    assert sorted(loose.child(i).text(0) for i in range(loose.childCount())) == ["⚠ empty.jsonl", "⚠ garbage.jsonl"]
    assert "The file is empty: not a pi session" in loose.child(0).toolTip(0) + loose.child(1).toolTip(0)


def test_filter_keeps_a_parent_whose_fork_matches(qtbot, panel, tree):
    scan(qtbot, panel, tree.root)
    panel.filter.setText(tree.fork.name[:24])
    alpha = next(
        panel.tree.topLevelItem(i) for i in range(panel.tree.topLevelItemCount()) if panel.tree.topLevelItem(i).text(0) == "alpha (2)"
    )
    parent = alpha.child(0)
    assert not alpha.isHidden() and not parent.isHidden() and not parent.child(0).isHidden()
    visible_projects = [
        panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount()) if not panel.tree.topLevelItem(i).isHidden()
    ]
    assert visible_projects == ["alpha (2)"]


def test_a_session_pi_starts_later_is_listed_and_the_selection_kept(qtbot, panel, tree):
    from ..sessions import message, write
    from ..session_tree import header

    scan(qtbot, panel, tree.root)
    panel.select_file(tree.other)
    with qtbot.waitSignal(panel.scanned, timeout=20000):
        write(
            tree.root / "--home-me-beta--" / "2026-11-05T10-00-00-000Z_n1.jsonl",
            message("u1", None, "user", "A new one"),
            header=header("n1", "/home/me/beta"),
        )
    beta = next(item for item in map(panel.tree.topLevelItem, range(panel.tree.topLevelItemCount())) if item.text(0).startswith("beta"))
    assert beta.text(0) == "beta (4)" and "A new one" in [beta.child(row).text(0) for row in range(beta.childCount())]
    assert panel.tree.currentItem().data(0, PATH_ROLE) == str(tree.other)


def test_empty_state_says_where_it_looked(qtbot, panel, tmp_path):
    scan(qtbot, panel, tmp_path / "nothing here")
    assert panel.stack.currentIndex() == 1
    assert str(tmp_path / "nothing here") in panel.empty.text() and "Open Folder" in panel.empty.text()
    with qtbot.waitSignal(panel.openFolderRequested, timeout=1000):
        qtbot.mouseClick(panel.open_folder, Qt.MouseButton.LeftButton)


def test_a_narrow_search_dock_gives_the_hits_the_room(qtbot, window, tree):
    scan(qtbot, window.sessions, tree.root)
    panel = search(qtbot, window, "tokenizer_state")
    dock, results = window.search_dock, panel.results
    dock.setFloating(True)
    panel.status.setText(f"Checking the index of {tree.root / ('long folder name ' * 8)}…")
    assert panel.minimumSizeHint().width() < 480  # a long status line must not hold the dock wide
    dock.resize(480, 300)
    qtbot.waitUntil(lambda: results.isColumnHidden(2), timeout=3000)
    assert results.header().sectionSize(0) >= 150  # the hit can be read
    assert tree.parent.name in results.topLevelItem(0).toolTip(0)  # the file is still named
    assert not results.isColumnHidden(3)  # the role still has room
    dock.resize(330, 300)
    qtbot.waitUntil(lambda: results.isColumnHidden(3) and results.isColumnHidden(4), timeout=3000)
    assert results.header().sectionSize(0) >= 150
    dock.resize(1100, 300)
    qtbot.waitUntil(lambda: not any(results.isColumnHidden(column) for column in (2, 3, 4)), timeout=3000)
    assert results.header().sectionSize(1) == 200


def test_a_session_with_half_an_emoji_is_listed_found_and_opened(qtbot, window, tmp_path):
    from ..hostile import HALF, half_character_sessions

    root = half_character_sessions(tmp_path / "half")
    scan(qtbot, window.sessions, root)
    listed = []
    for top in map(window.sessions.tree.topLevelItem, range(window.sessions.tree.topLevelItemCount())):
        listed += [top.child(row).data(0, PATH_ROLE) for row in range(top.childCount())]
    # (Qt's strings cannot hold the odd file name's stray byte: that row's path is shown without it.)
    assert len(listed) == 3 and {"half.jsonl", "plain.jsonl"} <= set(map(os.path.basename, listed))
    panel = search(qtbot, window, "hello")
    hits = [panel.results.topLevelItem(row).data(0, HIT_ROLE) for row in range(panel.results.topLevelItemCount())]
    assert sorted(hit.entry for hit in hits) == sorted([f"a{HALF}", "p1", "o1"])
    controller = window.controller
    with qtbot.waitSignal(
        controller.changed, timeout=30000, check_params_cb=lambda change: selected(change) and controller.selected == f"a{HALF}"
    ):
        panel.open_hit(next(hit for hit in hits if hit.entry == f"a{HALF}"))
