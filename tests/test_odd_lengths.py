"""pi's estimate where a field it takes the `.length` of is a number, an object or `true` (NaN, mostly).

The answers are pi's own (tests/odd_lengths.py); test_against_pi asks pi again when it is here.
"""

from __future__ import annotations

import json
import math

import orjson

from pibrowser.model import Session, resolve
from pibrowser.model.context.system_prompt import current_system_message
from pibrowser.model.fold.path_fold import PathFold, path_rows
from pibrowser.model.js.value import js_string
from pibrowser.model.tokens.context_estimate import projected_context_tokens
from pibrowser.model.tokens.message_tokens import OddParts, estimate_tokens, js_estimate_tokens, message_parts, tokens_of
from pibrowser.model.tokens.stats import context_stats

from .cli_run import run
from .conftest import FIXTURES
from .odd_lengths import PI_ESTIMATES, write_odd_lengths


def said(tokens: object) -> str:
    assert isinstance(tokens, (int, float)) and not isinstance(tokens, bool), tokens
    return js_string(tokens)


def test_every_entry_is_estimated_as_pi_estimates_it(tmp_path):
    session = Session.load(write_odd_lengths(tmp_path), lazy=False)
    assert {key: said(projected_context_tokens(resolve(session, key)).tokens) for key in session.entries} == PI_ESTIMATES


def test_the_fold_reads_back_pis_figures_though_an_edit_takes_the_nan_away(tmp_path):
    # u2's text is a number (NaN from there on); e1 replaces u2's content, so pi counts a number again (23):
    # the fold must take the NaN back out of its sums, not carry it.
    session = Session.load(write_odd_lengths(tmp_path), lazy=False)
    fold = PathFold(session)
    fold.fold_spine()
    for key, text in PI_ESTIMATES.items():
        assert said(fold.row(key).tokens_estimate) == text, key
        assert said(fold.figures(key).estimate.tokens) == text, key
    for leaf in session.leaves():
        assert {row.id: said(row.tokens_estimate) for row in path_rows(session, leaf)} == {
            key: PI_ESTIMATES[key] for key in session.path_to(leaf)
        }


def test_each_messages_tokens_from_the_fold_are_the_contexts(tmp_path):
    session = Session.load(write_odd_lengths(tmp_path), lazy=False)
    fold = PathFold(session)
    fold.fold_spine()
    for key in session.entries:
        context = resolve(session, key)
        folded, direct = fold.stats(key, context), context_stats(context)
        assert list(map(said, folded.message_tokens)) == list(map(said, direct.message_tokens)), key
        assert said(folded.estimated_tokens) == said(direct.estimated_tokens), key
    assert any(math.isnan(tokens) for tokens in context_stats(resolve(session, "c1")).message_tokens)


def test_the_timeline_writes_nan_as_json_does(tmp_path):
    result = run("timeline", write_odd_lengths(tmp_path), "--leaf", "u3", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = {row["id"]: row["tokens_estimate"] for row in orjson.loads(result.stdout)}
    assert rows == {key: json.loads(PI_ESTIMATES[key]) if PI_ESTIMATES[key] != "NaN" else None for key in rows}
    assert rows["u2"] is None and rows["e1"] == 23


def test_a_message_of_odd_lengths_is_counted_as_javascript_counts_it():
    nan_text = {"role": "user", "content": [{"type": "text", "text": 123}]}
    parts = message_parts(nan_text)
    assert type(parts) is OddParts and sum(parts.values()) == 0 and math.isnan(tokens_of(parts))
    # an object's own length, then a string that concatenates: "62" characters
    odd = {"role": "assistant", "content": [{"type": "text", "text": {"length": 6}}, {"type": "thinking", "thinking": {"length": "2"}}]}
    assert estimate_tokens(odd) == 16
    # an empty object is truthy in JS: {}.length is undefined
    assert math.isnan(estimate_tokens({"role": "custom", "content": [{"type": "text", "text": {}}]}))
    # what would make pi throw counts as nothing: a missing text, a missing command
    assert estimate_tokens({"role": "assistant", "content": [{"type": "text"}, {"type": "text", "text": "abcd"}]}) == 1
    assert estimate_tokens({"role": "bashExecution", "output": "abcdefgh"}) == 2
    # a system message's sections that are a string (its characters), its tools an empty object ("{}")
    assert estimate_tokens({"role": "system", "content": "", "sections": "abcdef", "toolsAdded": {}}) == 2


def test_both_ways_of_counting_agree_on_every_fixture_message():
    """message_parts (the composition's, and the fast way) and the JavaScript transcription are one rule."""
    checked = 0
    for path in sorted(FIXTURES.glob("*.jsonl")):
        for context in resolve_all(Session.load(path, lazy=False)):
            for message in context.messages:
                assert js_estimate_tokens(message) == estimate_tokens(message), (path.name, message)
                checked += 1
    assert checked > 1000


def resolve_all(session: Session):
    return (resolve(session, leaf) for leaf in session.leaves())


def test_the_system_messages_fold_keys_tools_as_a_map_does():
    # Two names that are lists are two keys (a Map compares objects by identity); a string tool has no
    # name (undefined, one key); the same name again replaces in place. A list for a name was a TypeError.
    folded = current_system_message(
        [{"role": "system", "content": "x", "toolsAdded": [{"name": [1]}, {"name": [1]}, {"name": "a"}, {"name": "a", "v": 2}, "y", "zz"]}]
    )
    assert folded is not None
    assert folded["toolsAdded"] == [{"name": [1]}, {"name": [1]}, {"name": "a", "v": 2}, "zz"]
