"""From a layout to graphics items: where each unit sits, its node or fold item, and the scene's size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF

from .fold_item import FoldItem
from .layout import TreeLayout
from .node_item import MAX_TEXT, NodeItem
from .overview import NodeLayer
from .style import ROW_HEIGHT, Style

if TYPE_CHECKING:
    from ...model.session import Session
    from ...model.tree_filter import VisibleTree

MARGIN = 40.0
PINNED_TYPES = frozenset({"compaction", "branch_summary"})


def column_width(columns: int) -> float:
    """Roomy columns for the usual few branches, tighter ones for a bushy tree, never too narrow to read.

    The narrowest still leaves a node's text about fifteen characters ("branch summary…")
    when the next column is taken at the same row; text runs on over free columns.
    """
    if columns <= 6:
        return 240.0
    if columns <= 16:
        return 160.0
    return 124.0


def pinned(session: Session) -> frozenset[str]:
    """The entries that must show as their own node: labelled entries, compactions and branch summaries.

    A set rather than a predicate: the layout asks about every entry of every chain,
    and a set lookup there costs a third of a call reading the entry's type.
    """
    typed = (key for key, entry in session.entries.items() if entry.type in PINNED_TYPES)
    return frozenset(session.labels).union(typed)


def make_items(lay: TreeLayout, session: Session, style: Style, col_w: float) -> tuple[NodeLayer, list[NodeItem | FoldItem]]:
    """One item per unit of the layout, in unit order, placed and parented to one layer."""
    entries, labels = session.entries, session.labels
    cols, rows, rooms, children, folds, keys = lay.col, lay.row, lay.room, lay.children, lay.folds, lay.keys
    items: list[NodeItem | FoldItem] = []
    layer = NodeLayer()
    no_room = MAX_TEXT + 20
    for unit in range(len(keys)):
        room = rooms[unit]
        room_px = (room + 1) * col_w - 14 if room >= 0 else no_room
        members = folds.get(unit)
        if members is None:
            key = keys[unit]
            item = NodeItem(unit, entries[key], style, room_px, labels.get(key))
            item.leaf = not children[unit]
        else:
            item = FoldItem(unit, members, entries, style, room_px)
        item.setPos(MARGIN + cols[unit] * col_w, MARGIN + rows[unit] * ROW_HEIGHT)
        item.setParentItem(layer)
        items.append(item)
    return layer, items


def scene_rect(lay: TreeLayout, col_w: float) -> QRectF:
    # room past the last row and column, so the ends can scroll clear of the legend
    width = MARGIN * 2 + (lay.columns - 1) * col_w + MAX_TEXT + 120
    height = MARGIN * 2 + (lay.rows - 1) * ROW_HEIGHT + 160
    return QRectF(0, 0, width, height)


def mark_current_leaf(items: list, lay: TreeLayout, session: Session, visible: VisibleTree) -> None:
    """Ring the node where pi resumes, or the nearest shown ancestor when the filter hides it."""
    leaf = session.leaf_id
    shown = visible.nearest_visible(session, leaf) if leaf is not None else None
    if shown is None:
        return
    item = items[lay.unit_of[shown]]
    if isinstance(item, NodeItem):
        item.current_leaf = True
        item.current_leaf_hidden = len(session.path_to(leaf)) - len(session.path_to(shown)) if shown != leaf else 0
        item.refresh_text()
