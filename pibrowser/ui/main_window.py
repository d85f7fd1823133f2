"""The main window: the branch tree in the middle, the resolved context beside it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
)

from ..model import Session
from ..model.describe import entry_title
from .branch_actions import BranchActions
from .context.compare_view import CompareView
from .context.images import ImageLoader
from .context.panel import ContextPanel
from .controller import SessionController
from .problems_panel import ProblemsPanel
from .search_panel import install_search_dock
from .sessions_panel import SessionsPanel
from .timeline import TimelineStrip
from .tree.pane import TreePane

MAX_RECENT = 10


class MainWindow(QMainWindow):
    def __init__(
        self, controller: SessionController | None = None, restore_layout: bool = True, interactive: bool = True
    ) -> None:
        super().__init__()
        self.controller = controller or SessionController(self)
        self.last_error: str | None = None
        # Without a user (a screenshot run) no box is ever shown: the message stays in the status bar.
        self.interactive = interactive
        self.warning: QMessageBox | None = None
        self.setWindowTitle("pibrowser")
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
        self.context_dock.raise_()
        self.problems = ProblemsPanel(self.controller)
        self.problems_dock = self._dock("Warnings", "problemsDock", self.problems, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.problems_dock.hide()
        self.sessions = SessionsPanel(self.controller)
        self.sessions_dock = self._dock("Sessions", "sessionsDock", self.sessions, Qt.DockWidgetArea.LeftDockWidgetArea)
        if self.sessions.populate() == 0:
            self.sessions_dock.hide()
        self.sessions.openFolderRequested.connect(self.choose_folder)
        self.search_dock, self.search_action = install_search_dock(self, self.controller, lambda: self.sessions.root)
        self.timeline = TimelineStrip(self.controller)
        self.timeline_dock = self._dock("Context Over Time", "timelineDock", self.timeline, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)  # the strip sits under the tree
        self.branch = BranchActions(self, self.controller)
        self._build_status_bar()
        self._build_actions()
        self._build_menus()
        self.tree.set_node_actions(
            [self.label_action, self.clear_label_action, self.compare_action, self.copy_id_action, *self.branch_actions()]
        )
        self.context_panel.header.labelEditRequested.connect(self.edit_label)
        self.context_panel.header.labelClearRequested.connect(self.clear_label)
        self._connect()
        self.resize(1400, 900)
        # Message cards need room to read; the tree copes with less.
        self.resizeDocks([self.context_dock, self.sessions_dock], [560, 360], Qt.Orientation.Horizontal)
        if restore_layout:
            self._restore_layout()

    # ---- construction -------------------------------------------------------

    def _dock(self, title: str, name: str, widget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_status_bar(self) -> None:
        self.status_label = QLabel("No session open")
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)  # paths and messages come from files
        self.progress_bar = QProgressBar()
        self.progress_bar.setMaximumWidth(240)
        self.progress_bar.setTextVisible(True)
        self.progress_bar.hide()
        self.statusBar().addWidget(self.status_label, 1)
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
        self.label_action = self._action("Set &Label…", self.edit_label, "L", "Bookmark the selected entry, as pi's /label does")
        self.clear_label_action = self._action("&Clear Label", self.clear_label, "Shift+L", "Remove the selected entry's label")
        self.compare_action = self._action("Co&mpare With…", self.choose_compare, "Ctrl+D", "Compare the selected entry's context with another leaf's")
        self.copy_id_action = self._action("Copy Entry &Id", self._copy_id, "Ctrl+Shift+C")
        self.show_warnings_action = self.problems_dock.toggleViewAction()
        self.show_warnings_action.setText("&Warnings")

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction(self.open_action)
        file_menu.addAction(self.open_folder_action)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        file_menu.addAction(self.reload_action)
        file_menu.addAction(self.follow_action)
        file_menu.addSeparator()
        file_menu.addAction(self.branch.continue_leaf_action)
        file_menu.addAction(self.branch.preferences_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        entry_menu = self.menuBar().addMenu("&Entry")
        for action in (self.label_action, self.clear_label_action, self.compare_action, self.copy_id_action):
            entry_menu.addAction(action)
        entry_menu.addSeparator()
        entry_menu.addActions(self.branch_actions())
        view_menu = self.menuBar().addMenu("&View")
        for action in self.tree.view_actions():
            view_menu.addAction(action)
        view_menu.addSeparator()
        for dock in (self.sessions_dock, self.context_dock, self.compare_dock, self.timeline_dock, self.problems_dock):
            view_menu.addAction(dock.toggleViewAction())
        view_menu.addAction(self.search_action)
        help_menu = self.menuBar().addMenu("&Help")
        self.shortcuts_action = self._action("&Keyboard Shortcuts", self.show_shortcuts, QKeySequence.StandardKey.HelpContents)
        help_menu.addAction(self.shortcuts_action)
        help_menu.addAction(self._action("&About pibrowser", self._about))
        self._refresh_recent()

    def _connect(self) -> None:
        c = self.controller
        c.loading.connect(self._on_loading)
        c.progress.connect(self._on_progress)
        c.sessionChanged.connect(self._on_session)
        c.loadFailed.connect(self._on_failed)
        c.problemsChanged.connect(self._on_problems)
        c.entriesAppended.connect(lambda session, ids: self._describe(session))
        c.selectionChanged.connect(self._on_selection)
        c.compareChanged.connect(self._on_compare)
        c.labelWaiting.connect(self.status_label.setText)
        c.labelFailed.connect(self._on_label_failed)

    # ---- opening ----------------------------------------------------------------

    def open_path(self, path: str | Path) -> None:
        from .app import initial_path

        path = Path(path)
        if path.is_dir() and self.sessions.populate(path):
            self.sessions_dock.show()
        target = initial_path(path) if path.is_dir() else path
        if target is None:
            self._on_failed(f"{path}: no session files in this folder")
            return
        self.controller.open(target)

    def choose_file(self) -> None:
        start = str(self.controller.path.parent) if self.controller.path else ""
        self._choose("Open pi session", start, QFileDialog.FileMode.ExistingFile, "pi sessions (*.jsonl);;All files (*)")

    def choose_folder(self) -> None:
        self._choose("Open sessions folder", "", QFileDialog.FileMode.Directory)

    def _choose(self, title: str, start: str, mode: QFileDialog.FileMode, filters: str = "") -> None:
        # open(), not getOpenFileName(): no modal loop of its own, so nothing ever waits on it.
        dialog = QFileDialog(self, title, start, filters)
        dialog.setFileMode(mode)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, mode == QFileDialog.FileMode.Directory)
        dialog.fileSelected.connect(self.open_path)
        dialog.finished.connect(dialog.deleteLater)
        self.file_dialog = dialog
        dialog.open()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

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

    def _on_session(self, session: Session | None) -> None:
        self.progress_bar.hide()
        self.last_error = None
        if session is None:
            return
        self._describe(session)
        self.problems_dock.setVisible(bool(session.problems))
        self._remember(session.path)

    def _describe(self, session: Session) -> None:
        """Title and status line; pi may rename the session or add entries while it runs."""
        title = session.name or session.path.name
        self.setWindowTitle(f"{title} — pibrowser")
        warnings = f", {len(session.problems):,} warnings" if session.problems else ""
        self.status_label.setText(f"{session.path} — {len(session):,} entries, {len(session.leaves()):,} leaves{warnings}")

    def _on_problems(self, session: Session) -> None:
        self._describe(session)
        self.problems_dock.show()

    def _on_failed(self, message: str) -> None:
        self.progress_bar.hide()
        self.last_error = message
        self.status_label.setText(message)
        self.problems_dock.show()
        background = self.controller.failure_is_background()
        if not background and self.isVisible():
            self._warn("Cannot open session", message)

    def branch_actions(self) -> list[QAction]:
        return [self.branch.extract_action, self.branch.continue_action]

    def _on_selection(self, key: str | None) -> None:
        has = key is not None
        for action in (self.label_action, self.clear_label_action, self.compare_action, self.copy_id_action):
            action.setEnabled(has)

    def _on_compare(self, left, right) -> None:
        if left is not None:
            self.compare_dock.show()
            # It shares the context dock's tab: raising it never resizes a dock
            # or moves the user's splitters (their sizes are restored across runs).
            self.compare_dock.raise_()

    def _toggle_follow(self, checked: bool) -> None:
        self.controller.follow_changes = checked

    # ---- entry actions ----------------------------------------------------------

    def edit_label(self) -> None:
        key = self.controller.selected
        if key is None:
            return
        from .label_dialog import LabelDialog

        session = self.controller.session
        current = session.labels.get(key)
        known = (str(label) for label in session.labels.values())
        self.label_dialog = LabelDialog(key, entry_title(session.entries[key], 90), current, known, self)
        self.label_dialog.chosen.connect(self._write_label)
        self.label_dialog.open()

    def clear_label(self) -> None:
        key = self.controller.selected
        if key is not None and key in self.controller.session.labels:
            self._write_label(key, None)

    def _write_label(self, key: str, text: str | None) -> None:
        try:
            self.controller.set_label(key, text)
        except Exception as error:  # the file may have gone or become read-only
            self._warn("Label not written", str(error))

    def _on_label_failed(self, message: str) -> None:
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
        from .leaf_picker import LeafPicker

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

    def _about(self) -> None:
        from .. import __version__

        box = QMessageBox(
            QMessageBox.Icon.Information,
            "About pibrowser",
            f"pibrowser {__version__}\n\nThe branch tree of a pi session and the exact context pi resolves for any node.",
            QMessageBox.StandardButton.Ok,
            self,
        )
        box.finished.connect(box.deleteLater)
        box.open()

    # ---- settings ---------------------------------------------------------------

    def _remember(self, path: Path) -> None:
        settings = QSettings()
        recent = [str(path)] + [p for p in (settings.value("recentFiles") or []) if p != str(path)]
        settings.setValue("recentFiles", recent[:MAX_RECENT])
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        recent = QSettings().value("recentFiles") or []
        if isinstance(recent, str):
            recent = [recent]
        for name in recent:
            action = self.recent_menu.addAction(name)
            action.triggered.connect(lambda checked=False, name=name: self.open_path(name))
        self.recent_menu.setEnabled(bool(recent))

    def _restore_layout(self) -> None:
        settings = QSettings()
        geometry, state = settings.value("window/geometry"), settings.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)

    def closeEvent(self, event) -> None:
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())
        super().closeEvent(event)
