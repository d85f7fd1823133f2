"""The branch-tree layout (ui.tree.layout): folding, placement, no overlaps, no recursion, speed."""

from __future__ import annotations

import random
import sys

import pytest

from pibrowser.model import Session
from pibrowser.model.session.tree_filter import FilterMode, visible_tree
from pibrowser.ui.tree.layout import (
    FOLD_THRESHOLD,
    WIDE_HEAD,
    WIDE_LIMIT,
    WIDE_TAIL,
    build_layout,
    expansion,
    fold_tree,
    place,
    reveal,
    grow_skeleton,
    run_members,
    skeleton,
)

from .conftest import DEMO, FIXTURES
from .sessions import long_session

SESSIONS = sorted(FIXTURES.glob("*.jsonl")) + [DEMO]


def chain(count: int, prefix: str = "n") -> tuple[list[str], dict[str, list[str]]]:
    keys = [f"{prefix}{i}" for i in range(count)]
    return [keys[0]], {a: [b] for a, b in zip(keys, keys[1:])}


def random_tree(count: int, seed: int, branchy: float = 0.3) -> tuple[list[str], dict[str, list[str]]]:
    """A random forest: each new node continues the last one or, sometimes, branches off an earlier one."""
    rnd = random.Random(seed)
    roots, children, keys = ["r0"], {}, ["r0"]
    for index in range(1, count):
        key = f"k{index}"
        if rnd.random() < 0.02:
            roots.append(key)
        else:
            parent = keys[-1] if rnd.random() > branchy else keys[rnd.randrange(len(keys))]
            children.setdefault(parent, []).append(key)
        keys.append(key)
    return roots, children


def check_geometry(lay, roots, children) -> None:
    """Every unit in its own cell; first children straight below, later ones to the right, in order;
    each row met left to right in depth-first order (so subtrees never interleave)."""
    cells = set(zip(lay.row, lay.col))
    assert len(cells) == len(lay), "two units share a cell"
    for unit, kids in enumerate(lay.children):
        for kid in kids:
            assert lay.parent[kid] == unit
            assert lay.row[kid] == lay.row[unit] + 1
        if kids:
            assert lay.col[kids[0]] == lay.col[unit], "the main line keeps its column"
            cols = [lay.col[kid] for kid in kids]
            assert cols == sorted(cols) and len(set(cols)) == len(cols), "siblings step right, in order"
    last_col: dict[int, int] = {}
    for unit in range(len(lay)):
        row = lay.row[unit]
        assert lay.col[unit] > last_col.get(row, -1), "a row is not met left to right"
        last_col[row] = lay.col[unit]
    # the room to the right is exactly the gap to the next unit on the row
    by_row: dict[int, list[int]] = {}
    for unit in range(len(lay)):
        by_row.setdefault(lay.row[unit], []).append(unit)
    for units in by_row.values():
        for a, b in zip(units, units[1:]):
            assert lay.room[a] == lay.col[b] - lay.col[a] - 1
        assert lay.room[units[-1]] == -1


def check_covers(lay, roots, children) -> None:
    """Every entry shows exactly once, and the unit tree keeps the entries' child order."""
    seen = []
    for unit in range(len(lay)):
        seen.extend(lay.members(unit))
    everything = set(roots) | {kid for kids in children.values() for kid in kids}
    assert sorted(seen) == sorted(everything)
    assert len(seen) == len(set(seen))
    for unit in range(len(lay)):
        last = lay.members(unit)[-1]
        expected = list(children.get(last, []))
        got = [lay.keys[kid] for kid in lay.children[unit]]
        assert got == expected, "children not in the graph's order"
    assert [lay.keys[root] for root in lay.roots] == list(roots)
    check_unit_index(lay, everything)


def check_unit_index(lay, everything) -> None:
    """unit_of finds every member's unit (folded ones through their run) and nothing else."""
    for unit in range(len(lay)):
        for key in lay.members(unit):
            assert lay.unit_of[key] == unit and key in lay.unit_of
    assert len(lay.unit_of) == len(everything) and sorted(lay.unit_of) == sorted(everything)
    assert lay.unit_of.get("not-an-entry") is None and "not-an-entry" not in lay.unit_of
    for unit in range(len(lay)):
        path = lay.path_units(unit)
        assert path[-1] == unit and lay.parent[path[0]] == -1
        assert all(lay.parent[b] == a for a, b in zip(path, path[1:]))


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: p.stem)
@pytest.mark.parametrize("mode", [FilterMode.DEFAULT, FilterMode.USER_ONLY, FilterMode.EVERY_ENTRY])
def test_fixture_layouts_are_tidy_and_complete(path, mode):
    session = Session.load(path)
    tree = visible_tree(session, mode)
    lay = build_layout(tree.roots, tree.children, pinned=session.labels)
    check_geometry(lay, tree.roots, tree.children)
    check_covers(lay, tree.roots, tree.children)


@pytest.mark.parametrize("seed", range(6))
def test_random_forests_are_tidy_and_complete(seed):
    roots, children = random_tree(3000, seed, branchy=0.15 + 0.1 * seed)
    rnd = random.Random(seed)
    everything = list(set(roots) | {kid for kids in children.values() for kid in kids})
    unfolded = set(rnd.sample(everything, len(everything) // 5))
    lay = build_layout(roots, children, unfolded=unfolded)
    check_geometry(lay, roots, children)
    check_covers(lay, roots, children)


def test_graph_order_decides_which_child_continues_the_column():
    roots = ["a"]
    children = {"a": ["c", "b"], "b": ["b1"], "c": ["c1"]}
    lay = build_layout(roots, children)
    col = {lay.keys[u]: lay.col[u] for u in range(len(lay))}
    assert col["c"] == col["a"] == col["c1"]
    assert col["b"] > col["c"] and col["b1"] == col["b"]


def test_short_branch_tucks_in_beside_a_tree_that_only_widens_further_down():
    # a's first child x runs down a chain and branches only at depth 4; a's second child y is a leaf.
    roots = ["a"]
    children = {"a": ["x", "y"], "x": ["x1"], "x1": ["x2"], "x2": ["x3"], "x3": ["p", "q"]}
    lay = build_layout(roots, children, threshold=100)
    col = {lay.keys[u]: lay.col[u] for u in range(len(lay))}
    assert col["y"] == 1  # next to x, not pushed right of q
    assert col["q"] == 1


def test_siblings_are_packed_by_their_contours():
    # b widens only at row 3; c is a leaf at row 1; d reaches row 3 and must clear b there.
    roots = ["r"]
    children = {"r": ["b", "c", "d"], "b": ["b1"], "b1": ["b2", "b3", "b4"], "d": ["d1"], "d1": ["d2"]}
    lay = build_layout(roots, children, threshold=100)
    col = {lay.keys[u]: lay.col[u] for u in range(len(lay))}
    assert [col[k] for k in ("b", "b1", "b2", "b3", "b4")] == [0, 0, 0, 1, 2]
    assert col["c"] == 1  # row 1 holds only b, to its left
    assert col["d"] == col["d1"] == col["d2"] == 3  # clears b4 at row 3
    check_geometry(lay, roots, children)


# ---- folding ----------------------------------------------------------------------------------


def test_a_long_chain_folds_into_one_unit_that_counts_its_entries():
    roots, children = chain(20)
    lay = build_layout(roots, children)
    assert len(lay) == 3  # root, the fold, the leaf
    ((fold, members),) = lay.folds.items()
    assert members == [f"n{i}" for i in range(1, 19)]
    assert lay.keys[fold] == "n1" and lay.row == [0, 1, 2]
    assert lay.unit_of["n7"] == fold and lay.fold_of("n7") == fold and lay.fold_of("n0") is None
    assert lay.folded_entries() == 18


@pytest.mark.parametrize("run, folded", [(FOLD_THRESHOLD, False), (FOLD_THRESHOLD + 1, True)])
def test_only_runs_longer_than_the_threshold_fold(run, folded):
    roots, children = chain(run + 2)  # root + run + leaf
    lay = build_layout(roots, children)
    assert bool(lay.folds) is folded


def test_branch_points_heads_leaves_and_pins_stay_in_sight():
    # r → a1..a10 → b (branch point) → [c1..c10 → leaf, d]
    children = {"r": ["a1"]}
    for i in range(1, 10):
        children[f"a{i}"] = [f"a{i + 1}"]
    children["a10"] = ["b"]
    children["b"] = ["c1", "d"]
    for i in range(1, 10):
        children[f"c{i}"] = [f"c{i + 1}"]
    children["c10"] = ["leaf"]
    lay = build_layout(["r"], children, pinned={"a5"})
    shown = {lay.keys[u] for u in range(len(lay)) if not lay.is_fold(u)}
    assert {"r", "b", "c1", "d", "leaf", "a5"} <= shown
    runs = sorted(members for members in lay.folds.values())
    # a1..a4 is too short to fold once a5 is pinned; a6..a10 likewise; c2..c10 folds
    assert runs == [[f"c{i}" for i in range(2, 11)]]


def test_unfolded_entries_stay_out_of_folds_and_the_rest_folds_again():
    roots, children = chain(100)
    window = reveal(build_layout(roots, children), "n50", radius=5)
    assert window == [f"n{i}" for i in range(45, 56)]
    lay = build_layout(roots, children, unfolded=set(window))
    assert all(lay.fold_of(key) is None for key in window)
    assert sorted(len(m) for m in lay.folds.values()) == [43, 44]  # n56..n98 and n1..n44
    assert run_members(lay, "n50") == [f"n{i}" for i in range(1, 99)]


def test_a_click_expands_a_fold_or_the_top_page_of_a_huge_one():
    roots, children = chain(50)
    lay = build_layout(roots, children)
    fold = next(iter(lay.folds))
    assert expansion(lay, fold) == lay.folds[fold]
    roots, children = chain(5000)
    lay = build_layout(roots, children)
    fold = next(iter(lay.folds))
    assert expansion(lay, fold, limit=1000, page=200) == [f"n{i}" for i in range(1, 201)]


# ---- scale ------------------------------------------------------------------------------------------


def test_a_deep_chain_lays_out_without_recursion():
    roots, children = chain(20_000)  # two hundred times the recursion allowed below
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(120)  # any recursion over the chain would blow this at once
    try:
        folded = build_layout(roots, children)
        everything = build_layout(roots, children, unfolded=set(children) | {"n19999"})
    finally:
        sys.setrecursionlimit(limit)
    assert len(folded) == 3
    assert len(everything) == 20_000 and everything.rows == 20_000 and everything.columns == 1


def test_a_100k_comb_lays_out():
    # A chain with a short side branch at every step: the worst case for naive contour
    # merging, which would not finish on this in any reasonable time.
    children: dict[str, list[str]] = {}
    for i in range(50_000):
        children[f"m{i}"] = [f"m{i + 1}", f"s{i}"]
    lay = build_layout(["m0"], children)
    assert len(lay) == 100_001
    assert lay.columns == 2


def test_filter_and_layout_of_a_100k_session(tmp_path):
    # Their speed is measured in benchmarks/bench_gui.py (opening the window), not asserted here.
    session = Session.load(long_session(tmp_path / "big.jsonl", 100_000))
    assert len(session) == 100_000
    tree = visible_tree(session)
    lay = build_layout(tree.roots, tree.children, pinned=session.labels)
    check_geometry(lay, tree.roots, tree.children)
    assert len(lay) < len(tree) / 10, "folding should leave a small fraction of the entries as units"


@pytest.mark.parametrize("seed", range(4))
def test_a_kept_skeleton_lays_out_as_a_fresh_one_whatever_is_unfolded(seed):
    # The view keeps the skeleton while only folds change: each layout from it must equal
    # one computed from scratch, however the unfolded set grows and shrinks.
    roots, children = random_tree(2000, seed, branchy=0.05)
    rnd = random.Random(seed)
    everything = sorted(set(roots) | {kid for kids in children.values() for kid in kids})
    kept = skeleton(roots, children, pinned={"k17", "k400"})
    unfolded: set[str] = set()
    for _ in range(6):
        unfolded = set(rnd.sample(everything, rnd.randrange(0, 200))) | (set(everything[:50]) if rnd.random() < 0.5 else set())
        a = build_layout(roots, children, unfolded=unfolded, pinned={"k17", "k400"}, skel=kept)
        b = build_layout(roots, children, unfolded=unfolded, pinned={"k17", "k400"})
        assert (a.keys, a.parent, a.row, a.col, a.room, a.folds) == (b.keys, b.parent, b.row, b.col, b.room, b.folds)
        assert dict(a.unit_of) == dict(b.unit_of)
        check_covers(a, roots, children)


def _grow_under(children: dict, tip: str, rnd: random.Random, serial: list[int]) -> None:
    """Hang a few new entries under `tip`: mostly a chain, sometimes a small subtree."""
    below = [tip]
    for _ in range(rnd.randrange(1, 12)):
        parent = below[-1] if rnd.random() < 0.8 else rnd.choice(below)
        serial[0] += 1
        key = f"new{serial[0]}"
        children.setdefault(parent, []).append(key)
        below.append(key)


@pytest.mark.parametrize("seed", range(8))
def test_a_skeleton_grown_at_a_leaf_equals_one_built_afresh(seed):
    # What pi does all day: entries appended under a leaf. The kept skeleton, grown in
    # place, must lay out exactly as one found again from the whole tree.
    rnd = random.Random(seed)
    roots, children = random_tree(800, seed, branchy=0.05)
    pins = {f"k{i}" for i in range(0, 800, 97)}
    pinned = pins.__contains__
    kept = skeleton(roots, children, pinned)
    serial = [0]
    for _ in range(25):
        everything = set(roots) | {kid for kids in children.values() for kid in kids}
        leaves = sorted(key for key in everything if not children.get(key))
        tip = rnd.choice(leaves[-5:] if rnd.random() < 0.7 else leaves)
        if rnd.random() < 0.2:
            pins.add(tip)  # a leaf that is pinned (a compaction, say) gets children too
        _grow_under(children, tip, rnd, serial)
        if rnd.random() < 0.15:
            pins.add(f"new{serial[0]}")
        assert grow_skeleton(kept, children, pinned, tip)
        fresh = skeleton(roots, children, pinned)
        assert (kept.keys, kept.run_at, kept.above) == (fresh.keys, fresh.run_at, fresh.above) or _same_layout(roots, children, kept, fresh)
        unfolded = set(rnd.sample(sorted(everything), 30))
        a = build_layout(roots, children, unfolded=unfolded, skel=kept)
        b = build_layout(roots, children, unfolded=unfolded, skel=fresh)
        assert (a.keys, a.parent, a.row, a.col, a.folds) == (b.keys, b.parent, b.row, b.col, b.folds)
        assert dict(a.unit_of) == dict(b.unit_of)
        assert {key: kept.runs[run] for key, run in kept.run_of.items()} == {key: fresh.runs[run] for key, run in fresh.run_of.items()}
        assert kept.run_pos == fresh.run_pos


def _same_layout(roots, children, kept, fresh) -> bool:
    # Run numbers may differ (a grown run keeps its number); the steps must agree otherwise.
    runs_k = [kept.runs[r] if r >= 0 else None for r in kept.run_at]
    runs_f = [fresh.runs[r] if r >= 0 else None for r in fresh.run_at]
    return (kept.keys, kept.above, runs_k) == (fresh.keys, fresh.above, runs_f)


def test_a_skeleton_does_not_grow_at_an_entry_it_does_not_show_as_a_node():
    roots, children = chain(30)
    kept = skeleton(roots, children)
    children["n10"].append("side")  # n10 sits inside the run: the caller must build afresh
    assert not grow_skeleton(kept, children, lambda key: False, "n10")


# ---- levels too wide to draw ------------------------------------------------------------------------


def wide(count: int) -> tuple[list[str], dict[str, list[str]], dict[str, str]]:
    """One root with `count` children; child c7 has a chain of three below it."""
    kids = [f"c{i}" for i in range(count)]
    children = {"r": kids, "c7": ["c7a"], "c7a": ["c7b"], "c7b": ["c7c"]}
    parent = {kid: "r" for kid in kids} | {"c7a": "c7", "c7b": "c7a", "c7c": "c7b", "r": None}
    return ["r"], children, parent


def test_a_level_too_wide_to_draw_shows_its_ends_and_one_gap_for_the_rest():
    count = WIDE_LIMIT * 3
    roots, children, parent = wide(count)
    lay = build_layout(roots, children)
    check_geometry(lay, roots, children)
    ((gap, stretch),) = lay.gaps.items()
    assert stretch == ("r", WIDE_HEAD, count - WIDE_TAIL)
    shown = [lay.keys[kid] for kid in lay.children[0]]
    assert shown == [f"c{i}" for i in range(WIDE_HEAD)] + [f"c{WIDE_HEAD}"] + [f"c{i}" for i in range(count - WIDE_TAIL, count)]
    assert lay.unit_key(gap) == ("g", f"c{WIDE_HEAD}") and not lay.is_fold(gap)
    assert len(lay) == 1 + WIDE_HEAD + 1 + WIDE_TAIL + 3  # c7's chain is drawn (it is among the first)
    hidden = f"c{count // 2}"
    assert hidden not in lay.unit_of and lay.gap_holding(hidden, parent, children) == (gap, hidden)
    assert lay.gap_holding("c7b", parent, children) is None  # drawn, not hidden


def test_siblings_opened_by_hand_split_the_gap_and_show_their_subtree():
    count = WIDE_LIMIT + 500
    roots, children, parent = wide(count)
    children["c700"] = ["deep1"]
    children["deep1"] = ["deep2"]
    parent.update(deep1="c700", deep2="deep1")
    lay = build_layout(roots, children)
    gap = next(iter(lay.gaps))
    assert lay.gap_holding("deep2", parent, children) == (gap, "c700")  # below a hidden sibling
    lay = build_layout(roots, children, shown={"c700"})
    assert sorted(lay.gaps.values()) == [("r", WIDE_HEAD, 700), ("r", 701, count - WIDE_TAIL)]
    assert {"c700", "deep1", "deep2"} <= set(lay.unit_of)
    check_geometry(lay, roots, children)


def test_a_level_at_the_limit_is_drawn_whole():
    roots, children, _ = wide(WIDE_LIMIT)
    lay = build_layout(roots, children)
    assert not lay.gaps and len(lay.children[0]) == WIDE_LIMIT


def test_a_million_siblings_lay_out_as_a_hundred_units():
    roots, children, parent = wide(1_000_000)
    lay = build_layout(roots, children)
    assert len(lay) < 200 and lay.columns < 200
    assert lay.gap_holding("c500000", parent, children) is not None


def test_fold_tree_and_place_can_run_separately():
    roots, children = random_tree(500, 3)
    lay = fold_tree(roots, children)
    assert lay.col == [] and lay.rows > 0
    place(lay)
    check_geometry(lay, roots, children)


@pytest.mark.parametrize("seed", range(6))
def test_unfolding_ahead_of_a_layout_unfolds_what_revealing_after_it_would(seed):
    # An append lays out once: the folds first unfold around the leaf where the coming layout
    # would fold it (Folds.reveal_ahead, from the skeleton), instead of laying out, revealing
    # and laying out again. Both ways must unfold the same entries.
    from pibrowser.ui.tree.folds import Folds

    rnd = random.Random(seed)
    roots, children = random_tree(1500, seed, branchy=0.03)
    everything = sorted(set(roots) | {kid for kids in children.values() for kid in kids})
    kept = skeleton(roots, children)
    for _ in range(40):
        unfolded = set(rnd.sample(everything, rnd.randrange(0, 120)))
        key = rnd.choice([key for key in everything if key in kept.run_of] or everything)
        after, ahead = Folds(), Folds()
        after.unfolded, ahead.unfolded = set(unfolded), set(unfolded)
        lay = build_layout(roots, children, threshold=after.threshold, unfolded=after.unfolded, skel=kept)
        revealed = after.reveal(lay, key)
        assert ahead.reveal_ahead(kept, key) == revealed
        assert ahead.unfolded == after.unfolded
        lay = build_layout(roots, children, threshold=ahead.threshold, unfolded=ahead.unfolded, skel=kept)
        assert lay.fold_of(key) is None


def _layout_state(lay) -> tuple:
    return (
        lay.keys,
        lay.parent,
        lay.children,
        lay.row,
        lay.col,
        lay.room,
        lay.folds,
        lay.gaps,
        dict(lay.unit_of),
        lay.roots,
        lay.rows,
        lay.columns,
        lay.step_start,
    )


def _unfold_and_compare(session, tree, rnd: random.Random, steps: int) -> None:
    """Reveal random entries one after another (now and then a few at once, or a whole fold): each
    layout the shown tree splices must equal one folded afresh from the same unfolded entries."""
    from pibrowser.ui.tree.shown_tree import ShownTree, pinned

    shown = ShownTree()
    shown.show(tree, keep_folds=False)
    lay = shown.lay_out(session)
    everything = list(tree.order)
    for _ in range(steps):
        for _ in range(1 if rnd.random() < 0.7 else rnd.randrange(2, 7)):
            key = rnd.choice(everything)
            if rnd.random() < 0.1 and lay.fold_of(key) is not None:
                shown.folds.expand(lay, lay.fold_of(key))
            else:
                shown.folds.reveal(lay, key)
        lay = shown.lay_out(session)
        fresh = build_layout(tree.roots, tree.children, unfolded=shown.folds.unfolded, pinned=pinned(session), shown=shown.folds.shown)
        assert _layout_state(lay) == _layout_state(fresh)


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: p.name)
def test_unfolding_splices_the_layout_as_a_fresh_one_would_lay_it_out(path):
    session = Session.load(path)
    tree = visible_tree(session, FilterMode.EVERY_ENTRY)
    _unfold_and_compare(session, tree, random.Random(path.name), 12)


@pytest.mark.parametrize("seed", range(3))
def test_random_unfold_sequences_splice_as_fresh_layouts(tmp_path, seed):
    session = Session.load(long_session(tmp_path / "long.jsonl", 2500))
    _unfold_and_compare(session, visible_tree(session), random.Random(seed), 25)
