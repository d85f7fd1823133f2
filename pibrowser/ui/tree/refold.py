"""Unfolding inside one run: the layout's units spliced, not folded again from the whole skeleton.

A selection inside a fold unfolds a few dozen entries of one run. The units of every other step
stay as they were: those before the run keep their numbers, those after it move along by as many
units as the run gained, and those hanging below it move down as many rows (a run is one column,
a unit a row). So the new layout is the old one's lists with the run's units put in and the
numbers after them shifted, which costs a few passes over the lists in C-speed comprehensions
instead of a call per unit. The columns are placed afresh (`place`): a subtree grown taller may
move every branch beside it. No Qt here.

Contract: `refold(lay, skel, threshold, cuts, run)` equals `place(fold_tree(..., skel=skel))` with
the same unfolded set, for a layout `lay` of the same skeleton and threshold that differs from it
in `run`'s cuts only (tests/test_tree_layout.py holds every fixture and random unfolds to it).
"""

from __future__ import annotations

from .layout import Emit, Skeleton, TreeLayout, UnitIndex, place


def refold(lay: TreeLayout, skel: Skeleton, threshold: int, cuts: dict[int, list[int]], run: int) -> TreeLayout:
    """A new layout: `lay` with the units of `run` made again from its `cuts` (places of its unfolded members)."""
    step = lay.run_step[run]
    a, b = lay.step_start[step], lay.step_start[step + 1]
    made = TreeLayout(unit_of=UnitIndex(skel))
    Emit(made, base=a).step(skel, step, lay.parent[a], lay.row[a], threshold, cuts.get(run, ()))
    shift = len(made.keys) - (b - a)
    count = len(lay.keys)
    parent_of = lay.parent
    # The units hanging below the run (its last unit's subtree) are the next ones in depth-first
    # order whose parent is among them: they move down as many rows as the run gained.
    end = b
    while end < count and parent_of[end] >= b - 1:
        end += 1
    made.children[-1] = [kid + shift for kid in lay.children[b - 1]]
    new = TreeLayout(
        keys=lay.keys[:a] + made.keys + lay.keys[b:],
        # b - 1, the run's last unit, becomes the new last: (b - 1) + shift
        parent=parent_of[:a] + made.parent + [above + shift if above >= b - 1 else above for above in parent_of[b:]],
        children=[kids if not kids or kids[-1] < b else [kid + shift if kid >= b else kid for kid in kids] for kids in lay.children[:a]]
        + made.children
        + [[kid + shift for kid in kids] for kids in lay.children[b:]],
        row=lay.row[:a] + made.row + [row + shift for row in lay.row[b:end]] + lay.row[end:],
        folds=_moved(lay.folds, a, b, shift) | made.folds,
        gaps=_moved(lay.gaps, a, b, shift),
        unit_of=_moved_index(lay.unit_of, made.unit_of, skel, a, b, shift, run),
        runs=lay.runs,
        run_of=lay.run_of,
        roots=[root + shift if root >= b else root for root in lay.roots],
        step_start=lay.step_start[: step + 1] + [start + shift for start in lay.step_start[step + 1 :]],
        run_step=lay.run_step,
        spliced=(id(lay), a, b, shift),
    )
    new.rows = (max(new.row) + 1) if new.row else 0
    return place(new)


def _moved(by_unit: dict, a: int, b: int, shift: int) -> dict:
    """A dict keyed by unit without the units a to b, the later ones moved along."""
    return {(unit + shift if unit >= b else unit): value for unit, value in by_unit.items() if not a <= unit < b}


def _moved_index(index: UnitIndex, made: UnitIndex, skel: Skeleton, a: int, b: int, shift: int, run: int) -> UnitIndex:
    """`index` without the units a to b, the later ones moved along, and the run's units `made` in."""
    new = UnitIndex(skel)
    new.direct = {key: (unit + shift if unit >= b else unit) for key, unit in index.direct.items() if not a <= unit < b}
    new.direct.update(made.direct)
    new.spans = {
        number: (starts, ends, [unit + shift if unit >= b else unit for unit in units])
        for number, (starts, ends, units) in index.spans.items()
        if number != run
    }
    new.spans.update(made.spans)
    return new
