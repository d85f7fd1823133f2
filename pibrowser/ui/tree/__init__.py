"""The branch tree on a QGraphicsView: a folded layout of a session, drawn as a map or as pi's /tree outline.

What is shown (filter, folds, layout) is Qt-free in `shown_tree`, `folds`, `layout` and
`outline_rows`; `map_items` and `outline` draw it; `tree_marks` marks the selection,
the compared paths and the search hits on both; `view` wires them to the controller
and `pane` puts the filter, the search and the view's actions above them.
"""

from .pane import TreePane
from .view import TreeView

__all__ = ["TreePane", "TreeView"]
