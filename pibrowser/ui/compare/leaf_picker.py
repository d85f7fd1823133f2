"""Choosing the other side of a comparison among thousands of leaves.

A virtual table (rows from model.leaf_rows) behind a filter: type words and
only leaves whose id, label, session name or last user message hold them all
stay. Newest first; the current leaf is marked; arrows move, Enter picks, and
any entry id typed in full is accepted even when it is not a leaf. Sizes
(messages, tokens) need each context resolved, so they fill in from the
thread pool while the list is already usable.
"""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QSortFilterProxyModel,
    Qt,
    QThreadPool,
    Signal,
)
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...model.compare.leaf_rows import LeafRow, fill_sizes, leaf_rows
from ...model.text.timefmt import format_millis
from ...model.tokens.context_estimate import estimate_text
from ..common.safe_text import plain
from ..common.widgets import fit_dialog, plain_label
from ..control.job import Job, JobSignals, tell
from ..guard import guarded

COLUMNS = ("", "Time", "Id", "Label", "Depth", "Messages", "Tokens", "Last user message")
CURRENT, TIME, ID, LABEL, DEPTH, MESSAGES, TOKENS, LAST_USER = range(len(COLUMNS))
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
SIZE_BATCH = 25  # rows sized between two updates of the table

ROOT = QModelIndex()  # the invalid index: a flat model's rows hang under it


class LeafTable(QAbstractTableModel):
    """The rows as a table; it only reads them (they are the model layer's)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[LeafRow] = []
        self.session_name = ""
        self.this_side: str | None = None  # the entry being compared: listed, but never preselected

    def set_rows(self, rows: list[LeafRow], session_name: str) -> None:
        self.beginResetModel()
        self.rows, self.session_name = rows, session_name
        self.endResetModel()

    def sizes_changed(self, first: int, last: int) -> None:
        self.dataChanged.emit(self.index(first, MESSAGES), self.index(last, TOKENS))

    @guarded(fallback=0)
    def rowCount(self, parent: QModelIndex = ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    @guarded(fallback=0)
    def columnCount(self, parent: QModelIndex = ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    @guarded
    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole and section == CURRENT:
            return "● the session's current leaf"
        return None

    @guarded
    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            text = _text(row, column)
            return f"{text} (this side)" if column == ID and row.id == self.this_side else text
        if role == SORT_ROLE:
            return _sort_key(row, column)
        if role == Qt.ItemDataRole.ToolTipRole and column in (LAST_USER, LABEL):
            return _text(row, column)
        if role == Qt.ItemDataRole.FontRole and row.current:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (DEPTH, MESSAGES, TOKENS):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def _text(row: LeafRow, column: int) -> str:
    if column == CURRENT:
        return "●" if row.current else ""
    if column == TIME:
        return format_millis(row.millis)
    if column == ID:
        return plain(row.id)
    if column == LABEL:
        return plain(row.label) if row.label else ""
    if column == DEPTH:
        return f"{row.depth:,}"
    if column == MESSAGES:
        return f"{row.messages:,}" if row.messages is not None else "…"
    if column == TOKENS:
        return f"≈{estimate_text(row.tokens)}" if row.tokens is not None else "…"
    return plain(row.last_user)


def _sort_key(row: LeafRow, column: int) -> Any:
    if column == CURRENT:
        return int(row.current)
    if column == TIME:
        return row.millis if row.millis is not None else -(2**62)
    if column in (DEPTH, MESSAGES, TOKENS):
        value = (row.depth, row.messages, row.tokens)[column - DEPTH]
        return value if value is not None and value == value else -1  # NaN (pi's estimate can be) sorts as unknown
    return _text(row, column).lower()


class LeafFilter(QSortFilterProxyModel):
    """Rows whose id, label, session name and last user message hold every typed word."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.words: list[str] = []
        self.setSortRole(SORT_ROLE)

    def set_text(self, text: str) -> None:
        self.beginFilterChange()
        self.words = text.lower().split()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    @guarded(fallback=True)
    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex) -> bool:
        table = self.sourceModel()
        assert isinstance(table, LeafTable), "the filter is over the picker's table"
        return table.rows[source_row].matches(self.words, table.session_name.lower())


class SizeSignals(JobSignals):
    rows = Signal(list)  # the rows, sizes still unknown
    sized = Signal(int, int)  # first and last row sized


class SizeJob(Job):
    """Lists the leaves, then resolves each one's context for its size, off the GUI thread.

    The pool deletes it when done; the picker only keeps the signals and the
    cancel flag, so closing the picker early never frees a running job.
    """

    signals: SizeSignals  # given to Job below

    failure_text = "Sizes could not be worked out"

    def __init__(self, session, cancelled: threading.Event) -> None:
        super().__init__(signals=SizeSignals())
        self.session = session
        # The entries linked now: the rows describe those, whatever pi appends while the job runs
        # (the GUI thread links it into the session meanwhile; see model/compare/leaf_rows.py).
        self.known = len(session.file_order)
        self.cancelled = cancelled

    def work(self) -> None:
        rows = leaf_rows(self.session, self.known)
        tell(self.signals.rows, rows)
        first = 0
        for index in fill_sizes(self.session, rows):
            if self.cancelled.is_set():
                return
            if index - first + 1 >= SIZE_BATCH:
                tell(self.signals.sized, first, index)
                first = index + 1
        if first < len(rows):
            tell(self.signals.sized, first, len(rows) - 1)


class LeafPicker(QDialog):
    """Pick the entry to compare `key` with. Non-modal: `open()` it and listen to `chosen`."""

    chosen = Signal(object)  # an entry id, kept as the object it is (a JsKey is no plain string)

    def __init__(self, session, key: str, parent: QWidget | None = None, title: str = "Compare With") -> None:
        super().__init__(parent)
        self.session = session
        self.key = key
        self.setWindowTitle(title)
        fit_dialog(self, 900, 520)
        layout = QVBoxLayout(self)
        layout.addWidget(plain_label(f"Compare the context at {key} with:"))
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Type to filter by id, label, session name or the last user message — or any entry id")
        self.filter_edit.setClearButtonEnabled(True)
        layout.addWidget(self.filter_edit)
        self.table = LeafTable(self)
        self.table.this_side = key
        self.proxy = LeafFilter(self)
        self.proxy.setSourceModel(self.table)
        self.view = self._make_view()
        layout.addWidget(self.view, 1)
        self.status = plain_label("Listing leaves…", muted=True, small=True)
        layout.addWidget(self.status)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Compare")
        self.buttons.accepted.connect(self.pick)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.filter_edit.textChanged.connect(self._filter)
        self.filter_edit.installEventFilter(self)
        self.filter_edit.returnPressed.connect(self.pick)
        self.view.doubleClicked.connect(lambda index: self.pick())
        self.picked: str | None = None
        self.finished.connect(self._cancel)
        self._sized = 0
        self.cancelled = threading.Event()
        job = SizeJob(session, self.cancelled)
        self.size_signals = job.signals
        self.size_signals.rows.connect(self._rows)
        self.size_signals.sized.connect(self._sizes)
        self.size_signals.failed.connect(self._sizes_failed)
        self.failure: str | None = None
        QThreadPool.globalInstance().start(job)

    def _make_view(self) -> QTableView:
        view = QTableView()
        view.setModel(self.proxy)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setSortingEnabled(True)
        view.sortByColumn(TIME, Qt.SortOrder.DescendingOrder)
        view.verticalHeader().hide()
        view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
        view.setWordWrap(False)
        view.setAlternatingRowColors(True)
        header = view.horizontalHeader()
        header.setStretchLastSection(True)
        for column, width in ((CURRENT, 22), (TIME, 150), (ID, 150), (LABEL, 110), (DEPTH, 60), (MESSAGES, 75), (TOKENS, 80)):
            view.setColumnWidth(column, width)
        return view

    # ---- rows arriving from the pool

    def _rows(self, rows: list[LeafRow]) -> None:
        self.table.set_rows(rows, self.session.name or "")
        self._filter(self.filter_edit.text())

    def _sizes(self, first: int, last: int) -> None:
        self.table.sizes_changed(first, last)
        self._sized = last + 1
        self._show_status()

    def _sizes_failed(self, message: str, _tag: object) -> None:
        self.failure = message  # the sizes not worked out stay "…", and the status line says why
        self._show_status()

    def _cancel(self) -> None:
        self.cancelled.set()

    # ---- filtering and picking

    def _filter(self, text: str) -> None:
        self.proxy.set_text(text)
        if self.proxy.rowCount() and not self.view.selectionModel().selectedRows():
            # Newest first, so the first row is the newest leaf other than this side.
            first = next((r for r in range(self.proxy.rowCount()) if self._id_at(r) != self.key), 0)
            self.view.selectRow(first)
        self._show_status()

    def _id_at(self, proxy_row: int) -> str:
        return self.table.rows[self.proxy.mapToSource(self.proxy.index(proxy_row, 0)).row()].id

    def _show_status(self) -> None:
        total, shown = len(self.table.rows), self.proxy.rowCount()
        text = f"{shown:,} of {total:,} leaves shown"
        typed = self.filter_edit.text().strip()
        if typed in self.session.entries and typed != self.key:
            text += f" · Enter compares with entry {typed}"
        if self.failure is not None:
            text += f" · {self.failure}"
        elif self._sized < total and not self.cancelled.is_set():
            text += f" · sizing contexts {min(self._sized, total):,}/{total:,}…"
        self.status.setText(text)

    def selected_id(self) -> str | None:
        """What Enter would pick: an entry id typed in full, else the selected row."""
        typed = self.filter_edit.text().strip()
        if typed in self.session.entries and typed != self.key:
            return typed
        rows = self.view.selectionModel().selectedRows()
        return self._id_at(rows[0].row()) if rows else None

    def pick(self) -> None:
        # Return in the filter also reaches the dialog's default button: pick once.
        key = self.selected_id()
        if key is None or self.picked is not None:
            return
        self.picked = key
        self.chosen.emit(key)
        self.accept()

    @guarded(fallback=False)
    def eventFilter(self, watched: QObject, event) -> bool:
        # Typing stays in the filter; the arrows and page keys move through the list.
        if watched is self.filter_edit and isinstance(event, QKeyEvent) and event.type() == QKeyEvent.Type.KeyPress:
            if event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
                self.view.keyPressEvent(event)
                return True
        return super().eventFilter(watched, event)
