"""pi's /tree filter modes (model.tree_filter) against pi's own tree selector."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from pibrowser.model import Session
from pibrowser.model.session.content import has_text
from pibrowser.model.session.follow import read_appended
from pibrowser.model.session.jsonline import parse_line
from pibrowser.model.session.entry import Entry
from pibrowser.model.session.problems import NeedsReload
from pibrowser.model.js.value import js_truthy
from pibrowser.model.session.tree_filter import (
    PI_MODES,
    FilterMode,
    extend_visible,
    is_textless_reply,
    visible_tree,
)

from .conftest import session_file
from .sessions import HEADER, linked
from .sessions import write as write_lines

# What pi 1.6.0's tree selector shows for each fixture and mode, taken by running its
# TreeSelectorComponent on SessionManager.open(file).getTree(): the number of visible
# entries, and the first 16 hex digits of the SHA-256 of the sorted lines
# "id>nearest visible ancestor id" (empty for a visible root), joined with newlines.
# legacy-v1 gets random ids when migrated, so only its counts can be compared.
PI_SELECTOR = {
    "blog-example": {
        "default": (6, "b8ec8430fcd8a3c1"),
        "no-tools": (6, "b8ec8430fcd8a3c1"),
        "user-only": (1, "22e087202429ebba"),
        "labeled-only": (1, "22e087202429ebba"),
        "all": (12, "1747025ad256fb48"),
    },
    "generated-s1": {
        "default": (19, "00d9829eadc5e1ba"),
        "no-tools": (18, "98ac2775dbac03d4"),
        "user-only": (4, "2c6d4be53bfa44c4"),
        "labeled-only": (1, "60a87ae48044ed1a"),
        "all": (21, "cf051a5ae9e65667"),
    },
    "generated-s2": {
        "default": (60, "3910552d6113d2bd"),
        "no-tools": (55, "8bb4995b1bd6dd84"),
        "user-only": (22, "7382024b16362fa0"),
        "labeled-only": (0, "e3b0c44298fc1c14"),
        "all": (68, "a896796aa10018b7"),
    },
    "generated-s3": {
        "default": (143, "76dda19cb0940d23"),
        "no-tools": (131, "f054c5ca6415b06b"),
        "user-only": (48, "d32e28938ec3ac10"),
        "labeled-only": (7, "2a6180a28cdbe0dd"),
        "all": (175, "092ccc31979995cd"),
    },
    "generated-s4": {
        "default": (289, "4a051378d69d90e5"),
        "no-tools": (250, "f78165a60aa9fc37"),
        "user-only": (93, "8d875e6f99ce8609"),
        "labeled-only": (10, "94d88e7ffd946280"),
        "all": (340, "d93d85e8ea60ccc4"),
    },
    "generated-s5": {
        "default": (871, "55c580c3222c525d"),
        "no-tools": (779, "2a1be1c8c9a12822"),
        "user-only": (314, "e00230b324634c24"),
        "labeled-only": (37, "273b39f933fa3f20"),
        "all": (1039, "8ef7d17abcbecc31"),
    },
    "legacy-v1": {
        "default": (720, "3e5345c030f2b64d"),
        "no-tools": (347, "d0c117fec8dcc63d"),
        "user-only": (88, "7930d3ff0d7e63c1"),
        "labeled-only": (0, "e3b0c44298fc1c14"),
        "all": (824, "c8649524349b8acb"),
    },
    "demo-session": {
        "default": (72, "a83d2027f179931f"),
        "no-tools": (41, "c4ac68d101d7a4dd"),
        "user-only": (13, "2751657010658316"),
        "labeled-only": (2, "a1fc9e564fee38e3"),
        "all": (87, "67a5decaa5ed6084"),
    },
}


def _digest(tree) -> str:
    pairs = sorted((key, tree.parent[key] or "") for key in tree.order)
    return hashlib.sha256("\n".join(f"{a}>{b}" for a, b in pairs).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(PI_SELECTOR))
@pytest.mark.parametrize("mode", [mode.value for mode in PI_MODES])
def test_same_entries_and_parents_as_pi_selector(name, mode):
    session = Session.load(session_file(name))
    tree = visible_tree(session, mode)
    count, digest = PI_SELECTOR[name][mode]
    assert len(tree) == count
    if name != "legacy-v1":
        assert _digest(tree) == digest


# ---- small sessions written for one rule each -------------------------------------------


def write(tmp_path: Path, entries: list[dict], name: str = "s.jsonl") -> Session:
    """Entries get ids e0, e1, … and, unless given, the previous entry as parent."""
    return Session.load(write_lines(tmp_path / name, *linked(entries)))


def user(text="hi", **extra):
    return {"type": "message", "message": {"role": "user", "content": text}, **extra}


def assistant(content, stop="stop", **extra):
    message = {"role": "assistant", "content": content}
    if stop is not None:
        message["stopReason"] = stop
    return {"type": "message", "message": message, **extra}


TOOL_CALL = [{"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "ls"}}]


def shown(session: Session, mode=FilterMode.DEFAULT) -> list[str]:
    return visible_tree(session, mode).order


def test_usage_is_hidden_in_every_pi_mode_but_shown_in_every_entry(tmp_path):
    session = write(tmp_path, [user(), {"type": "usage", "kind": "x", "provider": "p", "model": "m", "usage": {}}, user()])
    for mode in PI_MODES:
        assert "e1" not in shown(session, mode)
    assert "e1" in shown(session, FilterMode.EVERY_ENTRY)


def test_tool_call_only_assistant_is_hidden_unless_current_leaf(tmp_path):
    session = write(tmp_path, [user(), assistant(TOOL_CALL, stop="toolUse"), user(), assistant(TOOL_CALL, stop="toolUse")])
    assert shown(session, FilterMode.ALL) == ["e0", "e2", "e3"]  # e3 is the last entry: the current leaf


def test_assistant_errors_and_aborts_stay_visible_without_text(tmp_path):
    session = write(
        tmp_path,
        [
            user(),
            assistant(TOOL_CALL, stop="error"),
            assistant([], stop="aborted"),
            assistant([], stop="length"),
            assistant([], stop=None),
            user(),
        ],
    )
    assert shown(session) == ["e0", "e1", "e2", "e3", "e5"]


def test_blank_text_counts_as_no_text(tmp_path):
    session = write(
        tmp_path,
        [
            user(),
            assistant([{"type": "text", "text": " \n\t\u3000"}]),  # JS trim strips the ideographic space
            assistant("   "),
            assistant([{"type": "text", "text": "\x1c"}]),  # JS trim keeps U+001C, Python's strip would not
            assistant([{"type": "thinking", "thinking": "deep"}, {"type": "text", "text": "ok"}]),
            user(),
        ],
    )
    assert shown(session) == ["e0", "e3", "e4", "e5"]


@pytest.mark.parametrize(
    "mode, expected",
    [
        (FilterMode.DEFAULT, ["e0", "e1", "e2", "e9", "e10"]),
        (FilterMode.NO_TOOLS, ["e0", "e1", "e9", "e10"]),
        (FilterMode.USER_ONLY, ["e0"]),
        (FilterMode.LABELED_ONLY, ["e1"]),
        (FilterMode.ALL, ["e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10"]),
    ],
)
def test_each_mode_keeps_what_pi_keeps(tmp_path, mode, expected):
    session = write(
        tmp_path,
        [
            user(),  # e0
            assistant([{"type": "text", "text": "answer"}]),  # e1, labeled by e3
            {"type": "message", "message": {"role": "toolResult", "toolCallId": "c", "toolName": "bash", "content": []}},  # e2
            {"type": "label", "targetId": "e1", "label": "good"},  # e3
            {"type": "model_change", "provider": "p", "modelId": "m"},  # e4
            {"type": "thinking_level_change", "thinkingLevel": "high"},  # e5
            {"type": "custom", "customType": "ext"},  # e6
            {"type": "session_info", "name": "n"},  # e7
            {"type": "context_edit", "targetId": "e0", "replacement": None},  # e8
            {"type": "compaction", "summary": "s", "firstKeptEntryId": "e0", "tokensBefore": 1},  # e9
            {"type": "branch_summary", "fromId": "e0", "summary": "b"},  # e10
        ],
    )
    assert shown(session, mode) == expected


def test_cleared_label_no_longer_counts_as_labeled(tmp_path):
    session = write(tmp_path, [user(), {"type": "label", "targetId": "e0", "label": "x"}, {"type": "label", "targetId": "e0"}, user()])
    assert shown(session, FilterMode.LABELED_ONLY) == []


def test_hidden_entries_are_spliced_out_keeping_child_order(tmp_path):
    # e0 user → e1 model_change (hidden) → children e2, e3 (user, user), e3 → e4 label (hidden) → e5 user
    session = write(
        tmp_path,
        [
            user(),
            {"type": "model_change", "provider": "p", "modelId": "m"},
            user("a"),
            user("b", parentId="e1"),
            {"type": "label", "targetId": "e0", "label": "x"},
            user("c"),
        ],
    )
    tree = visible_tree(session)
    assert tree.roots == ["e0"]
    assert tree.kids("e0") == ["e2", "e3"]
    assert tree.parent["e5"] == "e3"
    assert tree.siblings("e3") == ["e2", "e3"]
    assert tree.root_of("e5") == "e0"
    assert tree.hidden == 2
    assert tree.nearest_visible(session, "e4") == "e3"
    assert tree.nearest_visible(session, "e1") == "e0"


def test_a_hidden_root_promotes_its_children_to_roots(tmp_path):
    session = write(tmp_path, [{"type": "model_change", "provider": "p", "modelId": "m"}, user("a"), user("b", parentId="e0")])
    tree = visible_tree(session)
    assert tree.roots == ["e1", "e2"]
    assert tree.nearest_visible(session, "e0") is None


def test_deep_chain_does_not_recurse(tmp_path):
    count = 30_000
    lines = [json.dumps(HEADER)]
    for index in range(count):
        parent = f'"e{index - 1}"' if index else "null"
        role = "user" if index % 3 else "toolResult"
        lines.append(
            f'{{"type":"message","id":"e{index}","parentId":{parent},"timestamp":"2026-01-01T00:00:00.000Z","message":{{"role":"{role}","content":"x"}}}}'
        )
    path = tmp_path / "deep.jsonl"
    path.write_text("\n".join(lines) + "\n")
    session = Session.load(path)
    tree = visible_tree(session, FilterMode.NO_TOOLS)
    assert len(tree) == count - (count + 2) // 3
    assert tree.parent["e2"] == "e1" and tree.parent["e4"] == "e2"


# ---- deciding from the unparsed line must agree with parsing it ----------------------------


def _by_parsing(raw: bytes) -> bool:
    message = parse_line(raw)[0]["message"]
    if not isinstance(message, dict):
        return False
    if has_text(message.get("content")):
        return False
    stop = message.get("stopReason")
    return not (js_truthy(stop) and stop not in ("stop", "toolUse"))


def _unparsed(raw: bytes) -> Entry:
    return Entry("a1", None, "message", "2026-01-01T00:00:00.000Z", "assistant", 2, raw=raw)


PREFIX = '{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":'
DECODED_CASES = [
    # pi's own shapes
    (PREFIX + '{"role":"assistant","content":[{"type":"text","text":"hello"}],"stopReason":"stop"}}', False),
    (
        PREFIX
        + '{"role":"assistant","content":[{"type":"thinking","thinking":"a \\"quoted\\" \\\\ thought","thinkingSignature":"x"},{"type":"text","text":"ok"}]}}',
        False,
    ),
    (
        PREFIX
        + '{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"bash","arguments":{"command":"ls"}}],"stopReason":"toolUse"}}',
        True,
    ),
    (PREFIX + '{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"bash","arguments":{}}]}}', True),
    # shapes where a quick look could be fooled
    (
        PREFIX
        + '{"role":"assistant","content":[{"type":"thinking","thinking":"\\"},{\\"type\\":\\"text\\",\\"text\\":\\"x"},{"type":"toolCall","id":"c","name":"n","arguments":{}}]}}',
        True,
    ),
    (PREFIX + '{"role":"assistant","content":[{"type":"text","text":" "}],"stopReason":"stop"}}', True),
    (PREFIX + '{"role":"assistant","content":[{"type":"text","text":"\\u3000\\ufeff\\u00a0\\n"}]}}', True),
    (PREFIX + '{"role":"assistant","content":[{"type":"text","text":"\\u0085"}]}}', False),  # not white space to JS
    (PREFIX + '{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"n","arguments":{"type":"text","text":"x"}}]}}', True),
    (PREFIX + '{"role":"assistant","content":[{"type" : "text", "text" : "spaced"}]}}', False),
    (PREFIX + '{"role":"assistant","content":[{"\\u0074ype":"text","text":"escaped key"}]}}', False),
    (PREFIX + '{"role":"assistant","content":"plain string"}}', False),
    (PREFIX + '{"role":"assistant","content":"  "}}', True),
    (PREFIX + '{"role":"assistant","content":[],"stopReason":"error"}}', False),
    (PREFIX + '{"role":"assistant","content":[],"stopReason":""}}', True),
    (PREFIX + '{"role":"assistant","content":[],"stopReason":7}}', False),
    (PREFIX + '{"role":"assistant","content":[],"stopReason":0}}', True),
    (PREFIX + '{"role":"assistant","content":[],"stopReason":[]}}', False),  # an empty array is truthy to JS
    (PREFIX + '{"role":"assistant","content":[],"stopReason":null}}', True),
    (
        PREFIX
        + '{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"n","arguments":{"stopReason":"stop"}}],"stopReason":"aborted"}}',
        False,
    ),
    (
        PREFIX + '{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"n","arguments":{"message":{"stopReason":"error"}}}]}}',
        True,
    ),
    # repeated keys: the last one counts, as in JSON.parse
    (PREFIX + '{"role":"assistant","content":[{"type":"text","text":"shown"}],"content":[]}}', True),
    (PREFIX + '{"role":"assistant","content":[],"content":[{"type":"text","text":"shown"}]}}', False),
    (PREFIX + '{"role":"assistant","content":[{"type":"text","text":"x","type":"image"}]}}', True),
    (PREFIX + '{"role":"assistant","content":[],"stopReason":"error","stopReason":"stop"}}', True),
    (PREFIX + '{"role":"assistant","content":[{"type":"text","text":"x"}]},"message":{"role":"assistant","content":[]}}', True),
    (PREFIX + '{"role":"assistant","content":[{"type":"text","text":7}]}}', True),
    (PREFIX + '{"role":"assistant"}}', True),
]
# What the partial decoding cannot hold: read by parsing.
PARSED_CASES = [
    (PREFIX + '{"role":"assistant","content":{"type":"text","text":"x"}}}', True),
    (PREFIX + '{"role":"assistant","content":[1,{"type":"text","text":"x"}]}}', False),
    (PREFIX + '{"role":"assistant","content":[{"type":"text","text":"\\ud800"}]}}', False),  # a lone surrogate
    (PREFIX + '"not an object"}', False),
]
RAW_CASES = DECODED_CASES + PARSED_CASES


@pytest.mark.parametrize("raw, silent", RAW_CASES)
def test_unparsed_line_check_agrees_with_parsing(raw, silent):
    data = raw.encode()
    assert _by_parsing(data) is silent  # the case says what it means
    entry = _unparsed(data)
    assert is_textless_reply(entry) is silent
    assert entry.is_parsed is ((raw, silent) in PARSED_CASES)  # decoded without building the line, where it can be


def test_loading_learns_the_same_answers_while_it_has_the_lines(tmp_path):
    # The skim decides each assistant line while it holds the bytes; the filter then reads none back.
    lines = [json.dumps(HEADER)]
    for index, (raw, _) in enumerate(RAW_CASES):
        lines.append(raw.replace('"id":"a1","parentId":null', f'"id":"a{index}","parentId":null'))
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n")
    session = Session.load(path)
    for index, (raw, silent) in enumerate(RAW_CASES):
        entry = session.entries[f"a{index}"]
        assert entry.textless is (None if (raw, silent) in PARSED_CASES else silent), raw
        assert is_textless_reply(entry) is silent, raw


@pytest.mark.parametrize("where", ["thinking", "text"])
def test_invalid_utf8_is_read_as_pi_reads_it(where):
    # pi decodes the file with replacement characters; a bad byte in a block's text still leaves text.
    block = (
        '{"type":"thinking","thinking":"\xff"},{"type":"toolCall","id":"c","name":"n","arguments":{}}'
        if where == "thinking"
        else '{"type":"text","text":"\xff"}'
    )
    data = (PREFIX + '{"role":"assistant","content":[' + block + "]}}").encode("latin-1")
    assert is_textless_reply(_unparsed(data)) is _by_parsing(data) is (where == "thinking")


def test_the_check_settles_pis_common_shapes_without_parsing(tmp_path):
    lines = [json.dumps(HEADER)] + [case for case, _ in RAW_CASES[:4]]
    for index in range(1, len(lines)):
        lines[index] = lines[index].replace(
            '"id":"a1","parentId":null', f'"id":"a{index}","parentId":{json.dumps(f"a{index - 1}") if index > 1 else "null"}'
        )
    lines[1] = lines[1].replace('"hello"', json.dumps("hello " + "x" * 20000))
    path = tmp_path / "raw.jsonl"
    path.write_text("\n".join(lines) + "\n")
    session = Session.load(path)
    assert [is_textless_reply(session.entries[f"a{index}"]) for index in range(1, 5)] == [False, False, True, True]
    assert not any(entry.is_parsed for entry in session.entries.values())  # loading skims; the check keeps nothing


# ---- following appends in place -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["generated-s3", "generated-s4", "demo-session", "blog-example"])
def test_extending_in_place_matches_a_rebuild(tmp_path, name):
    rnd = random.Random(name)
    lines = session_file(name).read_bytes().split(b"\n")
    path = tmp_path / "grow.jsonl"
    extended = 0
    for _ in range(12):
        cut = rnd.randrange(2, len(lines) - 1)
        path.write_bytes(b"\n".join(lines[:cut]) + b"\n")
        session = Session.load(path)
        trees = {mode: visible_tree(session, mode) for mode in FilterMode}
        old_leaf = session.leaf_id
        path.write_bytes(b"\n".join(lines[: cut + rnd.randint(1, 10)]) + b"\n")
        try:
            added = [entry.id for entry in read_appended(session)]
        except NeedsReload:
            continue
        for mode, tree in trees.items():
            if extend_visible(tree, session, added, old_leaf):
                extended += 1
                fresh = visible_tree(session, mode)
                assert (tree.order, tree.roots, tree.children, tree.parent, tree.hidden) == (
                    fresh.order,
                    fresh.roots,
                    fresh.children,
                    fresh.parent,
                    fresh.hidden,
                ), (cut, mode)
    assert extended > 0, "appends at the ends of branches are handled in place"


def test_the_old_leaf_loses_the_current_leaf_exemption(tmp_path):
    session = write(tmp_path, [user(), assistant(TOOL_CALL, stop="toolUse")])
    tree = visible_tree(session)
    assert tree.order == ["e0", "e1"]  # shown as the current leaf
    with session.path.open("a") as out:
        out.write(
            json.dumps(
                {
                    "type": "message",
                    "id": "e2",
                    "parentId": "e1",
                    "timestamp": "2026-01-01T00:01:00.000Z",
                    "message": {"role": "toolResult", "toolCallId": "c1", "toolName": "bash", "content": []},
                }
            )
            + "\n"
        )
    added = [entry.id for entry in read_appended(session)]
    assert extend_visible(tree, session, added, "e1")
    assert tree.order == ["e0", "e2"] and tree.parent["e2"] == "e0"


# ---- the visible parents, kept without an entry per visible entry ------------------------------------


def nearest_visible_parents(session, tree):
    """Every visible entry's nearest visible ancestor, worked out the long way."""
    shown = set(tree.order)
    answer = {}
    for key in shown:
        above = session.parent(key)
        while above is not None and above not in shown:
            above = session.parent(above)
        answer[key] = above
    return answer


@pytest.mark.parametrize("name", ["generated-s4", "demo-session", "legacy-v1"])
@pytest.mark.parametrize("mode", list(FilterMode))
def test_visible_parents_read_like_a_map_of_every_visible_entry(name, mode):
    session = Session.load(session_file(name))
    tree = visible_tree(session, mode)
    expected = nearest_visible_parents(session, tree)
    assert dict(tree.parent) == expected and len(tree.parent) == len(expected) == len(tree.order)
    assert tree.hidden == len(session.entries) - len(expected)
    for key in session.entries:
        assert (key in tree) == (key in expected)
        assert tree.parent.get(key, "none") == expected.get(key, "none")
    assert "no such entry" not in tree and tree.parent.get("no such entry") is None
    for key in ["no such entry", *(key for key in session.entries if key not in expected)][:5]:
        with pytest.raises(KeyError):
            tree.parent[key]
    roots = set(tree.roots)
    for key in list(expected)[::7]:
        assert tree.root_of(key) in roots
        assert tree.root_of(key) in session.path_to(key) or "" in session.entries


def test_appended_entries_are_not_visible_until_the_tree_takes_them_in(tmp_path):
    session = write(tmp_path, [user(), assistant([{"type": "text", "text": "ok"}]), user("more")])
    tree = visible_tree(session)
    with session.path.open("a") as out:
        for key, parent, text in (("n1", "e2", "a"), ("n2", "n1", "b")):
            out.write(
                json.dumps(
                    {
                        "type": "message",
                        "id": key,
                        "parentId": parent,
                        "timestamp": "2026-01-01T00:01:00.000Z",
                        "message": {"role": "user", "content": text},
                    }
                )
                + "\n"
            )
    added = [entry.id for entry in read_appended(session)]
    assert "n1" in session.entries and "n1" not in tree and len(tree) == 3
    assert extend_visible(tree, session, added, "e2")
    assert "n2" in tree and tree.parent["n2"] == "n1" and tree.parent["n1"] == "e2" and len(tree) == 5
    assert tree.root_of("n2") == "e0"


def test_visible_parents_under_a_parent_id_of_the_empty_string(tmp_path):
    # pi links parentId "" to an entry with id "", though its path walk stops there.
    entries = linked([user("a"), assistant(TOOL_CALL, stop="toolUse"), user("b")])
    entries[1]["id"], entries[2]["parentId"] = "", ""
    session = Session.load(write_lines(tmp_path / "s.jsonl", *entries))
    tree = visible_tree(session)
    assert dict(tree.parent) == nearest_visible_parents(session, tree) == {"e0": None, "e2": "e0"}
    assert tree.root_of("e2") == "e0" and session.path_to("e2") == ["e2"]  # the path stops, the tree does not
