"""What a context is made of, in pi's estimate: characters by kind add up to what pi counts."""

from __future__ import annotations

import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.tokens.context_estimate import folded_system_tokens, is_system
from pibrowser.model.tokens.composition import ROUNDING, composition_and_tokens, context_composition, group_of, kind_name, message_kinds
from pibrowser.model.tokens.message_tokens import estimate_chars, estimate_tokens, message_parts
from pibrowser.model.workspace import Workspace

from .conftest import DEMO, FIXTURES
from .sessions import linked, write


def test_each_message_splits_into_parts_that_add_up_to_pis_count():
    messages = [
        {
            "role": "system",
            "content": [{"type": "text", "text": "be brief"}, {"type": "image"}],
            "sections": {"a": "xy", "b": None, "c": ""},
            "toolsAdded": [{"name": "r"}],
        },
        {"role": "user", "content": [{"type": "text", "text": "hi 😀"}, {"type": "image", "data": "A"}, {"type": "text", "text": ""}]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "hmm"},
                {"type": "text", "text": "ok"},
                {"type": "toolCall", "name": "read", "arguments": {"path": "a"}},
            ],
        },
        {"role": "toolResult", "toolName": "read", "content": [{"type": "text", "text": "data"}, {"type": "image"}]},
        {"role": "toolResult", "content": "no name"},
        {"role": "custom", "content": "note"},
        {"role": "bashExecution", "command": "ls", "output": "a\nb", "excludeFromContext": True},
        {"role": "compactionSummary", "summary": "before"},
        {"role": "branchSummary", "summary": "elsewhere"},
    ]
    expected = [
        {"system_text": 8, "system_image": 4800, "system_sections": 2, "system_tools": 14},
        {"user_text": 5, "user_image": 4800},  # 😀 is two UTF-16 units; an empty text counts nothing
        {"thinking": 3, "assistant_text": 2, "tool_call:read": 4 + 12},  # name + JSON.stringify(arguments)
        {"tool_result:read": 4, "tool_result_image:read": 4800},
        {"tool_result:undefined": 7},
        {"custom_text": 4},
        {"bash_execution": 5},  # counted even when excluded from the context: pi's estimateTokens does
        {"compaction_summary": 6},
        {"branch_summary": 9},
    ]
    assert [{kind: chars for kind, chars in message_parts(m).items() if chars} for m in messages] == expected
    assert [estimate_chars(m) for m in messages] == [sum(parts.values()) for parts in expected]


def test_the_context_composition_adds_up_to_pis_estimate_with_the_rounding_as_a_share(tmp_path):
    items = linked(
        [
            {"role": "system", "content": "abc", "timestamp": 1},
            {"role": "user", "content": "hello", "timestamp": 2},  # 5 chars: 2 tokens, 0.75 of them rounding
            {
                "role": "assistant",
                "content": [{"type": "text", "text": "abcd"}],
                "provider": "p",
                "model": "m",
                "stopReason": "stop",
                "timestamp": 3,
            },
            {"role": "system", "content": "de", "timestamp": 4},  # folded with the first: "abc\n\nde"
        ]
    )
    session = Session.load(write(tmp_path / "s.jsonl", *items), lazy=False)
    composition = context_composition(resolve(session, "e3"))
    assert composition.chars == {"system_text": 7, "user_text": 5, "assistant_text": 4}
    assert composition.tokens == 2 + 2 + 1  # ceil(7/4) + ceil(5/4) + ceil(4/4)
    assert composition.rounding == 5 - 16 / 4
    assert composition.to_json() == {
        "system_text": {"chars": 7, "tokens": 1.75},
        "user_text": {"chars": 5, "tokens": 1.25},
        "assistant_text": {"chars": 4, "tokens": 1.0},
        ROUNDING: {"chars": 0, "tokens": 1.0},
    }
    assert composition.groups() == {"system": 7, "user": 5, "assistant": 4}


@pytest.mark.parametrize("name", ["generated-s5", "legacy-v1", "demo-session"])
def test_every_nodes_composition_is_pis_total_without_usage(name):
    # pi's chars/4 total: the folded system message plus every other message, each rounded up.
    path = DEMO if name == "demo-session" else FIXTURES / f"{name}.jsonl"
    session = Session.load(path, lazy=False)
    workspace = Workspace()  # what the window asks: each node's context and composition, folded along the paths
    workspace.replace(session)
    tokens: dict[int, tuple[object, int]] = {}  # a message on many paths is estimated once

    def tokens_of(message) -> int:
        done = tokens.get(id(message))
        if done is None or done[0] is not message:
            done = tokens[id(message)] = (message, estimate_tokens(message))
        return done[1]

    for entry in session.file_order:
        context = workspace.context(entry.id)
        composition = workspace.composition(entry.id)
        expected = folded_system_tokens(context.messages) + sum(tokens_of(m) for m in context.messages if not is_system(m))
        assert composition.tokens == expected
        if entry is session.file_order[-1]:  # the fold and the sums are the full statement's (tests/test_fold.py, test_workspace.py)
            assert composition == context_composition(resolve(session, entry.id))
        assert sum(tokens for _, _, tokens in composition.shares()) == composition.tokens


def test_kinds_read_as_people_say_them_and_fall_in_groups():
    assert kind_name("tool_result:read") == "Tool results: read"
    assert kind_name("thinking") == "Thinking"
    assert [
        group_of(kind) for kind in ("tool_call:bash", "tool_result_image:read", "user_image", "compaction_summary", "system_tools")
    ] == [
        "tool_call",
        "image",
        "image",
        "summary",
        "system",
    ]
    assert message_kinds({"role": "toolResult", "toolName": "bash", "content": [{"type": "text", "text": ""}]}) == set()


@pytest.mark.parametrize("name", ["generated-s5", "demo-session"])
def test_the_memo_gives_the_composition_stepping_along_paths(name):
    from pibrowser.model.fold.path_fold import PathFold
    from pibrowser.model.tokens.composition import CompositionMemo

    session = Session.load(DEMO if name == "demo-session" else FIXTURES / f"{name}.jsonl", lazy=False)
    memo, short, fold = CompositionMemo(), CompositionMemo(), PathFold(session)
    short.STRIDE = 3  # marks every third entry: a step resumes from one
    for leaf in session.leaves()[:20]:
        for key in session.path_to(leaf)[::3]:
            context = fold.context(key)  # contexts as the window gets them: a step shares what it kept
            expected = context_composition(context)
            assert memo.composition(context) == expected == short.composition(context), key


@pytest.mark.parametrize("name", ["generated-s5", "generated-s4", "demo-session", "blog-example"])
def test_the_fold_gives_each_entrys_composition_along_every_path(name):
    from pibrowser.model.fold.path_fold import PathFold
    from pibrowser.model.tokens.composition import GROUPS

    session = Session.load(DEMO if name == "demo-session" else FIXTURES / f"{name}.jsonl")
    fold = PathFold(session)
    fold.fold_spine()
    for leaf in session.leaves():  # the spine's, and branches folded from where they leave it
        along = fold.along(leaf, leaf)
        for depth, key in enumerate(session.path_to(leaf)):
            expected = context_composition(resolve(session, key)).groups()
            assert along.composition(depth) == [expected.get(group, 0) for group, _ in GROUPS], (leaf, key)


@pytest.mark.parametrize("name", sorted(path.stem for path in FIXTURES.glob("*.jsonl")) + ["demo-session"])
def test_one_walk_gives_the_composition_and_each_messages_estimate(name):
    # A long path's answers read each message's parts once for the composition and the stats.
    session = Session.load(DEMO if name == "demo-session" else FIXTURES / f"{name}.jsonl")
    for entry in session.file_order:
        context = resolve(session, entry.id)
        composition, tokens = composition_and_tokens(context)
        assert composition == context_composition(context), entry.id
        assert tokens == [estimate_tokens(message) for message in context.messages], entry.id
