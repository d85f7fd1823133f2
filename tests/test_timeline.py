"""The context over time: pi's estimate at every entry of a path, from the fold along it."""

from __future__ import annotations

import json

import orjson
import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.fold.path_fold import PathFold
from pibrowser.model.tokens.stats import context_stats
from pibrowser.model.tokens.timeline import input_tokens

from .conftest import FIXTURES

WITH_ESTIMATES = sorted(FIXTURES.glob("*.estimates.json")) + sorted((FIXTURES / "bytes").glob("*.estimates.json"))


@pytest.mark.parametrize("answers", WITH_ESTIMATES, ids=[path.name.split(".")[0] for path in WITH_ESTIMATES])
def test_every_entry_is_pis_estimate(answers):
    """Each entry's row on the path to it, and on every longer path through it, is pi's answer."""
    expected = json.loads(answers.read_text())
    session = Session.load(answers.with_name(answers.name.replace(".estimates.json", ".jsonl")))
    assert set(expected) == set(session.entries)
    shared = folded(session)  # reused across selections, as the window does
    leaves = set(session.leaves())
    for index, leaf in enumerate(session.entries):
        rows = shared.rows(leaf)
        assert [row.id for row in rows] == session.path_to(leaf)
        assert {row.id: row.tokens_estimate for row in rows} == {row.id: expected[row.id] for row in rows}
        if index % 20 == 0 or leaf in leaves:  # a fold of its own for each would make this quadratic
            assert folded(session).rows(leaf) == rows


def folded(session: Session) -> PathFold:
    fold = PathFold(session)
    fold.fold_spine()
    return fold


def test_rows_say_what_each_entry_is():
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    rows = folded(session).rows(session.leaf_id)
    for row in rows:
        entry = session.entries[row.id]
        assert row.type == entry.type and row.compaction == (entry.type == "compaction")
        usage = entry.message.get("usage") if entry.type == "message" and entry.role == "assistant" else None
        expected = usage["input"] + usage["cacheRead"] + usage["cacheWrite"] if usage else None
        assert row.input_tokens == expected == input_tokens(entry)
    assert any(row.compaction for row in rows) and any(row.input_tokens for row in rows)


@pytest.mark.parametrize("name", ["generated-s4", "generated-s5", "blog-example"])
def test_at_compactions_the_header_shows_the_timeline_value(name):
    """The context header's estimate and the strip's are one function's answer, everywhere."""
    session = Session.load(FIXTURES / f"{name}.jsonl")
    timeline = folded(session)
    compactions = [entry.id for entry in session.file_order if entry.type == "compaction"]
    assert compactions
    for key in compactions + [entry.id for entry in session.file_order[::5]]:
        shown = context_stats(resolve(session, key)).pi_estimate.tokens
        assert timeline.rows(key)[-1].tokens_estimate == shown, key


def test_context_window_from_the_models_file(tmp_path):
    from pibrowser.model.library.context_window import context_window

    models = tmp_path / "models.json"
    models.write_bytes(
        orjson.dumps(
            {
                "providers": {
                    "anthropic": {"modelOverrides": {"claude-sonnet-4-5": {"contextWindow": 1_000_000}}},
                    "local": {"models": [{"id": "big", "contextWindow": 65536}, {"id": "plain"}]},
                }
            }
        )
    )
    assert context_window({"provider": "anthropic", "modelId": "claude-sonnet-4-5"}, models) == 1_000_000
    assert context_window({"provider": "local", "modelId": "big"}, models) == 65536
    assert context_window({"provider": "local", "modelId": "plain"}, models) == 128_000  # pi's default for a custom model
    assert context_window({"provider": "openai", "modelId": "gpt-5"}, models) is None  # built in: unknown here
    assert context_window(None, models) is None
    assert context_window({"provider": "local", "modelId": "big"}, tmp_path / "missing.json") is None


def test_the_fold_keeps_no_entry_parsed():
    """Reading a long path for its estimates must not leave every entry parsed in memory."""
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    parsed = {entry.id for entry in session.file_order if entry.is_parsed}  # loading parses a few kinds
    assert sum(entry.type == "message" for entry in session.file_order) > 500
    folded(session).rows(session.leaf_id)
    assert {entry.id for entry in session.file_order if entry.is_parsed} == parsed


def test_branch_points_are_entries_with_several_children():
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    forks = session.branch_points()
    assert forks == {key for key in session.entries if len(session.children(key)) > 1} and forks
