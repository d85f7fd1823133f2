"""The sessions dock: pi's sessions on this machine, by project, newest first, forks under their parent."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QStyle,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...model.text.amounts import format_cost, format_count, human_size
from ...model.text.terminal_text import one_line
from ...model.text.timefmt import format_duration
from ...model.workspace import Change
from ...model.library.session_list import ForkNode, SessionSummary, group_by_project, nest_forks, title_of
from ..common.safe_text import safe_tip
from ..common.widgets import thin_progress
from ..control.controller import SessionController
from ..control.sessions_controller import SessionsChange, SessionsController
from ..guard import guarded

PATH_ROLE = Qt.ItemDataRole.UserRole
CWD_ROLE = Qt.ItemDataRole.UserRole + 1
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 2  # the text the filter looks through, folded
COLUMNS = ["Session", "Modified", "Size", "Tokens", "Cost", "Time", "Errors"]
# A title keeps this much room: the figures, in every row's tooltip too, give theirs up from the right first.
TITLE_ROOM = 160
FIGURES = (1, 2, 3, 4, 5, 6)
TITLE_LIMIT = 120


def list_tree(name: str, columns: list[str]) -> QTreeWidget:
    """A list of rows whose first column gets the room; the others take what they need."""
    tree = QTreeWidget()
    tree.setObjectName(name)
    tree.setHeaderLabels(columns)
    tree.setRootIsDecorated(False)
    tree.setUniformRowHeights(True)
    tree.setAlternatingRowColors(True)
    header = tree.header()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    for column in range(1, len(columns)):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    return tree


def short_time(when: datetime, now: datetime | None = None) -> str:
    """Today: the clock; this year: day and month; before: the date."""
    now = now or datetime.now()
    if when.date() == now.date():
        return f"{when:%H:%M}"
    if when.year == now.year:
        return f"{when:%b} {when.day}"
    return f"{when:%Y-%m-%d}"


def _local(millis: int) -> datetime:
    try:
        return datetime.fromtimestamp(millis / 1000)
    except (OverflowError, OSError, ValueError):
        return datetime.fromtimestamp(0)


def _project_item(cwd: str, members: list[SessionSummary]) -> QTreeWidgetItem:
    """A project row: the folder's own name and its totals, with the whole path a hover away."""
    name = cwd.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] or cwd
    count = f"{len(members):,} session{'s' if len(members) != 1 else ''}"
    tokens = sum(member.tokens for member in members)
    cost = sum(member.cost for member in members)
    wall, errors = sum(m.wall_ms for m in members), sum(m.errors for m in members)
    item = QTreeWidgetItem(
        [
            f"{one_line(name)} ({len(members):,})",
            "",
            human_size(sum(m.size for m in members)),
            *_usage(tokens, cost),
            *_activity(wall, errors),
        ]
    )
    item.setToolTip(0, safe_tip(f"{cwd}\n{count}, {tokens:,.0f} tokens, {format_cost(cost)} recorded"))
    item.setData(0, CWD_ROLE, cwd)
    item.setData(0, SEARCH_ROLE, cwd.casefold())
    font = item.font(0)
    font.setBold(True)
    for column in range(len(COLUMNS)):
        item.setFont(column, font)
        if column >= 2:
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def _activity(wall_ms: float, errors: int) -> tuple[str, str]:
    """Time spent in runs and errors, as the columns show them: blank where there were none."""
    return (format_duration(wall_ms) if wall_ms else "", f"{errors:,}" if errors else "")


def _usage(tokens: float, cost: float) -> tuple[str, str]:
    """Tokens and cost as the columns show them: blank where nothing was recorded."""
    return (format_count(tokens) if tokens else "", format_cost(cost) if tokens or cost else "")


def _session_item(summary: SessionSummary) -> QTreeWidgetItem:
    modified = _local(summary.modified_ms)
    name = Path(summary.file).name
    if summary.problem is not None:
        item = QTreeWidgetItem([f"⚠ {one_line(name)}", short_time(modified), human_size(summary.size), "", ""])
        tip = f"{summary.problem[:1].upper()}{summary.problem[1:]}\n\n{summary.file}"  # the reason says what the file is
        item.setForeground(0, QApplication.palette().brush(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
    else:
        title = one_line(title_of(summary), TITLE_LIMIT)
        item = QTreeWidgetItem(
            [
                title,
                short_time(modified),
                human_size(summary.size),
                *_usage(summary.tokens, summary.cost),
                *_activity(summary.wall_ms, summary.errors),
            ]
        )
        tip = _tip(summary, modified)
    item.setData(0, PATH_ROLE, summary.file)
    item.setData(0, SEARCH_ROLE, " ".join(filter(None, (summary.name, summary.first_message, name, summary.id))).casefold())
    for column in range(len(COLUMNS)):
        item.setToolTip(column, safe_tip(tip))
        if column >= 2:
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def _tip(summary: SessionSummary, modified: datetime) -> str:
    lines = [summary.name or "", summary.first_message or "", ""]
    lines.append(summary.file)
    lines.append(f"created {summary.created or '?'} · last activity {modified:%Y-%m-%d %H:%M:%S}")
    lines.append(f"{summary.entries:,} entries · {summary.messages:,} messages · {summary.leaves:,} leaves")
    lines.append(f"{summary.tokens:,.0f} tokens · {format_cost(summary.cost)} recorded")
    lines.append(f"{format_duration(summary.wall_ms) or 'no time'} in runs · {summary.errors:,} error{'s' if summary.errors != 1 else ''}")
    if summary.warnings:
        lines.append(f"{summary.warnings:,} lines pi skips or cannot follow")
    if summary.forks:
        lines.append(f"{len(summary.forks):,} fork{'s' if len(summary.forks) != 1 else ''}")
    if isinstance(summary.parent_session, str) and summary.parent_session:
        lines.append(f"forked from {summary.parent_session}")
    return "\n".join(line for line in lines[:2] if line) + "\n\n" + "\n".join(lines[3:])


class SessionsPanel(QWidget):
    """Lists session files under a folder (pi's sessions folder by default); a click on one (or Enter) opens it.

    Signals
      scanned(count)        the list is filled (sessions and other files listed)
      openFolderRequested() the empty state's button
    """

    scanned = Signal(int)
    openFolderRequested = Signal()

    def __init__(self, controller: SessionController, sessions: SessionsController | None = None) -> None:
        super().__init__()
        self.controller = controller
        # The folder, its list and the watcher are the window's (ui/control/sessions_controller): the dock shows them.
        self.sessions = sessions if sessions is not None else SessionsController(self)
        self._items: dict[str, QTreeWidgetItem] = {}
        self.filter = QLineEdit(placeholderText="Filter sessions…", clearButtonEnabled=True)
        self.rescan = QToolButton(autoRaise=True)
        self.rescan.setText("⟳")
        self.rescan.setToolTip("Scan the folder again")
        self.progress = thin_progress(6)
        self.progress.hide()
        self.tree = self._build_tree()
        self.empty = QLabel(wordWrap=True, alignment=Qt.AlignmentFlag.AlignCenter)
        self.empty.setTextFormat(Qt.TextFormat.PlainText)  # the folder's path is shown as it is
        self.empty.setObjectName("sessionsEmpty")
        self.open_folder = QPushButton("Open Folder…")
        self.stack = QStackedWidget()
        self.stack.addWidget(self.tree)
        self.stack.addWidget(self._empty_page())
        self.fork_link = QPushButton(flat=True)
        self.fork_link.setObjectName("forkParentLink")
        self.fork_link.setStyleSheet("text-align: left; padding: 2px 6px;")
        self.fork_link.hide()
        self._layout()
        self.filter.textChanged.connect(self._apply_filter)
        self.rescan.clicked.connect(lambda: self.populate())
        self.open_folder.clicked.connect(self.openFolderRequested)
        # One click opens a row, as Enter does in pi's /resume (Enter and a double-click activate it too).
        self.tree.itemClicked.connect(self._activate)
        self.tree.itemActivated.connect(self._activate)
        self.tree.currentItemChanged.connect(self._current_changed)
        self.fork_link.clicked.connect(self.go_to_parent)
        controller.changed.connect(self._on_change)
        self.sessions.changed.connect(self._on_sessions)
        self.sessions.progress.connect(self._on_progress)

    @property
    def root(self) -> Path:
        return self.sessions.root

    @property
    def summaries(self) -> dict[str, SessionSummary]:
        return self.sessions.summaries

    def _build_tree(self) -> QTreeWidget:
        tree = list_tree("sessionsTree", COLUMNS)
        tree.setRootIsDecorated(True)
        tree.viewport().installEventFilter(self)  # its width decides which figures show
        return tree

    @guarded(fallback=False)
    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.tree.viewport():
            self._fit_columns()
        return super().eventFilter(watched, event)

    def _empty_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        layout.addWidget(self.empty)
        layout.addWidget(self.open_folder, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
        return page

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.filter, 1)
        top.addWidget(self.rescan)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.progress)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.fork_link)

    # ---- filling -----------------------------------------------------------------------

    def populate(self, root: Path | None = None) -> int:
        """List `root` (a folder) in the background; returns how many session files it holds.

        Counting files is quick; reading what the rows show happens in the thread
        pool (cached files cost a stat), and `scanned` says when the list is full.
        """
        count = self.sessions.populate(root)
        self.progress.setRange(0, 0)
        self.progress.setVisible(count > 0)
        return count

    def _on_progress(self, what: str, done: int, total: int) -> None:
        if what == "list" and self.sessions.listing:
            self.progress.setRange(0, max(total, 1))
            self.progress.setValue(done)

    def _on_sessions(self, change: SessionsChange) -> None:
        if not change.listed:
            return
        self.progress.hide()
        if change.failed is not None:
            self._show([], f"Cannot list the sessions in\n{self.root}\n\n{change.failed}")
            return
        self._show(list(self.summaries.values()))
        self.scanned.emit(len(self.summaries))

    def _show(self, summaries: list[SessionSummary], empty_text: str | None = None) -> None:
        current = self.tree.currentItem()
        keep = current.data(0, PATH_ROLE) if current is not None else None
        self._items.clear()
        self.tree.clear()
        for cwd, members in group_by_project(summaries).items():
            project = _project_item(cwd, members)
            self.tree.addTopLevelItem(project)
            self._add_nodes(project, nest_forks(members))
        self.tree.expandAll()
        self.empty.setText(empty_text or self._empty_text())
        self.stack.setCurrentIndex(0 if summaries else 1)
        self._apply_filter(self.filter.text())
        self._mark_open()
        if keep:
            self.select_file(keep)  # a rescan keeps the selection
        self._current_changed(self.tree.currentItem())
        self._fit_columns()  # the rows' figures may need other widths

    def _add_nodes(self, parent: QTreeWidgetItem, nodes: list[ForkNode]) -> None:
        for summary, forks in nodes:
            item = _session_item(summary)
            self._items[summary.file] = item
            parent.addChild(item)
            self._add_nodes(item, forks)

    def _empty_text(self) -> str:
        where = str(self.root)
        return (
            f"No pi sessions in\n{where}\n\n"
            "pi keeps them in ~/.pi/agent/sessions (or $PI_CODING_AGENT_DIR/sessions). "
            "Open another folder with File → Open Folder… (Ctrl+Shift+O)."
        )

    # ---- using it ------------------------------------------------------------------------

    def _activate(self, item: QTreeWidgetItem) -> None:
        """Open the row's session, unless it is the one shown or being read (a double-click's
        second click, a click on the open row)."""
        path = item.data(0, PATH_ROLE)
        if not path:
            return
        controller = self.controller
        session = controller.session
        shown = controller.path if controller.is_loading() else session.path if session is not None else None
        if shown != Path(path):
            controller.open(path)

    def _current_changed(self, item: QTreeWidgetItem | None, _previous=None) -> None:
        summary = self.summaries.get(item.data(0, PATH_ROLE)) if item is not None else None
        parent = self.summaries.get(summary.parent) if summary is not None and summary.parent else None
        if parent is None:
            self.fork_link.hide()
            return
        self.fork_link.setText(f"↰ Forked from: {one_line(title_of(parent), 60)}")
        self.fork_link.setToolTip(safe_tip(f"Open the session this one was forked from\n{parent.file}"))
        self.fork_link.show()

    def go_to_parent(self) -> None:
        """Select and open the session the selected one was forked from."""
        item = self.tree.currentItem()
        summary = self.summaries.get(item.data(0, PATH_ROLE)) if item is not None else None
        parent = self._items.get(summary.parent) if summary is not None and summary.parent else None
        if parent is None:
            return
        parent.setHidden(False)
        self.tree.setCurrentItem(parent)
        self.tree.scrollToItem(parent)
        self.controller.open(parent.data(0, PATH_ROLE))

    def select_file(self, path: str | Path) -> bool:
        item = self._items.get(str(path))
        if item is not None:
            self.tree.setCurrentItem(item)
            self.tree.scrollToItem(item)
        return item is not None

    def _apply_filter(self, text: str) -> None:
        needle = text.casefold().strip()
        for index in range(self.tree.topLevelItemCount()):
            project = self.tree.topLevelItem(index)
            if project is None:
                continue
            project_hit = bool(needle) and needle in str(project.data(0, SEARCH_ROLE))
            project.setHidden(not self._filter_children(project, needle, project_hit) and bool(needle))

    def _filter_children(self, parent: QTreeWidgetItem, needle: str, shown: bool) -> bool:
        """Hide the children that do not match; a parent stays when a fork of it matches."""
        any_visible = False
        for row in range(parent.childCount()):
            child = parent.child(row)
            if child is None:
                continue
            hit = shown or not needle or needle in str(child.data(0, SEARCH_ROLE))
            visible = self._filter_children(child, needle, hit) or hit
            child.setHidden(not visible)
            any_visible = any_visible or visible
        return any_visible

    def _column_width(self, column: int) -> int:
        """What a figures' column takes shown: its widest cell or its title (a hidden column's header
        gives no size, so the title is measured)."""
        tree, header = self.tree, self.tree.header()
        margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        title = header.fontMetrics().horizontalAdvance(tree.headerItem().text(column)) + 4 * margin
        return max(tree.sizeHintForColumn(column), header.sectionSizeHint(column), title) + 1  # the grid's line

    def _fit_columns(self) -> None:
        """The figures show left to right while the titles keep their room; those that do not fit hide."""
        tree = self.tree
        room = tree.viewport().width() - TITLE_ROOM
        for column in FIGURES:
            need = self._column_width(column)
            shown = need <= room
            room = room - need if shown else -1  # the columns right of one that does not fit hide too
            tree.setColumnHidden(column, not shown)

    def _on_change(self, change: Change) -> None:
        if change.replaced:
            self._mark_open()

    def _mark_open(self) -> None:
        """Bold the open session's row and make it the current one, wherever the session was opened from."""
        session = self.controller.session
        current = str(session.path) if session is not None else None
        for path, item in self._items.items():
            font = item.font(0)
            font.setBold(path == current)
            item.setFont(0, font)
        if current is None or not self.select_file(current):
            # PySide6's stub does not let the item be None, which Qt takes as "no current item".
            self.tree.setCurrentItem(None)  # type: ignore[call-overload]  # no row stays highlighted for a session no longer open
