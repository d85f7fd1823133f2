"""Moving the selection with the keyboard: which entry each arrow (and Home, End) leads to."""

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
_CHORDS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier
_OPEN_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
OPEN = "open"


def neighbour(session: Session | None, visible: VisibleTree | None, selected: str | None, move: str) -> str | None:
    """The entry `move` leads to from `selected`, in the displayed tree."""
    if session is None or visible is None or not len(visible):
        return None
    if move == "leaf":
        return session.leaf_id
    current = visible.nearest_visible(session, selected)
    if current is None:
        return visible.nearest_visible(session, session.leaf_id) or visible.roots[0]
    if move == "parent":
        return visible.parent.get(current)
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


def key_command(key: int, modifiers) -> str | None:
    """What a key does in the tree: a move of MOVES, OPEN (the fold holding the selection), or None (not ours)."""
    if modifiers & _CHORDS:
        return None
    if key in _OPEN_KEYS:
        return OPEN
    return MOVES.get(key)
