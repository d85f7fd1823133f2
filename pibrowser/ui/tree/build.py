"""From a layout to graphics items: where each unit sits, its node or fold item, and the scene's size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF

from .fold_item import FoldItem
from .gap_item import GapItem
from .layout import TreeLayout
from .node_item import MAX_TEXT, NodeItem
from .overview import NodeLayer
from .style import ROW_HEIGHT, Style

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.session.tree_filter import VisibleTree

MARGIN = 40.0


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


def make_items(
    lay: TreeLayout,
    session: Session,
    style: Style,
    col_w: float,
    layer: NodeLayer | None = None,
    reuse: dict[tuple[str, str], NodeItem | FoldItem] | None = None,
) -> tuple[NodeLayer, list[NodeItem | FoldItem], list[NodeItem | FoldItem], dict[tuple[str, str], NodeItem | FoldItem]]:
    """One item per unit of the layout, in unit order, placed and parented to one layer;
    the items of `reuse` that found no unit (the caller takes them off the scene); and the
    items by unit key (TreeLayout.unit_key), for the next layout to reuse.

    With `reuse` (the items of an earlier layout of the same tree, by unit key, marks
    cleared; taken over, and emptied), an item whose unit is still there is moved rather
    than built again: a selection inside a fold changes a few dozen units of thousands.
    """
    entries, labels = session.entries, session.labels
    cols, rows, rooms, children, folds, gaps, keys = lay.col, lay.row, lay.room, lay.children, lay.folds, lay.gaps, lay.keys
    items: list[NodeItem | FoldItem] = []
    layer = layer if layer is not None else NodeLayer()
    reuse = reuse if reuse is not None else {}
    keyed: dict[tuple[str, str], NodeItem | FoldItem] = {}
    dropped: list[NodeItem | FoldItem] = []
    no_room = MAX_TEXT + 20
    pop = reuse.pop
    for unit in range(len(keys)):
        room = rooms[unit]
        room_px = (room + 1) * col_w - 14 if room >= 0 else no_room
        members = folds.get(unit) if folds else None
        gap = gaps.get(unit) if gaps else None
        x, y = MARGIN + cols[unit] * col_w, MARGIN + rows[unit] * ROW_HEIGHT
        unit_key = lay.unit_key(unit)
        item = pop(unit_key, None)
        if item is not None and _still_fits(item, members, gap):
            if item.placed != (x, y, room_px):
                _move(item, room_px, x, y)
            item.unit = unit
            if isinstance(item, NodeItem) and item.current_leaf:  # a node (_still_fits)
                item.current_leaf, item.current_leaf_hidden = False, 0  # marked again after the layout
                item.refresh_text()
        else:
            if item is not None:
                dropped.append(item)
            item = _made(unit, keys[unit], members, gap, entries, labels, style, (x, y, room_px), layer)
            item.unit_key = unit_key
        if isinstance(item, NodeItem):
            _set_leaf(item, not children[unit])
        items.append(item)
        keyed[unit_key] = item
    dropped.extend(reuse.values())
    reuse.clear()
    return layer, items, dropped, keyed


def _made(
    unit: int,
    key: str,
    members: list[str] | None,
    gap: tuple[str, int, int] | None,
    entries: dict,
    labels: dict,
    style: Style,
    place: tuple[float, float, float],
    layer: NodeLayer,
) -> NodeItem | FoldItem:
    """A new item for a unit: a gap's, a node's or a fold's, placed at `place` (x, y, room) on `layer`."""
    x, y, room_px = place
    item: NodeItem | FoldItem
    if gap is not None:
        item = GapItem(unit, key, gap[2] - gap[1], entries, style, room_px)
    elif members is None:
        item = NodeItem(unit, entries[key], style, room_px, labels.get(key))
    else:
        item = FoldItem(unit, members, entries, style, room_px)
    item.setPos(x, y)
    item.placed = place
    item.setParentItem(layer)
    return item


def splice_items(
    lay: TreeLayout,
    session: Session,
    style: Style,
    col_w: float,
    layer: NodeLayer,
    old: list[NodeItem | FoldItem],
    keyed: dict[tuple[str, str], NodeItem | FoldItem],
) -> tuple[list[NodeItem | FoldItem], list[NodeItem | FoldItem]]:
    """make_items for a layout spliced from the one `old` shows (TreeLayout.spliced): the units the
    splice changed are made (or taken over from the ones they replace), the rest are the same
    items, renumbered and moved where they moved. Returns the items and those dropped; `keyed`
    (the old items by unit key) is brought up to date in place.

    make_items asks each of thousands of units for its key and its item; here only the few dozen
    units that changed are, and the rest cost a comparison of where they are."""
    assert lay.spliced is not None, "a spliced layout"
    _, a, b, shift = lay.spliced
    entries, labels, children = session.entries, session.labels, lay.children
    no_room = MAX_TEXT + 20
    replaced = {item.unit_key: keyed.pop(item.unit_key) for item in old[a:b]}
    dropped: list[NodeItem | FoldItem] = []
    made: list[NodeItem | FoldItem] = []
    for unit in range(a, b + shift):
        unit_key, members, gap = lay.unit_key(unit), lay.folds.get(unit), lay.gaps.get(unit)
        item = replaced.pop(unit_key, None)
        if item is None or not _still_fits(item, members, gap):
            if item is not None:
                dropped.append(item)
            room = lay.room[unit]
            place = (MARGIN + lay.col[unit] * col_w, MARGIN + lay.row[unit] * ROW_HEIGHT, (room + 1) * col_w - 14 if room >= 0 else no_room)
            item = _made(unit, lay.keys[unit], members, gap, entries, labels, style, place, layer)
            item.unit_key = unit_key
        if isinstance(item, NodeItem):
            _set_leaf(item, not children[unit])
        keyed[unit_key] = item
        made.append(item)
    dropped.extend(replaced.values())
    items = old[:a] + made + old[b:]
    for unit in range(a, len(items)):
        items[unit].unit = unit
    for item, col, row, room in zip(items, lay.col, lay.row, lay.room):
        place = (MARGIN + col * col_w, MARGIN + row * ROW_HEIGHT, (room + 1) * col_w - 14 if room >= 0 else no_room)
        if item.placed != place:
            _move(item, place[2], place[0], place[1])
    return items, dropped


def _set_leaf(item: NodeItem, leaf: bool) -> None:
    """Whether the node ends a branch (drawn as a mark): a reused item that gained children (pi
    appended under the leaf) draws itself again, as it keeps what it painted (unit_item)."""
    if item.leaf != leaf:
        item.leaf = leaf
        item.update()


def _still_fits(item: NodeItem | FoldItem, members: list[str] | None, gap: tuple[str, int, int] | None) -> bool:
    """A reused fold must hold the same members (the same first one and as many, in one run),
    a reused gap as many siblings."""
    if gap is not None:
        return isinstance(item, GapItem) and item.hidden == gap[2] - gap[1]
    if members is None:
        return isinstance(item, NodeItem)
    return isinstance(item, FoldItem) and not isinstance(item, GapItem) and len(item.members) == len(members)


def _move(item: NodeItem | FoldItem, room_px: float, x: float, y: float) -> None:
    """Put a reused item where the new layout places it (the caller compared `placed` in Python:
    asking Qt for each of a thousand items' position costs more than moving the few that moved)."""
    placed = item.placed
    if placed[2] != room_px:
        item.set_room(room_px)
    if placed[0] != x or placed[1] != y:
        item.setPos(x, y)
    item.placed = (x, y, room_px)


def scene_rect(lay: TreeLayout, col_w: float) -> QRectF:
    # room past the last row and column, so the ends can scroll clear of the legend
    width = MARGIN * 2 + (lay.columns - 1) * col_w + MAX_TEXT + 120
    height = MARGIN * 2 + (lay.rows - 1) * ROW_HEIGHT + 160
    return QRectF(0, 0, width, height)


def mark_current_leaf(items: list, lay: TreeLayout, session: Session, visible: VisibleTree) -> None:
    """Ring the node where pi resumes, or the nearest shown ancestor when the filter hides it."""
    leaf = session.leaf_id
    shown = visible.nearest_visible(session, leaf) if leaf is not None else None
    if shown is None or leaf is None:
        return
    unit = lay.unit_of.get(shown)
    if unit is None:
        return  # in a gap of a level too wide to draw, until the view shows its branch
    item = items[unit]
    if isinstance(item, NodeItem):
        item.current_leaf = True
        item.current_leaf_hidden = len(session.path_to(leaf)) - len(session.path_to(shown)) if shown != leaf else 0
        item.refresh_text()
