"""The rows of the context panel, taken over from the context shown before: the same as built afresh."""

import random

import pytest

from pibrowser.model import Session, path_provenance, resolve
from pibrowser.model.fold.path_fold import PathFold
from pibrowser.model.tokens.stats import context_stats
from pibrowser.ui.context.message_items import ContextInfo, context_info

from ..conftest import DEMO, FIXTURES


def same_info(a: ContextInfo, b: ContextInfo) -> None:
    assert a.items == b.items
    assert [item.index for item in a.by_index] == list(range(len(a.context.messages)))
    assert a.by_index == b.by_index
    assert (a.results, a.calls, a.dropped_results) == (b.results, b.calls, b.dropped_results)
    assert a.summarized == b.summarized
    assert (a.parts, a.item_ends, a.message_ends) == (b.parts, b.item_ends, b.message_ends)


@pytest.mark.parametrize(
    "path",
    [FIXTURES / "generated-s4.jsonl", FIXTURES / "generated-s5.jsonl", FIXTURES / "legacy-v1.jsonl", DEMO],
    ids=lambda path: path.stem,
)
def test_rows_taken_over_along_paths_and_across_branches_equal_rows_built_afresh(path):
    session = Session.load(path)
    contexts = PathFold(session)
    # ↑ from every leaf (60 steps at most: each is checked against a full resolve), then jumps.
    keys = [key for leaf in session.leaves() for key in list(reversed(session.path_to(leaf)))[:60]]
    keys += random.Random(3).sample([entry.id for entry in session.file_order], min(40, len(session.file_order)))
    previous = None
    taken_over = 0
    for key in keys:
        context = contexts.context(key)
        tokens = context_stats(context).message_tokens
        info = context_info(context, path_provenance(context), tokens, previous)
        fresh = resolve(session, key)
        same_info(info, context_info(fresh, path_provenance(fresh), tokens))
        taken_over += previous is not None and bool(info.items) and bool(previous.items) and info.items[0] is previous.items[0]
        previous = info
    assert taken_over > len(keys) // 2  # most steps took rows over rather than building them all


def test_rows_are_taken_over_from_a_context_resolved_apart():
    # Two resolves project the same entries into objects of their own: the rows still carry over.
    session = Session.load(FIXTURES / "legacy-v1.jsonl")
    leaf = session.leaf_id
    parent = session.parent(leaf)
    apart = resolve(session, leaf)
    previous = context_info(apart, path_provenance(apart), context_stats(apart).message_tokens)
    context = PathFold(session).context(parent)
    assert context.entries[0] is not apart.entries[0]
    info = context_info(context, path_provenance(context), context_stats(context).message_tokens, previous)
    assert info.items[0] is previous.items[0] and info.items[-1] is previous.items[len(info.items) - 1]
    fresh = resolve(session, parent)
    same_info(info, context_info(fresh, path_provenance(fresh), context_stats(fresh).message_tokens))
