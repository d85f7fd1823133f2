"""The menu bar: which of the window's actions each menu lists, in what order; and Help ▸ About."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMenu, QMenuBar, QMessageBox, QWidget

if TYPE_CHECKING:
    from ..labels.label_editor import LabelEditor
    from ..style.theme import ThemeSwitcher
    from ..tree.pane import TreePane
    from .branch_actions import BranchActions
    from .share_action import ShareAction
    from .upgrade_action import UpgradeAction


class MenuSource(Protocol):
    """What the menus list, as the window holds it (a door to the window's actions, not the window)."""

    open_action: QAction
    open_folder_action: QAction
    reload_action: QAction
    follow_action: QAction
    export_action: QAction
    quit_action: QAction
    find_action: QAction
    clear_search_action: QAction
    label_action: QAction
    clear_label_action: QAction
    compare_action: QAction
    copy_id_action: QAction
    search_action: QAction
    usage_action: QAction
    shortcuts_action: QAction
    demo_action: QAction
    log_action: QAction
    about_action: QAction
    upgrade: UpgradeAction
    branch: BranchActions
    share: ShareAction
    labels: LabelEditor
    tree: TreePane
    themes: ThemeSwitcher
    sessions_dock: QDockWidget
    context_dock: QDockWidget
    compare_dock: QDockWidget
    trace_dock: QDockWidget
    files_dock: QDockWidget
    timeline_dock: QDockWidget
    problems_dock: QDockWidget

    def menuBar(self) -> QMenuBar: ...

    def branch_actions(self) -> list[QAction]: ...


def build_menu_bar(window: MenuSource) -> QMenu:
    """File, Edit, Entry, View and Help, from the window's actions; the (still empty) Open Recent menu."""
    bar = window.menuBar()
    file_menu = bar.addMenu("&File")
    file_menu.addAction(window.open_action)
    file_menu.addAction(window.open_folder_action)
    recent_menu = file_menu.addMenu("Open &Recent")
    _add(file_menu, [window.reload_action, window.follow_action, window.upgrade.action, None])
    _add(file_menu, [window.branch.continue_leaf_action, window.branch.preferences_action, None])
    _add(file_menu, [window.export_action, window.share.action, None, window.quit_action])
    _add(bar.addMenu("&Edit"), [window.labels.undo_action, window.labels.redo_action, None, window.find_action, window.clear_search_action])
    entry_menu = bar.addMenu("&Entry")
    _add(entry_menu, [window.label_action, window.clear_label_action, window.compare_action, window.copy_id_action, None])
    _add(entry_menu, window.branch_actions())
    view_menu = bar.addMenu("&View")
    _add(view_menu, [*window.tree.view_actions(), None])
    view_menu.addMenu(window.themes.menu(view_menu))
    view_menu.addSeparator()
    docks = (
        window.sessions_dock,
        window.context_dock,
        window.compare_dock,
        window.trace_dock,
        window.files_dock,
        window.timeline_dock,
        window.problems_dock,
    )
    _add(view_menu, [dock.toggleViewAction() for dock in docks] + [window.search_action, window.usage_action])
    _add(bar.addMenu("&Help"), [window.shortcuts_action, window.demo_action, window.log_action, window.about_action])
    return recent_menu


def _add(menu: QMenu, actions: Sequence[QAction | None]) -> None:
    """The actions in order; None is a separator."""
    for action in actions:
        menu.addSeparator() if action is None else menu.addAction(action)


def show_about(parent: QWidget) -> None:
    from ... import __version__

    box = QMessageBox(
        QMessageBox.Icon.Information,
        "About pibrowser",
        f"pibrowser {__version__}\n\nThe branch tree of a pi session and the exact context pi resolves for any node.",
        QMessageBox.StandardButton.Ok,
        parent,
    )
    box.finished.connect(box.deleteLater)
    box.open()
