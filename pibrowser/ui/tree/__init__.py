"""The branch tree: a folded, tidy top-down layout of a session on a QGraphicsView."""

from .pane import TreePane
from .view import TreeView

__all__ = ["TreePane", "TreeView"]
