"""The tree pi shows: roots, child order, labels, name, leaf, and what pi cannot follow."""

import random

import orjson
import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.session.follow import read_appended
from pibrowser.model.js.date import in_time_order, js_time
from pibrowser.model.text.describe import message_preview, message_title
from pibrowser.model.text.terminal_text import shorten
from pibrowser.model.text.tree_json import tree_json
from pibrowser.model.text.tree_text import tree_text

from .sessions import append, chain, entry, message, write


def ids(tree):
    return [(node["id"], ids(node["children"])) for node in tree]


def test_children_ordered_by_timestamp_then_file_order(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        message("r", None, "user", second=0),
        message("late", "r", "assistant", second=9),
        message("tie1", "r", "assistant", second=5),
        message("early", "r", "assistant", second=1),
        message("tie2", "r", "assistant", second=5),
    )
    session = Session.load(path)
    assert session.children("r") == ["early", "tie1", "tie2", "late"]


def test_unparseable_timestamps_order_as_pi_sorts_them(tmp_path):
    # Checked against pi: the comparator yields NaN for "bad", which sort treats as
    # "equal"; V8's insertion steps then leave this list exactly in file order.
    path = write(
        tmp_path / "s.jsonl",
        message("r", None, "user"),
        entry("custom", "a", "r", 5),
        {**entry("custom", "b", "r"), "timestamp": "bad"},
        entry("custom", "c", "r", 1),
        entry("custom", "d", "r", 3),
    )
    session = Session.load(path)
    assert session.children("r") == ["a", "b", "c", "d"]
    # Without the bad timestamp the same entries sort by time.
    path = write(
        tmp_path / "t.jsonl",
        message("r", None, "user"),
        entry("custom", "a", "r", 5),
        entry("custom", "c", "r", 1),
        entry("custom", "d", "r", 3),
    )
    assert Session.load(path).children("r") == ["c", "d", "a"]


def test_several_roots_orphans_and_self_parent(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        message("a", None, "user", second=0),
        message("b", "a", "assistant", second=1),
        message("orphan", "ghost", "user", second=2),
        message("self", "self", "user", second=3),
        message("c", None, "user", second=4),
    )
    session = Session.load(path)
    assert session.roots == ["a", "orphan", "self", "c"]
    assert ids(orjson.loads(tree_json(session))["tree"]) == [("a", [("b", [])]), ("orphan", []), ("self", []), ("c", [])]
    reasons = " ".join(p.reason for p in session.problems)
    assert "'ghost' of 'orphan' names no entry" in reasons
    assert "'self' is its own parent" in reasons
    # pi follows a self-parent forever; we stop at it.
    assert [e.id for e in resolve(session, "self").path] == ["self"]


def test_parent_cycle_is_cut_reported_and_resolves(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        message("root", None, "user", second=0),
        message("x", "z", "user", second=1),
        message("y", "x", "assistant", second=2, provider="p", model="m"),
        message("z", "y", "user", second=3),
        message("tail", "z", "assistant", second=4),
    )
    session = Session.load(path)
    # pi's tree leaves the cycle out entirely; we keep it visible as a cut root.
    assert ids(orjson.loads(tree_json(session))["tree"]) == [("root", [])]
    assert session.cycle_roots == ["x"]
    assert session.path_to("tail") == ["x", "y", "z", "tail"]
    problem = next(p for p in session.problems if "cycle" in p.reason)
    assert problem.line == 3 and "x → z → y → x" in problem.reason
    context = resolve(session, "z")
    assert [m["role"] for m in context.messages] == ["user", "assistant", "user"]
    assert "x" in [key for key, _ in session.walk()]


def test_duplicate_id_later_entry_wins_and_is_reported(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        message("a", None, "user", "first", second=0),
        message("b", "a", "assistant", second=1),
        message("a", None, "user", "second", second=2),
    )
    session = Session.load(path)
    assert list(session.entries) == ["a", "b"]
    assert session.entry("a").message["content"] == "second"
    assert session.leaf_id == "a"
    assert any("duplicate id 'a'" in p.reason and p.line == 4 for p in session.problems)


def test_labels_set_clear_and_last_session_name(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        message("a", None, "user", second=0),
        entry("label", "l1", "a", 1, targetId="a", label="first"),
        entry("session_info", "n1", "l1", 2, name="  Old  "),
        entry("label", "l2", "n1", 3, targetId="a"),
        entry("label", "l3", "l2", 4, targetId="l1", label="kept"),
        entry("label", "l4", "l3", 5, targetId="missing", label="nowhere"),
        entry("session_info", "n2", "l4", 6, name="  Newest name \n"),
    )
    session = Session.load(path)
    assert session.labels == {"l1": "kept", "missing": "nowhere"}
    assert session.name == "Newest name"
    assert any("names no entry" in p.reason for p in session.problems)


def test_empty_session_name_means_none(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        message("a", None, "user"),
        entry("session_info", "n", "a", 1, name="Named"),
        entry("session_info", "n2", "n", 2, name="  "),
    )
    assert Session.load(path).name is None


def test_text_tree_marks_leaf_labels_and_branches(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        message("a", None, "user", "hello", second=0),
        message("b", "a", "assistant", [{"type": "text", "text": "one"}], second=1),
        message("c", "a", "assistant", [{"type": "text", "text": "two"}], second=2),
        entry("label", "l", "c", 3, targetId="b", label="good"),
    )
    text = tree_text(Session.load(path))
    # pi's /tree: the current leaf's branch first; below a branch's head the branch goes one level in.
    assert text.splitlines() == [
        "a user: hello",
        "├─ c assistant: two",
        "│     l label b = 'good'  ← leaf",
        "└─ b assistant: one  [good]",
    ]


def test_text_tree_parses_each_entry_for_its_title_only(tmp_path):
    # A long session's entries, kept parsed after the pass over every title, would hold the whole file in memory.
    path = write(
        tmp_path / "s.jsonl",
        message("a", None, "user", "hello", second=0),
        message("b", "a", "assistant", [{"type": "text", "text": "one"}], second=1),
        message("c", "b", "toolResult", [{"type": "text", "text": "two"}], second=2, toolName="read"),
    )
    session = Session.load(path)
    assert tree_text(session).splitlines() == ["a user: hello", "b assistant: one", "c toolResult: read → two  ← leaf"]
    assert [entry.is_parsed for entry in session.file_order] == [False, False, False]


def test_deep_chain_does_not_recurse(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(30000))
    session = Session.load(path)
    tree = tree_json(session)
    assert tree.count(b'"children":[') == 30000
    assert len(resolve(session, "m29999").messages) == 30000


@pytest.mark.parametrize(
    "stamps, ordered",
    [
        (["2026-10-30T09:00:00.000Z", "2026-10-30T09:00:00.000Z", "2026-10-30T09:00:01.000Z"], True),
        (["2026-10-30T09:00:01.000Z", "2026-10-30T09:00:00.000Z"], False),
        (["2026-02-28T09:00:00.000Z", "2026-02-30T09:00:00.000Z", "2026-03-01T09:00:00.000Z"], False),  # 02-30 is 2 March
        (["2026-10-30T09:00:00.000Z", "2026-10-30T24:00:00.000Z"], False),
        (["2026-10-30T09:00:00.000Z", "not a date"], False),
        (["2026-10-30T09:00:00.000Z", 5], False),
    ],
)
def test_time_order_judged_from_strings_never_disagrees_with_parsing(stamps, ordered):
    assert in_time_order(stamps) is ordered
    if ordered:
        times = [js_time(stamp) for stamp in stamps]
        assert None not in times and times == sorted(times)


def test_siblings_in_file_and_time_order_keep_it(tmp_path):
    items = [message("root", None, "user")] + [message(f"s{index}", "root", "user", second=index // 2) for index in range(6)]
    session = Session.load(write(tmp_path / "s.jsonl", *items))
    assert session.children("root") == [f"s{index}" for index in range(6)]


def test_common_ancestor_parent_children_and_leaves(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        message("r", None, "user", second=0),
        message("a", "r", "assistant", second=1),
        message("b1", "a", "user", second=2),
        message("b2", "a", "user", second=3),
        message("c", "b2", "assistant", second=4),
        message("other", None, "user", second=5),
        message("x", "z", "user", second=6),
        message("z", "x", "user", second=7),
    )
    session = Session.load(path)
    assert session.common_ancestor("b1", "c") == "a"
    assert session.common_ancestor("c", "b1") == "a"
    assert session.common_ancestor("c", "b2") == "b2"  # an entry is its own ancestor
    assert session.common_ancestor("c", "c") == "c"
    assert session.common_ancestor("c", "other") is None  # separate roots
    assert session.common_ancestor("z", "c") is None  # a cut cycle is a root of its own
    assert session.common_ancestor("z", "x") == "x"
    assert session.parent("c") == "b2" and session.parent("r") is None and session.parent("x") is None
    assert list(session.children("a")) == ["b1", "b2"] and list(session.children("c")) == []
    assert sorted(session.leaves()) == ["b1", "c", "other", "z"]
    assert session.leaf_count() == 4  # counted without listing, a cut cycle included
    # pi's children are in time order: the newest leaf under an entry is down its last children.
    assert session.newest_leaf_below("r") == "c" and session.newest_leaf_below("b1") == "b1"


def test_an_empty_parent_id_links_in_the_tree_but_ends_the_path(tmp_path):
    # pi's getTree links parentId "" to an entry with id "", but buildSessionPath stops at a falsy parentId.
    path = write(tmp_path / "s.jsonl", message("", None, "user", second=0), message("a", "", "assistant", second=1))
    session = Session.load(path)
    assert list(session.children("")) == ["a"] and session.parent("a") == ""
    assert session.path_to("a") == ["a"]
    assert session.common_ancestor("a", "") == ""


def test_the_common_ancestor_follows_appends(tmp_path):
    from pibrowser.model.session.follow import read_appended

    from .sessions import append

    path = write(
        tmp_path / "s.jsonl",
        message("r", None, "user", second=0),
        message("a", "r", "assistant", second=1),
        message("b1", "a", "user", second=2),
        message("lone", None, "user", second=3),
    )
    session = Session.load(path)
    assert session.common_ancestor("b1", "r") == "r" and session.common_ancestor("b1", "b1") == "b1"
    assert session.common_ancestor("b1", "lone") is None  # separate roots
    append(path, message("b2", "a", "user", second=4), message("c", "b2", "assistant", second=5))
    assert [entry.id for entry in read_appended(session)] == ["b2", "c"]
    assert session.common_ancestor("c", "b1") == "a" == session.common_ancestor("b1", "c")
    assert list(session.children("a")) == ["b1", "b2"]


def test_appended_siblings_take_pis_place_among_many(tmp_path):
    # Appends link one child at a time: earlier times go before later ones, equal times after.
    items = [message("root", None, "user")] + [message(f"s{index}", "root", "user", second=10 + index) for index in range(300)]
    path = write(tmp_path / "s.jsonl", *items)
    session = Session.load(path)
    from pibrowser.model.session.follow import read_appended

    from .sessions import append

    append(
        path,
        message("late", "root", "user", second=500),
        message("early", "root", "user", second=5),
        message("tie", "root", "user", second=10),
    )
    read_appended(session)
    kids = list(session.children("root"))
    assert kids[:3] == ["early", "s0", "tie"] and kids[-1] == "late"
    assert kids == list(Session.load(path).children("root"))  # the same order as a fresh load
    # A time JS cannot parse: from then on the order is V8's sort replayed, as on a fresh load.
    append(path, entry("custom", "odd", "root", customType="x") | {"timestamp": "not a time"}, message("after", "root", "user", second=7))
    read_appended(session)
    assert list(session.children("root")) == list(Session.load(path).children("root"))
    assert "odd" in session.children("root")


def test_children_share_their_parent_s_id_and_entries_share_type_and_role_words(tmp_path):
    # A million replies to one message must not hold its id (or "message", "user") a million times.
    path = write(
        tmp_path / "s.jsonl", message("root", None, "user", second=0), *[message(f"c{i}", "root", "user", second=1 + i) for i in range(5)]
    )
    session = Session.load(path)
    root = session.entries["root"]
    kids = [session.entries[f"c{i}"] for i in range(5)]
    assert all(kid.parent_id is root.id for kid in kids)
    assert all(kid.type is root.type and kid.role is root.role for kid in kids)
    assert [session.parent(kid.id) for kid in kids] == ["root"] * 5


@pytest.mark.parametrize("lazy", [True, False])
def test_the_entry_at_a_line_is_found_among_blank_broken_and_duplicate_lines(tmp_path, lazy):
    items = chain(3)
    path = write(tmp_path / "s.jsonl", items[0], b"", b"{broken", items[1], {**items[1], "timestamp": "2026-10-30T09:00:05.000Z"}, items[2])
    session = Session.load(path, lazy=lazy)
    found = {line: session.entry_at_line(line) for line in range(0, 9)}
    assert {line: entry.id for line, entry in found.items() if entry is not None} == {2: "m0", 5: "m1", 6: "m1", 7: "m2"}
    assert found[5] is not found[6] and found[6] is session.entries["m1"]
    assert session.entry_at_line(None) is None


@pytest.mark.parametrize("lazy", [True, False])
def test_parents_and_paths_of_linked_and_unlinked_entries(tmp_path, lazy):
    # Only linked entries have a parent: not a root whose parentId names no entry, itself,
    # a number, or where a cycle was cut; also once such roots are appended.
    links = [("a", None), ("b", "a"), ("orphan", "ghost"), ("self", "self"), ("odd", 7), ("x", "z"), ("y", "x"), ("z", "y"), ("tail", "z")]
    path = write(
        tmp_path / "s.jsonl", *[{**message(key, None, "user", second=n), "parentId": above} for n, (key, above) in enumerate(links)]
    )
    session = Session.load(path, lazy=lazy)
    parents = {key: session.parent(key) for key in session.entries}
    assert parents == {"a": None, "b": "a", "orphan": None, "self": None, "odd": None, "x": None, "y": "x", "z": "y", "tail": "z"}
    assert session.parent("nothing") is None and session.path_to("nothing") == ["nothing"]
    assert [session.path_to(key) for key in ("b", "orphan", "self", "odd", "tail")] == [
        ["a", "b"],
        ["orphan"],
        ["self"],
        ["odd"],
        ["x", "y", "z", "tail"],
    ]
    assert session.common_ancestor("tail", "y") == "y" and session.common_ancestor("b", "tail") is None
    append(path, message("c", "b", "user", second=9), message("lost", "gone", "user", second=10), message("d", "lost", "user", second=11))
    read_appended(session)
    assert [session.parent(key) for key in ("c", "lost", "d")] == ["b", None, "lost"]
    assert session.path_to("d") == ["lost", "d"] and session.path_to("c") == ["a", "b", "c"]


def test_paths_in_a_session_without_unlinked_roots(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(5), message("k", "m2", "user", second=9))
    session = Session.load(path)
    assert session.path_to("m4") == ["m0", "m1", "m2", "m3", "m4"] and session.path_to("k") == ["m0", "m1", "m2", "k"]
    assert [session.parent(key) for key in ("m0", "m3", "k")] == [None, "m2", "m2"]


def test_a_cycle_closed_by_a_duplicate_id_is_cut(tmp_path):
    # The later "p" replaces the first and names its own child as parent.
    links = [("p", None), ("c", "p"), ("p", "c"), ("d", "c")]
    path = write(
        tmp_path / "s.jsonl", *[{**message(key, None, "user", second=n), "parentId": above} for n, (key, above) in enumerate(links)]
    )
    session = Session.load(path)
    assert session.cycle_roots == ["c"] and session.roots == []
    assert sorted(key for key, _ in session.walk()) == ["c", "d", "p"]
    assert session.path_to("d") == ["c", "d"] and session.path_to("p") == ["c", "p"]
    assert any("cycle" in problem.reason for problem in session.problems)


def test_a_title_worked_out_from_a_texts_start_is_the_wholes_shortened():
    # message_preview given `room` looks at a long text's start only; shortened to the title's width
    # it must read as the preview of the whole text does.
    rng = random.Random(5)
    pieces = ["word", " ", "  ", "\t", "\n", "\u00a0", "\u2028", "é", "中文", "\x1b[2J", "a" * 90, "→", "\ufeff", "\x1c"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 120))) for _ in range(400)]
    texts += [" " * rng.randint(0, 2) + " ".join("w" * rng.randint(1, 9) for _ in range(rng.randint(1, 40))) for _ in range(400)]
    for text in texts:
        for preview in (
            {"role": "user", "content": text},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, {"type": "text", "text": text}]},
            {"role": "toolResult", "toolName": text[:20], "content": [{"type": "text", "text": text}]},
            {"role": "bashExecution", "command": text},
        ):
            for width in (1, 5, 40, 80, 100, 120):
                role = preview["role"]
                assert message_title(role, preview, width) == shorten(f"{role}: {message_preview(preview)}", width), (text, width)
