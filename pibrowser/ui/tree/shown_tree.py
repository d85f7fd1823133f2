"""What the tree shows: a filter's visible tree, folded, laid out; and the commands that change the folds.

No Qt here. Both views of the tree (the map and the outline) draw this one layout, so
switching between them keeps the folds, and every command returns whether the layout
changed, for the view to draw it again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from bisect import insort

from .folds import Folds
from .layout import Skeleton, TreeLayout, build_layout, cuts, grow_skeleton, skeleton
from .refold import refold

if TYPE_CHECKING:
    from ...model.session.session import Session
    from ...model.session.tree_filter import VisibleTree


PINNED_TYPES = frozenset({"compaction", "branch_summary"})
SPLICED_RUNS = 4  # a layout whose unfolded entries grew in more runs than this is folded afresh


def pinned(session: Session) -> frozenset[str]:
    """The entries that must show as their own node: labelled entries, compactions and branch summaries.

    A set rather than a predicate: the layout asks about every entry of every chain,
    and a set lookup there costs a third of a call reading the entry's type.
    """
    typed = (key for key, entry in session.entries.items() if entry.type in PINNED_TYPES)
    return frozenset(session.labels).union(typed)


def is_pinned(session: Session) -> Callable[[str], bool]:
    """`pinned` as a predicate, for asking about a few entries (the ones just appended)."""
    entries, labels = session.entries, session.labels
    return lambda key: key in labels or entries[key].type in PINNED_TYPES


def growth_tip(session: Session, visible: VisibleTree, appended: list[str], leaf_before: str | None) -> tuple[bool, str | None]:
    """Where appended entries grew the shown tree, if it grew only there: (True, the entry they hang
    under, or None when none of them shows). (False, None) when the tree must be laid out afresh:
    a label came (it pins an entry and changes its text), the entry that was the current leaf
    left the tree, new roots, or new entries under more than one entry or beside older siblings.
    """
    entries = session.entries
    if any(entries[key].type == "label" for key in appended if key in entries):
        return False, None
    if leaf_before is not None and leaf_before in entries and leaf_before not in visible:
        return False, None
    new = [key for key in appended if key in visible]
    if not new:
        return True, None
    fresh = set(new)
    tips = {visible.parent.get(key) for key in new} - fresh
    if len(tips) != 1:
        return False, None
    (tip,) = tips
    if tip is None or any(kid not in fresh for kid in visible.kids(tip)):
        return False, None
    return True, tip


class ShownTree:
    """`visible` (the filter's tree), `folds` (what is unfolded by hand) and `layout` (their units).

    The skeleton (the runs of the visible tree) is kept while only folds change, so
    opening and closing folds costs the units, not the entries; and when entries were only
    unfolded, in a run or two (a selection inside a fold), the last layout is spliced there
    (refold.py) rather than folded again.
    """

    def __init__(self) -> None:
        self.folds = Folds()
        self.visible: VisibleTree | None = None
        self.layout: TreeLayout | None = None
        self.skeleton: Skeleton | None = None
        self._skeleton_shown = 0  # the version of the siblings shown in wide levels it was built with
        # What the last layout was made from: its skeleton, threshold and unfolded entries, and the
        # places of those entries in each run (kept up as entries unfold, for refold).
        self._laid: tuple[Skeleton, int, frozenset[str], dict[int, list[int]]] | None = None

    def show(self, visible: VisibleTree | None, *, keep_folds: bool) -> None:
        """Another tree (a reload, another filter, another file): its runs are found again."""
        self.visible = visible
        self.skeleton = None
        self._laid = None
        if not keep_folds:
            self.folds.clear()

    def lay_out(self, session: Session | None) -> TreeLayout | None:
        """Lay the visible tree out with the folds as they are; None when there is nothing to show."""
        visible, folds = self.visible, self.folds
        if session is None or visible is None:
            self.layout = None
            return None
        if self.skeleton is None or self._skeleton_shown != folds.shown_version:
            self.skeleton = skeleton(visible.roots, visible.children, pinned(session), folds.shown)
            self._skeleton_shown = folds.shown_version
        skel, unfolded = self.skeleton, frozenset(folds.unfolded)
        lay = self._spliced(skel, unfolded)
        if lay is None:
            places = cuts(skel, unfolded)
            lay = build_layout(visible.roots, visible.children, threshold=folds.threshold, unfolded=unfolded, skel=skel)
            self._laid = (skel, folds.threshold, unfolded, places)
        self.layout = lay
        return lay

    def _spliced(self, skel: Skeleton, unfolded: frozenset[str]) -> TreeLayout | None:
        """The last layout with the runs where entries were unfolded since made again; None when
        more changed than that (entries folded again, another skeleton, many runs)."""
        laid, lay, threshold = self._laid, self.layout, self.folds.threshold
        if laid is None or lay is None or laid[0] is not skel or laid[1] != threshold or not laid[2] <= unfolded:
            return None
        run_of, run_pos, places = skel.run_of, skel.run_pos, laid[3]
        runs: set[int] = set()
        for key in unfolded - laid[2]:
            run = run_of.get(key)
            if run is not None:
                runs.add(run)
                if len(runs) > SPLICED_RUNS:
                    return None
        for key in unfolded - laid[2]:
            run = run_of.get(key)
            if run is not None:
                insort(places.setdefault(run, []), run_pos[key])
        for run in sorted(runs):
            lay = refold(lay, skel, threshold, places, run)
        if len(runs) > 1:
            lay.spliced = None  # more than one splice away from the layout drawn: its items are made afresh
        self._laid = (skel, threshold, unfolded, places)
        return lay

    def grow(self, session: Session, visible: VisibleTree, appended: list[str], leaf_before: str | None) -> bool:
        """`visible` was extended in place by what pi appended: grow the kept skeleton where the
        entries came. False when more than that changed (the caller shows the tree afresh)."""
        grows, tip = growth_tip(session, visible, appended, leaf_before)
        if self.skeleton is None or self._skeleton_shown != self.folds.shown_version or visible is not self.visible or not grows:
            return False
        self._laid = None  # the skeleton grows in place: the last layout is no longer one of it
        return tip is None or grow_skeleton(self.skeleton, visible.children, is_pinned(session), tip)

    def unfold_ahead(self, session: Session, keys: Iterable[str | None]) -> None:
        """Before laying out a grown skeleton: unfold around these entries (the visible ones
        standing for them) where the layout would fold them (Folds.reveal_ahead)."""
        skel, visible = self.skeleton, self.visible
        if skel is None or visible is None:
            return
        for key in keys:
            if key is not None and key in session.entries:
                shown = visible.nearest_visible(session, key)
                if shown is not None:
                    self.folds.reveal_ahead(skel, shown)

    # ---- where an entry shows ------------------------------------------------------------

    def unit_for(self, session: Session | None, key: str | None) -> int | None:
        """The unit that shows `key`: its own, its fold's, its nearest visible ancestor's, or the gap it is in."""
        lay, visible = self.layout, self.visible
        if key is None or lay is None or visible is None or session is None or key not in session.entries:
            return None
        unit = lay.unit_of.get(key)
        if unit is None:
            shown = visible.nearest_visible(session, key)
            unit = lay.unit_of.get(shown) if shown is not None else None
            if unit is None and shown is not None:
                hidden = lay.gap_holding(shown, visible.parent, visible.children)
                unit = hidden[0] if hidden is not None else None
        return unit

    # ---- fold commands: each says whether the folds changed (then lay out again) ----------------

    def open_gap_of(self, session: Session, key: str) -> bool:
        """Show the sibling (and its subtree) a gap of a wide level hides `key` in."""
        lay, visible = self.layout, self.visible
        if lay is None or visible is None:
            return False
        shown = visible.nearest_visible(session, key)
        if shown is None or shown in lay.unit_of:
            return False
        hidden = lay.gap_holding(shown, visible.parent, visible.children)
        return hidden is not None and self.folds.show_sibling(hidden[1])

    def unfold_around(self, session: Session, key: str) -> bool:
        """Unfold around `key` (or the visible entry standing for it) if it sits in a fold."""
        if self.layout is None or self.visible is None:
            return False
        return self.folds.reveal(self.layout, self.visible.nearest_visible(session, key))

    def expand(self, unit: int, everything: bool = False) -> bool:
        """Open a fold (its first entries, or all), or show the next page of the siblings a gap hides."""
        lay = self.layout
        if lay is None:
            return False
        if unit in lay.gaps:
            return self.visible is not None and self.folds.open_gap(lay, unit, self.visible.children)
        return self.folds.expand(lay, unit, everything)

    def can_fold(self, key: str) -> bool:
        return self.layout is not None and self.folds.can_fold(self.layout, key)

    def fold_run(self, key: str) -> bool:
        return self.layout is not None and self.folds.fold_run(self.layout, key)

    def fold_all(self, session: Session, selected: str | None) -> bool:
        """Fold every long run and close every wide level, but for a few entries around the selection."""
        if self.layout is None or self.visible is None:
            return False
        self.folds.fold_all(self.layout, self.visible.nearest_visible(session, selected) if selected is not None else None)
        return True

    def unfold_all(self) -> bool:
        if self.visible is None:
            return False
        self.folds.unfold_all(self.visible.order)
        return True
