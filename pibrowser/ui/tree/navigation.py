"""Moving the selection with the keyboard: which entry each key leads to, on the map and in the outline.

On the map the arrows follow the tree: ↑ the parent, ↓ the first child, ← → the
siblings. In the outline they follow pi's /tree: ↑ ↓ a row (round the ends), ← → and
Page Up/Down a page, Ctrl (or Alt) with ← → a branch up or down, folding the run
first or opening the fold first (outline_rows.py). Home and End do the same in both: the
root of the selection's tree, and the current leaf.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.session.tree_filter import VisibleTree

MOVES = {
    Qt.Key.Key_Up: "parent",
    Qt.Key.Key_Down: "child",
    Qt.Key.Key_Left: "previous",
    Qt.Key.Key_Right: "next",
    Qt.Key.Key_Home: "root",
    Qt.Key.Key_End: "leaf",
}
OUTLINE_MOVES = {
    Qt.Key.Key_Up: "up",
    Qt.Key.Key_Down: "down",
    Qt.Key.Key_Left: "page_up",
    Qt.Key.Key_Right: "page_down",
    Qt.Key.Key_PageUp: "page_up",
    Qt.Key.Key_PageDown: "page_down",
    Qt.Key.Key_Home: "root",
    Qt.Key.Key_End: "leaf",
}
OUTLINE_CHORDS = {Qt.Key.Key_Left: "fold_or_up", Qt.Key.Key_Right: "unfold_or_down"}  # with Ctrl or Alt, as in pi
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
    return _sibling(visible, current, -1 if move == "previous" else 1)


def _sibling(visible: VisibleTree, current: str, step: int) -> str | None:
    siblings = visible.siblings(current)
    at = siblings.index(current) + step
    return siblings[at] if 0 <= at < len(siblings) else None


def key_command(key: int, modifiers, outline: bool = False) -> str | None:
    """What a key does in the tree: a move (MOVES on the map, OUTLINE_MOVES and OUTLINE_CHORDS in the
    outline), OPEN (the fold holding the selection), or None (not ours)."""
    if outline and modifiers & _BRANCH and not modifiers & Qt.KeyboardModifier.ShiftModifier:
        return OUTLINE_CHORDS.get(key)
    if modifiers & _CHORDS:
        return None
    if key in _OPEN_KEYS:
        return OPEN
    return (OUTLINE_MOVES if outline else MOVES).get(key)
