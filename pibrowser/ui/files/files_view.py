"""The Files tab: the files the selected path's tool calls read and changed, as pi's compaction lists them.

Modified files first, then files only read (pi's `<modified-files>` and
`<read-files>`), each opening into the calls that touched it; a click on a call
selects its entry. The lists are worked out in the facts thread (the path's
entries read once per session, see control/trace_facts.py).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from ...model.context.file_lists import FileOperations
from ...model.text.terminal_text import one_line
from ...model.trace.table import FactsTable, path_file_operations
from ..common.safe_text import safe_tip
from ..common.widgets import plain_label
from ..control.trace_facts import Cancelled, TraceFacts
from ..common.when_shown import WhenShown

ENTRY_ROLE = Qt.ItemDataRole.UserRole
PATH_ROLE = Qt.ItemDataRole.UserRole + 1
ROWS_LIMIT = 2000  # files listed per group; the filter finds the rest
OPS = {"read": "read", "write": "wrote", "edit": "edited"}


class FilesView(QWidget):
    """Public for callers and tests: `operations` (the lists shown), `tree`, `busy`."""

    def __init__(self, controller, facts: TraceFacts, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.facts = facts
        self.operations: FileOperations | None = None
        self.leaf: str | None = None  # the path shown ends here
        self._on_path: set[str] = set()
        self.busy = False
        self._request = 0
        self.title = plain_label("", small=True, wrap=True)
        self.title.setContentsMargins(8, 6, 8, 2)
        self.filter = QLineEdit(placeholderText="Filter files…", clearButtonEnabled=True)
        self.tree = QTreeWidget()
        self.tree.setObjectName("filesTree")
        self.tree.setHeaderLabels(["File", "Calls"])
        self.tree.setUniformRowHeights(True)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(0, self.tree.header().ResizeMode.Stretch)
        self.tree.header().setSectionResizeMode(1, self.tree.header().ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree, 1)
        self.filter.textChanged.connect(self._apply_filter)
        self.tree.itemActivated.connect(self._activated)
        self.tree.itemClicked.connect(self._activated)
        self.tree.itemExpanded.connect(self._expanded)
        self.when_shown = WhenShown(self, self.refresh)  # the window tells it when its tab shows
        controller.changed.connect(self._on_change)
        self.title.setText("Open a session to see which files its paths touched.")

    def _on_change(self, change) -> None:
        if change.replaced:
            self.leaf, self._on_path = None, set()
        if change.replaced or change.appended or change.selection:
            self.when_shown.changed()

    def refresh(self) -> None:
        """The path through the selection to its newest leaf; kept while the selection is on it."""
        session, selected = self.controller.session, self.controller.selected
        if session is None or selected is None:
            self.operations, self.leaf = None, None
            self.tree.clear()
            self.title.setText("Select an entry to see which files its path touched.")
            return
        if selected in self._on_path and not session.children(self.leaf):
            return  # on the path shown, and pi has not gone on from it
        key = session.newest_leaf_below(self.leaf if selected in self._on_path else selected)
        self._request += 1
        request = self._request
        self.busy = True
        path = session.path_entries(key)
        stale = self.facts.stale(self.facts.generation)

        def work(table: FactsTable) -> tuple[FileOperations, set[str]]:
            if not table.ensure(path, stop=lambda: request != self._request or stale()):  # the user waits: no pace
                raise Cancelled
            return path_file_operations(path, table), {entry.id for entry in path}

        self.facts.run(work, lambda answer, error: self._show(request, key, answer, error))

    def _show(self, request: int, key: str, answer: tuple[FileOperations, set[str]] | None, error: str | None) -> None:
        if request != self._request:
            return
        self.busy = False
        found, self._on_path = answer if answer is not None else (None, set())
        self.operations, self.leaf = found, key
        if found is None:
            self.tree.clear()
            self.title.setText(f"The files could not be listed: {error}" if error else "")
            return
        modified, read = len(found.modified_files), len(found.read_files)
        self.title.setText(
            f"The path to {one_line(key)} (through the selection, to its newest leaf) changed {modified:,} file{'s' if modified != 1 else ''} and only read {read:,}, "
            "as pi's compaction lists them (read, write and edit calls, by their path argument)."
        )
        self._populate()

    def _populate(self) -> None:
        """The files matching the filter, ROWS_LIMIT a group at most; a file's calls when it is opened."""
        self.tree.clear()
        found = self.operations
        if found is None:
            return
        needle = self.filter.text().casefold().strip()
        for title, paths in (("Modified", found.modified_files), ("Read only", found.read_files)):
            matching = [path for path in paths if needle in path.casefold()] if needle else paths
            group = QTreeWidgetItem([f"{title} ({len(matching):,}{f' of {len(paths):,}' if needle else ''})", ""])
            font = group.font(0)
            font.setBold(True)
            group.setFont(0, font)
            self.tree.addTopLevelItem(group)
            group.addChildren([self._file_item(path, found) for path in matching[:ROWS_LIMIT]])
            if len(matching) > ROWS_LIMIT:
                group.addChild(QTreeWidgetItem([f"… {len(matching) - ROWS_LIMIT:,} more: type in the filter to find them", ""]))
            group.setExpanded(True)

    def _file_item(self, path: str, found: FileOperations) -> QTreeWidgetItem:
        calls = found.calls_for(path)
        ops = sorted({OPS[call.op] for call in calls}, key=list(OPS.values()).index)
        item = QTreeWidgetItem([one_line(path), f"{len(calls):,} · {', '.join(ops)}"])
        item.setToolTip(0, safe_tip(path))
        item.setData(0, PATH_ROLE, path)
        item.setChildIndicatorPolicy(QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator)  # its calls come when opened
        return item

    def _expanded(self, item: QTreeWidgetItem) -> None:
        path = item.data(0, PATH_ROLE)
        if path is None or item.childCount() or self.operations is None:
            return
        for call in self.operations.calls_for(path):
            where = f"{OPS[call.op]} in {call.entry}" + (f" (call {call.tool_call_id})" if call.tool_call_id else "")
            if call.nested:
                where += ", by a tool's own call"
            child = QTreeWidgetItem([one_line(where), ""])
            child.setData(0, ENTRY_ROLE, call.entry)
            child.setToolTip(0, safe_tip(f"Select entry {call.entry}"))
            item.addChild(child)

    def _activated(self, item: QTreeWidgetItem) -> None:
        key = item.data(0, ENTRY_ROLE)
        if key:
            self.controller.select(key)

    def _apply_filter(self, text: str) -> None:
        self._populate()
