"""Search in the tree: hits in tree order, found a chunk at a time so typing stays responsive; stepping through them.

The visible entries are searched first (their hits are drawn as they are found), then
the entries the filter hides, which are only counted: the pane offers to show them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from ...model.session.search import find
from ...model.text.plural import counted

if TYPE_CHECKING:
    from ...model.session.tree_filter import VisibleTree
    from ..control.controller import SessionController
    from .view import TreeView

SEARCH_CHUNK = 1500  # entries searched per event-loop turn, so typing stays responsive


class TreeSearch(QObject):
    """Inputs: the controller (session and selection) and the view (it draws the hits).

    State: `query` (searched for), `hits` (visible entries found, in tree order), `index`
    (the hit stepped to, or None), `hidden_hits` (entries found that the filter hides),
    `searching` (chunks still to go). `changed` says any of them changed.
    """

    changed = Signal()

    def __init__(self, controller: SessionController, view: TreeView, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self._view = view
        self.query = ""
        self.hits: list[str] = []
        self.index: int | None = None
        self.hidden_hits: list[str] = []
        self.searching = False
        self.visible: VisibleTree | None = None
        self._at = 0
        self._hidden_order: list[str] | None = None  # searched after the visible entries
        self._order_pos: dict[str, int] | None = None
        self._keep: str | None = None
        self._step_timer = QTimer(self, singleShot=True, interval=0)
        self._step_timer.timeout.connect(self._chunk)

    def set_tree(self, visible: VisibleTree | None) -> None:
        """The tree searched changed (a filter, a reload, an append): positions are found again."""
        self.visible = visible
        self._order_pos = None

    def clear(self) -> None:
        self._step_timer.stop()
        self.query, self.searching = "", False
        self.hits, self.index, self.hidden_hits = [], None, []
        self._view.set_hits([])
        self.changed.emit()

    def start(self, query: str, keep_current: bool = False) -> None:
        """Search for `query` afresh; `keep_current` steps to the same hit again once it is found."""
        previous = self.current() if keep_current else None
        self.query = query
        self._at = 0
        self.searching = bool(query.strip()) and self.visible is not None
        self.hits, self.index = [], None
        self.hidden_hits, self._hidden_order = [], None
        self._keep = previous
        self._view.set_hits([])
        if self.searching:
            self._step_timer.start()
        self.changed.emit()

    def run_to_end(self) -> None:
        while self.searching:
            self._chunk()

    def _chunk(self) -> None:
        session = self._controller.session
        if not self.searching or session is None or self.visible is None:
            self.searching = False
            return
        if self._hidden_order is not None:
            self.hidden_hits.extend(self._next(self._hidden_order))
            self._go_on()
            return
        order = self.visible.order
        found = self._next(order)
        self.hits.extend(found)
        if self._keep is not None and self._keep in found:
            self.index = self.hits.index(self._keep)
        if self._at >= len(order):
            # The visible hits are all drawn; go on counting what the filter hides.
            self._view.set_hits(self.hits, self.current())
            self._hidden_order = [key for key in session.entries if key not in self.visible]
            self._at = 0
        elif found:
            self._view.set_hits(self.hits, self.current())
        self._go_on()

    def _next(self, order: list[str]) -> list[str]:
        """The hits among the next SEARCH_CHUNK entries of `order`."""
        chunk = order[self._at : self._at + SEARCH_CHUNK]
        self._at += len(chunk)
        session = self._controller.session
        return list(find(session, self.query, chunk)) if session is not None else []

    def _go_on(self) -> None:
        if self._hidden_order is not None and self._at >= len(self._hidden_order):
            self.searching = False
        else:
            self._step_timer.start()
        self.changed.emit()

    # ---- stepping -----------------------------------------------------------------------

    def current(self) -> str | None:
        return self.hits[self.index] if self.index is not None and self.index < len(self.hits) else None

    def step(self, direction: int) -> str | None:
        """The hit after (or before) the selection, or the next one from the hit stepped to; None with no hits.

        The first step of a search for an entry's id lands on that entry, wherever the selection is."""
        typed = self.query.strip()
        session = self._controller.session
        if self.index is None and typed not in self.hits and session is not None and typed in session.entries:
            return typed  # an entry the filter hides: selected all the same (the tree marks its stand-in)
        if not self.hits:
            return None
        count = len(self.hits)
        if self.index is None and typed in self.hits:
            index = self.hits.index(typed)
        elif self.index is None or self.current() != self._controller.selected:
            # start from the selection: the first hit after it (or before it, going back)
            here = self._position(self._controller.selected)
            positions = [self._position(key) for key in self.hits]
            at = bisect_right(positions, here) if direction > 0 else bisect_left(positions, here) - 1
            index = at % count
        else:
            index = (self.index + direction) % count
        self.index = index
        key = self.hits[index]
        self._view.set_hits(self.hits, key)
        self.changed.emit()
        return key

    def step_to(self, key: str) -> None:
        """Make `key` (one of the hits) the hit stepped to."""
        if key in self.hits:
            self.index = self.hits.index(key)
            self._view.set_hits(self.hits, key)
            self.changed.emit()

    def _position(self, key: str | None) -> int:
        """Where `key` (or the visible entry standing for it) comes in tree order; -1 if nowhere."""
        session, visible = self._controller.session, self.visible
        if visible is None or key is None or session is None:
            return -1
        if self._order_pos is None:
            self._order_pos = {k: i for i, k in enumerate(visible.order)}
        shown = visible.nearest_visible(session, key)
        return self._order_pos.get(shown, -1) if shown is not None else -1

    def summary(self, typed: str, pending: bool) -> str:
        """What the pane says beside the field: "3 of 17", "17 hits…", "no hits", "none shown"."""
        if not typed.strip():
            return ""
        more = "…" if self.searching or pending else ""
        if not self.hits:
            return "searching…" if more else "none shown" if self.hidden_hits else "no hits"
        if self.index is not None and self.current() == self._controller.selected:
            return f"{self.index + 1} of {len(self.hits)}{more}"
        return f"{counted(len(self.hits), 'hit')}{more}"
