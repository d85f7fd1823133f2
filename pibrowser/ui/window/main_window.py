"""The main window: the branch tree in the middle, the resolved context beside it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
)

from ...model import Session
from ...model.text.describe import entry_title, session_title
from ...model.sessions.discovery import initial_path
from ...model.text.plural import counted
from ...model.workspace import Change
from .branch_actions import BranchActions
from ..compare.compare_view import CompareView
from ..context.images import ImageLoader
from ..context.panel import ContextPanel
from ..control.controller import SessionController
from ...resources import DEMO_SESSION
from .demo import demo_copy, is_demo
from ..labels.label_undo import LabelChange
from .problems_panel import ProblemsPanel
from ..sessions.search_panel import install_search_dock
from ..sessions.sessions_panel import SessionsPanel
from ..style.theme import ThemeSwitcher
from ..timeline.strip import TimelineStrip
from ..tree.pane import TreePane

MAX_RECENT = 10


def window_title(session: Session) -> str:
    """The session (its name, or its first words) and the file, so windows and task bars tell sessions apart."""
    name = session_title(session)
    file = "demo session" if is_demo(session.path) else session.path.name
    return " — ".join(part for part in (name, file, "pibrowser") if part)


def default_dock_widths(width: int, sessions_shown: bool) -> tuple[int, int]:
    """(context, sessions) widths for a fresh window `width` pixels wide.

    The tree keeps at least 40% (the side panels share the rest); the context
    panel gets enough for cards to read (320 px) and no more than 620.
    """
    sessions = min(300, max(180, width * 18 // 100)) if sessions_shown else 0
    context = min(620, max(320, width * 40 // 100))
    spare = width * 60 // 100 - sessions - context
    if spare < 0:  # a narrow window: the side panels give back what the tree needs, the list first
        cut = min(-spare, max(0, sessions - 160))
        sessions -= cut
        context = max(300, context + spare + cut)
    return context, sessions


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
        self.themes = ThemeSwitcher(self)
        self.themes.apply()
        self.undo_stack = QUndoStack(self)
        self._undo_path: Path | None = None
        self._pending_change: LabelChange | None = None
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
        self.tree.searchChanged.connect(self.context_panel.set_search)
        self.context_panel.header.labelEditRequested.connect(self.edit_label)
        self.context_panel.header.labelClearRequested.connect(self.clear_label)
        self._connect()
        self.resize(1400, 900)
        if restore_layout:
            self._default_layout = not self._restore_layout()

    # ---- construction -------------------------------------------------------

    def _dock(self, title: str, name: str, widget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _add_trace_and_files(self) -> None:
        """The Trace and Files tabs beside Context and Compare; one facts thread reads for both."""
        from ..files.files_view import FilesView
        from ..trace.facts_keeper import SessionFacts
        from ..trace.trace_panel import TracePanel

        self.session_facts = SessionFacts(self.controller, self)
        self.compare_view.facts = self.session_facts  # which side changed which files, read in the same thread
        self.trace_panel = TracePanel(self.controller, self.session_facts)
        self.trace_dock = self._dock("Trace", "traceDock", self.trace_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self.files_view = FilesView(self.controller, self.session_facts)
        self.files_dock = self._dock("Files", "filesDock", self.files_view, Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.compare_dock, self.trace_dock)
        self.tabifyDockWidget(self.trace_dock, self.files_dock)
        self.trace_dock.visibilityChanged.connect(self.trace_panel.when_shown.set_shown)
        self.files_dock.visibilityChanged.connect(self.files_view.when_shown.set_shown)

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
        self.undo_action = self.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = self.undo_stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcut(QKeySequence.StandardKey.Redo)
        for action in (self.undo_action, self.redo_action):
            self.addAction(action)
        self.undo_stack.indexChanged.connect(self._after_undo)
        self.find_action = self._action("&Find…", self.tree.focus_search, QKeySequence.StandardKey.Find, "Find in messages, labels and ids")
        self.clear_search_action = self._action("Clear &Search", self.tree.clear_search, "Esc", "Clear the search and return to the tree")
        self.export_action = self._action("&Export Tree Image…", self.export_tree_image, None, "Save the tree as a PNG or SVG image")
        self.demo_action = self._action("Open &Demo Session", self.open_demo, None, "Open a copy of the demo session, yours to label")

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction(self.open_action)
        file_menu.addAction(self.open_folder_action)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._refresh_recent)  # files come and go while the window is open
        file_menu.addAction(self.reload_action)
        file_menu.addAction(self.follow_action)
        file_menu.addSeparator()
        file_menu.addAction(self.branch.continue_leaf_action)
        file_menu.addAction(self.branch.preferences_action)
        file_menu.addSeparator()
        file_menu.addAction(self.export_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = self.menuBar().addMenu("&Edit")
        for action in (self.undo_action, self.redo_action, None, self.find_action, self.clear_search_action):
            edit_menu.addSeparator() if action is None else edit_menu.addAction(action)
        entry_menu = self.menuBar().addMenu("&Entry")
        for action in (self.label_action, self.clear_label_action, self.compare_action, self.copy_id_action):
            entry_menu.addAction(action)
        entry_menu.addSeparator()
        entry_menu.addActions(self.branch_actions())
        view_menu = self.menuBar().addMenu("&View")
        for action in self.tree.view_actions():
            view_menu.addAction(action)
        view_menu.addSeparator()
        view_menu.addMenu(self.themes.menu(view_menu))
        view_menu.addSeparator()
        for dock in (self.sessions_dock, self.context_dock, self.compare_dock, self.trace_dock, self.files_dock, self.timeline_dock, self.problems_dock):
            view_menu.addAction(dock.toggleViewAction())
        view_menu.addAction(self.search_action)
        help_menu = self.menuBar().addMenu("&Help")
        self.shortcuts_action = self._action("&Keyboard Shortcuts", self.show_shortcuts, QKeySequence.StandardKey.HelpContents)
        help_menu.addAction(self.shortcuts_action)
        help_menu.addAction(self.demo_action)
        help_menu.addAction(self._action("&About pibrowser", self._about))
        self._refresh_recent()

    def _connect(self) -> None:
        c = self.controller
        c.loading.connect(self._on_loading)
        c.progress.connect(self._on_progress)
        c.changed.connect(self._on_change)
        c.loadFailed.connect(self._on_failed)
        c.labelWaiting.connect(self.status_label.setText)
        c.labelFailed.connect(self._on_label_failed)
        c.labelWritten.connect(self._label_written)

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

    def _on_change(self, change: Change) -> None:
        """Title, status line, docks and actions follow what the workspace did."""
        session = self.controller.session
        if change.replaced:
            self._on_session(session)
        elif change.appended or change.problems_appended:
            self._describe(session)  # a broken line pi appends is counted, without popping the list up
        if change.problems:
            self._on_problems(session)
        if change.replaced or change.selection:
            self._on_selection(self.controller.selected)
        if change.compare:
            self._on_compare(*(self.controller.compared or (None, None)))

    def _on_session(self, session: Session | None) -> None:
        self.progress_bar.hide()
        self.last_error = None
        if session is None or session.path != self._undo_path:
            self.undo_stack.clear()  # undoing writes to the file the change was made in, only
            self._undo_path = session.path if session is not None else None
        if session is None:
            return
        self._describe(session)
        self.problems_dock.setVisible(bool(session.problems))
        self._remember(session.path)

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
        from ..labels.label_dialog import LabelDialog

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
        session = self.controller.session
        previous = session.labels.get(key) if session is not None else None
        try:
            written = self.controller.set_label(key, text)
        except Exception as error:  # the file may have gone or become read-only
            self._warn("Label not written", str(error))
            return
        previous = str(previous) if previous not in (None, "") else None
        if (text or None) == previous:
            return
        change = LabelChange(self.controller, key, previous, text or None)
        if written is not None:
            self.undo_stack.push(change)
        else:
            self._pending_change = change  # pi is mid-line: undo is offered once the label is in the file

    def _label_written(self, _entry_id: str) -> None:
        change, self._pending_change = self._pending_change, None
        if change is not None:
            self.undo_stack.push(change)

    def _after_undo(self, index: int) -> None:
        # An undo leaves its command at `index`, a redo just before it.
        for candidate in (self.undo_stack.command(index), self.undo_stack.command(index - 1)):
            if candidate is not None and candidate.error is not None:
                error, candidate.error = candidate.error, None
                self._warn("Label not written", str(error))
                return

    def _on_label_failed(self, message: str) -> None:
        self._pending_change = None
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

    def _about(self) -> None:
        from ... import __version__

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
        self._save_recent([str(path)] + [p for p in recent_files() if p != str(path)])

    def _forget(self, path: Path) -> None:
        self._save_recent([p for p in recent_files() if p != str(path)])

    def _save_recent(self, recent: list[str]) -> None:
        QSettings().setValue("recentFiles", recent[:MAX_RECENT])
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        """The menu lists the recent files that still exist; vanished ones are dropped from it and from the list."""
        recent = recent_files()
        present = [name for name in recent if Path(name).exists()]
        if present != recent:
            QSettings().setValue("recentFiles", present)
        self.recent_menu.clear()
        for name in present:
            action = self.recent_menu.addAction(name.replace("&", "&&"))
            action.triggered.connect(lambda checked=False, name=name: self.open_recent(name))
        self.recent_menu.setEnabled(bool(present))

    def open_recent(self, name: str) -> None:
        """A recent file deleted or moved since the menu showed it: say so in the status bar, and forget it."""
        if not Path(name).exists():
            self.status_label.setText(f"{name} no longer exists")
            self._forget(Path(name))
            return
        self.open_path(name)

    def _restore_layout(self) -> bool:
        """The window and panels as the user left them; False when there is nothing to restore."""
        settings = QSettings()
        geometry, state = settings.value("window/geometry"), settings.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)
        return state is not None

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._default_layout:
            # Once, at the first show, when the user has no layout of their own yet.
            self._default_layout = False
            self.apply_default_layout()

    def apply_default_layout(self) -> None:
        context, sessions = default_dock_widths(self.width(), self.sessions_dock.isVisible())
        docks, widths = [self.context_dock], [context]
        if sessions:
            docks.append(self.sessions_dock)
            widths.append(sessions)
        self.resizeDocks(docks, widths, Qt.Orientation.Horizontal)

    # ---- export ---------------------------------------------------------------------

    def export_tree_image(self) -> None:
        from ..tree.export import EXPORT_FILTERS, export_tree

        start = str(self.controller.path.with_suffix("")) if self.controller.path else ""
        name, chosen = QFileDialog.getSaveFileName(self, "Export Tree Image", start, ";;".join(EXPORT_FILTERS))
        if not name:
            return
        try:
            written = export_tree(self.tree.view, Path(name), chosen)
        except OSError as error:
            self._warn("Image not written", str(error))
            return
        self.status_label.setText(f"Tree image written to {written}")

    def closeEvent(self, event) -> None:
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())
        super().closeEvent(event)


def recent_files() -> list[str]:
    recent = QSettings().value("recentFiles") or []
    return [recent] if isinstance(recent, str) else [str(name) for name in recent]
