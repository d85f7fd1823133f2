"""Laying the tree out again and putting its items on the scene: for another tree, grown appends, or new folds.

A rebuild keeps the view still (the entry it was centred on stays where it was) and, when
only the folds changed, moves the items still shown instead of making them again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF

from ...model.session.gcpause import gc_paused
from .anchor import restore_anchor
from .legend import shown_kinds

if TYPE_CHECKING:
    from ...model.session.tree_filter import VisibleTree
    from .view import TreeView


class Rebuild:
    """Input: the view (its shown tree, its items, marks and outline, and its scene)."""

    def __init__(self, view: TreeView) -> None:
        self._view = view

    def set_tree(self, visible: VisibleTree | None, *, keep_view: bool = True, keep_shown: tuple[str, ...] = ()) -> None:
        """Show the controller's session through `visible` (a filter's view of it), marked.

        `keep_view` keeps folds, hits, zoom and scroll (a reload, an append, another
        filter); without it (another file) they start afresh. The selection and the
        entries in `keep_shown` are unfolded if a fold would hide them.
        """
        view = self._view
        view.shown.show(visible, keep_folds=keep_view)
        if not keep_view:
            view.marks.hits, view.marks.current_hit = [], None
            view.resetTransform()
        view.rebuild(keep_view=keep_view)
        self._show_kept(keep_shown)

    def grow_tree(self, visible: VisibleTree, appended: list[str], leaf_before: str | None, keep_shown: tuple[str, ...] = ()) -> None:
        """`visible` was extended in place by what pi appended: grow the kept layout where the
        entries came, moving the items that stay, or lay out afresh when more than that changed."""
        view = self._view
        session = view.session
        if session is None or not view.shown.grow(session, visible, appended, leaf_before):
            self.set_tree(visible, keep_view=True, keep_shown=keep_shown)
            return
        view.shown.unfold_ahead(session, self._kept(keep_shown))  # one layout: _show_kept then finds them shown
        view.rebuild(keep_view=True, reuse=True)
        self._show_kept(keep_shown)

    def _show_kept(self, keep_shown: tuple[str, ...]) -> None:
        """Unfold around these entries, the selection and the current leaf, then mark."""
        view = self._view
        session = view.session
        for key in self._kept(keep_shown):
            if key is not None and session is not None and key in session.entries:
                view.unfolding.reveal(key)
        view.refresh_marks()

    def _kept(self, keep_shown: tuple[str, ...]) -> tuple[str | None, ...]:
        """The entries a new layout keeps in sight: these, the selection and the current leaf."""
        view = self._view
        leaf = view.session.leaf_id if view.session is not None else None
        return (*keep_shown, view.controller.selected, leaf)

    def run(self, keep_view: bool = True, *, reuse: bool = False) -> None:
        """Lay the tree out again. `reuse`: only the folds changed, so items still shown are moved, not rebuilt."""
        with gc_paused():
            self._rebuild_scene(keep_view, reuse and self._view.map_items.layer is not None)

    def _rebuild_scene(self, keep_view: bool, reuse: bool) -> None:
        view = self._view
        anchor = view.view_anchor() if keep_view else None
        kept = self._detach_items() if reuse else None
        if kept is None:
            self._forget_items()
        lay = view.shown.lay_out(view.session)
        if lay is None:
            view.scene().setSceneRect(QRectF(0, 0, 1, 1))
        elif not len(lay):
            self._forget_items()
            self._show_empty()
        else:
            session, visible = view.session, view.visible
            assert session is not None and visible is not None, "a layout is made of a session's visible tree"
            view.map_items.build(lay, session, visible, view.style_info, kept)
            view.mode.laid_out()
            if anchor is not None:
                restore_anchor(view, anchor, view.position_of)
            view.flags.invalidate()
            view.mode.zoomed()
            view.minimap.refresh(soon=reuse)
            view.legend.show_kinds(shown_kinds(view.unit_items))

    def _forget_items(self) -> None:
        """Drop the items and every reference to them, before the scene deletes them."""
        view = self._view
        view.pointer.forget()
        view.hit_test.forget()
        view.marks.forget()
        view.map_items.forget()
        view.outline.forget()
        view.scene().clear()

    def _detach_items(self) -> dict:
        """Take every mark off the unit items and return them by unit key, for the next layout to reuse."""
        view = self._view
        view.marks.clear(view.unit_items)
        view.pointer.leave()  # the items stay: the hovered one is un-hovered, not just forgotten
        view.hit_test.forget()
        return view.map_items.detach()

    def _show_empty(self) -> None:
        view = self._view
        session = view.session
        text = "This session has no entries." if session is None or not session.entries else "No entries match this filter."
        view.map_items.show_empty(text, view.style_info)
        view.scene().setSceneRect(QRectF(-20, -20, 400, 80))
