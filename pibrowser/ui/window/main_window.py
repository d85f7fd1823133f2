"""The main window: the branch tree in the middle, the resolved context beside it.

Over 400 lines as one file because it is the window's wiring: which dock, action
and signal goes where. What each does lives in its own module (menus, dock_layout,
recent_files, the LabelEditor, BranchActions, UpgradeAction, the panels).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QChildEvent, QEvent, QSize, Qt, QThreadPool
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QTabBar,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
)

from ...model import Session
from ...model.text.describe import session_title
from ...model.library.discovery import initial_path
from ...model.text.plural import counted
from ...model.workspace import Change
from .branch_actions import BranchActions
from .upgrade_action import UpgradeAction
from .file_dialog import ask_for_path
from .share_action import ShareAction
from .export_folder import export_folder, remember_export_folder
from ..compare.compare_view import CompareView
from ..cards import ImageLoader
from ..context.panel import ContextPanel
from ..control.controller import SessionController
from ...resources import DEMO_SESSION
from .demo import demo_copy, is_demo
from ..labels.label_editor import LabelEditor
from .problems_panel import ProblemsPanel
from ..control.sessions_controller import SessionsController
from ..sessions.search_panel import install_search_dock
from ..usage.usage_dock import install_usage_dock
from ..sessions.sessions_panel import SessionsPanel
from ..style.theme import ThemeSwitcher
from ..timeline.strip import TimelineStrip
from ..tree.pane import TreePane
from . import dock_layout
from .menus import build_menu_bar, show_about
from .recent_files import RecentFiles
from ..guard import guarded


def window_title(session: Session) -> str:
    """The session (its name, or its first words) and the file, so windows and task bars tell sessions apart."""
    name = session_title(session)
    file = "demo session" if is_demo(session.path) else session.path.name
    return " — ".join(part for part in (name, file, "pibrowser") if part)


class MainWindow(QMainWindow):
    def __init__(self, controller: SessionController | None = None, restore_layout: bool = True, interactive: bool = True) -> None:
        super().__init__()
        self.controller = controller or SessionController(self)
        self.last_error: str | None = None
        # Without a user (a screenshot run) no box is ever shown: the message stays in the status bar.
        self.interactive = interactive
        self.warning: QMessageBox | None = None
        self.setWindowTitle("pibrowser")
        self.themes = ThemeSwitcher(self)
        self.themes.apply()
        self.labels = LabelEditor(self.controller, self)
        self._default_layout = not restore_layout
        self.setAcceptDrops(True)
        self.setDockNestingEnabled(True)
        self.tree = TreePane(self.controller)
        self.setCentralWidget(self.tree)
        # One loader for both docks, so an image both show is decoded and cached once.
        self.images = ImageLoader(self)
        self.context_panel = ContextPanel(self.controller, images=self.images)
        self.context_dock = self._dock("Context", "contextDock", self.context_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self.compare_view = CompareView(self.controller, images=self.images)
        self.compare_dock = self._dock("Compare", "compareDock", self.compare_view, Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.context_dock, self.compare_dock)
        self._add_trace_and_files()
        self.context_dock.raise_()
        self.problems = ProblemsPanel(self.controller)
        self.problems_dock = self._dock("Warnings", "problemsDock", self.problems, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.problems_dock.hide()
        # The folder of sessions, its list, its watcher and its usage: read by the Sessions dock, the search and the Usage view.
        self.sessions_controller = SessionsController(self)
        self.sessions = SessionsPanel(self.controller, self.sessions_controller)
        self.sessions_dock = self._dock("Sessions", "sessionsDock", self.sessions, Qt.DockWidgetArea.LeftDockWidgetArea)
        if self.sessions.populate() == 0:
            self.sessions_dock.hide()
        self.sessions.openFolderRequested.connect(self.choose_folder)
        self.search_dock, self.search_action = install_search_dock(self, self.controller, self.sessions_controller)
        self.usage_dock, self.usage_action = install_usage_dock(self, self.controller, self.sessions_controller)
        self.search_dock.visibilityChanged.connect(self._tip_tabs)
        self.timeline = TimelineStrip(self.controller)
        self.timeline_dock = self._dock("Context Over Time", "timelineDock", self.timeline, Qt.DockWidgetArea.BottomDockWidgetArea)
        # The bottom docks share one tab group: each gets the whole width, none a sliver of it.
        for dock in (self.problems_dock, self.search_dock, self.usage_dock):
            self.tabifyDockWidget(self.timeline_dock, dock)
        self.timeline_dock.raise_()
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)  # the strip sits under the tree
        self.branch = BranchActions(self, self.controller)
        self.upgrade = UpgradeAction(self, self.controller, interactive)
        self.share = ShareAction(self, self.controller, interactive)
        self._build_status_bar()
        self._build_actions()
        self.recent = RecentFiles(build_menu_bar(self), self.open_path, self.status_label.setText, keep=interactive)
        self.recent_menu = self.recent.menu
        self.tree.set_node_actions(
            [self.label_action, self.clear_label_action, self.compare_action, self.copy_id_action, *self.branch_actions()]
        )
        self.tree.searchChanged.connect(self.context_panel.set_search)
        self.context_panel.header.labelEditRequested.connect(self.labels.edit_selected)
        self.context_panel.header.labelClearRequested.connect(self.labels.clear_selected)
        self._connect()
        self.resize(1400, 900)
        if restore_layout:
            self._default_layout = not dock_layout.restore_layout(self)

    # ---- construction -------------------------------------------------------

    def _dock(self, title: str, name: str, widget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        dock.visibilityChanged.connect(self._tip_tabs)
        return dock

    def _compare_in_front(self) -> bool:
        # A tabbed dock behind another stays "visible" to Qt; what shows of it on screen tells.
        return not self.compare_dock.visibleRegion().isEmpty()

    def _tip_tabs(self) -> None:
        """Tabbed docks in a narrow window elide their titles: each tab's tooltip names it whole."""
        for bar in self.findChildren(QTabBar):
            for index in range(bar.count()):
                bar.setTabToolTip(index, bar.tabText(index))

    def _add_trace_and_files(self) -> None:
        """The Trace and Files tabs beside Context and Compare; one facts thread reads for both."""
        from ..files.files_view import FilesView
        from ..control.trace_facts import TraceFacts
        from ..trace.trace_panel import TracePanel

        self.trace_facts = TraceFacts(self.controller, self)
        self.compare_view.facts = self.trace_facts  # which side changed which files, read in the same thread
        self.trace_panel = TracePanel(self.controller, self.trace_facts)
        self.trace_dock = self._dock("Trace", "traceDock", self.trace_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self.files_view = FilesView(self.controller, self.trace_facts)
        self.files_dock = self._dock("Files", "filesDock", self.files_view, Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.compare_dock, self.trace_dock)
        self.tabifyDockWidget(self.trace_dock, self.files_dock)
        self.trace_panel.when_shown.follow(self.trace_dock)
        self.files_view.when_shown.follow(self.files_dock)

    def _build_status_bar(self) -> None:
        self.status_label = QLabel("No session open")
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)  # paths and messages come from files
        self.progress_bar = QProgressBar()
        self.progress_bar.setMaximumWidth(240)
        self.progress_bar.setTextVisible(True)
        self.progress_bar.hide()
        # While a label waits for pi to finish its line (the status line says so), it can be given up.
        self.label_cancel = QPushButton("Cancel Label")
        self.label_cancel.setToolTip("Give up the label waiting for pi: nothing is written")
        self.label_cancel.clicked.connect(self._cancel_label)
        self.label_cancel.hide()
        self.statusBar().addWidget(self.status_label, 1)
        self.statusBar().addPermanentWidget(self.label_cancel)
        self.statusBar().addPermanentWidget(self.progress_bar)

    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setStatusTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        self.open_action = self._action("&Open…", self.choose_file, QKeySequence.StandardKey.Open, "Open a session file")
        self.open_folder_action = self._action("Open &Folder…", self.choose_folder, "Ctrl+Shift+O", "Open the newest session in a folder")
        self.reload_action = self._action("&Reload", self.controller.reload, QKeySequence.StandardKey.Refresh, "Read the file again")
        self.follow_action = self._action("&Follow File Changes", self._toggle_follow, None, "Reload when pi appends to the file")
        self.follow_action.setCheckable(True)
        self.follow_action.setChecked(True)
        self.quit_action = self._action("&Quit", self.close, QKeySequence.StandardKey.Quit)
        self.label_action = self._action("Set &Label…", self.labels.edit_selected, "L", "Bookmark the selected entry, as pi's /label does")
        self.clear_label_action = self._action("&Clear Label", self.labels.clear_selected, "Shift+L", "Remove the selected entry's label")
        self.compare_action = self._action(
            "Co&mpare With…", self.choose_compare, "Ctrl+D", "Compare the selected entry's context with another leaf's"
        )
        self.copy_id_action = self._action("Copy Entry &Id", self._copy_id, "Ctrl+Shift+C")
        self.show_warnings_action = self.problems_dock.toggleViewAction()
        self.show_warnings_action.setText("&Warnings")
        self.find_action = self._action("&Find…", self.tree.focus_search, QKeySequence.StandardKey.Find, "Find in messages, labels and ids")
        self.clear_search_action = self._action("Clear &Search", self.tree.clear_search, "Esc", "Clear the search and return to the tree")
        self.export_action = self._action("&Export Tree Image…", self.export_tree_image, None, "Save the tree as a PNG or SVG image")
        self.demo_action = self._action("Open &Demo Session", self.open_demo, None, "Open a copy of the demo session, yours to label")
        self.shortcuts_action = self._action("&Keyboard Shortcuts", self.show_shortcuts, QKeySequence.StandardKey.HelpContents)
        self.log_action = self._action(
            "Show &Log", self.show_log, None, "What pibrowser did and every error it met, in this run and the ones before"
        )
        self.about_action = self._action("&About pibrowser", lambda: show_about(self))

    def _connect(self) -> None:
        c = self.controller
        c.loading.connect(self._on_loading)
        c.progress.connect(self._on_progress)
        c.changed.connect(self._on_change)
        c.loadFailed.connect(self._on_failed)
        self.labels.waiting.connect(self._label_waiting)
        self.labels.failed.connect(self._on_label_failed)
        self.labels.old_format.connect(self.upgrade.offer)
        self.labels.written.connect(self.label_cancel.hide)
        self.labels.cancelled.connect(self._label_cancelled)
        self.tree.view.told.connect(lambda text: self.statusBar().showMessage(text, 10_000))

    # ---- opening ----------------------------------------------------------------

    def open_path(self, path: str | Path) -> None:
        path = Path(path)
        if path.is_dir() and self.sessions.populate(path):
            self.sessions_dock.show()
        target = initial_path(path) if path.is_dir() else path
        if target is None:
            self._on_failed(f"{path}: no session files in this folder")
            return
        if target.resolve() == DEMO_SESSION.resolve():
            target = demo_copy() or target  # labels go to the user's copy, never to the one we ship
        self.controller.open(target)

    def open_demo(self) -> None:
        target = demo_copy()
        if target is None:
            self.status_label.setText("The demo session is not available (it ships in the resources folder)")
            return
        self.controller.open(target)

    def choose_file(self) -> None:
        start = str(self.controller.path.parent) if self.controller.path else ""
        self._choose("Open pi session", start, QFileDialog.FileMode.ExistingFile, "pi sessions (*.jsonl);;All files (*)")

    def choose_folder(self) -> None:
        self._choose("Open sessions folder", "", QFileDialog.FileMode.Directory)

    def _choose(
        self, title: str, start: str, mode: QFileDialog.FileMode, filters: str = "", chosen=None, save: bool = False
    ) -> QFileDialog:
        """Ask for a file or folder; `chosen(dialog, name)` (default: open it) runs on the answer."""
        answer = chosen if chosen is not None else lambda _dialog, name: self.open_path(name)
        self.file_dialog = ask_for_path(self, title, start, mode, answer, filters, save)
        return self.file_dialog

    @guarded
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    @guarded
    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
                event.acceptProposedAction()
                return

    def _on_loading(self, path: str) -> None:
        self.status_label.setText(f"Loading {path}…")
        self.progress_bar.setRange(0, 0)
        self.progress_bar.show()

    def _on_progress(self, done: int, total: int) -> None:
        self.progress_bar.setRange(0, max(total, 1))
        self.progress_bar.setValue(done)

    def _on_change(self, change: Change) -> None:
        """Title, status line, docks and actions follow what the workspace did."""
        session = self.controller.session
        if change.replaced:
            self._on_session(session)
        elif session is not None and (change.appended or change.problems_appended):
            self._describe(session)  # a broken line pi appends is counted, without popping the list up
        if change.problems and session is not None:
            self._on_problems(session)
        if change.replaced or change.selection or change.appended:
            self._on_selection(self.controller.selected)
        if change.compare:
            self._on_compare(*(self.controller.compared or (None, None)))
        elif (change.replaced or change.selection) and not self.controller.compared and self._compare_in_front():
            # The Compare tab has nothing to show for a selection: its context does. (Trace and
            # Files follow the selection themselves and stay in front.)
            self.context_dock.raise_()

    def _on_session(self, session: Session | None) -> None:
        self.progress_bar.hide()
        self.last_error = None
        self.upgrade.refresh(session)
        if session is None:
            return
        self._describe(session)
        self.problems_dock.setVisible(bool(session.problems))
        self.recent.remember(session.path)

    def _describe(self, session: Session) -> None:
        """Title and status line; pi may rename the session or add entries while it runs."""
        self.setWindowTitle(window_title(session))
        warnings = f", {counted(len(session.problems), 'warning')}" if session.problems else ""
        self.status_label.setText(f"{session.path} — {counted(len(session), 'entry')}, {counted(session.leaf_count(), 'leaf')}{warnings}")

    def _on_problems(self, session: Session) -> None:
        self._describe(session)
        self.problems_dock.show()

    def _on_failed(self, message: str) -> None:
        self.progress_bar.hide()
        self.last_error = message
        self.status_label.setText(message)
        if self.controller.failed_path is None or self.controller.failed_path.exists():
            self.problems_dock.show()  # a file that is gone has no problems to list: the status line says it
        background = self.controller.failure_is_background()
        if not background and self.isVisible():
            self._warn("Cannot open session", message)

    def branch_actions(self) -> list[QAction]:
        return [self.branch.extract_action, self.branch.continue_action]

    def _on_selection(self, key: str | None) -> None:
        """The entry actions apply to the selection: those that cannot are disabled."""
        session = self.controller.session
        has = key is not None and session is not None and key in session.entries
        for action in (self.label_action, self.compare_action, self.copy_id_action):
            action.setEnabled(has)
        self.clear_label_action.setEnabled(has and session is not None and key in session.labels)
        self.compare_action.setEnabled(has and session is not None and session.leaf_count() > 1)

    def _on_compare(self, left, right) -> None:
        # They share a tab: raising one never resizes a dock or moves the user's
        # splitters (their sizes are restored across runs).
        if left is not None:
            self.compare_dock.show()
            self.compare_dock.raise_()
        else:
            self.context_dock.raise_()  # the comparison was cleared: back to the selection's context

    def _toggle_follow(self, checked: bool) -> None:
        self.controller.follow_changes = checked

    # ---- entry actions ----------------------------------------------------------

    def _label_waiting(self, message: str) -> None:
        self.status_label.setText(message)
        self.label_cancel.show()

    def _cancel_label(self) -> None:
        self.label_cancel.hide()
        self.labels.cancel()

    def _label_cancelled(self) -> None:
        self.label_cancel.hide()
        self.status_label.setText("Label not written: cancelled while pi was writing its last line; the file is as it was")

    def _on_label_failed(self, message: str) -> None:
        self.label_cancel.hide()
        self.status_label.setText(message)
        self._warn("Label not written", message)

    def _warn(self, title: str, text: str) -> None:
        """A warning box that never runs a modal loop of its own (nothing may wait on it)."""
        if not self.interactive:
            return
        # Messages quote paths and ids from the file: never let Qt read them as HTML.
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.finished.connect(lambda result: self._close_warning(box))
        self.warning = box
        box.open()

    def _close_warning(self, box: QMessageBox) -> None:
        if self.warning is box:
            self.warning = None
        box.deleteLater()

    def choose_compare(self) -> None:
        session, key = self.controller.session, self.controller.selected
        if session is None or key is None:
            return
        from ..compare.leaf_picker import LeafPicker

        self.leaf_picker = LeafPicker(session, key, self)
        self.leaf_picker.chosen.connect(lambda other, key=key: self.controller.set_compare(key, other))
        self.leaf_picker.open()

    def _copy_id(self) -> None:
        from PySide6.QtWidgets import QApplication

        if self.controller.selected:
            QApplication.clipboard().setText(self.controller.selected)

    def show_shortcuts(self) -> None:
        from .shortcuts_dialog import ShortcutsDialog

        self.shortcuts_dialog = ShortcutsDialog(self.menuBar(), self)
        self.shortcuts_dialog.show()

    def show_log(self) -> None:
        from ...log_file import current_log
        from .log_viewer import LogViewer

        self.log_viewer = LogViewer(current_log(), self)
        self.log_viewer.show()

    def resize(self, *size) -> None:
        """As QWidget.resize; the first time, a size too small for the docks side by side tabs them
        first (Qt would otherwise grow the window to hold them)."""
        if self._default_layout:
            wanted = QSize(*size) if len(size) == 2 else QSize(size[0])
            bottom = (self.timeline_dock, self.search_dock, self.problems_dock)
            dock_layout.tab_docks_for_size(self, self.context_dock, bottom, self.sessions_dock, wanted.width(), wanted.height())
            layout = self.layout()
            if layout is not None:
                layout.activate()  # the smaller minimum now, not at the next event
        super().resize(*size)

    @guarded
    def childEvent(self, event: QChildEvent) -> None:
        super().childEvent(event)
        # The tab bars of docks tabbed together are the window's own children, made as the docks move.
        child = event.child()
        if event.type() == QEvent.Type.ChildPolished and isinstance(child, QTabBar):
            dock_layout.show_whole_titles(child)

    @guarded
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._default_layout:
            # Once, at the first show, when the user has no layout of their own yet.
            self._default_layout = False
            dock_layout.apply_default_layout(self, self.context_dock, self.sessions_dock)

    # ---- export ---------------------------------------------------------------------

    def export_tree_image(self) -> None:
        """Ask where to save the tree's picture (a dialog with no modal loop of its own), then write it."""
        from ..tree.export import EXPORT_FILTERS

        stem = self.controller.path.stem if self.controller.path else "tree"
        start = str(Path(export_folder()) / stem)
        self._choose("Export Tree Image", start, QFileDialog.FileMode.AnyFile, ";;".join(EXPORT_FILTERS), self._export_to, save=True)

    def _export_to(self, dialog: QFileDialog, name: str) -> None:
        from ..tree.export import export_tree

        try:
            written = export_tree(self.tree.view, Path(name), dialog.selectedNameFilter())
        except OSError as error:
            self._warn("Image not written", str(error))
            return
        remember_export_folder(Path(written).parent)
        self.status_label.setText(f"Tree image written to {written}")

    @guarded
    def closeEvent(self, event) -> None:
        if self.interactive:  # a screenshot's window is not the user's: their size and layout stay as they were
            dock_layout.save_layout(self)
        super().closeEvent(event)

    def wind_down(self) -> None:
        """Stop the background work and wait for every thread of ours to end it, before the
        application and the objects the threads report to are deleted (a thread emitting into
        them then crashes the exit): the file's checks and loads, the trace facts' reading, image
        decodes, and the shared pool's walks. Loops that step aside for the user give up at their
        next step (Pacer.stop): the fold and the file's check of a large session need not end."""
        self.controller.pacer.stop()
        self.trace_facts.stop()
        self.images.wait()
        self.controller.wait_for_jobs()
        QThreadPool.globalInstance().waitForDone()
