"""Contexts built from a neighbour's equal the ones resolved in full, on every entry of every fixture."""

import functools
import random

import pytest

from pibrowser.model import Session, path_provenance, resolve
from pibrowser.model.context import cache as context_cache
from pibrowser.model.context.cache import ContextCache

from .conftest import FIXTURES, fixture_names
from .sessions import chain, entry, message, write


def shape(context):
    return (
        context.leaf,
        [item.id for item in context.path],
        context.compaction.id if context.compaction is not None else None,
        [(item.entry.id, item.messages, item.edit.id if item.edit else None, item.original) for item in context.entries],
        context.messages,
        context.thinking_level,
        context.model,
    )


def orders(session):
    keys = list(session.entries)
    shuffled = keys[:]
    random.Random(7).shuffle(shuffled)
    shuffled = shuffled[:500]  # each far jump is a full resolve: keep long sessions quick
    walks = []  # down each leaf's path, then back up it: the ↓ and ↑ keys
    for leaf in session.leaves()[:5]:
        path = session.path_to(leaf)
        walks += path + path[::-1]
    return {"file order": keys, "reversed": keys[::-1], "shuffled": shuffled, "walks": walks}


@functools.cache
def loaded(name):
    return Session.load(FIXTURES / f"{name}.jsonl", lazy=False)


@functools.cache
def in_full(name, key):
    """An entry's context and provenance resolved in full (each once per run)."""
    context = resolve(loaded(name), key)
    return shape(context), list(path_provenance(context).items())


@pytest.mark.parametrize(
    "name, capacity",
    # legacy-v1 is one long chain without compactions: the slow full answers are worth one pass.
    [(name, capacity) for name in fixture_names() for capacity in (2, 64) if name != "legacy-v1" or capacity == 2],
)
def test_incremental_equals_full_on_every_entry(name, capacity):
    session = loaded(name)
    for order, keys in orders(session).items():
        cache = ContextCache(session, capacity=capacity)
        for index, key in enumerate(keys):
            context, parts = in_full(name, key)
            assert shape(cache.resolve(key)) == context, (order, key)
            if index % 10 != 5:  # the window asks for most entries' provenance, not all
                assert list(cache.provenance(key).items()) == parts, (order, key)


def test_steps_reuse_the_neighbour_and_stop_at_barriers(tmp_path, monkeypatch):
    items = chain(6)
    compaction = entry("compaction", "c", "m5", 7, summary="so far", firstKeptEntryId="m4", tokensBefore=10)
    edit = entry("context_edit", "e", "c", 8, targetId="m4", replacement={"content": "edited"})
    after = [message("a0", "e", "user", second=9), message("a1", "a0", "assistant", second=10)]
    session = Session.load(write(tmp_path / "s.jsonl", *items, compaction, edit, *after))
    calls = []
    real_walk, real_resolve_path = Session.path_below, context_cache.resolve_path
    monkeypatch.setattr(Session, "path_below", lambda session, key, known: calls.append(("walked", key)) or real_walk(session, key, known))
    monkeypatch.setattr(context_cache, "resolve_path", lambda key, path: calls.append(("known path", key)) or real_resolve_path(key, path))
    cache = ContextCache(session)
    cache.resolve("m1")
    cache.resolve("m3")  # down from m1: no barrier between
    cache.resolve("m2")  # up from m3
    cache.resolve("m0")
    assert calls == [("walked", "m1"), ("known path", "m1")]
    cache.resolve("a1")  # past the compaction and the edit: resolved over the path walked so far
    cache.resolve("a0")  # up again: a1's context is cut
    cache.resolve("c")  # above the edit
    assert calls == [("walked", "m1"), ("known path", "m1"), ("known path", "a1"), ("known path", "c")]
    for key in session.entries:
        assert shape(cache.resolve(key)) == shape(resolve(session, key))


def test_a_step_up_from_a_kept_context_cuts_it(tmp_path, monkeypatch):
    branch = [message("b1", "m0", "user", second=20), message("b2", "b1", "assistant", second=21)]
    session = Session.load(write(tmp_path / "s.jsonl", *chain(6), *branch))
    cache = ContextCache(session)
    cache.resolve("b2")  # resolved in full: the spine
    cache.resolve("m5")  # from the spine, cut at m0 and walked down: kept, not the spine
    built = []
    real_extended = context_cache._extended
    monkeypatch.setattr(context_cache, "_extended", lambda *args: built.append(args[1]) or real_extended(*args))
    for key in ("m4", "m3"):  # ↑ twice: each a cut of the context just asked for
        assert shape(cache.resolve(key)) == shape(resolve(session, key))
        assert list(cache.provenance(key).items()) == list(path_provenance(resolve(session, key)).items())
    assert built == []


def test_a_far_branch_is_walked_up_only_to_the_spine(tmp_path, monkeypatch):
    far = context_cache._FARTHEST_WALK + 100  # beyond what a walk to a neighbour tries
    trunk = chain(100, "t")
    left = [message(f"a{i}", f"a{i - 1}" if i else "t99", "user", f"a {i}", second=200 + i) for i in range(far)]
    right = [message(f"b{i}", f"b{i - 1}" if i else "t50", "user", f"b {i}", second=2000 + i) for i in range(far)]
    compaction = entry("compaction", "c", "b9", 3000, summary="so far", firstKeptEntryId="b5", tokensBefore=10)
    session = Session.load(write(tmp_path / "s.jsonl", *trunk, *left, *right[:10], compaction, *[{**item, "parentId": "c"} if item["id"] == "b10" else item for item in right[10:]]))
    walks = []
    real_walk = Session.path_below
    monkeypatch.setattr(Session, "path_below", lambda session, key, known: walks.append(result := real_walk(session, key, known)) or result)
    cache = ContextCache(session)
    cache.resolve(f"a{far - 1}")  # the spine
    cache.resolve(f"b{far - 1}")  # far below the fork at t50
    assert [(place, len(below)) for place, below in walks] == [(-1, 100 + far), (50, far + 1)]
    keys = ["t10", "t50", "t99", "a3", f"a{far - 1}", "b2", "b9", "c", "b10", f"b{far // 2}", f"b{far - 1}"]
    for key in keys + keys[::-1]:
        assert shape(cache.resolve(key)) == shape(resolve(session, key)), key
        assert list(cache.provenance(key).items()) == list(path_provenance(resolve(session, key)).items()), key


def test_long_paths_keep_fewer_contexts_and_answer_the_same(tmp_path):
    session = Session.load(write(tmp_path / "s.jsonl", *chain(10)))
    keys = [item.id for item in session.file_order]
    cache = ContextCache(session, budget=15)
    cache.resolve(keys[9])
    cache.resolve(keys[8])  # 10 + 9 path entries: over the budget, the older one goes
    assert cache.get(keys[9]) is None and cache.get(keys[8]) is not None
    for key in (keys[2], keys[1]):  # 3 + 2 more: within it, all three stay
        cache.resolve(key)
    assert all(cache.get(key) is not None for key in (keys[8], keys[2], keys[1]))
    for key in reversed(keys):
        assert shape(cache.resolve(key)) == shape(resolve(session, key))
    lone = ContextCache(session, budget=1)
    assert shape(lone.resolve(keys[9])) == shape(resolve(session, keys[9]))
    assert lone.get(keys[9]) is not None  # the last one is kept whatever its length
