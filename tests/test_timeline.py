"""The context over time: pi's estimate at every entry of a path, walked incrementally."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pibrowser.model import Session, resolve
from pibrowser.model.tokens.context_estimate import projected_context_tokens
from pibrowser.model.tokens.stats import context_stats
from pibrowser.model.tokens import timeline as timeline_module
from pibrowser.model.tokens.timeline import Timeline, WalkStopped, input_tokens

from .conftest import FIXTURES, examples
from .sessions import HEADER

WITH_ESTIMATES = sorted(FIXTURES.glob("*.estimates.json")) + sorted((FIXTURES / "bytes").glob("*.estimates.json"))


@pytest.mark.parametrize("answers", WITH_ESTIMATES, ids=[path.name.split(".")[0] for path in WITH_ESTIMATES])
def test_every_entry_is_pis_estimate(answers):
    """Each entry's row on the path to it, and on every longer path through it, is pi's answer."""
    expected = json.loads(answers.read_text())
    session = Session.load(answers.with_name(answers.name.replace(".estimates.json", ".jsonl")))
    assert set(expected) == set(session.entries)
    shared = Timeline(session)  # reused across selections, as the window does
    for leaf in session.entries:
        rows = shared.rows(leaf)
        assert [row.id for row in rows] == session.path_to(leaf)
        assert {row.id: row.tokens_estimate for row in rows} == {row.id: expected[row.id] for row in rows}
        fresh = Timeline(session).rows(leaf)
        assert fresh == rows


def test_rows_say_what_each_entry_is():
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    rows = Timeline(session).rows(session.leaf_id)
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
    timeline = Timeline(session)
    compactions = [entry.id for entry in session.file_order if entry.type == "compaction"]
    assert compactions
    for key in compactions + [entry.id for entry in session.file_order[::5]]:
        shown = context_stats(resolve(session, key)).pi_estimate.tokens
        assert timeline.rows(key)[-1].tokens_estimate == shown, key


# ---- random sessions: the walk equals pi's rule applied to each leaf afresh ------------------

KINDS = ["user", "assistant", "assistant", "system", "toolResult", "compaction", "context_edit", "label", "branch_summary", "custom_message"]


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
            item["message"] = {"role": kind, "content": draw(st.sampled_from([text, [{"type": "text", "text": text}], [{"type": "image"}]]))}
        elif kind == "assistant":
            usage = draw(st.sampled_from([None, {"input": 5, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 6}, {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}, {"input": 3, "cacheRead": 40}]))
            item["message"] = {"role": "assistant", "content": [{"type": "text", "text": text}], **({"usage": usage} if usage else {})}
            item["message"]["stopReason"] = draw(st.sampled_from(["stop", "stop", "error", "aborted"]))
        elif kind == "system":
            item["message"] = {"role": "system", "content": text, **draw(st.sampled_from([{}, {"sections": {"a": text}}, {"toolsAdded": [{"name": "t"}]}]))}
        elif kind == "compaction":
            item.update(type="compaction", summary=text, firstKeptEntryId=target, tokensBefore=1)
            if draw(st.booleans()):
                item["systemMessage"] = {"role": "system", "content": "p" + text, "timestamp": 1}
        elif kind == "context_edit":
            item.update(type="context_edit", targetId=target, replacement=draw(st.sampled_from([None, {"content": "r" * 9}, {"content": [{"type": "text", "text": "rr"}]}])))
        elif kind == "label":
            item.update(type="label", targetId=target, label="a")
        elif kind == "branch_summary":
            item.update(type="branch_summary", fromId=target, summary=text)
        else:
            item.update(type="custom_message", customType="c", content=text, display=True)
        lines.append(orjson.dumps(item))
    return b"\n".join(lines) + b"\n"


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=sessions())
def test_walk_equals_pis_rule_at_every_entry(tmp_path, data):
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    session = Session.load(path)
    shared = Timeline(session)
    for leaf in session.entries:
        expected = [projected_context_tokens(resolve(session, key)).tokens for key in session.path_to(leaf)]
        assert [row.tokens_estimate for row in shared.rows(leaf)] == expected


def test_context_window_from_the_models_file(tmp_path):
    from pibrowser.model.sessions.context_window import context_window

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


def test_walk_keeps_no_entry_parsed():
    """Reading a long path for its estimates must not leave every entry parsed in memory."""
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    parsed = {entry.id for entry in session.file_order if entry.is_parsed}  # loading parses a few kinds
    assert sum(entry.type == "message" for entry in session.file_order) > 500
    Timeline(session).rows(session.leaf_id)
    assert {entry.id for entry in session.file_order if entry.is_parsed} == parsed


def test_branch_points_are_entries_with_several_children():
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    forks = session.branch_points()
    assert forks == {key for key in session.entries if len(session.children(key)) > 1} and forks


def test_a_stopped_walk_keeps_its_rows_and_the_next_one_gives_the_same_answer(monkeypatch):
    monkeypatch.setattr(timeline_module, "YIELD_EVERY", 4)
    session = Session.load(FIXTURES / "generated-s5.jsonl")
    leaf = max(session.leaves(), key=lambda key: len(session.path_to(key)))
    asked = []
    stopped = Timeline(session)
    with pytest.raises(WalkStopped):
        stopped.rows(leaf, in_background=True, stop=lambda: asked.append(1) or len(asked) > 3)
    assert 0 < sum(stopped.has(key) for key in session.path_to(leaf)) < len(session.path_to(leaf))
    assert stopped.rows(leaf, in_background=True) == Timeline(session).rows(leaf)
    # Not in the background, nothing asks: the answer comes whatever `stop` says.
    assert Timeline(session).rows(leaf, stop=lambda: True) == Timeline(session).rows(leaf)
