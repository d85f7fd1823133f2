"""pi's /tree rows without a display: order, indentation and rails (tests/test_against_pi.py checks them against pi itself)."""

from __future__ import annotations

from pibrowser.model.session.tree_rows import ELBOW, NO_CONNECTOR, TEE, leaf_first, tree_rows


def text(rows) -> list[str]:
    return [rows.prefix(row) + str(key) for row, key in enumerate(rows.keys)]


def test_a_chain_stays_flat():
    tree = {"a": ["b"], "b": ["c"], "c": ["d"]}
    rows = tree_rows(["a"], lambda key: tree.get(key, []))
    assert text(rows) == ["a", "b", "c", "d"]
    assert rows.connector == [NO_CONNECTOR] * 4


def test_a_branch_indents_and_its_rest_goes_one_level_further():
    tree = {"a": ["b", "c"], "b": ["b1"], "b1": ["b2"], "c": ["c1"]}
    rows = tree_rows(["a"], lambda key: tree.get(key, []))
    assert text(rows) == ["a", "├─ b", "│     b1", "│     b2", "└─ c", "      c1"]
    assert rows.connector[1] == TEE and rows.connector[4] == ELBOW


def test_the_current_leafs_branch_comes_first():
    tree = {"a": ["b", "c", "d"], "c": ["c1"]}
    rows = tree_rows(["a"], lambda key: tree.get(key, []), active={"a", "c", "c1"})
    assert rows.keys == ["a", "c", "c1", "b", "d"]


def test_siblings_rehung_from_hidden_entries_come_in_pis_flattened_order():
    # The whole tree: p → [x, h], h → [y, z], z holds the leaf; h is hidden, so x, y and z are p's visible children.
    parents = {"x": "p", "h": "p", "y": "h", "z": "h", "p": None}
    visible = {"p": ["x", "y", "z"]}
    active = {"p", "h", "z"}
    rows = tree_rows(["p"], lambda key: visible.get(key, []), active, leaf_first("z", active, parents.get, str, str))
    # pi flattens z first under h (it holds the leaf), h before x under p: z, y, then x.
    assert rows.keys == ["p", "z", "y", "x"]


def test_several_roots_hang_under_an_invisible_root():
    tree = {"r1": ["a"], "r2": ["b", "c"]}
    rows = tree_rows(["r1", "r2"], lambda key: tree.get(key, []))
    assert text(rows) == ["r1", "   a", "r2", "├─ b", "└─ c"]


def test_rows_are_found_without_recursion_on_a_deep_chain():
    depth = 200_000
    rows = tree_rows([0], lambda key: [key + 1] if key + 1 < depth else [])
    assert len(rows) == depth and max(rows.indent) == 0


def test_without_a_visible_child_on_the_path_the_deepest_meeting_comes_first():
    # The whole tree: p → [x, h], h → [y, leaf]; h and the leaf are hidden: x and y hang under p,
    # and pi flattened h (which holds the leaf) first, so y comes before x.
    parents = {"x": "p", "h": "p", "y": "h", "leaf": "h", "p": None}
    visible = {"p": ["x", "y"]}
    active = {"p", "h", "leaf"}
    rows = tree_rows(["p"], lambda key: visible.get(key, []), active, leaf_first("leaf", active, parents.get, str, str))
    assert rows.keys == ["p", "y", "x"]
