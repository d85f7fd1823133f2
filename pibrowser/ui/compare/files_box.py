"""Which branch changed what: the files each compared path touched, in the compare view.

One row that opens into a table: every file either side read or changed (pi's
compaction lists, model/compare/changed_files.py), marked per side; the files only one
side changed come first. The lists are worked out in the facts thread.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtWidgets import QFrame, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from ...model.compare.changed_files import MODIFIED, FilesComparison, compare_files
from ...model.text.terminal_text import one_line
from ...model.trace.table import FactsTable, path_file_operations
from ..common.safe_text import safe_tip
from ..common.widgets import Collapsible, plain_label
from ..control.trace_facts import TraceFacts

MARKS = {MODIFIED: "changed", "read": "read", None: ""}


class CompareFiles(QFrame):
    """`show(left, right)` works out both sides' files; `comparison` once it has."""

    def __init__(self, controller, facts: TraceFacts | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.facts = facts
        self.comparison: FilesComparison | None = None
        self._request = 0
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(8, 4, 8, 4)
        self.toggle = Collapsible("Files: working out which side changed what…", self._table)
        self.toggle.toggle.setEnabled(False)
        self.box.addWidget(self.toggle)

    def show_sides(self, left: str, right: str) -> None:
        session = self.controller.session
        self._request += 1
        request = self._request
        paths = (session.path_entries(left), session.path_entries(right))

        def work(table: FactsTable) -> FilesComparison:
            for path in paths:
                table.ensure(path)  # the user waits for this: no stepping aside
            return compare_files(*(path_file_operations(path, table) for path in paths))

        if self.facts is None:
            table = FactsTable()
            self._shown(request, work(table), None)
        else:
            self.facts.run(work, lambda found, error: self._shown(request, found, error))

    def drop(self) -> None:
        """The view lets this box go: it is deleted, and the answer still being worked out is not wanted."""
        self._request += 1  # the answer's callback holds this object: it must not reach the deleted widgets
        self.hide()
        self.deleteLater()

    def _shown(self, request: int, found: FilesComparison | None, error: str | None) -> None:
        if request != self._request or not shiboken6.isValid(self.toggle.toggle):
            return  # asked again since, or the box went with the comparison it was for
        self.comparison = found
        if found is None:
            self.toggle.toggle.setText(f"Files: could not be listed ({error})" if error else "Files")
            return
        left, right, both = len(found.only_left), len(found.only_right), len(found.both)
        touched = len(found.rows)
        if not touched:
            self.toggle.toggle.setText("Files: neither side read or changed a file")
            return
        self.toggle.toggle.setText(
            f"Files: A alone changed {left:,}, B alone changed {right:,}, both changed {both:,} · {touched:,} touched in all"
        )
        self.toggle.toggle.setEnabled(True)

    def _table(self) -> QWidget:
        holder = QWidget()
        layout = QVBoxLayout(holder)
        layout.setContentsMargins(0, 0, 0, 0)
        found = self.comparison
        if found is None:
            return holder
        layout.addWidget(
            plain_label(
                "As pi's compaction lists them: the read, write and edit calls on each path, by their path argument.",
                muted=True,
                small=True,
                wrap=True,
            )
        )
        tree = QTreeWidget()
        tree.setObjectName("compareFiles")
        tree.setRootIsDecorated(False)
        tree.setHeaderLabels(["File", "A", "B"])
        tree.setUniformRowHeights(True)
        rows = sorted(found.rows, key=lambda row: not row.changed_on_one_side)  # stable: pi's order within
        for row in rows:
            item = QTreeWidgetItem([one_line(row.path), MARKS[row.left], MARKS[row.right]])
            item.setToolTip(0, safe_tip(row.path))
            if row.changed_on_one_side:
                font = item.font(0)
                font.setBold(True)
                for column in range(3):
                    item.setFont(column, font)
            tree.addTopLevelItem(item)
        tree.header().setStretchLastSection(False)
        tree.header().setSectionResizeMode(0, tree.header().ResizeMode.Stretch)
        for column in (1, 2):
            tree.header().setSectionResizeMode(column, tree.header().ResizeMode.ResizeToContents)
        row_height = tree.sizeHintForRow(0) if rows else 18
        tree.setFixedHeight(min(320, tree.header().sizeHint().height() + row_height * len(rows) + 2 * tree.frameWidth() + 2))
        layout.addWidget(tree)
        return holder
