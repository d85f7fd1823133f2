"""Which entries of long runs the tree shows one by one: around a selection, one fold, one run, or all.

`Folds` keeps `unfolded`, the entries shown one by one that would otherwise be
folded. Each command takes the layout it acts on and says whether `unfolded`
changed; the view then lays the tree out again. No Qt here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .layout import EXPAND_LIMIT, EXPAND_PAGE, FOLD_THRESHOLD, REVEAL_RADIUS, Skeleton, TreeLayout, expansion, reveal, run_members

CONFIRM_UNFOLD = 20_000  # unfolding more entries than this asks first


def around(lay: TreeLayout, key: str) -> list[str]:
    """The few entries either side of `key` in its run, so it does not vanish into a fold."""
    run = run_members(lay, key)
    if not run:
        return []
    at = run.index(key)
    return run[max(0, at - REVEAL_RADIUS) : at + REVEAL_RADIUS + 1]


class Folds:
    """The entries unfolded by hand (or to show a selection), kept by id so a reload keeps them;
    and the siblings shown in levels too wide to draw (`shown`), which change the tree's
    skeleton: `shown_version` counts their changes."""

    def __init__(self, threshold: int = FOLD_THRESHOLD) -> None:
        self.threshold = threshold  # runs longer than this fold
        self.unfolded: set[str] = set()
        self.shown: set[str] = set()
        self.shown_version = 0

    def clear(self) -> None:
        self.unfolded = set()
        self._set_shown(set())

    def _set_shown(self, shown: set[str]) -> None:
        if shown != self.shown:
            self.shown = shown
            self.shown_version += 1

    def show_sibling(self, key: str) -> bool:
        """Take a sibling (and its subtree) out of the gap that hides it."""
        if key in self.shown:
            return False
        self._set_shown(self.shown | {key})
        return True

    def open_gap(self, lay: TreeLayout, unit: int, children: Mapping[str, Sequence[str]]) -> bool:
        """Show the next page of the siblings gap `unit` hides (all of them when few)."""
        gap = lay.gaps.get(unit)
        if gap is None:
            return False
        parent, start, stop = gap
        end = stop if stop - start <= EXPAND_LIMIT else start + EXPAND_PAGE
        self._set_shown(self.shown | set(children[parent][start:end]))
        return True

    def reveal(self, lay: TreeLayout, shown: str | None) -> bool:
        """Unfold around `shown` (a visible entry) if it sits in a fold."""
        if shown is None or lay.fold_of(shown) is None:
            return False
        self.unfolded.update(reveal(lay, shown, REVEAL_RADIUS))
        return True

    def reveal_ahead(self, skel: Skeleton, shown: str) -> bool:
        """`reveal`, before the layout: unfold around `shown` if the layout about to be made
        would fold it, as `reveal` would unfold it after. An append that grows the run of the
        current leaf then costs one layout, not a layout, a reveal and a second layout.

        The stretch of the run around `shown` that has no unfolded member is found by walking
        out from it, never further than a fold's threshold and the radius (past that, the stretch
        surely folds, and what `reveal` unfolds lies within the walk).
        """
        run = skel.run_of.get(shown)
        if run is None or shown in self.unfolded:
            return False
        members, at, unfolded = skel.runs[run], skel.run_pos[shown], self.unfolded
        reach = self.threshold + REVEAL_RADIUS + 1
        start = at
        while start > 0 and at - start < reach and members[start - 1] not in unfolded:
            start -= 1
        stop = at + 1
        while stop < len(members) and stop - at <= reach and members[stop] not in unfolded:
            stop += 1
        if stop - start <= self.threshold:
            return False
        unfolded.update(members[max(start, at - REVEAL_RADIUS) : min(stop, at + REVEAL_RADIUS + 1)])
        return True

    def expand(self, lay: TreeLayout, unit: int, everything: bool = False) -> bool:
        """Open the fold `unit`: its first entries, or with `everything` all of them."""
        if unit not in lay.folds:
            return False
        self.unfolded.update(lay.folds[unit] if everything else expansion(lay, unit))
        return True

    def can_fold(self, lay: TreeLayout, key: str) -> bool:
        return len(run_members(lay, key)) > self.threshold and lay.fold_of(key) is None

    def fold_run(self, lay: TreeLayout, key: str) -> bool:
        """Fold again the run `key` belongs to."""
        run = run_members(lay, key)
        if len(run) <= self.threshold:
            return False
        self.unfolded.difference_update(run)
        return True

    def fold_all(self, lay: TreeLayout, shown: str | None) -> None:
        """Fold every long run and close every wide level, except a few entries around `shown`
        (the selection, as the tree shows it; the caller reveals it again if a gap took it)."""
        self.unfolded = set(around(lay, shown)) if shown is not None else set()
        self._set_shown(set())

    def unfold_all(self, order: Iterable[str]) -> None:
        everything = set(order)
        self.unfolded = everything
        self._set_shown(everything)
