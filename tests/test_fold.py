"""The fold of pi's rules along a session's paths: every node's answers equal the full statement's.

model/context/resolve.py, model/tokens/context_estimate.py and usage.py state pi's rules for one
path in full; the fold applies them entry by entry along the spine and the branches that leave it.
"""

from __future__ import annotations

import functools

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pibrowser.model import Session, resolve
from pibrowser.model.fold.path_fold import PathFold, path_rows
from pibrowser.model.fold.structure import context_of_path
from pibrowser.model.fold.state import CONTENT_TYPES
from pibrowser.model.session.entry import Entry
from pibrowser.model.session.path_index import PathIndex
from pibrowser.model.workspace import Workspace

from .conftest import FIXTURES, examples, fixture_names
from .fold_check import assert_fold_equals_full, expected_row, orders, shape, within_budget
from .sessions import HEADER, chain, entry, message, write


@functools.cache
def loaded(name):
    return Session.load(FIXTURES / f"{name}.jsonl")


@pytest.mark.parametrize("name", fixture_names())
def test_every_node_of_every_fixture_in_every_order(name, monkeypatch):
    session = loaded(name)
    for keys in orders(session).values():
        assert_fold_equals_full(session, within_budget(session, keys[:600]))
    # Branches kept within a small budget: dropped and folded again, the answers stay.
    monkeypatch.setattr(PathFold, "BRANCH_BUDGET", 5)
    assert_fold_equals_full(session, within_budget(session, orders(session, seed=3)["shuffled"][:300]))


@pytest.mark.parametrize("name", ["generated-s5", "blog-example"])
def test_before_the_spine_is_folded_contexts_are_answered_and_figures_wait(name):
    session = loaded(name)
    fold = PathFold(session)
    keys = list(session.entries)
    assert all(shape(fold.context(key)) == shape(resolve(session, key)) for key in keys)
    assert fold.figures(session.leaf_id) is None and fold.rows(session.leaf_id) is None
    stats = fold.stats(session.leaf_id, fold.context(session.leaf_id))
    assert stats.usage is None and stats.messages == len(resolve(session, session.leaf_id).messages)
    assert_fold_equals_full(session, keys, fold)


def test_spine_and_branches_hold_their_own_entries(tmp_path):
    trunk = chain(30, "t")
    left = [message(f"a{i}", f"a{i - 1}" if i else "t20", "user", f"a {i}", second=100 + i) for i in range(5)]
    session = Session.load(write(tmp_path / "s.jsonl", *left, *trunk))  # the trunk written last: the spine
    fold = PathFold(session)
    fold.fold_spine()
    assert [entry.id for entry in fold.spine.entries] == session.path_to("t29")
    spine, depth = fold.locate("a4")
    assert (
        spine.base is fold.spine and spine.start == 21 and depth == 25 and [e.id for e in spine.entries] == ["a0", "a1", "a2", "a3", "a4"]
    )
    assert fold.locate("a2") == (spine, 23)  # found on the branch kept
    assert_fold_equals_full(session, ["a4", "a2", "t3", "a0"], fold)


def test_a_step_down_a_branch_extends_it(tmp_path):
    trunk = chain(10, "t")
    down = [message(f"b{i}", f"b{i - 1}" if i else "t5", "user", f"b {i}", second=100 + i) for i in range(6)]
    session = Session.load(write(tmp_path / "s.jsonl", *down, *trunk))
    fold = PathFold(session)
    fold.fold_spine()
    first, _ = fold.locate("b0")
    for index in range(1, 6):  # ↓ along the branch: the same branch, one entry longer
        spine, depth = fold.locate(f"b{index}")
        assert spine is first and depth == 6 + index
    assert_fold_equals_full(session, [f"b{i}" for i in range(6)], fold)


def test_appends_at_the_leaf_extend_the_spine_and_are_folded(tmp_path):
    path = write(tmp_path / "s.jsonl", *chain(8))
    workspace = Workspace()
    workspace.replace(Session.load(path))
    session = workspace.session
    assert workspace.fold(session)
    workspace.folded(session)
    spine = workspace.path_fold().spine
    more = [
        message("n0", "m7", "user", "more", second=50),
        message(
            "n1",
            "n0",
            "assistant",
            [{"type": "text", "text": "ok"}],
            second=51,
            usage={"input": 7, "output": 2, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 9},
        ),
        entry("compaction", "n2", "n1", 52, summary="s", firstKeptEntryId="n0", tokensBefore=5),
        message("x0", "m3", "user", "a branch", second=53),  # not at the leaf: a branch
    ]
    with open(path, "ab") as handle:
        handle.write(b"".join(orjson.dumps(item) + b"\n" for item in more))
    change = workspace.follow()
    assert change.appended == ("n0", "n1", "n2", "x0")
    assert [entry.id for entry in spine.entries][-3:] == ["n0", "n1", "n2"] and spine.folded == spine.end
    assert_fold_equals_full(session, list(session.entries), workspace.path_fold(), folded=False)


def test_the_fold_reads_only_the_lines_of_types_a_rule_reads_and_keeps_none_parsed(tmp_path, monkeypatch):
    items = [
        *chain(6),
        entry("label", "l", "m5", 10, targetId="m2", label="x"),
        entry("session_info", "i", "l", 11, name="n"),
        entry("custom", "cu", "i", 12, customType="state", data={"n": 1}),
        entry("thinking_level_change", "th", "cu", 13, thinkingLevel="high"),
        entry("model_change", "mc", "th", 14, provider="p", modelId="m"),
        message("u", "mc", "user", "after", second=15),
    ]
    session = Session.load(write(tmp_path / "s.jsonl", *items))
    parsed = {entry.id for entry in session.file_order if entry.is_parsed}
    read = []
    real = Entry.transient
    monkeypatch.setattr(Entry, "transient", lambda entry: read.append(entry.type) or real(entry))
    fold = PathFold(session)
    fold.fold_spine()
    assert set(read) <= CONTENT_TYPES and "message" in read
    assert {entry.id for entry in session.file_order if entry.is_parsed} == parsed  # read, not kept
    assert_fold_equals_full(session, list(session.entries), fold)


def test_the_command_lines_path_reads_only_its_context(tmp_path):
    items = [
        *chain(40),
        entry("compaction", "c", "m39", 50, summary="s", firstKeptEntryId="m37", tokensBefore=1),
        message("z", "c", "user", "z", second=51),
    ]
    path = write(tmp_path / "s.jsonl", *items)
    with PathIndex.scan(path) as index:
        leaf_path = index.path_entries("z")
        context = context_of_path("z", leaf_path, leaf_path.kind_codes())
        assert sorted(leaf_path._made) == [37, 38, 39, 40, 41]  # the kept entries, the compaction, the leaf
        assert shape(context) == shape(resolve(Session.load(path), "z"))


def test_rows_of_one_path_folded_alone_are_the_folds(tmp_path):
    session = loaded("generated-s5")
    fold = PathFold(session)
    fold.fold_spine()
    for leaf in session.leaves():
        assert path_rows(session, leaf) == fold.rows(leaf)


# ---- random sessions: the fold equals the full statement at every node ------------------------

KINDS = ["user", "assistant", "assistant", "system", "toolResult", "compaction", "context_edit", "label",
         "branch_summary", "custom_message", "thinking_level_change", "model_change", "usage"]  # fmt: skip
USAGES = [
    None,
    {"input": 5, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 6, "cost": {"total": 0.1}},
    {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
    {"input": 3, "cacheRead": 40, "cost": {"total": 2e-7}},
]


@st.composite
def sessions(draw):
    count = draw(st.integers(1, 30))
    ids = [f"e{i}" for i in range(count)]
    lines = [orjson.dumps(HEADER)]
    for index, key in enumerate(ids):
        parent = draw(st.one_of(st.none(), st.sampled_from(ids[: max(index, 1)]), st.sampled_from(ids)))
        kind = draw(st.sampled_from(KINDS))
        target = draw(st.sampled_from(ids + ["ghost"]))
        item = {"type": "message", "id": key, "parentId": parent, "timestamp": "2026-10-30T09:00:00.000Z"}
        text = "x" * draw(st.integers(0, 40))
        if kind in ("user", "toolResult"):
            item["message"] = {
                "role": kind,
                "content": draw(st.sampled_from([text, [{"type": "text", "text": text}], [{"type": "image"}]])),
            }
            if kind == "toolResult":
                item["message"]["usage"] = draw(st.sampled_from(USAGES))
        elif kind == "assistant":
            usage = draw(st.sampled_from(USAGES))
            item["message"] = {"role": "assistant", "content": [{"type": "text", "text": text}], **({"usage": usage} if usage else {})}
            item["message"].update(
                stopReason=draw(st.sampled_from(["stop", "stop", "error", "aborted"])),
                provider="p",
                model=draw(st.sampled_from(["a", "b"])),
            )
        elif kind == "system":
            item["message"] = {
                "role": "system",
                "content": text,
                **draw(st.sampled_from([{}, {"sections": {"a": text}}, {"toolsAdded": [{"name": "t"}]}])),
            }
        elif kind == "compaction":
            item.update(type="compaction", summary=text, firstKeptEntryId=target, tokensBefore=1, usage=draw(st.sampled_from(USAGES)))
            if draw(st.booleans()):
                item["systemMessage"] = {"role": "system", "content": "p" + text, "timestamp": 1}
        elif kind == "context_edit":
            item.update(
                type="context_edit",
                targetId=target,
                replacement=draw(st.sampled_from([None, {"content": "r" * 9}, {"content": [{"type": "text", "text": "rr"}]}])),
            )
        elif kind == "label":
            item.update(type="label", targetId=target, label="a")
        elif kind == "branch_summary":
            item.update(type="branch_summary", fromId=target, summary=text)
        elif kind == "thinking_level_change":
            item.update(type=kind, thinkingLevel=draw(st.sampled_from(["high", "off"])))
        elif kind == "model_change":
            item.update(type=kind, provider="q", modelId=draw(st.sampled_from(["m", "n"])))
        elif kind == "usage":
            item.update(type="usage", provider="p", model="m", usage=draw(st.sampled_from(USAGES)))
        else:
            item.update(type="custom_message", customType="c", content=text, display=True)
        lines.append(orjson.dumps(item))
    return b"\n".join(lines) + b"\n"


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=sessions(), seed=st.integers(0, 9))
def test_the_fold_equals_the_full_statement_on_random_sessions(tmp_path, data, seed):
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    session = Session.load(path)
    for keys in orders(session, seed).values():
        assert_fold_equals_full(session, keys)
    assert_fold_equals_full(session, orders(session, seed)["shuffled"], folded=False)


def test_the_row_is_the_rule_applied_to_the_entry():
    session = loaded("generated-s5")
    fold = PathFold(session)
    fold.fold_spine()
    rows = fold.rows(session.leaf_id)
    assert [row.id for row in rows] == session.path_to(session.leaf_id)
    assert any(row.compaction for row in rows) and any(row.input_tokens for row in rows)
    for row in rows[::7]:
        assert row == expected_row(session, row.id, resolve(session, row.id))


@pytest.mark.parametrize("name", ["generated-s5", "generated-s3"])
def test_same_parts_across_a_fork_means_the_shared_entries_play_the_same_part(name):
    # The tree's path marks keep the marks of the entries two selections share when the fold says
    # they play the same part in both contexts (no compaction or edit below the fork on either path).
    import random

    from pibrowser.model.context.provenance import path_provenance

    session = loaded(name)
    fold = PathFold(session)
    fold.fold_spine()
    rnd = random.Random(name)
    keys = list(session.entries)
    across = 0
    for _ in range(150):
        before, after = rnd.choice(keys), rnd.choice(keys)
        left, right = session.path_to(before), session.path_to(after)
        shared = next((at for at, (a, b) in enumerate(zip(left, right)) if a != b), min(len(left), len(right)))
        mine, theirs = path_provenance(resolve(session, before)), path_provenance(resolve(session, after))
        same = all(mine.get(key) == theirs.get(key) for key in left[:shared])
        if fold.same_parts(before, after):
            assert same, (before, after)
            across += shared < min(len(left), len(right))
    assert across, "no pair across a fork was found to share its parts"


def own_parts_checked(session: Session) -> int:
    """The shared page's walk builds no context for a node that is neither a compaction nor an edit:
    its parent's context whole, then its own part, with the parent's edits and its own settings.
    Checked at every such node; how many there are."""
    fold = PathFold(session)
    parts = 0
    for key in session.entries:
        above = session.parent(key)
        if above is None:
            continue
        base = resolve(session, above)
        part = fold.own_part(key, fold.edits_in(base))
        full = resolve(session, key)
        if part is None:
            assert session.entries[key].type in ("compaction", "context_edit") or not session.plain_keys, key
            continue
        parts += 1
        assert base.messages + part.messages == full.messages, key
        assert [item.entry.id for item in base.entries] + [part.entry.id] == [item.entry.id for item in full.entries], key
        assert fold.settings(key) == (full.thinking_level, full.model), key
    return parts


@pytest.mark.parametrize("name", fixture_names())
def test_a_nodes_own_part_is_what_its_context_adds_to_its_parents(name):
    assert own_parts_checked(loaded(name))


def test_an_edit_before_its_target_is_in_the_targets_own_part(tmp_path):
    # pi keeps every edit among the context's entries in a map: one written before its target edits it when it comes.
    items = [
        message("u1", None, "user", "first"),
        entry("context_edit", "x1", "u1", 1, targetId="a2", replacement={"content": "replaced"}),
        message("a2", "x1", "assistant", [{"type": "text", "text": "original"}], 2),
        message("u3", "a2", "user", "after", 3),
    ]
    session = Session.load(write(tmp_path / "s.jsonl", *items))
    assert own_parts_checked(session) == 2
    part = PathFold(session).own_part("a2", {"a2": session.entries["x1"]})
    assert part is not None and part.edit is not None and part.messages[0]["content"] == [{"type": "text", "text": "replaced"}]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=sessions())
def test_own_parts_on_random_sessions(tmp_path, data):
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    own_parts_checked(Session.load(path))


def assert_uncompacted_parts_read_as_the_walk(session: Session) -> int:
    """The provenance of a context without a compaction, read off its projections alone, is the
    walk over its path (_parts_from) entry for entry, in the same order; how many were checked."""
    from pibrowser.model.context.provenance import Part, Provenance, _parts_from, _uncompacted_parts

    checked = 0
    for key in session.entries:
        context = resolve(session, key)
        if context.compaction is not None:
            continue
        projected = {item.entry.id: (index, item) for index, item in enumerate(context.entries)}
        walked = _parts_from(context, 0, projected, Provenance(Part.SUMMARIZED, None))
        assert list(_uncompacted_parts(context).items()) == list(walked.items()), key
        checked += 1
    return checked


@pytest.mark.parametrize("name", fixture_names())
def test_uncompacted_parts_on_the_fixtures(name):
    # (A random session may have a compaction in every context: hypothesis found one whose only entry is one.)
    assert assert_uncompacted_parts_read_as_the_walk(loaded(name)) > 0


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=sessions())
def test_uncompacted_parts_on_random_sessions(tmp_path, data):
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    assert_uncompacted_parts_read_as_the_walk(Session.load(path))
