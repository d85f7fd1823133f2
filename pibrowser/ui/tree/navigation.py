"""Moving the selection with the keyboard: which entry each key leads to, on the map and in the outline.

On the map the arrows follow the tree: ↑ the parent, ↓ the first child, ← → the
siblings. In the outline they follow pi's /tree: ↑ ↓ a row (round the ends), ← → and
Page Up/Down a page. In both, as pi's /tree does, Ctrl (or Alt) with ← folds the
selection's long run, or else goes up to where its branch starts; with → it opens the
fold holding the selection, or else goes down to the next branch point's first child
(the outline by its rows, outline_rows.py; the map along the tree, here). Home and End
do the same in both: the root of the selection's tree, and the current leaf.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.session.tree_filter import VisibleTree

MOVES: dict[int, str] = {
    Qt.Key.Key_Up: "parent",
    Qt.Key.Key_Down: "child",
    Qt.Key.Key_Left: "previous",
    Qt.Key.Key_Right: "next",
    Qt.Key.Key_Home: "root",
    Qt.Key.Key_End: "leaf",
}
OUTLINE_MOVES: dict[int, str] = {
    Qt.Key.Key_Up: "up",
    Qt.Key.Key_Down: "down",
    Qt.Key.Key_Left: "page_up",
    Qt.Key.Key_Right: "page_down",
    Qt.Key.Key_PageUp: "page_up",
    Qt.Key.Key_PageDown: "page_down",
    Qt.Key.Key_Home: "root",
    Qt.Key.Key_End: "leaf",
}
BRANCH_KEYS: dict[int, str] = {Qt.Key.Key_Left: "fold_or_up", Qt.Key.Key_Right: "unfold_or_down"}  # with Ctrl or Alt, as in pi
_CHORDS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier
_BRANCH = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
_OPEN_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
OPEN = "open"


def neighbour(session: Session | None, visible: VisibleTree | None, selected: str | None, move: str) -> str | None:
    """The entry `move` leads to from `selected`, in the displayed tree.

    A selection the filter hides is shown on its nearest visible ancestor (its stand-in):
    ↑ goes to that stand-in first, the entry the tree marks for it.
    """
    if session is None or visible is None or not len(visible):
        return None
    if move == "leaf":
        return session.leaf_id
    current = visible.nearest_visible(session, selected)
    if current is None:
        return visible.nearest_visible(session, session.leaf_id) or visible.roots[0]
    if move == "parent":
        return current if current != selected else visible.parent.get(current)
    if move == "child":
        kids = visible.kids(current)
        return kids[0] if kids else None
    if move == "root":
        return visible.root_of(current)
    if move == "branch_up":
        return _branch_start(visible, current)
    if move == "branch_down":
        return _next_branch(visible, current)
    return _sibling(visible, current, -1 if move == "previous" else 1)


def _branch_start(visible: VisibleTree, current: str) -> str:
    """Up the parents to the first entry above `current` that starts a branch (a child of an entry
    with several), or to the root: pi's move up to the branch segment start."""
    key = current
    while (parent := visible.parent.get(key)) is not None:
        if key != current and len(visible.kids(parent)) > 1:
            return key
        key = parent
    return key


def _next_branch(visible: VisibleTree, current: str) -> str:
    """Down the first children to the first child of the next branch point, or to the chain's end:
    pi's move down to the next branch segment."""
    key = current
    while kids := visible.kids(key):
        if len(kids) > 1:
            return kids[0]
        key = kids[0]
    return key


def _sibling(visible: VisibleTree, current: str, step: int) -> str | None:
    siblings = visible.siblings(current)
    at = siblings.index(current) + step
    return siblings[at] if 0 <= at < len(siblings) else None


def key_command(key: int, modifiers, outline: bool = False) -> str | None:
    """What a key does in the tree: a move (MOVES on the map, OUTLINE_MOVES in the outline, BRANCH_KEYS
    in both), OPEN (the fold holding the selection), or None (not ours)."""
    if modifiers & _BRANCH and not modifiers & Qt.KeyboardModifier.ShiftModifier:
        return BRANCH_KEYS.get(key)
    if modifiers & _CHORDS:
        return None
    if key in _OPEN_KEYS:
        return OPEN
    return (OUTLINE_MOVES if outline else MOVES).get(key)
