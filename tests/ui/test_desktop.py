"""The window as a daily tool: theme, the demo's copy, recent files, undo, export, title, desktop entry."""

import configparser
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPalette
from PySide6.QtWidgets import QApplication

from pibrowser.cli.desktop_entry import data_home, desktop_entry, exec_line, install
from pibrowser.model import Session
from pibrowser.model.text.plural import counted
from pibrowser.ui.window.demo import demo_copy_path
from pibrowser.ui.window.dock_layout import default_dock_widths
from pibrowser.ui.window.main_window import MainWindow
from pibrowser.ui.style.theme import SETTING, Theme, ThemeSwitcher
from pibrowser.ui.tree.export import IN_VIEW, WHOLE, export_tree, tree_svg
from pibrowser.ui.tree.fold_item import FoldItem
from pibrowser.ui.tree.node_item import NodeItem
from pibrowser.ui.window.x11_check import x11_problem

from ..conftest import DEMO, FIXTURES
from .conftest import load
from ..changes import appended, replaced

SVG = "{http://www.w3.org/2000/svg}"


pytestmark = pytest.mark.usefixtures("isolated_settings")


def window_is_dark() -> bool:
    return QApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def test_counts_read_in_the_number_they_name():
    assert counted(1, "leaf") == "1 leaf" and counted(2, "leaf") == "2 leaves"
    assert counted(1, "entry") == "1 entry" and counted(1024, "entry") == "1,024 entries"
    assert counted(0, "warning") == "0 warnings"


def test_theme_is_remembered_and_system_changes_are_followed(qtbot, window):
    window.themes.actions[Theme.DARK].trigger()
    assert window_is_dark() and QSettings().value(SETTING) == "dark"
    qtbot.waitUntil(lambda: window.tree.view.style_info.dark, timeout=3000)  # the tree redraws in the new palette
    assert ThemeSwitcher().theme is Theme.DARK  # the next start reads it back
    window.themes.actions[Theme.LIGHT].trigger()
    assert not window_is_dark() and QSettings().value(SETTING) == "light"
    window.themes.actions[Theme.SYSTEM].trigger()
    hints = QGuiApplication.styleHints()
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)  # the desktop switched to dark
    assert window_is_dark()
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert not window_is_dark()
    window.themes.actions[Theme.LIGHT].trigger()
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)  # a chosen theme stays chosen
    assert not window_is_dark()


def test_the_demo_opens_from_a_copy_that_labels_go_to(qtbot, window, tmp_path):
    shipped = DEMO.read_bytes()
    assert demo_copy_path() == tmp_path / "data" / "pibrowser" / "demo-session.jsonl"  # our name once
    with qtbot.waitSignal(window.controller.changed, check_params_cb=replaced, timeout=20000):
        window.demo_action.trigger()
    session = window.controller.session
    assert session.path == demo_copy_path() and session.path != DEMO
    assert "demo session" in window.windowTitle()
    key = next(key for key in session.entries if key not in session.labels)
    window.controller.select(key)
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10000):
        window.labels.set(key, "mine")
    assert DEMO.read_bytes() == shipped
    assert Session.load(demo_copy_path()).labels[key] == "mine"
    # Asking for the shipped file by name opens the copy too, labels and all.
    load(qtbot, window, DEMO)
    assert window.controller.session.path == demo_copy_path() and window.controller.session.labels[key] == "mine"
    assert DEMO.read_bytes() == shipped


def test_open_recent_drops_files_that_vanished(qtbot, window, fixture_copy):
    kept, gone = fixture_copy("generated-s1"), fixture_copy("generated-s2")
    load(qtbot, window, kept)
    load(qtbot, window, gone)
    assert [a.text() for a in window.recent_menu.actions()] == [str(gone), str(kept)]
    gone.unlink()
    window.recent_menu.aboutToShow.emit()
    assert [a.text() for a in window.recent_menu.actions()] == [str(kept)]
    assert QSettings().value("recentFiles") in ([str(kept)], str(kept))


def test_opening_a_vanished_file_says_so_in_the_status_bar(qtbot, window, fixture_copy):
    path = fixture_copy("generated-s1")
    load(qtbot, window, path)
    action = window.recent_menu.actions()[0]  # the menu as it was shown, before the file went
    path.unlink()
    action.trigger()
    assert window.status_label.text() == f"{path} no longer exists"
    assert window.problems_dock.isHidden()
    assert window.recent_menu.actions() == [] or str(path) not in [a.text() for a in window.recent_menu.actions()]


def test_undo_restores_the_previous_label_by_appending_as_pi_would(qtbot, window, fixture_copy):
    path = fixture_copy("generated-s3")
    session = load(qtbot, window, path)
    labeled, old = next((key, str(label)) for key, label in session.labels.items())
    window.controller.select(labeled)
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10000):
        window.labels.set(labeled, "renamed")
    assert Session.load(path).labels[labeled] == "renamed"
    assert window.labels.undo_action.isEnabled() and "renamed" in window.labels.undo_action.text()
    lines = path.read_bytes().count(b"\n")
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10000):
        window.labels.undo_action.trigger()
    assert Session.load(path).labels[labeled] == old == window.controller.session.labels[labeled]
    assert path.read_bytes().count(b"\n") == lines + 1  # undone by one more line, nothing removed
    last = Session.load(path)
    entry = last.entries[last.leaf_id]
    assert entry.type == "label" and entry.get("targetId") == labeled and entry.get("label") == old
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10000):
        window.labels.redo_action.trigger()
    assert Session.load(path).labels[labeled] == "renamed"


def test_undo_of_a_new_label_clears_it(qtbot, window, fixture_copy):
    path = fixture_copy("blog-example")
    load(qtbot, window, path)
    window.controller.select("e5")
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10000):
        window.labels.set("e5", "first")
    with qtbot.waitSignal(window.controller.changed, check_params_cb=appended, timeout=10000):
        window.labels.undo_action.trigger()
    assert "e5" not in Session.load(path).labels
    assert not window.labels.undo_action.isEnabled()
    load(qtbot, window, FIXTURES / "generated-s1.jsonl")
    assert not window.labels.redo_action.isEnabled()  # another file: nothing to undo or redo in it


def test_svg_export_is_xml_with_one_group_per_visible_node(qtbot, window, tmp_path):
    load(qtbot, window, FIXTURES / "generated-s3.jsonl")
    view = window.tree.view
    written = export_tree(view, tmp_path / "tree", "SVG image, whole tree (*.svg)")
    assert written.suffix == ".svg"
    root = ET.parse(written).getroot()
    assert root.tag == f"{SVG}svg"
    nodes = [g for g in root.iter(f"{SVG}g") if g.get("class") == "node"]
    folds = [g for g in root.iter(f"{SVG}g") if g.get("class") == "fold"]
    shown = [item for item in view.unit_items if isinstance(item, NodeItem)]
    assert sorted(g.get("data-entry-id") for g in nodes) == sorted(item.key for item in shown)
    assert len(folds) == sum(isinstance(item, FoldItem) for item in view.unit_items)
    assert all(len(g.findall(f"{SVG}g")) + len(g.findall(f"{SVG}path")) > 0 for g in nodes)  # each draws something


def test_export_of_the_part_in_view_holds_only_what_is_in_view(qtbot, window, tmp_path):
    load(qtbot, window, FIXTURES / "generated-s5.jsonl")
    view = window.tree.view
    whole = ET.fromstring(tree_svg(view, WHOLE))
    part = ET.fromstring(tree_svg(view, IN_VIEW))
    count = lambda root: sum(1 for g in root.iter(f"{SVG}g") if g.get("class") == "node")  # noqa: E731
    assert 0 < count(part) < count(whole)
    png = export_tree(view, tmp_path / "tree.png", "PNG image, the part in view (*.png)")
    image = QImage(str(png))
    assert not image.isNull() and image.width() > 100


def test_window_title_names_the_session_and_the_file(qtbot, window):
    load(qtbot, window, FIXTURES / "generated-s1.jsonl")
    session = window.controller.session
    title = window.windowTitle()
    assert title.endswith("generated-s1.jsonl — pibrowser")
    assert (session.name or "") in title and title != "generated-s1.jsonl — pibrowser"


@pytest.mark.parametrize("width", [800, 1000, 1400, 2560])
def test_default_proportions_leave_the_tree_room(width):
    context, sessions = default_dock_widths(width, sessions_shown=True)
    tree = width - context - sessions
    assert tree >= width * 0.35 and context >= 300
    assert context + sessions <= width * 0.65


def test_desktop_entry_goes_to_xdg_data_home_and_opens_jsonl(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path / "share"), "HOME": str(tmp_path)}
    assert data_home(env) == tmp_path / "share"
    assert data_home({"XDG_DATA_HOME": "relative/ignored"}) != tmp_path / "share"
    written = install(env, refresh=False)
    entry_path = tmp_path / "share" / "applications" / "pibrowser.desktop"
    assert entry_path in written and (tmp_path / "share" / "icons" / "hicolor" / "scalable" / "apps" / "pibrowser.svg") in written
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read(entry_path, encoding="utf-8")
    entry = parser["Desktop Entry"]
    assert entry["Type"] == "Application" and entry["Icon"] == "pibrowser"
    assert "application/jsonl" in entry["MimeType"].split(";") and entry["Exec"].endswith(" -m pibrowser %f")
    mime = ET.parse(tmp_path / "share" / "mime" / "packages" / "pibrowser-jsonl.xml").getroot()
    assert any(glob.get("pattern") == "*.jsonl" for glob in mime.iter("{http://www.freedesktop.org/standards/shared-mime-info}glob"))
    assert exec_line("/opt/my python/bin/python3") == '"/opt/my python/bin/python3" -m pibrowser %f'
    assert "Exec=" in desktop_entry()


def test_missing_x11_libraries_are_named_in_one_line():
    present = {
        "libxcb-cursor.so.0",
        "libxcb-image.so.0",
        "libxcb-render-util.so.0",
        "libxkbcommon-x11.so.0",
        "libxcb-shape.so.0",
        "libxcb-xkb.so.1",
    }
    loads = present.__contains__
    message = x11_problem({"DISPLAY": ":0"}, "linux", loads)
    assert message is not None and "\n" not in message
    assert "libxcb-icccm4" in message and "libxcb-keysyms1" in message and "libxcb-cursor0" not in message
    assert x11_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux", loads) is None
    assert x11_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux", loads) is None
    assert x11_problem({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, "linux", loads) is not None
    assert x11_problem({"DISPLAY": ":0"}, "linux", lambda name: True) is None
    assert x11_problem({}, "darwin", loads) is None


@pytest.fixture
def window_1000(qtbot, isolated_settings):
    """A fresh window at 1000×700, shown for real: keyboard shortcuts need an active window."""
    window = MainWindow(restore_layout=False)
    window.resize(1000, 700)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitActive(window)
    return window


def test_ctrl_f_reaches_the_search_field_at_1000_by_700(qtbot, window_1000):
    window = window_1000
    load(qtbot, window, FIXTURES / "generated-s5.jsonl")
    edit = window.tree.search_edit
    assert edit.isVisible() and edit.width() >= 120
    assert window.tree.width() >= 0.4 * window.width()  # the side panel leaves the tree its room
    window.context_panel.setFocus()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    qtbot.keyClick(window.context_panel, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(edit.hasFocus, timeout=3000)
    qtbot.keyClicks(edit, "parser")
    window.tree.search_now()
    assert window.tree.hits
    # Esc clears the search from the tree as well as from the field.
    window.tree.view.setFocus()
    qtbot.waitUntil(window.tree.view.hasFocus, timeout=3000)
    qtbot.keyClick(window.tree.view, Qt.Key.Key_Escape)
    assert edit.text() == "" and window.tree.hits == []


def test_search_hits_are_highlighted_in_the_cards_and_f3_steps_through_them(qtbot, window_1000):
    window = window_1000
    load(qtbot, window, DEMO)
    window.tree.search_edit.setText("changelog")
    window.tree.search_now()
    window.controller.select(window.controller.session.leaf_id)  # its context speaks of the changelog more than once
    search, listing = window.context_panel.search, window.context_panel.list
    assert search.query == "changelog" and listing.marks is not None
    # Every occurrence in the texts of the cards is marked, and no other text.
    marked = [
        (row, text, cursor)
        for row in range(len(listing.rows))
        for text in listing.card(row).all_texts()
        for cursor, _ in listing.marks(text.document)
    ]
    assert len(marked) >= 2
    assert all(cursor.selectedText().casefold() == "changelog" for _, _, cursor in marked)
    text_before = [text.plain_text() for _, text, _ in marked]
    window.activateWindow()
    listing.setFocus()  # the keys go to the context panel
    qtbot.waitUntil(listing.hasFocus, timeout=3000)
    qtbot.keyClick(listing, Qt.Key.Key_F3)
    first = search.current
    assert first is not None
    qtbot.keyClick(listing, Qt.Key.Key_F3)
    assert search.current is not None and search.current != first
    qtbot.keyClick(listing, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert search.current == first
    assert [text.plain_text() for _, text, _ in marked] == text_before  # marks, not edits
    window.tree.clear_search()
    assert search.query == "" and listing.marks is None
