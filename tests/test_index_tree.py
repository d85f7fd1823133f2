"""`pibrowser tree`'s one-pass tree of a clean file (IndexTree): the same tree, order, labels, name
and text as the loaded Session's, or no answer and the Session's load."""

import random

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pibrowser.model import Session
from pibrowser.model.session.forest import SessionForest
from pibrowser.model.session.index_tree import IndexTree
from pibrowser.model.session.path_index import PathIndex
from pibrowser.model.session.tree_rows import tree_rows
from pibrowser.model.text.tree_json import tree_json
from pibrowser.model.text.tree_text import forest_lines, line_titles, tree_bytes

from .conftest import DEMO, FIXTURES, examples
from .hostile import LOADABLE, make
from .sessions import HEADER, chain, entry, message, write

SESSION_FILES = sorted(FIXTURES.rglob("*.jsonl")) + [DEMO]


def index_text(tree: IndexTree) -> bytes:
    return b"".join(forest_lines(tree, tree.column.__getitem__))


def assert_same_tree(path, tree: IndexTree) -> None:
    """The index's tree is the Session's: children in pi's order, labels, name, leaf, and both outputs."""
    session = Session.load(path, lazy=False)
    assert not session.problems and session.validate() == ([], [])
    keys = tree.key
    forest = SessionForest(session)
    assert [keys(root) for root in tree.roots()] == forest.roots()
    for at in range(len(tree)):
        assert [keys(kid) for kid in tree.children(at)] == list(session.children(keys(at)))
        assert tree.label(at) == session.labels.get(keys(at))
    assert tree.labels_json() == session.labels_json() and tree.name == session.name
    assert keys(tree.leaf) == session.leaf_id
    assert tree_json(tree) == tree_json(session)
    assert index_text(tree) == b"".join(tree_bytes(session))


@pytest.mark.parametrize("path", SESSION_FILES, ids=lambda path: path.stem)
def test_every_clean_session_file_gives_the_sessions_tree(path):
    tree = IndexTree.scan(path, previews=line_titles)
    if tree is None:
        assert PathIndex.scan(path) is None, "a file the path index takes is one the tree takes"
        return
    assert_same_tree(path, tree)


@pytest.mark.parametrize("name", sorted(LOADABLE))
def test_a_file_the_session_reports_on_gets_no_index_tree(tmp_path, name):
    path = make(tmp_path, name)
    session = Session.load(path, lazy=False)
    tree = IndexTree.scan(path, previews=line_titles)
    if session.problems:
        assert tree is None
    elif tree is not None:
        assert_same_tree(path, tree)


def test_a_line_that_is_not_utf8_is_left_to_the_session_which_names_it(tmp_path):
    # The path index reads such a file (a context is the same); the tree must say what the load says.
    path = make(tmp_path, "invalid_utf8")
    assert PathIndex.scan(path) is not None
    assert IndexTree.scan(path) is None


def test_children_order_labels_and_name_as_the_session_gives_them(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        message("r", None, "user", second=0),
        message("late", "r", "assistant", second=9),
        message("tie1", "r", "assistant", second=5),
        {**message("untimed", "r", "assistant"), "timestamp": "bad"},  # V8's sort, replayed
        message("early", "r", "assistant", second=1),
        message("tie2", "r", "assistant", second=5),
        entry("label", "l1", "tie2", 10, targetId="early", label="first"),
        entry("label", "l2", "l1", 11, targetId="late", label="gone"),
        entry("label", "l3", "l2", 12, targetId="late", label=""),  # cleared
        entry("label", "l4", "l3", 13, targetId="tie1", label=0),  # falsy: cleared too
        entry("label", "l5", "l4", 14, targetId="early", label="again"),
        entry("session_info", "n1", "l5", 15, name="first name"),
        entry("session_info", "n2", "n1", 16, name="  \u3000spaced\u3000 "),
        message("other root", None, "user", second=2),
    )
    tree = IndexTree.scan(path, previews=line_titles)
    assert [tree.key(kid) for kid in tree.children(0)] == list(Session.load(path).children("r"))
    assert tree.labels_json() == {"early": "again"} and tree.name == "spaced"
    assert_same_tree(path, tree)


def test_a_message_whose_content_is_no_preview_shape_is_still_read_in_the_pass(tmp_path):
    # Content blocks that are not objects do not decode as what a preview reads: that line is read
    # as a lead alone, and its title from the whole line.
    path = write(
        tmp_path / "s.jsonl",
        *chain(2),
        message("odd", "m1", "assistant", [5, "x", {"type": "text", "text": "after"}], second=3),
        message("num", "odd", "user", 42, second=4),
        message("tool", "num", "toolResult", [{"type": "text", "text": "out"}], second=5, toolName={"not": "a string"}),
    )
    tree = IndexTree.scan(path, previews=line_titles)
    assert tree is not None
    assert_same_tree(path, tree)


def test_long_texts_are_titled_from_their_start_as_from_the_whole(tmp_path):
    # A title reads a text only as far as it shows; white space runs, tabs, line breaks and
    # characters Python does not print must leave it as titling the whole text does.
    rng = random.Random(3)
    pieces = ["word", " ", "  ", "\t", "\n", "\u00a0", "\u2028", "é", "中文", "\x1b[2J", "a" * 90, "→", "\ufeff"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 120))) for _ in range(300)]
    # Prose: single spaces only, so the start looked at is taken as it is; a space may fall at any column.
    texts += [" " * rng.randint(0, 1) + " ".join("w" * rng.randint(1, 9) for _ in range(rng.randint(1, 40))) for _ in range(300)]
    items = list(chain(1))
    for number, text in enumerate(texts):
        role = ("user", "assistant", "toolResult", "bashExecution")[number % 4]
        content = text if role == "user" else [{"type": "text", "text": text}]
        fields = {"toolName": text[:30]} if role == "toolResult" else {"command": text} if role == "bashExecution" else {}
        items.append(message(f"t{number}", items[-1]["id"], role, content, second=number + 1, **fields))
    path = write(tmp_path / "s.jsonl", *items)
    assert_same_tree(path, IndexTree.scan(path, previews=line_titles))


def test_a_rails_level_only_grows_down_the_tree():
    # TreeRows.prefix leaves out the rails of hidden levels by bisecting a row's gutters on their levels.
    for path in SESSION_FILES:
        session = Session.load(path)
        leaf = session.leaf_id
        rows = tree_rows(session.display_roots(), session.children, frozenset(session.path_to(leaf)) if leaf else frozenset())
        for gutters in rows.gutters:
            levels = [level for level, _ in gutters]
            assert levels == sorted(levels), path


# ---- random clean sessions ----------------------------------------------------------------------

TIMES = [
    "2026-10-30T09:00:00.000Z",
    "2026-10-30T09:00:01.000Z",
    "2026-10-30T08:59:59.000Z",
    "bad",
    "2026",
    "",
    "Tue, 30 Oct 2026 09:00:00 GMT",
]
CONTENTS = [
    "t",
    "  two  words\n",
    None,
    5,
    [{"type": "text", "text": "x\ty"}],
    [{"type": "toolCall", "name": "read"}],
    [1, {"type": "text"}],
    [],
]


@st.composite
def clean_sessions(draw):
    """Files pi could have written, ids unique and parents earlier: the path index reads every one."""
    count = draw(st.integers(1, 40))
    lines = [orjson.dumps(HEADER)]
    for at in range(count):
        item = {
            "type": "message",
            "id": f"e{at}",
            "parentId": draw(st.one_of(st.none(), st.sampled_from([f"e{earlier}" for earlier in range(at)] or [None]))),
            "timestamp": draw(st.sampled_from(TIMES)),
        }
        kind = draw(st.sampled_from(["message", "message", "label", "session_info", "compaction", "custom"]))
        if kind == "message":
            role = draw(st.sampled_from(["user", "assistant", "toolResult", "bashExecution", "custom"]))
            item["message"] = {
                "role": role,
                "content": draw(st.sampled_from(CONTENTS)),
                "toolName": draw(st.sampled_from(["bash", 7, None])),
            }
        elif kind == "label":
            item.update(type="label", targetId=f"e{draw(st.integers(0, at))}", label=draw(st.sampled_from(["a", "", None, 0, "b c", [1]])))
        elif kind == "session_info":
            item.update(type="session_info", name=draw(st.sampled_from([" n ", "", 9, None, "m"])))
        else:
            item.update(type=kind, summary="s", customType="c")
        lines.append(orjson.dumps(item))
    return b"\n".join(lines) + draw(st.sampled_from([b"\n", b""]))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=clean_sessions())
def test_random_clean_sessions_give_the_sessions_tree(tmp_path, data):
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    tree = IndexTree.scan(path, previews=line_titles)
    assert tree is not None
    assert_same_tree(path, tree)
