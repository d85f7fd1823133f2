"""The rows of the card list, as a Qt item model: one per message of the context shown.

A new context replaces the rows by a diff: contexts along a path share their first
rows (the very same CardItems, or equal ones), so a step along the path removes the
rows after the fork and inserts the new ones (beginRemoveRows / beginInsertRows) and
every other row, with the card the view built for it, stays.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from ...model.session.sequences import shared_prefix
from ...model.text.describe import message_preview
from .message_items import CardItem, ContextInfo
from .roles import ROLE_NAMES
from ..common.safe_text import plain
from ..cards import RowModel
from ..guard import guarded

ITEM_ROLE = Qt.ItemDataRole.UserRole + 1  # the row's CardItem

Index = QModelIndex | QPersistentModelIndex


class MessageRows(RowModel):
    """The rows shown and the context info they were made from (`info`, None when nothing is)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[CardItem] = []
        self.info: ContextInfo | None = None

    @guarded(fallback=0)
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's default argument)
        return 0 if parent.isValid() else len(self.rows)

    @guarded
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        item = self.rows[index.row()]
        if role == ITEM_ROLE:
            return item
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return describe(item)
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return plain(message_preview(item.message))
        return None

    def show(self, info: ContextInfo | None, rows: list[CardItem]) -> tuple[int, int, int]:
        """Show these rows: the ones both lists share at their start and end stay, the rest are
        removed and inserted. Returns (first changed row, rows removed, rows inserted)."""
        old = self.rows
        start = _same_start(old, rows)
        end = _same_end(old, rows, start)
        removed, inserted = len(old) - start - end, len(rows) - start - end
        self.info = info
        if removed:
            self.beginRemoveRows(QModelIndex(), start, start + removed - 1)
            del self.rows[start : start + removed]
            self.endRemoveRows()
        if inserted:
            self.beginInsertRows(QModelIndex(), start, start + inserted - 1)
            self.rows[start:start] = rows[start : start + inserted]
            self.endInsertRows()
        # The rows that stay are the ones the new context has (equal, maybe not the same objects).
        self.rows[:] = rows
        return start, removed, inserted


def describe(item: CardItem) -> str:
    """A row as one line: who, which message, which entry, and how it starts (what a screen reader says)."""
    message = item.message
    role = item.role
    name = ROLE_NAMES.get(role, role)
    number = f"#{item.index + 1}" if item.index is not None else "not sent (dropped by an edit)"
    return plain(f"{name} {number}, entry {item.entry.id}: {message_preview(message)}")


def _same_start(old: list[CardItem], new: list[CardItem]) -> int:
    same = shared_prefix(old, new)  # rows taken over from the last context are the same objects
    limit = min(len(old), len(new))
    while same < limit and same_row(old[same], new[same]):
        same += 1
    return same


def _same_end(old: list[CardItem], new: list[CardItem], start: int) -> int:
    limit = min(len(old), len(new)) - start
    same = 0
    while same < limit and same_row(old[-1 - same], new[-1 - same]):
        same += 1
    return same


def same_row(a: CardItem, b: CardItem) -> bool:
    """Whether two rows show the same message the same way."""
    return a is b or (
        a.entry.id == b.entry.id
        and a.index == b.index
        and a.dropped == b.dropped
        and a.tokens == b.tokens
        and a.part is b.part
        and (a.message is b.message or a.message == b.message)
        and (a.original is b.original or a.original == b.original)
        and (a.edit is b.edit or (a.edit is not None and b.edit is not None and a.edit.id == b.edit.id))
    )
