"""Search All Sessions (Ctrl+Shift+F): hits across every session, each one click from its entry.

The index is brought up to date in the thread pool before each search (only
what changed is read, so after the first time this costs a stat per file);
results come back to the GUI thread. Snippets are plain text with the matched
words drawn bold: nothing from a session is ever read as markup.
"""

from __future__ import annotations

import threading
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QEvent, QPointF, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QAction, QFont, QKeySequence, QPalette, QTextCharFormat, QTextLayout
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMainWindow,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...model.text.amounts import human_size
from ...model.text.terminal_text import one_line
from ...model.workspace import Change
from ...model.library.search_index import MARK_END, MARK_START, Hit, SearchFilters
from ...model.library.session_list import title_of
from .all_sessions_jobs import SearchJob
from ..style.colors import mix
from ..common.safe_text import safe_tip
from ..common.widgets import ElidedLabel, thin_progress
from ..control.controller import SessionController
from ..control.sessions_controller import SessionsController
from .sessions_panel import list_tree, short_time
from ..guard import guarded, guarded_paint

HIT_ROLE = Qt.ItemDataRole.UserRole
MARKED_ROLE = Qt.ItemDataRole.UserRole + 1
ROLES = (
    ("Any role", ()),
    ("User", ("user",)),
    ("Assistant", ("assistant",)),
    ("Tool results", ("toolResult",)),
    ("Shell commands", ("bashExecution",)),
    ("Summaries", ("compactionSummary", "branchSummary")),
    ("Custom messages", ("custom",)),
    ("Labels", ("label",)),
    ("Session names", ("name",)),
)
TYPING_PAUSE_MS = 250


def split_marks(marked: str) -> tuple[str, list[tuple[int, int]]]:
    """The text without marks, and (start, length) of each marked run in UTF-16 units, as Qt counts."""
    text, spans, start, units = [], [], None, 0
    for char in marked:
        if char == MARK_START:
            start = units
        elif char == MARK_END:
            if start is not None:
                spans.append((start, units - start))
            start = None
        else:
            text.append(char)
            units += 2 if ord(char) > 0xFFFF else 1
    return "".join(text), spans


class SnippetDelegate(QStyledItemDelegate):
    """Draws a snippet as plain text with its matched words bold and highlighted."""

    @guarded_paint
    def paint(self, painter, option, index) -> None:
        marked = index.data(MARKED_ROLE)
        if not marked:
            super().paint(painter, option, index)
            return
        view_option = QStyleOptionViewItem(option)
        self.initStyleOption(view_option, index)
        view_option.text = ""
        widget = view_option.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, view_option, painter, widget)
        text, spans = split_marks(marked)
        layout = QTextLayout(text, view_option.font)
        selected = bool(view_option.state & QStyle.StateFlag.State_Selected)
        palette = view_option.palette
        mark = QTextCharFormat()
        mark.setFontWeight(QFont.Weight.Bold)
        if not selected:
            # A tint of the selection colour over the row's own: readable on light and dark palettes.
            mark.setBackground(mix(palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Highlight), 0.35))
            mark.setForeground(palette.color(QPalette.ColorRole.Text))
        ranges = []
        for start, length in spans:
            span = QTextLayout.FormatRange()
            span.start, span.length, span.format = start, length, mark
            ranges.append(span)
        layout.setFormats(ranges)
        layout.beginLayout()
        line = layout.createLine()
        line.setLineWidth(1e6)
        layout.endLayout()
        rect = view_option.rect.adjusted(4, 0, -4, 0)
        painter.save()
        painter.setClipRect(rect)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        painter.setPen(palette.color(role))
        layout.draw(painter, QPointF(rect.left(), rect.top() + (rect.height() - line.height()) / 2))
        painter.restore()


SESSION_WIDTH = 200
NARROW = 640
NARROW_SESSION_WIDTH = 110
SLIM = 420


class SearchPanel(QWidget):
    """A query field, a role filter, progress while indexing, and the hits, best first.

    Signals
      searched(count)   results for the current query are shown
    """

    searched = Signal(int)

    def __init__(self, controller: SessionController, sessions: SessionsController, index_path: Path | None = None) -> None:
        super().__init__()
        self.controller = controller
        self.sessions = sessions  # the folder searched, and the titles of its sessions
        self.index_path = index_path
        self._generation = 0
        self._running = False  # a job is indexing or searching; a newer search waits for it
        self._queued = False
        self._cancel: threading.Event | None = None  # the running job's
        self._pending_hit: Hit | None = None
        self._pool = QThreadPool.globalInstance()
        self.query = QLineEdit(placeholderText='Search all sessions: words, "exact phrases"…', clearButtonEnabled=True)
        self.query.setObjectName("allSessionsQuery")
        self.role = QComboBox()
        for text, roles in ROLES:
            self.role.addItem(text, roles)
        self.this_project = QCheckBox("This project only")
        self.this_project.setToolTip("Only sessions of the project (cwd) of the session that is open")
        self.progress = thin_progress(12, 160)
        self.progress.hide()
        self.status = ElidedLabel()  # a long sessions folder must not hold the dock wide
        self.results = self._build_results()
        self._typing = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS)
        self._layout()
        self._typing.timeout.connect(self.run_search)
        self.query.textChanged.connect(lambda: self._typing.start())
        self.query.returnPressed.connect(self.run_search)
        self.role.currentIndexChanged.connect(self.run_search)
        self.this_project.toggled.connect(self.run_search)
        self.query.installEventFilter(self)
        self.results.itemActivated.connect(lambda item: self.open_hit(item.data(0, HIT_ROLE)))
        controller.changed.connect(self._on_change)
        # Quitting must not wait for a whole folder to be indexed (the pool waits for its jobs).
        app = QApplication.instance()
        assert app is not None, "a widget exists only under a running application"
        app.aboutToQuit.connect(self.cancel)
        self._show_status()

    def _build_results(self) -> QTreeWidget:
        results = list_tree("allSessionsResults", ["Hit", "Session", "File", "Role", "Time"])
        results.setItemDelegateForColumn(0, SnippetDelegate(results))
        # Session titles and pi's file names are long: a fixed share the user can drag.
        for column, width in ((1, SESSION_WIDTH), (2, 170)):
            results.header().setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            results.header().resizeSection(column, width)
        results.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        return results

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        # Narrow, the hit itself needs the room: the file (named in every row's tooltip) goes and the
        # title shrinks; narrower still, role and time go too.
        narrow, slim = self.width() < NARROW, self.width() < SLIM
        if narrow != self.results.isColumnHidden(2):
            self.results.header().resizeSection(1, NARROW_SESSION_WIDTH if narrow else SESSION_WIDTH)
        for column, hidden in ((2, narrow), (3, slim), (4, slim)):
            self.results.setColumnHidden(column, hidden)

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.query, 1)
        top.addWidget(self.this_project)
        top.addWidget(self.role)
        bottom = QHBoxLayout()
        bottom.setContentsMargins(4, 0, 4, 0)
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.progress)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.results, 1)
        layout.addLayout(bottom)

    def focus_query(self) -> None:
        self.query.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.query.selectAll()

    # ---- searching ---------------------------------------------------------------------

    @guarded
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._running:
            self.run_search()  # bring the index up to date while the user types

    def run_search(self) -> None:
        """Index what changed under the folder, then search it; a newer search supersedes this one.

        One job at a time: a search asked for while the index is being brought up to
        date runs when that job is done, and then reads only what changed since.
        """
        self._typing.stop()
        if self._running:
            self._queued = True
            return
        self._running = True
        self._generation += 1
        filters = SearchFilters(roles=tuple(self.role.currentData() or ()), project=self._project())
        job = SearchJob(Path(self.root()), self.query.text(), filters, self._generation, self.index_path)
        self._cancel = job.cancelled
        job.signals.progress.connect(self._on_progress)
        job.signals.done.connect(self._on_results)
        job.signals.failed.connect(self._on_failed)
        self.progress.setRange(0, 0)
        self.progress.show()
        self.status.setText(f"Checking the index of {one_line(str(self.root()))}…")
        self._pool.start(job)

    def _project(self) -> str | None:
        session = self.controller.session
        cwd = session.header.get("cwd") if session is not None and self.this_project.isChecked() else None
        return cwd if isinstance(cwd, str) and cwd else None

    @guarded(fallback=False)
    def eventFilter(self, watched, event) -> bool:
        # ↓ in the query field goes to the hits, as in a browser's address bar.
        if (
            watched is self.query
            and event.type() == QEvent.Type.KeyPress
            and event.key() == Qt.Key.Key_Down
            and self.results.topLevelItemCount()
        ):
            self.results.setFocus(Qt.FocusReason.OtherFocusReason)
            return True
        return super().eventFilter(watched, event)

    def _on_progress(self, done: int, total: int, generation: int) -> None:
        if generation != self._generation or total == 0:
            return
        self.progress.setRange(0, 1000)
        self.progress.setValue(int(done * 1000 / total))
        self.status.setText(f"Indexing {human_size(done)} of {human_size(total)}…")

    def cancel(self) -> None:
        """Stop indexing after the current chunk (quitting must not wait for a whole folder)."""
        if self._cancel is not None:
            self._cancel.set()

    def _job_done(self) -> bool:
        """True when a queued search was started instead of showing this job's outcome."""
        self._running = False
        self._cancel = None
        if self._queued:
            self._queued = False
            self.run_search()
            return True
        return False

    def _on_failed(self, message: str, generation: int) -> None:
        if generation == self._generation and not self._job_done():
            self.progress.hide()
            self.status.setText(f"The search index cannot be used: {one_line(message, 300)}")

    def _on_results(self, hits: list[Hit], generation: int) -> None:
        if generation != self._generation or self._job_done():
            return
        self.progress.hide()
        self.results.clear()
        titles = self._titles()
        for hit in hits:
            self.results.addTopLevelItem(self._item(hit, titles))
        first = self.results.topLevelItem(0)
        if first is not None:
            self.results.setCurrentItem(first)
        self._show_status(len(hits))
        self.searched.emit(len(hits))

    def root(self) -> Path:
        return self.sessions.root

    def _titles(self) -> dict[str, str]:
        """Session titles from the folder's list, when it has been read."""
        return {file: title_of(summary) for file, summary in self.sessions.summaries.items()}

    def _item(self, hit: Hit, titles: dict[str, str]) -> QTreeWidgetItem:
        snippet = one_line(hit.marked)
        session = one_line(titles.get(hit.file) or Path(hit.file).name, 80)
        when = short_time(datetime.fromtimestamp(hit.time / 1000)) if isinstance(hit.time, int) else ""
        role = hit.role + (f" · {hit.tool}" if hit.tool else "")
        name = one_line(Path(hit.file).name)
        item = QTreeWidgetItem([snippet.replace(MARK_START, "").replace(MARK_END, ""), session, name, one_line(role), when])
        item.setData(0, HIT_ROLE, hit)
        item.setData(0, MARKED_ROLE, snippet)
        where = f"{hit.file}:{hit.line}" + (f"  #{hit.entry}" if hit.entry else "")
        tip = safe_tip(f"{split_marks(snippet)[0]}\n\n{where}\n{hit.project}")
        for column in range(5):
            item.setToolTip(column, tip)
        return item

    def _show_status(self, count: int | None = None) -> None:
        if count is None:
            self.status.setText('Type words or "a phrase"; Enter opens the selected hit.')
        elif count == 0:
            self.status.setText("No hits." if self.query.text().strip() else "Index up to date.")
        else:
            self.status.setText(
                f"{count:,} hit{'s' if count != 1 else ''}, best first." + (" Showing the first 500." if count >= 500 else "")
            )

    # ---- opening a hit -----------------------------------------------------------------

    def open_hit(self, hit: Hit | None) -> None:
        """Open the hit's session (unless it is open) and select its entry, so its context shows."""
        if hit is None:
            return
        self._pending_hit = hit
        session = self.controller.session
        if session is not None and _same_file(session.path, hit.file):
            self._select_pending()
        else:
            self.controller.open(hit.file)

    def _on_change(self, change: Change) -> None:
        session = self.controller.session
        if change.replaced and session is not None and self._pending_hit is not None and _same_file(session.path, self._pending_hit.file):
            # Select once every view has taken in the new session (and its leaf, selected with it).
            QTimer.singleShot(0, self._select_pending)

    def _select_pending(self) -> None:
        hit, self._pending_hit = self._pending_hit, None
        session = self.controller.session
        if hit is None or session is None:
            return
        key = hit.entry if hit.entry in session.entries else None
        if key is None:
            # Old-format files get fresh ids at every load: find the entry by its line.
            entry = session.entry_at_line(hit.line)
            key = entry.id if entry is not None else None
        if key is not None:
            self.controller.select(key)


def _same_file(path: Path, other: str) -> bool:
    try:
        return Path(path).resolve() == Path(other).resolve()
    except OSError:
        return str(path) == other


def install_search_dock(window: QMainWindow, controller: SessionController, sessions: SessionsController) -> tuple[QDockWidget, QAction]:
    """The dock (hidden until asked for) and its Ctrl+Shift+F action, which shows it and focuses the query."""
    panel = SearchPanel(controller, sessions)
    dock = QDockWidget("Search All Sessions", window)
    dock.setObjectName("searchDock")
    dock.setWidget(panel)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    dock.hide()
    action = QAction("Search &All Sessions…", window)
    action.setShortcut(QKeySequence("Ctrl+Shift+F"))
    action.setStatusTip("Full-text search across every session in the folder")

    def show() -> None:
        dock.show()
        dock.raise_()
        panel.focus_query()

    action.triggered.connect(show)
    window.addAction(action)
    return dock, action
