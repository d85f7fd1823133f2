"""The fold's answers against the full statement, node by node: shared by the fold's tests and the
check on sessions pi writes (test_against_pi)."""

from __future__ import annotations

import random

from pibrowser.model import Session, path_provenance, resolve
from pibrowser.model.context.provenance import parts_runs, path_parts, provenance_along
from pibrowser.model.fold.path_fold import PathFold
from pibrowser.model.tokens.composition import GROUPS, context_composition
from pibrowser.model.tokens.context_estimate import projected_context_tokens
from pibrowser.model.tokens.stats import context_stats
from pibrowser.model.tokens.timeline import TimelineRow, input_tokens
from pibrowser.model.tokens.usage import path_usage


def shape(context):
    """Everything a context says, comparable (the entries by id: the fold may hold other objects)."""
    return (
        context.leaf,
        [item.id for item in context.path],
        context.compaction.id if context.compaction is not None else None,
        [(item.entry.id, item.messages, item.edit.id if item.edit else None, item.original) for item in context.entries],
        context.messages,
        context.thinking_level,
        context.model,
    )


def orders(session: Session, seed: int = 7) -> dict[str, list[str]]:
    """Ways a user meets the nodes: in file order, backwards, at random, and down and up paths (↓ ↑)."""
    keys = list(session.entries)
    shuffled = keys[:]
    random.Random(seed).shuffle(shuffled)
    walks = []
    for leaf in session.leaves()[:5]:
        path = session.path_to(leaf)
        walks += path + path[::-1]
    return {"file order": keys, "reversed": keys[::-1], "shuffled": shuffled, "walks": walks}


def assert_same_provenance(provenance, plain: dict, key: str) -> None:
    """A provenance (the fold's keeps its summarized prefix as a count) answers as the plain map does."""
    assert list(provenance.items()) == list(plain.items()), key
    assert len(provenance) == len(plain) and list(reversed(provenance.values())) == list(reversed(plain.values())), key
    assert all(provenance.get(other) is plain.get(other) or provenance.get(other) == plain.get(other) for other in [*plain, "ghost"]), key
    assert path_parts(provenance) == path_parts(plain), key
    keys = list(plain)
    for start in (0, len(keys) // 3, len(keys) - 1):  # a path's stretches down to its end, looked up at once
        stretch = keys[start:]
        assert provenance_along(provenance, stretch) == [plain.get(other) for other in stretch], key
    for start in range(0, len(keys), max(1, len(keys) // 7)):  # stretches of the path, as folds hold them
        stretch = keys[start : start + max(1, len(keys) // 3)]
        assert parts_runs(stretch, provenance) == parts_runs(stretch, dict(plain)), key


def expected_row(session: Session, key: str, full_context) -> TimelineRow:
    entry = session.entries[key]
    return TimelineRow(
        key, entry.type, projected_context_tokens(full_context).tokens, input_tokens(entry.transient()), entry.type == "compaction"
    )


class Full:
    """The full statement's answers for one node, worked out from its own path (a pass over the
    path each): kept per session, so a node asked in several orders is worked out once."""

    def __init__(self, session: Session, key: str) -> None:
        full = resolve(session, key)
        self.context = full
        self.shape = shape(full)
        self.provenance = path_provenance(full)
        self.usage = path_usage(full.path).total
        self.estimate = projected_context_tokens(full)
        self.stats = context_stats(full)
        self.row = expected_row(session, key, full)
        groups = context_composition(full).groups()
        self.composition = [groups.get(group, 0) for group, _ in GROUPS]


_FULL: dict[tuple[int, str], tuple[Session, Full]] = {}


def full_answers(session: Session, key: str) -> Full:
    kept = _FULL.get((id(session), key))
    if kept is None or kept[0] is not session:
        if len(_FULL) > 50_000:
            _FULL.clear()
        kept = _FULL[id(session), key] = (session, Full(session, key))
    return kept[1]


def within_budget(session: Session, keys: list[str], entries: int = 20_000) -> list[str]:
    """The first of `keys` whose paths together hold at most `entries` entries: the full statement
    reads a node's whole path, so a fixture of deep paths gets fewer nodes (at least one). Some
    hundred nodes of a deep fixture take seconds of the suite; the checks against pi walk more."""
    taken, total = [], 0
    for key in keys:
        total += len(session.path_to(key))
        if taken and total > entries:
            break
        taken.append(key)
    return taken


def assert_fold_equals_full(session: Session, keys: list[str], fold: PathFold | None = None, *, folded: bool = True) -> PathFold:
    """Every node of `keys`, asked in that order: the fold's context, settings, usage, estimate, stats,
    timeline row and composition equal those worked out in full from the node's own path."""
    fold = fold if fold is not None else PathFold(session)
    if folded:
        fold.fold_spine()
    for key in keys:
        full = full_answers(session, key)
        context = fold.context(key)
        assert shape(context) == full.shape, key
        assert (context.thinking_level, context.model) == (full.context.thinking_level, full.context.model), key
        assert_same_provenance(fold.provenance(key, context), full.provenance, key)
        figures = fold.figures(key)
        if not folded and figures is None:
            continue
        assert figures.usage == full.usage, key
        assert figures.estimate == full.estimate, key
        assert fold.stats(key, context) == full.stats, key
        assert fold.row(key) == full.row, key
        spine, depth = fold.locate(key)
        assert spine.composition(depth) == full.composition, key
    return fold
