"""Every entry of the window's menus, its tree bar and its right-click menus, chosen as a user chooses it.

On the demo session (a copy), each entry is reached the way a user reaches it: a menu of the menu bar
opened and the entry taken in it; a bar's button clicked, or taken from the bar's » menu when the bar
has no room for it; a right-click on a node, a fold, the strip, a card, and the entry taken in the menu
that pops up. Each must do what its name says, read from the window's state, and nothing may be
logged as a warning or an error. An entry with no check here fails the walk: a new action comes with
its test.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import orjson
import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QAction, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QMessageBox, QToolBar, QToolButton, QWidget

from pibrowser.model.workspace import Change
from pibrowser.ui.context.message_menu import call_ids, message_text
from pibrowser.ui.context.message_card import Card
from pibrowser.ui.tree.layout import EXPAND_LIMIT, WIDE_LIMIT
from pibrowser.ui.window.demo import is_demo
from pibrowser.ui.window.main_window import MainWindow
from pibrowser.ui.window.preferences_dialog import TERMINAL_SETTING
from pibrowser.ui.tree.view_mode import OUTLINE

from ..changes import appended, compared, replaced
from ..conftest import DEMO, FIXTURES
from ..sessions import chain, message, write
from .cards import live, reach_text
from .conftest import load
from .menus import choose_in_popup, click, entry, plain, right_click

pytestmark = pytest.mark.usefixtures("isolated_settings")

Choose = Callable[[], None]


@dataclass
class Walk:
    """The window walked and what the checks share."""

    qtbot: object
    window: MainWindow
    folder: Path
    met: set[str] = field(default_factory=set)  # the checks used
    folded: list[str] = field(default_factory=list)  # the entries of the fold right-clicked, or the one undone

    @property
    def controller(self):
        return self.window.controller

    @property
    def session(self):
        return self.window.controller.session

    @property
    def view(self):
        return self.window.tree.view

    def wait(self, condition: Callable[[], object], timeout: int = 20_000) -> None:
        self.qtbot.waitUntil(lambda: bool(condition()), timeout=timeout)

    def change(self, choose: Choose, which: Callable[[Change], bool]) -> None:
        with self.qtbot.waitSignal(self.controller.changed, check_params_cb=which, timeout=20_000):
            choose()

    def select(self, key: str) -> None:
        if self.controller.selected != key:
            self.controller.select(key)

    def clipboard(self) -> str:
        return QApplication.clipboard().text()


# ---- what each entry does -------------------------------------------------------------------------


def _dialog(walk: Walk, choose: Choose, found: Callable[[], QWidget | None]) -> QWidget:
    choose()
    walk.wait(lambda: found() is not None and found().isVisible(), timeout=5_000)
    return found()


def open_file(walk: Walk, choose: Choose) -> None:
    dialog = _dialog(walk, choose, lambda: getattr(walk.window, "file_dialog", None))
    assert dialog.fileMode() == QFileDialog.FileMode.ExistingFile and dialog.acceptMode() == QFileDialog.AcceptMode.AcceptOpen
    dialog.reject()
    walk.window.file_dialog = None


def open_folder(walk: Walk, choose: Choose) -> None:
    dialog = _dialog(walk, choose, lambda: getattr(walk.window, "file_dialog", None))
    assert dialog.fileMode() == QFileDialog.FileMode.Directory
    dialog.reject()
    walk.window.file_dialog = None


def open_recent(walk: Walk, choose: Choose, text: str) -> None:
    walk.change(choose, replaced)
    assert str(walk.controller.path) == text


def reload(walk: Walk, choose: Choose) -> None:
    path = walk.controller.path
    walk.change(choose, replaced)
    assert walk.controller.path == path


def follow(walk: Walk, choose: Choose) -> None:
    before = walk.controller.follow_changes
    choose()
    assert walk.controller.follow_changes is (not before)
    choose()
    assert walk.controller.follow_changes is before


def upgrade(walk: Walk, choose: Choose) -> None:
    old = walk.folder / "legacy-v1.jsonl"
    old.write_bytes((FIXTURES / "legacy-v1.jsonl").read_bytes())
    load(walk.qtbot, walk.window, old)
    assert walk.session.migrated_from == 1
    box = _dialog(walk, choose, lambda: walk.window.upgrade.message_box)
    upgrade_button = next(button for button in box.buttons() if button.text() == "Upgrade")
    with walk.qtbot.waitSignal(walk.controller.changed, check_params_cb=replaced, timeout=20_000):
        upgrade_button.click()
    assert walk.session.migrated_from is None and old.with_name("legacy-v1.jsonl.v1.bak").exists()
    load(walk.qtbot, walk.window, walk.folder / "demo.jsonl")


def _fake_pi(walk: Walk, monkeypatch_env: Callable[[str, str], None]) -> Path:
    """A `pi` and a terminal that write down how they were started, as Preferences sets a terminal."""
    bin_dir = walk.folder / "bin"
    bin_dir.mkdir(exist_ok=True)
    record = walk.folder / "terminal-args"
    for name, body in (("pi", "exit 0"), ("walk-terminal", f'printf "%s\\n" "$@" > {record}')):
        script = bin_dir / name
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch_env("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    QSettings().setValue(TERMINAL_SETTING, str(bin_dir / "walk-terminal"))
    return record


def branch_end(written: Path) -> str:
    """The entry a written branch ends at: its last entry but the labels (pi leaves label entries out of the
    path and writes the labels after it)."""
    entries = [orjson.loads(line) for line in written.read_bytes().splitlines()[1:]]
    return [entry for entry in entries if entry["type"] != "label"][-1]["id"]


def continue_in_pi(walk: Walk, choose: Choose, at_leaf: bool) -> None:
    record = walk.folder / "terminal-args"
    record.unlink(missing_ok=True)
    with walk.qtbot.waitSignal(walk.window.branch.finished, timeout=20_000) as finished:
        choose()
    assert finished.args[0].startswith("Started pi on"), finished.args[0]
    written = walk.window.branch.last_written
    walk.wait(record.exists, timeout=10_000)
    walk.wait(lambda: record.read_text().endswith("\n"), timeout=10_000)
    assert record.read_text().splitlines()[-2:] == ["--session", str(written)]
    end = walk.session.leaf_id if at_leaf else walk.controller.selected
    assert branch_end(written) == [key for key in walk.session.path_to(end) if walk.session.entries[key].type != "label"][-1]


def preferences(walk: Walk, choose: Choose) -> None:
    dialog = _dialog(walk, choose, lambda: getattr(walk.window.branch, "preferences", None))
    assert dialog.terminal_edit.text() == QSettings().value(TERMINAL_SETTING)
    dialog.reject()


def export_image(walk: Walk, choose: Choose) -> None:
    dialog = _dialog(walk, choose, lambda: getattr(walk.window, "file_dialog", None))
    assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
    target = walk.folder / "tree.png"
    dialog.selectFile(str(target))
    dialog.accept()
    assert target.stat().st_size > 0 and walk.window.status_label.text() == f"Tree image written to {target}"
    walk.window.file_dialog = None


def share(walk: Walk, choose: Choose) -> None:
    """Asks where (a save dialog opened with open()), looks for secrets, shows them for review; Write writes the page."""
    action = walk.window.share
    dialog = _dialog(walk, choose, lambda: action.file_dialog)
    assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
    target = walk.folder / "shared.html"
    dialog.selectFile(str(target))
    dialog.accept()
    walk.wait(lambda: action.dialog is not None and action.dialog.isVisible(), timeout=30_000)
    action.dialog.write_button.click()
    walk.wait(lambda: action.last_message.startswith("Shared"), timeout=60_000)
    assert target.stat().st_size > 0


def usage(walk: Walk, choose: Choose) -> None:
    """Shows the Usage dock, and puts it away again for the rest of the walk."""
    dock = walk.window.usage_dock
    choose()
    walk.wait(dock.isVisible, timeout=5_000)
    dock.hide()


def undo(walk: Walk, choose: Choose) -> None:
    key = walk.controller.selected
    with walk.qtbot.waitSignal(walk.window.labels.written, timeout=20_000):
        walk.window.labels.set(key, "to undo")
    walk.change(choose, appended)
    assert key not in walk.session.labels
    walk.folded = [key]


def redo(walk: Walk, choose: Choose) -> None:
    key = walk.folded[0]  # the entry whose label Undo took back
    assert walk.window.labels.undo_stack.canRedo()
    walk.change(choose, appended)
    assert walk.session.labels.get(key) == "to undo"


def find(walk: Walk, choose: Choose) -> None:
    walk.window.activateWindow()  # as it is again once the dialogs before are closed
    walk.wait(walk.window.isActiveWindow, timeout=3_000)
    choose()
    walk.wait(walk.window.tree.search_edit.hasFocus, timeout=3_000)


def clear_search(walk: Walk, choose: Choose) -> None:
    _search(walk, "test")
    choose()
    assert walk.window.tree.search_edit.text() == "" and not walk.window.tree.hits


def _search(walk: Walk, query: str) -> None:
    walk.window.tree.search_edit.setText(query)
    walk.window.tree.search_now()
    assert len(walk.window.tree.hits) > 2


def set_label(walk: Walk, choose: Choose) -> None:
    key = walk.controller.selected
    dialog = _dialog(walk, choose, lambda: walk.window.labels.dialog)
    dialog.edit.setText("walked")
    walk.change(dialog.set_button.click, appended)
    assert walk.session.labels.get(key) == "walked"


def clear_label(walk: Walk, choose: Choose) -> None:
    key = walk.controller.selected
    if key not in walk.session.labels:
        with walk.qtbot.waitSignal(walk.window.labels.written, timeout=20_000):
            walk.window.labels.set(key, "to clear")
    walk.change(choose, appended)
    assert key not in walk.session.labels


def compare_with(walk: Walk, choose: Choose) -> None:
    key = walk.controller.selected
    picker = _dialog(walk, choose, lambda: getattr(walk.window, "leaf_picker", None))
    walk.wait(picker.selected_id)
    other = picker.selected_id()
    with walk.qtbot.waitSignal(walk.controller.changed, check_params_cb=compared, timeout=20_000):
        QTest.keyClick(picker.filter_edit, Qt.Key.Key_Return)
    assert walk.controller.compared == (key, other) and walk.window.compare_dock.isVisible()
    walk.controller.set_compare(None, None)


def copy_id(walk: Walk, choose: Choose) -> None:
    QApplication.clipboard().clear()
    choose()
    assert walk.clipboard() == walk.controller.selected


def extract(walk: Walk, choose: Choose) -> None:
    key = walk.controller.selected
    with walk.qtbot.waitSignal(walk.window.branch.finished, timeout=20_000):
        choose()
    written = walk.window.branch.last_written
    assert written is not None and written.parent == walk.controller.path.parent
    assert branch_end(written) == key
    box = walk.window.branch.message_box
    assert box.isVisible() and str(written) in box.text()
    box.button(QMessageBox.StandardButton.Close).click()


def as_outline(walk: Walk, choose: Choose) -> None:
    choose()
    assert walk.view.mode.current == OUTLINE


def as_map(walk: Walk, choose: Choose) -> None:
    if walk.view.mode.current != OUTLINE:
        walk.view.tree_actions.as_outline.trigger()
    choose()
    assert walk.view.mode.current != OUTLINE


def zoom(walk: Walk, choose: Choose, closer: bool) -> None:
    if walk.view.mode.current == OUTLINE:
        walk.view.tree_actions.as_map.trigger()
    walk.view.fit()
    before = walk.view.zoom_factor()
    choose()
    assert (walk.view.zoom_factor() > before) if closer else (walk.view.zoom_factor() < before)


def fit(walk: Walk, choose: Choose) -> None:
    walk.view.zoom_by(3.0)
    choose()
    slack = 8 / walk.view.zoom_factor()  # a ring's or a flag's overhang: a few pixels on screen
    shown = walk.view.mapToScene(walk.view.viewport().rect()).boundingRect().adjusted(-slack, -slack, slack, slack)
    assert shown.contains(walk.view.scene().itemsBoundingRect())


def fold_all(walk: Walk, choose: Choose) -> None:
    walk.view.unfold_all()
    assert not walk.view.fold_items()
    choose()
    assert walk.view.fold_items()


def unfold_all(walk: Walk, choose: Choose) -> None:
    walk.view.fold_all()
    assert walk.view.fold_items()
    choose()
    assert not walk.view.fold_items()


def go_leaf(walk: Walk, choose: Choose) -> None:
    walk.select(walk.session.roots[0])
    choose()
    assert walk.controller.selected == walk.session.leaf_id


def legend(walk: Walk, choose: Choose) -> None:
    before = walk.view.legend.enabled
    choose()
    assert walk.view.legend.enabled is (not before) and walk.view.legend.isVisible() is (not before)
    choose()
    assert walk.view.legend.enabled is before


def theme(walk: Walk, choose: Choose, name: str) -> None:
    choose()
    assert walk.window.themes.theme.value == name == QSettings().value("view/theme")
    window_colour = QApplication.palette().color(QPalette.ColorRole.Window)
    if name != "system":
        assert (window_colour.lightness() < 128) is (name == "dark")


def toggle_dock(walk: Walk, choose: Choose, dock_name: str) -> None:
    dock = getattr(walk.window, dock_name)
    before = dock.isVisible()
    choose()
    assert dock.isVisible() is (not before)
    choose()
    assert dock.isVisible() is before


def search_all(walk: Walk, choose: Choose) -> None:
    walk.window.search_dock.hide()
    choose()
    assert walk.window.search_dock.isVisible()


def shortcuts(walk: Walk, choose: Choose) -> None:
    dialog = _dialog(walk, choose, lambda: getattr(walk.window, "shortcuts_dialog", None))
    assert dialog.rows()
    dialog.reject()


def open_demo(walk: Walk, choose: Choose) -> None:
    walk.change(choose, replaced)
    assert is_demo(walk.controller.path)
    load(walk.qtbot, walk.window, walk.folder / "demo.jsonl")


def show_log(walk: Walk, choose: Choose) -> None:
    dialog = _dialog(walk, choose, lambda: getattr(walk.window, "log_viewer", None))
    assert dialog.path.parent.name == "pibrowser"
    dialog.close()
    walk.window.log_viewer = None


def about(walk: Walk, choose: Choose) -> None:
    def box():
        return next(
            (w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.windowTitle() == "About pibrowser"), None
        )

    shown = _dialog(walk, choose, box)
    assert "pibrowser" in shown.text()
    shown.close()


def previous_next_hit(walk: Walk, choose: Choose, step: int) -> None:
    _search(walk, "test")
    tree = walk.window.tree
    tree.next_hit()
    before = tree.search.index
    choose()
    assert tree.search.index == (before + step) % len(tree.hits) and walk.controller.selected == tree.hits[tree.search.index]
    tree.clear_search()


# ---- the tree's right-click entries


def fold_run(walk: Walk, choose: Choose) -> None:
    key = walk.controller.selected
    choose()
    assert any(key in item.members for item in walk.view.fold_items())


def expand_fold(walk: Walk, choose: Choose, everything: bool) -> None:
    choose()
    members = walk.folded
    shown = {item.key for item in walk.view.node_items()}
    assert (set(members) <= shown) if everything else (members[0] in shown)


def next_branches(walk: Walk, choose: Choose) -> None:
    hidden = sum(item.hidden for item in walk.view.gap_items())
    page = walk.view.gap_items()[0].page()  # the gap right-clicked: its next page, or all it hides
    choose()
    assert sum(item.hidden for item in walk.view.gap_items()) == hidden - page


# ---- the strip's


def select_from_strip(walk: Walk, choose: Choose, text: str) -> None:
    key = text.removeprefix("Select ").strip()
    choose()
    assert walk.controller.selected == key


def stacked(walk: Walk, choose: Choose) -> None:
    before = walk.window.timeline.stacked.enabled
    choose()
    assert walk.window.timeline.stacked.enabled is (not before)
    walk.wait(lambda: bool(walk.window.timeline.stacked.groups) is (not before))


def copy_figures(walk: Walk, choose: Choose, kind: str) -> None:
    QApplication.clipboard().clear()
    choose()
    keys = walk.window.timeline.series[0].keys
    if kind == "csv":
        lines = walk.clipboard().splitlines()
        assert lines[0].startswith("id,") and [line.split(",")[0] for line in lines[1:]] == keys
    else:
        assert [row["id"] for row in orjson.loads(walk.clipboard())] == keys


# ---- a card's, and the context header's


def copy_card(walk: Walk, choose: Choose, card: Card, what: str, text: str) -> None:
    QApplication.clipboard().clear()
    choose()
    copied = walk.clipboard()
    if what == "text":
        assert copied == message_text(card.item.message) and copied
    elif what == "json":
        assert orjson.loads(copied) == orjson.loads(orjson.dumps(card.item.message))
    else:
        assert copied == re.search(r"\(([^()]*)\)$", text).group(1)


def select_card(walk: Walk, choose: Choose, card: Card) -> None:
    choose()
    assert walk.controller.selected == card.item.entry.id


def copy_context(walk: Walk, choose: Choose, kind: str) -> None:
    QApplication.clipboard().clear()
    choose()
    copied = walk.clipboard()
    if kind == "json":
        pis = orjson.loads(copied)  # as `pibrowser context --format json` prints it
        assert set(pis) == {"leaf", "messages", "thinkingLevel", "model"} and pis["leaf"] == walk.controller.selected
    else:
        assert copied.startswith("#") and walk.controller.selected in copied


def label_on_path(walk: Walk, choose: Choose, text: str) -> None:
    key = re.search(r"\(([^()]*)\)$", text).group(1)
    choose()
    assert walk.controller.selected == key


def quit_window(walk: Walk, choose: Choose) -> None:
    choose()
    walk.wait(lambda: not walk.window.isVisible(), timeout=5_000)


Check = Callable[[Walk, Choose], None]

CHECKS: dict[str, Check] = {
    "Open…": open_file,
    "Open Folder…": open_folder,
    "Reload": reload,
    "Follow File Changes": follow,
    "Upgrade to pi's Current Format…": upgrade,
    "Continue Current Leaf in pi…": lambda walk, choose: continue_in_pi(walk, choose, at_leaf=True),
    "Preferences…": preferences,
    "Export Tree Image…": export_image,
    "Share as HTML…": share,
    "Usage…": usage,
    "Undo": undo,
    "Redo": redo,
    "Find…": find,
    "Clear Search": clear_search,
    "Set Label…": set_label,
    "Clear Label": clear_label,
    "Compare With…": compare_with,
    "Copy Entry Id": copy_id,
    "Extract Branch as New Session…": extract,
    "Continue in pi…": lambda walk, choose: continue_in_pi(walk, choose, at_leaf=False),
    "Tree as Outline": as_outline,
    "Tree as Map": as_map,
    "Zoom In": lambda walk, choose: zoom(walk, choose, closer=True),
    "Zoom Out": lambda walk, choose: zoom(walk, choose, closer=False),
    "Fit Tree to Window": fit,
    "Fold All Runs": fold_all,
    "Unfold All Runs": unfold_all,
    "Go to Current Leaf": go_leaf,
    "Show Path Legend": legend,
    "System": lambda walk, choose: theme(walk, choose, "system"),
    "Light": lambda walk, choose: theme(walk, choose, "light"),
    "Dark": lambda walk, choose: theme(walk, choose, "dark"),
    "Sessions": lambda walk, choose: toggle_dock(walk, choose, "sessions_dock"),
    "Context": lambda walk, choose: toggle_dock(walk, choose, "context_dock"),
    "Compare": lambda walk, choose: toggle_dock(walk, choose, "compare_dock"),
    "Trace": lambda walk, choose: toggle_dock(walk, choose, "trace_dock"),
    "Files": lambda walk, choose: toggle_dock(walk, choose, "files_dock"),
    "Context Over Time": lambda walk, choose: toggle_dock(walk, choose, "timeline_dock"),
    "Warnings": lambda walk, choose: toggle_dock(walk, choose, "problems_dock"),
    "Search All Sessions…": search_all,
    "Keyboard Shortcuts": shortcuts,
    "Open Demo Session": open_demo,
    "Show Log": show_log,
    "About pibrowser": about,
    "Quit": quit_window,
    "◀": lambda walk, choose: previous_next_hit(walk, choose, -1),
    "▶": lambda walk, choose: previous_next_hit(walk, choose, +1),
    "Fold This Run": fold_run,
    "Show the First": lambda walk, choose: expand_fold(walk, choose, everything=False),
    "Expand All": lambda walk, choose: expand_fold(walk, choose, everything=True),
    "Show the Next": next_branches,
    "Show What the Context Is Made Of": stacked,
    "Copy Path's Figures as CSV": lambda walk, choose: copy_figures(walk, choose, "csv"),
    "Copy Path's Figures as JSON": lambda walk, choose: copy_figures(walk, choose, "json"),
    "Copy as Markdown Transcript": lambda walk, choose: copy_context(walk, choose, "markdown"),
    "Copy as pi's JSON": lambda walk, choose: copy_context(walk, choose, "json"),
}


ONLY_ON_BIG_TREES = {"Show the First", "Show the Next"}  # a fold of more than EXPAND_LIMIT entries, a level too wide to draw


def check_for(walk: Walk, text: str) -> Check:
    """The check of an entry by its text: its own, else the one its text starts with."""
    name = text if text in CHECKS else next((name for name in CHECKS if text.startswith(name)), None)
    assert name is not None, f"no check for the entry {text!r}: say here what it does"
    walk.met.add(name)
    return CHECKS[name]


# ---- reaching the entries -----------------------------------------------------------------------------


def entries(menu: QMenu) -> list[QAction]:
    return [action for action in menu.actions() if not action.isSeparator() and action.isVisible()]


def menu_bar_paths(window: MainWindow) -> list[list[str]]:
    """Each entry of the menu bar, as the texts of the title and submenus that lead to it, then its own."""
    paths: list[list[str]] = []

    def walk(menu: QMenu, above: list[str]) -> None:
        for action in entries(menu):
            if action.menu() is not None:
                walk(action.menu(), [*above, plain(action.text())])
            else:
                paths.append([*above, plain(action.text())])

    for top in window.menuBar().actions():
        walk(top.menu(), [plain(top.text())])
    return paths


def in_menu(actions: list[QAction], text: str) -> QAction:
    """The entry that reads `text`; or, for an entry whose text says what it acts on (Undo Label “x”), the
    one entry whose first word is the same."""
    found = [action for action in actions if plain(action.text()) == text]
    if not found:
        found = [action for action in actions if plain(action.text()).split(" ")[0] == text.split(" ")[0]]
    assert len(found) == 1, f"{text!r} is not one entry of {[plain(action.text()) for action in actions]}"
    return found[0]


def from_menu_bar(walk: Walk, path: list[str]) -> Choose:
    """Open the menu by its title in the bar, its submenus by their entries, and take the entry (each
    found by its text when its menu shows: a menu may make its entries as it opens)."""

    def choose() -> None:
        bar = walk.window.menuBar()
        title = in_menu(bar.actions(), path[0])
        bar.setActiveAction(title)
        menu = title.menu()
        walk.wait(menu.isVisible, timeout=3_000)
        for text in path[1:-1]:
            sub = in_menu(menu.actions(), text)
            menu.setActiveAction(sub)
            QTest.keyClick(menu, Qt.Key.Key_Right)
            menu = sub.menu()
            walk.wait(menu.isVisible, timeout=3_000)
        click(menu, in_menu(menu.actions(), path[-1]))
        assert not menu.isVisible()

    return choose


def walk_menu_bar(walk: Walk) -> None:
    quit_path: list[str] | None = None
    for path in menu_bar_paths(walk.window):
        text = path[-1]
        if text == "Quit":
            quit_path = path  # the end of the walk
            continue
        if path[-2] == "Open Recent":
            open_recent(walk, from_menu_bar(walk, path), text)
            walk.met.add("Open Recent")
            load(walk.qtbot, walk.window, walk.folder / "demo.jsonl")
            continue
        check_for(walk, text)(walk, from_menu_bar(walk, path))
    assert quit_path is not None
    walk.met.add("Quit")
    CHECKS["Quit"](walk, from_menu_bar(walk, quit_path))


def toolbar_choose(walk: Walk, bar: QToolBar, action: QAction) -> Choose:
    """Click the action's button; when the bar has no room for it, take it from the bar's » menu."""

    def choose() -> None:
        button = bar.widgetForAction(action)
        if button is not None and button.isVisible():
            walk.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
            return
        extension = next(b for b in bar.findChildren(QToolButton) if b.objectName() == "qt_toolbar_ext_button")
        assert extension.isVisible(), f"{plain(action.text())!r} is neither on the bar nor in its » menu"
        choose_in_popup(lambda: walk.qtbot.mouseClick(extension, Qt.MouseButton.LeftButton), lambda menu: action)

    return choose


def walk_tree_bar(walk: Walk, width: int) -> None:
    """The tree's bar at this window width: its buttons and its toolbar's, each clicked."""
    walk.window.resize(width, 700)
    walk.wait(lambda: walk.window.width() == width)
    pane = walk.window.tree
    for button in pane.top_bar.findChildren(QToolButton, options=Qt.FindChildOption.FindDirectChildrenOnly):
        action = button.defaultAction()
        if action is not None and button.isVisible():
            check_for(walk, plain(action.text()))(walk, lambda button=button: walk.qtbot.mouseClick(button, Qt.MouseButton.LeftButton))
    bar = pane.toolbar
    for action in bar.actions():
        if action.isSeparator() or not action.text() or not action.isVisible():
            continue  # the bar's words and counts, not entries
        check_for(walk, plain(action.text()))(walk, toolbar_choose(walk, bar, action))


def menu_choose(open_menu: Callable[[], QMenu], text: str) -> Choose:
    """Open a menu as its owner opens it and take the entry that reads `text`."""

    def choose() -> None:
        menu = open_menu()
        click(menu, entry(menu, text))

    return choose


def walk_menu(walk: Walk, open_menu: Callable[[], QMenu], check: Callable[[str], Check] | None = None) -> list[str]:
    """Every entry of a menu opened anew for each: the entry taken, and its check run."""
    menu = open_menu()
    texts = [plain(action.text()) for action in entries(menu)]
    menu.close()
    for text in texts:
        chosen = (check or (lambda text: check_for(walk, text)))(text)
        chosen(walk, menu_choose(open_menu, text))
    return texts


def node_spot(walk: Walk, key: str) -> QPoint:
    item = walk.view.item_for(key)
    walk.view.centerOn(item.pos())
    return walk.view.mapFromScene(item.pos())


def walk_tree_menus(walk: Walk) -> None:
    view = walk.view
    if view.mode.current == OUTLINE:
        view.tree_actions.as_map.trigger()
    view.fold_all()
    # A node of a long run: its menu offers the selection's actions and folding the run.
    view.unfold_all()
    run_key = next(key for key in walk.session.path_to(walk.session.leaf_id)[1:-1] if view.can_fold(key))

    def on_node() -> QMenu:
        view.unfold_all()
        walk.select(run_key)
        return right_click(view.viewport(), node_spot(walk, run_key))

    texts = walk_menu(walk, on_node)
    assert any(text.startswith("Fold This Run") for text in texts) and "Set Label…" in texts

    # A fold: show its first entries, or all of them.
    def on_fold() -> QMenu:
        view.fold_all()
        fold = max(view.fold_items(), key=lambda item: len(item.members))
        walk.folded = list(fold.members)
        view.centerOn(fold.pos())
        return right_click(view.viewport(), view.mapFromScene(fold.pos()))

    assert any(text.startswith("Expand All") for text in walk_menu(walk, on_fold))

    # Where there is no node: the view's own entries.
    def on_nothing() -> QMenu:
        view.fit()
        return right_click(view.viewport(), QPoint(2, view.viewport().height() - 2))

    walk_menu(walk, on_nothing)


def walk_strip_menu(walk: Walk) -> None:
    strip = walk.window.timeline
    walk.window.timeline_dock.show()
    walk.window.timeline_dock.raise_()
    walk.select(walk.session.leaf_id)
    walk.wait(lambda: bool(strip.series))

    def on_strip() -> QMenu:
        walk.select(walk.session.leaf_id)
        walk.wait(lambda: bool(strip.series))
        return right_click(strip, QPoint(strip.width() // 2, strip.height() // 2))

    def check(text: str) -> Check:
        if text.startswith("Select "):
            walk.met.add("Select")
            return lambda walk, choose: select_from_strip(walk, choose, text)
        return check_for(walk, text)

    texts = walk_menu(walk, on_strip, check)
    assert any(text.startswith("Select ") for text in texts)
    walk_menu(walk, on_strip, check)  # the stacked areas off again


def walk_card_menus(walk: Walk, cards, name: str, rows: Callable[[], list[int]]) -> None:
    """Each card's right-click menu on the rows given, a card of each kind of menu."""
    for row in rows():

        def on_card(row=row) -> QMenu:
            view = live(cards, row)
            return right_click(view, QPoint(8, 8))

        card = _card_at(cards, row)

        def check(text: str, card=card) -> Check:
            walk.met.add(f"{name} card")
            if text == "Copy Text":
                return lambda walk, choose: copy_card(walk, choose, card, "text", text)
            if text == "Copy Message JSON":
                return lambda walk, choose: copy_card(walk, choose, card, "json", text)
            if text.startswith(("Copy Entry Id (", "Copy Tool Call Id (")):
                return lambda walk, choose: copy_card(walk, choose, card, "id", text)
            if text.startswith("Select Entry "):
                return lambda walk, choose: select_card(walk, choose, card)
            return check_for(walk, text)

        walk_menu(walk, on_card, check)


def _card_at(cards, row: int) -> Card:
    view = live(cards, row)
    found = view.card_at(QPoint(8, 8))
    assert isinstance(found, Card)
    return found


def walk_context_cards(walk: Walk) -> None:
    walk.window.context_dock.show()
    walk.window.context_dock.raise_()
    walk.select(walk.session.leaf_id)
    cards = walk.window.context_panel.list
    walk.wait(lambda: bool(cards.rows))

    def rows() -> list[int]:
        # The first card, and one with tool calls (its menu copies their ids).
        calls = next(i for i, item in enumerate(cards.rows) if item.message.get("role") == "assistant" and call_ids(item.message))
        return [0, calls]

    walk_card_menus(walk, cards, "context", rows)


def walk_text_menu(walk: Walk) -> None:
    """A card's text, live under the mouse: Qt's own menu of a text (copy what is selected, select all)."""
    cards = walk.window.context_panel.list
    row = next(i for i, item in enumerate(cards.rows) if item.message.get("role") == "user")
    card = _card_at(cards, row)

    def text_view():
        return reach_text(walk.qtbot, cards, row, card.texts[0])

    def opens() -> QMenu:
        return right_click(text_view().viewport(), QPoint(4, 4))

    def select_all(walk: Walk, choose: Choose) -> None:
        choose()
        view = text_view()
        assert view.textCursor().selectedText().replace("\u2029", "\n") == view.toPlainText() != ""

    def copy(walk: Walk, choose: Choose) -> None:
        text_view().selectAll()
        QApplication.clipboard().clear()
        choose()
        assert walk.clipboard() == text_view().toPlainText() != ""

    def no_link(walk: Walk, choose: Choose) -> None:
        menu = opens()  # not on a link: nothing to copy, offered disabled
        assert not entry(menu, "Copy Link Location").isEnabled()
        menu.close()

    checks = {"Select All": select_all, "Copy": copy, "Copy Link Location": no_link}

    def check(text: str) -> Check:
        walk.met.add(f"text {text}")
        return checks[text.split("\t")[0]]  # Qt's entries say their keys after a tab

    assert {text.split("\t")[0] for text in walk_menu(walk, opens, check)} == set(checks)


def walk_compare_cards(walk: Walk) -> None:
    leaves = [leaf for leaf in walk.session.leaves() if leaf != walk.session.leaf_id]
    with walk.qtbot.waitSignal(walk.controller.changed, check_params_cb=compared, timeout=20_000):
        walk.controller.set_compare(walk.session.leaf_id, leaves[0])
    cards = walk.window.compare_view.list
    walk.wait(lambda: bool(cards.rows))
    row = next(i for i in range(len(cards.rows)) if _has_card(cards, i))
    walk_card_menus(walk, cards, "compare", lambda: [row])
    walk.controller.set_compare(None, None)


def _has_card(cards, row: int) -> bool:
    return isinstance(live(cards, row).card_at(QPoint(8, 8)), Card)


def walk_button_menu(walk: Walk, button: QToolButton, check: Callable[[str], Check] | None = None) -> None:
    """Every entry of a button's menu, the menu opened anew for each as a click on the button opens it."""

    def opens() -> None:
        walk.window.context_dock.raise_()
        walk.select(walk.session.leaf_id)
        if button.popupMode() == QToolButton.ToolButtonPopupMode.MenuButtonPopup:
            arrow = QPoint(button.width() - 4, button.height() // 2)  # the button's arrow part
            walk.qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=arrow)
        else:
            walk.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    texts: list[str] = []
    choose_in_popup(opens, lambda menu: texts.extend(plain(a.text()) for a in entries(menu)))
    assert texts, "the menu is empty"
    for text in texts:
        chosen = (check or (lambda text: check_for(walk, text)))(text)
        chosen(walk, lambda text=text: choose_in_popup(opens, lambda menu: entry(menu, text)))


def walk_header_menus(walk: Walk) -> None:
    header = walk.window.context_panel.header
    walk.window.context_dock.show()
    walk.select(walk.session.leaf_id)
    walk_button_menu(walk, header.copy_button)

    def on_path(text: str) -> Check:
        walk.met.add("label on path")
        return lambda walk, choose: label_on_path(walk, choose, text)

    assert header.path_labels_button.isEnabled()
    walk_button_menu(walk, header.path_labels_button, on_path)


# ---- the walks -------------------------------------------------------------------------------------


def test_every_action_does_what_it_says_and_logs_no_error(qtbot, tmp_path, caplog, monkeypatch):
    caplog.set_level(logging.INFO)
    copy = tmp_path / "demo.jsonl"
    copy.write_bytes(DEMO.read_bytes())
    window = MainWindow(restore_layout=False)  # shown for real and active: keys and focus reach it
    window.resize(1000, 700)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitActive(window)
    walk = Walk(qtbot, window, tmp_path)
    _fake_pi(walk, monkeypatch.setenv)
    load(qtbot, window, copy)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3_000)

    walk_tree_bar(walk, 1000)
    walk_tree_bar(walk, 800)  # the toolbar's » menu holds what the bar has no room for
    window.resize(1000, 700)
    walk_tree_menus(walk)
    walk_strip_menu(walk)
    walk_context_cards(walk)
    walk_text_menu(walk)
    walk_compare_cards(walk)
    walk_header_menus(walk)
    walk_menu_bar(walk)

    unused = set(CHECKS) - walk.met - ONLY_ON_BIG_TREES
    assert not unused, f"entries checked here that the window no longer offers: {sorted(unused)}"
    problems = [f"{record.name}: {record.getMessage()}" for record in caplog.records if record.levelno >= logging.WARNING]
    assert not problems


def test_the_menus_of_a_huge_fold_and_of_a_level_too_wide_to_draw(qtbot, tmp_path, caplog):
    """Entries only a big tree offers: a fold too long to open at once, the gap of a level too wide."""
    caplog.set_level(logging.INFO)
    items = chain(EXPAND_LIMIT + 200)
    # Replies to one message, too many to draw: a gap hides more than a click shows at once.
    items += [message(f"c{i}", "m0", "user", f"reply {i}", second=5000 + i) for i in range(WIDE_LIMIT + EXPAND_LIMIT)]
    window = MainWindow(restore_layout=False)
    window.resize(1000, 700)
    qtbot.addWidget(window)
    window.show()
    walk = Walk(qtbot, window, tmp_path)
    load(qtbot, window, write(tmp_path / "big.jsonl", *items))
    view = walk.view
    walk.select(f"m{EXPAND_LIMIT + 199}")

    def on_fold() -> QMenu:
        view.fold_all()
        fold = max(view.fold_items(), key=lambda item: len(item.members))
        assert len(fold.members) > EXPAND_LIMIT
        walk.folded = list(fold.members)
        view.centerOn(fold.pos())
        return right_click(view.viewport(), view.mapFromScene(fold.pos()))

    assert any(text.startswith("Show the First") for text in walk_menu(walk, on_fold))

    def on_gap() -> QMenu:
        (gap, *_) = view.gap_items()
        view.centerOn(gap.pos())
        return right_click(view.viewport(), view.mapFromScene(gap.pos()))

    # The gap's own entry (the view's entries after it are walked on the demo: unfolding all would show
    # every branch, and the gap would be gone).
    menu = on_gap()
    first = plain(entries(menu)[0].text())
    menu.close()
    check_for(walk, first)(walk, menu_choose(on_gap, first))
    assert ONLY_ON_BIG_TREES <= walk.met
    assert not [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
