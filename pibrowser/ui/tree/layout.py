"""Placing the branch tree on a grid, without Qt.

The tree reads top to bottom like the conversation: a node's first child sits
straight below it, so the main line of each branch keeps one column, and later
children (newer branches) step to the right. Rows are generations of the
displayed tree; columns are packed tightly (Reingold–Tilford style contours), so
a short branch may tuck in under a long one's neighbour without any two nodes
ever sharing a cell.

Long runs of single-child entries fold into one node that says how many entries
it holds. That keeps a 100,000-entry session down to the nodes worth drawing:
branch points, the heads of branches, leaves, and the few pinned entries
(labels, compactions, branch summaries) that must stay in sight. Entries the
user unfolded stay unfolded by id, so a reload keeps what was visible.

(Over 400 lines as one file: the contour packing and the folding it places
share one grid and its invariants, and read best side by side.)

Everything here is iterative and linear in the number of entries: sessions
reach 100,000 entries and chains 100,000 deep.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Collection, Sequence

from ...model.session.gcpause import gc_paused

FOLD_THRESHOLD = 6  # a foldable run longer than this becomes one node
REVEAL_RADIUS = 12  # entries shown either side of one revealed inside a fold
EXPAND_LIMIT = 1500  # a click expands a fold this large at once; larger ones a page at a time
EXPAND_PAGE = 250
ROOT_GAP = 1  # extra empty columns between the trees of different roots
WIDE_LIMIT = 1000  # an entry with more children than this shows only some of them ...
WIDE_HEAD = 50  # ... its first children (the oldest branches),
WIDE_TAIL = 50  # its last (the newest), those opened by hand, and a gap unit for each stretch between

_NONE: tuple = ()


class UnitIndex(Mapping[str, int]):
    """Which unit shows each displayed entry, without a dict entry per folded member.

    Entries shown one by one are in `direct`. A folded member is found through its
    run: its position there, then the fold span (bisected) that covers it. That
    keeps a layout of a 100,000-entry session at a few thousand inserts.
    """

    __slots__ = ("direct", "_skeleton", "spans")

    def __init__(self, skeleton: Skeleton | None = None) -> None:
        self.direct: dict[str, int] = {}
        self._skeleton = skeleton
        # per run: (first positions, past-the-end positions, units) of its folds, in run order
        self.spans: dict[int, tuple[list[int], list[int], list[int]]] = {}

    def add_fold(self, run: int, start: int, end: int, unit: int) -> None:
        starts, ends, units = self.spans.setdefault(run, ([], [], []))
        starts.append(start)
        ends.append(end)
        units.append(unit)

    def get(self, key: str, default: Any = None) -> Any:
        unit = self.direct.get(key)
        if unit is not None:
            return unit
        skeleton = self._skeleton
        if skeleton is None:
            return default
        run = skeleton.run_of.get(key)
        spans = self.spans.get(run) if run is not None else None
        if spans is None:
            return default
        position = skeleton.run_pos[key]
        starts, ends, units = spans
        at = bisect_right(starts, position) - 1
        return units[at] if at >= 0 and position < ends[at] else default

    def __getitem__(self, key: str) -> int:
        unit = self.get(key)
        if unit is None:
            raise KeyError(key)
        return unit

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __iter__(self) -> Iterator[str]:
        yield from self.direct
        runs = self._skeleton.runs if self._skeleton is not None else []
        for run, (starts, ends, _units) in self.spans.items():
            for start, end in zip(starts, ends):
                yield from runs[run][start:end]

    def __len__(self) -> int:
        return len(self.direct) + sum(end - start for starts, ends, _ in self.spans.values() for start, end in zip(starts, ends))


@dataclass(slots=True)
class Skeleton:
    """The displayed tree with its foldable runs found: everything folding needs but the unfolded set.

    It depends only on the tree and the pinned entries, so opening or closing folds
    (every selection inside a fold does) lays out from it in time linear in the
    units, not the entries. `steps` go depth first, in the order units are numbered:
    step i is the entry `keys[i]` when `run_at[i]` is -1, else the run `runs[run_at[i]]`;
    its units hang under the last unit of step `above[i]` (-1: a root). A run's step
    is followed at once by the step of the entry that ends it. A step with
    `run_at[i]` ≤ -2 is the gap `gaps[-2 - run_at[i]]`: (parent, start, stop), the
    children `children[parent][start:stop]` of a level too wide to draw, whose
    subtrees the skeleton does not walk (a million siblings cost one unit).
    `run_of` and `run_pos` give every run member's run and its place in it.
    """

    keys: list[str | None] = field(default_factory=list)
    run_at: list[int] = field(default_factory=list)
    above: list[int] = field(default_factory=list)
    runs: list[list[str]] = field(default_factory=list)
    run_of: dict[str, int] = field(default_factory=dict)
    run_pos: dict[str, int] = field(default_factory=dict)
    gaps: list[tuple[str, int, int]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.keys)


@dataclass(slots=True)
class TreeLayout:
    """The displayed tree: one unit per drawn node, each a single entry or a fold.

    Parallel lists indexed by unit: `keys` (the entry id, or a fold's first
    member), `parent` (-1 for roots), `children`, `row`, `col` and `room` (empty
    columns to the right on the same row before the next unit; -1 when nothing
    follows). `folds` maps a fold's unit to its member ids, top first; `gaps` maps
    a gap's unit to the stretch of siblings it stands for (parent, start, stop).
    `unit_of` maps every displayed entry id (fold members included) to its unit;
    entries in a gap have none.
    `runs` holds every foldable run, folded or not, and `run_of` maps a member
    to its run, so an unfolded run can be folded again (both are the skeleton's).
    `step_start` and `run_step` say which units each step of the skeleton made.
    """

    keys: list[str] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    row: list[int] = field(default_factory=list)
    col: list[int] = field(default_factory=list)
    room: list[int] = field(default_factory=list)
    folds: dict[int, list[str]] = field(default_factory=dict)
    gaps: dict[int, tuple[str, int, int]] = field(default_factory=dict)
    unit_of: UnitIndex = field(default_factory=UnitIndex)
    runs: list[list[str]] = field(default_factory=list)
    run_of: dict[str, int] = field(default_factory=dict)
    roots: list[int] = field(default_factory=list)
    columns: int = 0
    rows: int = 0
    # The first unit of each skeleton step (and, last, how many units), and the step of each run:
    # where a run's units lie, for a splice that lays out one run again (refold.py).
    step_start: list[int] = field(default_factory=list)
    run_step: dict[int, int] = field(default_factory=dict)
    # Made by splicing one run of an earlier layout (refold.py): (id of that layout, the first unit
    # that changed, the end of its changed units, how far the units after them moved); else None.
    spliced: tuple[int, int, int, int] | None = None

    def __len__(self) -> int:
        return len(self.keys)

    def is_fold(self, unit: int) -> bool:
        return unit in self.folds

    def members(self, unit: int) -> list[str]:
        return self.folds.get(unit) or [self.keys[unit]]

    def folded_entries(self) -> int:
        return sum(len(members) for members in self.folds.values())

    def fold_of(self, key: str) -> int | None:
        unit = self.unit_of.get(key)
        return unit if unit is not None and unit in self.folds else None

    def unit_key(self, unit: int) -> tuple[str, str]:
        """A key for the unit that survives relayout: ("e", id), ("f", first member) or ("g", first sibling)."""
        return ("f" if unit in self.folds else "g" if unit in self.gaps else "e", self.keys[unit])

    def gap_holding(self, key: str, parent_of: Mapping[str, str | None], children: Mapping[str, Sequence[str]]) -> tuple[int, str] | None:
        """The gap that hides `key` (itself a hidden sibling, or below one) and that sibling; None if none does."""
        child, above = key, parent_of.get(key)
        while above is not None and above not in self.unit_of:
            child, above = above, parent_of.get(above)
        unit = self.unit_of.get(above) if above is not None else None
        if unit is None:
            return None
        for kid in self.children[unit]:
            gap = self.gaps.get(kid)
            if gap is not None and child in children[gap[0]][gap[1] : gap[2]]:
                return kid, child
        return None

    def path_units(self, unit: int, top: int = -1) -> list[int]:
        """The units from a root (or from `top`, one of its ancestors) down to `unit`, top first."""
        parent = self.parent
        units = []
        while unit >= 0:
            units.append(unit)
            if unit == top:
                break
            unit = parent[unit]
        units.reverse()
        return units

    def units_along(self, path: Sequence[str]) -> list[int]:
        """The units that show a stretch of a path's entries (top first, each once).

        The shown entries of a path are ancestors of one another, so their units are
        one chain of the layout: found from the stretch's two ends, not entry by entry
        (a path can be 100,000 entries long).
        """
        get = self.unit_of.get
        last = next((unit for unit in map(get, reversed(path)) if unit is not None), None)
        if last is None:
            return []
        first = next(unit for unit in map(get, path) if unit is not None)
        return self.path_units(last, first)


# ---- folding -------------------------------------------------------------------


def skeleton(
    roots: Sequence[str],
    children: Mapping[str, Sequence[str]],
    pinned: Callable[[str], bool] | Collection[str] = _NONE,
    shown: Collection[str] = _NONE,
) -> Skeleton:
    """Find the foldable runs: maximal chains of entries that are neither a root, a branch
    point, the first entry of a branch, a leaf, nor pinned; and the gaps of levels too wide
    to draw (all but the siblings in `shown`). Linear in the entries it walks."""
    skel = Skeleton()
    _walk(skel, [(key, -1, False) for key in reversed(roots)], children, pinned, skel.keys, skel.run_at, skel.above, 0, shown)
    return skel


# An entry, the step it hangs under, whether it may start a run; or a gap: None, the step, and
# (parent, start, stop) of the siblings it stands for.
Start = tuple[str, int, bool] | tuple[None, int, tuple[str, int, int]]


def _walk(
    skel: Skeleton,
    stack: list[Start],
    children: Mapping[str, Sequence[str]],
    pinned: Callable[[str], bool] | Collection[str],
    keys: list[str | None],
    run_at: list[int],
    above_of: list[int],
    base: int,
    shown: Collection[str] = _NONE,
) -> None:
    """Walk depth first from `stack`, adding steps to the three lists (the first added is step
    `base`) and new runs and gaps to the skeleton. `shown`: siblings in wide levels opened by hand."""
    is_pinned = pinned if callable(pinned) else pinned.__contains__
    runs = skel.runs
    empty: Sequence[str] = ()

    def add(key: str | None, run: int, above: int) -> int:
        keys.append(key)
        run_at.append(run)
        above_of.append(above)
        return base + len(keys) - 1

    while stack:
        key, above, may_run = stack.pop()
        if key is None:  # a gap: `may_run` holds (parent, start, stop); its key is its first sibling's
            assert isinstance(may_run, tuple)
            skel.gaps.append(may_run)
            add(children[may_run[0]][may_run[1]], -1 - len(skel.gaps), above)
            continue
        run, nxt = _chain_from(key, children, is_pinned) if may_run else (None, key)
        if run:
            index = len(runs)
            runs.append(run)
            skel.run_of.update(dict.fromkeys(run, index))
            skel.run_pos.update(zip(run, range(len(run))))
            stack.append((nxt, add(None, index, above), False))
            continue
        step = add(key, -1, above)
        kids = children.get(key, empty)
        if len(kids) == 1:
            stack.append((kids[0], step, True))
        elif len(kids) > WIDE_LIMIT:
            for part in reversed(_wide(kids, shown)):
                stack.append((part, step, False) if isinstance(part, str) else (None, step, (key, *part)))
        elif kids:
            # The first entry of each branch stays in sight: it is what the branch is about.
            for kid in reversed(kids):
                stack.append((kid, step, False))


def _chain_from(key: str, children: Mapping[str, Sequence[str]], is_pinned: Callable[[str], bool]) -> tuple[list[str], str]:
    """The run members from `key` down (none when `key` cannot be one) and the entry after them.

    A run member has exactly one child and is not pinned; the entry that breaks that ends the run.
    """
    run: list[str] = []
    while True:
        kids = children.get(key, _NONE)
        if len(kids) != 1 or is_pinned(key):
            return run, key
        run.append(key)
        key = kids[0]


def _wide(kids: Sequence[str], shown: Collection[str]) -> list[str | tuple[int, int]]:
    """The children of a level too wide to draw, as drawn: the first and last few and those
    opened by hand, each itself, and a (start, stop) gap for each stretch between them."""
    count = len(kids)
    keep = {*range(WIDE_HEAD), *range(count - WIDE_TAIL, count)}
    if shown:
        keep.update(index for index, kid in enumerate(kids) if kid in shown)
    parts: list[str | tuple[int, int]] = []
    last = -1
    for index in sorted(keep):
        if index > last + 1:
            parts.append((last + 1, index))
        parts.append(kids[index])
        last = index
    return parts


def grow_skeleton(skel: Skeleton, children: Mapping[str, Sequence[str]], pinned: Callable[[str], bool], tip: str) -> bool:
    """Update `skel` after entries were added under `tip`, an entry that had no children.

    This is how pi appends: to the leaf. Only `tip`'s place changes: a run that
    ended at it now runs on through it, or it starts a run, or it stays a node and
    the new entries hang under it; the steps after it move along. Costs the number
    of steps plus the new entries. False (nothing changed) when `tip` is no node
    of the skeleton: the caller builds a new one.
    """
    try:
        step = skel.keys.index(tip)
    except ValueError:
        return False
    above = skel.above[step]
    before_run = above >= 0 and skel.run_at[above] >= 0  # tip ended the run of the step above
    above_key = skel.keys[above] if above >= 0 else None  # None too for a run's step, which has no children here
    only_child = above >= 0 and not before_run and above_key is not None and len(children.get(above_key, ())) == 1
    kids = children.get(tip, ())
    if not kids:
        return True
    if len(kids) > WIDE_LIMIT:
        return False  # a level too wide to draw: the caller lays out afresh, with its gaps
    keys: list[str | None] = []
    run_at: list[int] = []
    above_of: list[int] = []
    joins = len(kids) == 1 and not pinned(tip)
    start: list[Start]  # where the walk starts again
    if joins and before_run:
        # The run above goes on through tip: extend it in place, and walk on from where it now ends.
        index = skel.run_at[above]
        run = skel.runs[index]
        grown, nxt = _chain_from(tip, children, pinned)
        skel.run_of.update(dict.fromkeys(grown, index))
        skel.run_pos.update(zip(grown, range(len(run), len(run) + len(grown))))
        run.extend(grown)
        start, removed = [(nxt, above, False)], 1
    elif joins and only_child:
        start, removed = [(tip, above, True)], 1  # tip starts a run of its own
    else:
        start, removed = [(kid, step, len(kids) == 1) for kid in reversed(kids)], 0
        step += 1  # tip stays a node; what hangs under it comes right after
    _walk(skel, start, children, pinned, keys, run_at, above_of, step)
    _splice(skel, step, removed, keys, run_at, above_of)
    return True


def _splice(skel: Skeleton, at: int, removed: int, keys: list, run_at: list[int], above_of: list[int]) -> None:
    """Put new steps in place of `removed` steps at `at`, and renumber the references to the steps after them."""
    shift = len(keys) - removed
    tail = at + removed
    if shift:
        moved = skel.above
        for index in range(tail, len(moved)):
            if moved[index] >= tail:
                moved[index] += shift
    skel.keys[at:tail] = keys
    skel.run_at[at:tail] = run_at
    skel.above[at:tail] = above_of


def fold_tree(
    roots: Sequence[str],
    children: Mapping[str, Sequence[str]],
    *,
    threshold: int = FOLD_THRESHOLD,
    unfolded: Collection[str] = _NONE,
    pinned: Callable[[str], bool] | Collection[str] = _NONE,
    shown: Collection[str] = _NONE,
    skel: Skeleton | None = None,
) -> TreeLayout:
    """The units of the displayed tree (rows set, columns not yet).

    Within each run of the skeleton (found here unless `skel` is given), every
    stretch of entries not in `unfolded` that is longer than `threshold` becomes
    one fold; the other members are units of their own.
    """
    if skel is None:
        skel = skeleton(roots, children, pinned, shown)
    return _fold(skel, threshold, cuts(skel, unfolded))


def cuts(skel: Skeleton, unfolded: Collection[str]) -> dict[int, list[int]]:
    """Per run, the places of its unfolded members, in order."""
    run_of, run_pos = skel.run_of, skel.run_pos
    cuts: dict[int, list[int]] = {}
    for key in unfolded:
        run = run_of.get(key)
        if run is not None:
            cuts.setdefault(run, []).append(run_pos[key])
    for places in cuts.values():
        places.sort()
    return cuts


def _fold(skel: Skeleton, threshold: int, cuts: dict[int, list[int]]) -> TreeLayout:
    lay = TreeLayout(unit_of=UnitIndex(skel), runs=skel.runs, run_of=skel.run_of)
    emit = Emit(lay)
    steps = len(skel)
    last_unit = [-1] * steps  # the unit a step's successors hang under
    next_row = [0] * steps  # the row below a step's last unit
    starts, run_step = lay.step_start, lay.run_step
    for step in range(steps):
        above = skel.above[step]
        parent, row = (last_unit[above], next_row[above]) if above >= 0 else (-1, 0)
        starts.append(len(lay.keys))
        index = skel.run_at[step]
        if index >= 0:
            run_step[index] = step
        last_unit[step], next_row[step] = emit.step(skel, step, parent, row, threshold, cuts.get(index, _NONE))
    starts.append(len(lay.keys))
    lay.rows = (max(lay.row) + 1) if lay.row else 0
    return lay


class Emit:
    """Adds a step's units to a layout's lists, numbered from `base` on (0: the layout's own; a
    splice's new units start where the units they replace did, see refold.py)."""

    __slots__ = ("lay", "base")

    def __init__(self, lay: TreeLayout, base: int = 0) -> None:
        self.lay, self.base = lay, base

    def add(self, key: str, parent: int, row: int) -> int:
        lay, base = self.lay, self.base
        unit = base + len(lay.keys)
        lay.keys.append(key)
        lay.parent.append(parent)
        lay.children.append([])
        lay.row.append(row)
        if parent < 0:
            lay.roots.append(unit)
        elif parent >= base:  # a splice's first unit hangs under a unit kept as it was
            lay.children[parent - base].append(unit)
        return unit

    def step(self, skel: Skeleton, step: int, parent: int, row: int, threshold: int, cuts: Sequence[int]) -> tuple[int, int]:
        """The units of skeleton step `step` under unit `parent`, from `row` down; the last unit
        and the row below it. `cuts`: the places of its run's unfolded members, in order."""
        lay, add = self.lay, self.add
        direct = lay.unit_of.direct
        index = skel.run_at[step]
        if index < -1:
            key = skel.keys[step]
            assert key is not None  # a gap's step keeps its first sibling
            parent = add(key, parent, row)
            lay.gaps[parent] = skel.gaps[-2 - index]
            return parent, row + 1
        if index < 0:
            key = skel.keys[step]
            assert key is not None  # a node's step keeps its entry
            parent = direct[key] = add(key, parent, row)
            return parent, row + 1
        run = skel.runs[index]
        start = 0
        for stop in (*cuts, len(run)):
            if stop - start > threshold:  # the stretch before this unfolded member (or the end)
                parent = add(run[start], parent, row)
                lay.folds[parent] = run[start:stop]
                lay.unit_of.add_fold(index, start, stop, parent)
                row += 1
            else:
                for member in run[start:stop]:
                    parent = direct[member] = add(member, parent, row)
                    row += 1
            if stop < len(run):
                member = run[stop]
                parent = direct[member] = add(member, parent, row)
                row += 1
            start = stop + 1
        return parent, row


# ---- placing -------------------------------------------------------------------


def place(lay: TreeLayout, root_gap: int = ROOT_GAP) -> TreeLayout:
    """Give every unit a column: first children below their parent, siblings packed to the right.

    Contours are kept per subtree as lists stored deepest first (the subtree's own
    row last), each with an offset added lazily, so merging two siblings costs
    the height of the shorter one and the whole pass stays linear.
    """
    count = len(lay.keys)
    children, gaps = lay.children, lay.gaps
    rel = [0] * count
    # per unit while it is the top of a merged subtree: [left list, left offset, right list, right offset]
    contour: list[list | None] = [None] * count
    # Units are numbered depth first, so reverse order visits children before parents.
    for unit in range(count - 1, -1, -1):
        kids = children[unit]
        if not kids:
            contour[unit] = [[0], 0, [0], 0]
            continue
        acc = contour[kids[0]]
        contour[kids[0]] = None
        assert acc is not None  # a child's contour is made before its parent's, and taken once
        before = kids[0]
        for kid in kids[1:]:
            other = contour[kid]
            contour[kid] = None
            assert other is not None
            # a gap gets a second column: room to say how many siblings it stands for
            shift = _merge(acc, other, 2 if before in gaps else 1)
            rel[kid] = shift
            before = kid
        left, left_off, right, right_off = acc
        left.append(-left_off)
        right.append(-right_off)
        contour[unit] = acc
    # The roots side by side, like the children of an invisible parent.
    roots = lay.roots
    if roots:
        acc = contour[roots[0]]
        assert acc is not None
        for root in roots[1:]:
            other = contour[root]
            assert other is not None
            rel[root] = _merge(acc, other, 1 + root_gap)
    col = [0] * count
    parent = lay.parent
    for unit in range(count):
        above = parent[unit]
        col[unit] = rel[unit] if above < 0 else col[above] + rel[unit]
    lay.col = col
    lay.columns = (max(col) + 1) if col else 0
    lay.room = _room(lay)
    return lay


def _merge(acc: list, other: list, gap: int) -> int:
    """Place subtree `other` right of `acc` (same top row); merge its contours into `acc`; return its shift."""
    left_a, left_a_off, right_a, right_a_off = acc
    left_o, left_o_off, right_o, right_o_off = other
    height_a, height_o = len(left_a), len(left_o)
    common = min(height_a, height_o)
    shift = -(1 << 60)
    for k in range(1, common + 1):
        need = right_a[-k] + right_a_off - (left_o[-k] + left_o_off)
        if need > shift:
            shift = need
    shift += gap
    # right contour: the new subtree's where it reaches, the old one's below that
    if height_o >= height_a:
        acc[2], acc[3] = right_o, right_o_off + shift
    else:
        delta = right_o_off + shift - right_a_off
        for k in range(1, height_o + 1):
            right_a[-k] = right_o[-k] + delta
    # left contour: the old subtree's where it reaches, the new one's below that
    if height_o > height_a:
        new_off = left_o_off + shift
        delta = left_a_off - new_off
        for k in range(1, height_a + 1):
            left_o[-k] = left_a[-k] + delta
        acc[0], acc[1] = left_o, new_off
    return shift


def _room(lay: TreeLayout) -> list[int]:
    """Empty columns right of each unit on its row, before the next unit (-1: none follows).

    Depth-first order meets the units of any one row left to right, so one pass does.
    """
    room = [-1] * len(lay.keys)
    last: dict[int, int] = {}
    row, col = lay.row, lay.col
    for unit in range(len(lay.keys)):
        r = row[unit]
        before = last.get(r)
        if before is not None:
            room[before] = col[unit] - col[before] - 1
        last[r] = unit
    return room


def build_layout(
    roots: Sequence[str],
    children: Mapping[str, Sequence[str]],
    *,
    threshold: int = FOLD_THRESHOLD,
    unfolded: Collection[str] = _NONE,
    pinned: Callable[[str], bool] | Collection[str] = _NONE,
    root_gap: int = ROOT_GAP,
    shown: Collection[str] = _NONE,
    skel: Skeleton | None = None,
) -> TreeLayout:
    with gc_paused():
        return place(fold_tree(roots, children, threshold=threshold, unfolded=unfolded, pinned=pinned, shown=shown, skel=skel), root_gap)


# ---- fold state helpers ----------------------------------------------------------


def reveal(lay: TreeLayout, key: str, radius: int = REVEAL_RADIUS) -> list[str]:
    """The fold members to unfold so that `key` shows, with `radius` neighbours either side."""
    unit = lay.fold_of(key)
    if unit is None:
        return []
    members = lay.folds[unit]
    at = members.index(key)
    return members[max(0, at - radius) : at + radius + 1]


def expansion(lay: TreeLayout, unit: int, limit: int = EXPAND_LIMIT, page: int = EXPAND_PAGE) -> list[str]:
    """The members a click on fold `unit` unfolds: all of them, or the top page of a huge fold."""
    members = lay.folds.get(unit, [])
    return members if len(members) <= limit else members[:page]


def run_members(lay: TreeLayout, key: str) -> list[str]:
    """Every member of the foldable run `key` belongs to (empty if it is in none)."""
    run = lay.run_of.get(key)
    return lay.runs[run] if run is not None else []
