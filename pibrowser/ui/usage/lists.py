"""The Usage view's lists: the top sessions and projects by cost, and the sessions of a bar clicked."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem

from ...model.text.amounts import format_cost, format_count
from ...model.text.terminal_text import one_line
from ...model.usage.grouping import Row, number
from ..common.safe_text import safe_tip

PATH_ROLE = Qt.ItemDataRole.UserRole
TITLE_LIMIT = 120


def ranked_list(name: str, first: str) -> QTreeWidget:
    """A list of rows, the name first (taking the room), then cost and tokens."""
    tree = QTreeWidget()
    tree.setObjectName(name)
    tree.setHeaderLabels([first, "Cost", "Tokens"])
    tree.setRootIsDecorated(False)
    tree.setUniformRowHeights(True)
    tree.setAlternatingRowColors(True)
    tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    header = tree.header()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    for column in (1, 2):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    return tree


def fill(tree: QTreeWidget, rows: list[Row], titles: dict[str, str], limit: int | None = None) -> None:
    """Rows as items, largest cost first: a session's title (its file a hover away), or a project's folder."""
    tree.clear()
    items = []
    for row in rows[:limit]:
        key = row.key or ""
        title = titles.get(key) or (Path(key).name if key in titles else key)
        item = QTreeWidgetItem([one_line(title, TITLE_LIMIT), format_cost(number(row.cost)), format_count(number(row.tokens))])
        item.setData(0, PATH_ROLE, key)
        tip = safe_tip(f"{title}\n{key}\n{figures_text(row)}")
        for column in range(3):
            item.setToolTip(column, tip)
            if column:
                item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        items.append(item)
    tree.addTopLevelItems(items)


def figures_text(row: Row) -> str:
    """Every figure of a row, exactly: what hovering reads out."""
    input, output, cache_read, cache_write, cost = (number(value) for value in row.figures)
    replies = f"{row.replies:,} repl{'y' if row.replies == 1 else 'ies'}"
    return (
        f"{format_cost(cost) if cost < 0.01 else f'${cost:,.4f}'} · {number(row.tokens):,.0f} tokens "
        f"(input {input:,.0f} · output {output:,.0f} · cache read {cache_read:,.0f} · cache write {cache_write:,.0f}) · {replies}"
    )
