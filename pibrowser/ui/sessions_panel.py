"""The sessions dock: pi's sessions on this machine, by project, newest first."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from ..model.amounts import human_size
from ..model.discovery import SessionFileInfo, find_sessions, sessions_dir
from .context.safe_text import safe_tip
from .controller import SessionController

PATH_ROLE = Qt.ItemDataRole.UserRole
CWD_ROLE = Qt.ItemDataRole.UserRole + 1


def short_time(when: datetime, now: datetime | None = None) -> str:
    """Today: the clock; this year: day and month; before: the date."""
    now = now or datetime.now()
    if when.date() == now.date():
        return f"{when:%H:%M}"
    if when.year == now.year:
        return f"{when:%b} {when.day}"
    return f"{when:%Y-%m-%d}"


def _project_item(cwd: str) -> QTreeWidgetItem:
    """A project row: the folder's own name, with the whole path a hover away."""
    name = cwd.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] or cwd
    item = QTreeWidgetItem([name])
    item.setToolTip(0, safe_tip(cwd))
    item.setData(0, CWD_ROLE, cwd)
    font = item.font(0)
    font.setBold(True)
    item.setFont(0, font)
    return item


class SessionsPanel(QWidget):
    """Lists session files under a folder (pi's sessions folder by default); activating one opens it."""

    def __init__(self, controller: SessionController) -> None:
        super().__init__()
        self.controller = controller
        self.root: Path = sessions_dir()
        self.filter = QLineEdit(placeholderText="Filter sessions…", clearButtonEnabled=True)
        self.tree = QTreeWidget()
        self.tree.setObjectName("sessionsTree")
        self.tree.setHeaderLabels(["Session", "Modified", "Size"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        # The session's title gets the room; time and size take what they need.
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree)
        self.filter.textChanged.connect(self._apply_filter)
        self.tree.itemActivated.connect(self._activate)
        controller.sessionChanged.connect(self._mark_open)

    def populate(self, root: Path | None = None) -> int:
        """Fill the list from `root` (a folder); returns how many sessions were found."""
        if root is not None:
            self.root = root
        found = find_sessions(self.root)
        self.tree.clear()
        projects: dict[str, QTreeWidgetItem] = {}
        for info in found:
            project = projects.get(info.cwd)
            if project is None:
                project = _project_item(info.cwd)
                projects[info.cwd] = project
                self.tree.addTopLevelItem(project)
            project.addChild(self._item(info))
        for project in projects.values():
            project.setText(1, f"{project.childCount():,} session{'s' if project.childCount() != 1 else ''}")
        self.tree.expandAll()
        self._apply_filter(self.filter.text())
        self._mark_open(self.controller.session)
        return len(found)

    def _item(self, info: SessionFileInfo) -> QTreeWidgetItem:
        title = info.first_message or info.path.name
        modified = datetime.fromtimestamp(info.modified)
        item = QTreeWidgetItem([title, short_time(modified), human_size(info.size)])
        item.setData(0, PATH_ROLE, str(info.path))
        tip = safe_tip(f"{title}\n\n{info.path}\nstarted {info.started}\nmodified {modified:%Y-%m-%d %H:%M:%S}\n{info.cwd}")
        for column in range(3):
            item.setToolTip(column, tip)
        item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return item

    def _activate(self, item: QTreeWidgetItem) -> None:
        path = item.data(0, PATH_ROLE)
        if path:
            self.controller.open(path)

    def _apply_filter(self, text: str) -> None:
        needle = text.casefold().strip()
        for index in range(self.tree.topLevelItemCount()):
            project = self.tree.topLevelItem(index)
            visible = 0
            for row in range(project.childCount()):
                child = project.child(row)
                hit = not needle or needle in child.text(0).casefold() or needle in str(project.data(0, CWD_ROLE)).casefold()
                child.setHidden(not hit)
                visible += hit
            project.setHidden(visible == 0)

    def _mark_open(self, session) -> None:
        current = str(session.path) if session is not None else None
        for index in range(self.tree.topLevelItemCount()):
            project = self.tree.topLevelItem(index)
            for row in range(project.childCount()):
                child = project.child(row)
                font = child.font(0)
                font.setBold(child.data(0, PATH_ROLE) == current)
                child.setFont(0, font)
