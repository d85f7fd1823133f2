"""Usage summed and textless replies decided from unparsed lines (model/line_fields.py, via usage.py, tree_filter.py
and the skim) must equal what parsing gives, number types included."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pibrowser.model import Session
from pibrowser.model.session.entry import Entry
from pibrowser.model.session.jsonline import parse_line
from pibrowser.model.session.line_layout import entry_line, entry_object
from pibrowser.model.session.textless_replies import is_textless_reply
from pibrowser.model.tokens.usage import path_usage

from .conftest import session_file, examples
from .sessions import HEADER

HEAD = '{"type":"message","id":"a1","parentId":null,"timestamp":"2026-10-30T09:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hi"}]'
USAGE = '"usage":{"input":3,"output":4,"cacheRead":0,"cacheWrite":0,"totalTokens":7,"cost":{"input":0.1,"output":0.2,"cacheRead":0,"cacheWrite":0,"total":0.30000000000000004}}'
PI = ',"provider":"p","model":"m",'

LINES = [
    HEAD + PI + USAGE + ',"stopReason":"stop","timestamp":1}}',  # pi's own shape
    HEAD + ',"stopReason":"stop"}}',  # no usage at all
    HEAD + ',"usage":null}}',
    HEAD + ',"usage":[1,2]}}',
    HEAD + PI + USAGE + ',"details":{"nested":1}}}',
    HEAD + PI + USAGE[:-1] + ',"big":' + "1" * 5000 + "}}}",  # a long usage
    HEAD + PI + USAGE + ',"responseModel":"m-2026"}}',
    HEAD + PI + USAGE + ',"responseModel":""}}',
    HEAD + PI + USAGE + ',"responseModel":null}}',
    HEAD + PI + USAGE + ',"responseModel":0}}',
    HEAD
    + ',"provider":"early","model":"x","note":{"provider":"p","usage":{"input":99}},"provider2":1,"provider":"p","model":"m",'
    + USAGE
    + "}}",
    HEAD + "," + USAGE + "}}",  # no provider or model
    HEAD + ',"provider":7,"model":["m"],' + USAGE + "}}",
    # numbers json reads as ints, floats, big ints; values that do not count
    HEAD + PI + '"usage":{"input":-0,"output":1E2,"cacheRead":1.5e-7,"cacheWrite":9007199254740993,"cost":{"total":-0.0}}}}',
    HEAD + PI + '"usage":{"input":1e400,"output":true,"cacheRead":"7","cacheWrite":null,"cost":{"total":"0.5"}}}}',
    HEAD + PI + '"usage":{"input":0.1,"output":0.7,"cost":7}}}',
    HEAD + PI + '"usage" : { "input" : 5 , "cost" : { "total" : 2.5 } } }}',  # spaced
    # repeated keys: the last one counts
    HEAD + PI + USAGE + ',"usage":{"input":11,"cost":{"total":1.25}}}}',
    HEAD + PI + '"usage":{"input":1,"input":2.5}}}',
    HEAD + ',"provider":"p","model":"m","model":"n",' + USAGE + "}}",
    # escaped keys and text
    HEAD + PI + '"us\\u0061ge":{"input":9}}}',
    HEAD.replace('"hi"', '"\\u00e9\\ud83d\\ude00"') + ',"provider":"\\u0070","model":"m\\"x",' + USAGE + "}}",
    HEAD + PI + USAGE.replace('"input":3', '"inp\\u0075t":3') + "}}",
    # what the partial decoding cannot hold: parsed
    HEAD.replace('"hi"', '"\\ud800"') + PI + USAGE + "}}",  # a lone surrogate
    HEAD + PI + '"usage":{"input":NaN}}}',  # not JSON to pi: no usage
    HEAD + ',"provider":"p","model":"m",' + USAGE + '},"message":{"role":"assistant","usage":{"input":5}}}',
    HEAD + "}" + ',"message":"replaced"}',
]
ROLES = ["assistant", "toolResult", "user", "bashExecution"]


def _lazy(line: str, role: str) -> Entry:
    raw = line.replace('"role":"assistant"', f'"role":"{role}"', 1).encode()
    return Entry("a1", None, "message", "2026-10-30T09:00:00.000Z", role, 2, raw=raw)


def _parsed(line: str, role: str) -> Entry:
    try:
        data = parse_line(line.replace('"role":"assistant"', f'"role":"{role}"', 1).encode())[0]
    except ValueError:
        data = {}  # a line pi cannot parse records nothing
    return Entry.from_data(data, 2, "a1")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("line", LINES)
def test_usage_of_an_unparsed_line_is_what_parsing_gives(line, role):
    lazy, parsed = _lazy(line, role), _parsed(line, role)
    fast, full = path_usage([lazy]), path_usage([parsed])
    assert fast == full
    assert repr(fast) == repr(full)  # the same number types too: 3 and 3.0 are equal but print apart


def test_usage_sums_follow_the_path_order(tmp_path):
    # Float sums depend on their order: summing unparsed lines must add in path order, as parsing does.
    costs = [0.1, 0.2, 0.3, 1e16, 1.0, -1e16, 0.7]
    lines = [
        HEAD.replace('"id":"a1","parentId":null', f'"id":"a{index}","parentId":' + (f'"a{index - 1}"' if index else "null"))
        + PI
        + f'"usage":{{"input":{index},"cost":{{"total":{cost!r}}}}}}}}}'
        for index, cost in enumerate(costs)
    ]
    lazy = [Entry(f"a{index}", None, "message", "t", "assistant", index, raw=line.encode()) for index, line in enumerate(lines)]
    parsed = [Entry.from_data(json.loads(line), index, f"a{index}") for index, line in enumerate(lines)]
    fast = path_usage(lazy)
    assert repr(fast) == repr(path_usage(parsed))
    total = 0.0
    for cost in costs:
        total += cost
    assert fast.total.cost == total and not any(entry.is_parsed for entry in lazy)


def test_numbers_are_read_as_json_reads_them_and_summed_as_pi_sums_them():
    # Decoded as json reads the digits (an integer of any size exact), then summed as pi sums
    # usage: in JavaScript numbers, so the huge integer becomes the double JSON.parse makes of it.
    line = HEAD + PI + '"usage":{"input":123456789012345678901234567890,"output":0.1,"cacheRead":2.5e-324,"cost":{"total":1E+2}}}}'
    usage = path_usage([_lazy(line, "assistant")]).assistant
    expected = json.loads(line)["message"]["usage"]
    assert (usage.input, usage.output, usage.cache_read, usage.cost) == tuple(
        float(value) for value in (expected["input"], expected["output"], expected["cacheRead"], expected["cost"]["total"])
    )
    assert usage.input == 1.2345678901234568e29 and usage.cache_read == 5e-324


# ---- generated messages, written as pi writes them, read lazily and parsed --------------------

_WHITE = " \t\n\u00a0\u2028\u3000\ufeff\u0085"  # JS white space, and U+0085, which is not
# Numbers whose JS digits a full parse (orjson) and json read alike: beyond 2**63 JS writes a
# double's integer digits (1e20 as 100000000000000000000), which orjson reads as a float and
# json as an int (see test_numbers_are_read_as_json_reads_them).
_INTEGERS = st.integers(-(2**53), 2**53)
_FLOATS = st.floats(min_value=-9e18, max_value=9e18)
_BLANK = st.sampled_from(["", " ", "\u3000\ufeff", "\n\u00a0\u2028"])  # no text to pi
_TEXTS = (
    _BLANK
    | st.sampled_from(["\u0085", "x", " y\t", '"', "\\"])
    | st.text(alphabet=st.sampled_from(_WHITE + 'ab"\\/\u00e9\U0001f600{}[]:,'), max_size=6)
)
_JSON = st.recursive(
    st.none() | st.booleans() | _INTEGERS | _FLOATS | _TEXTS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["type", "text", "content", "usage", "stopReason", "x"]), inner, max_size=3)
    ),
    max_leaves=6,
)
_BLOCKS = st.one_of(
    st.fixed_dictionaries({"type": st.just("text"), "text": _BLANK}),
    st.fixed_dictionaries({"type": st.just("text"), "text": _TEXTS | _JSON}),
    st.fixed_dictionaries({"type": st.just("thinking"), "thinking": _TEXTS, "thinkingSignature": _TEXTS}),
    st.fixed_dictionaries({"type": st.just("toolCall"), "id": _TEXTS, "name": _TEXTS, "arguments": _JSON}),
    st.dictionaries(st.sampled_from(["type", "text"]), _JSON, max_size=2),
)
_NUMBER = _INTEGERS | _FLOATS
_USAGE = st.fixed_dictionaries(
    {},
    optional={
        "input": _NUMBER,
        "output": _NUMBER | st.booleans(),
        "cacheRead": _NUMBER,
        "cacheWrite": _NUMBER | _TEXTS,
        "totalTokens": _NUMBER,
        "cost": st.fixed_dictionaries({}, optional={"total": _NUMBER | st.none(), "input": _NUMBER}) | _JSON,
    },
)
_MESSAGE = st.fixed_dictionaries(
    {"role": st.sampled_from(["assistant", "assistant", "toolResult", "user"])},
    optional={
        "content": st.lists(_BLOCKS, max_size=4) | _TEXTS | _JSON,
        "provider": _TEXTS | _JSON,
        "model": _TEXTS,
        "responseModel": _TEXTS | st.none(),
        "usage": _USAGE | _JSON,
        "stopReason": st.sampled_from(["stop", "toolUse", "error", "aborted", "", 0, 1, None, False]) | _JSON,
    },
)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(_MESSAGE, min_size=1, max_size=12))
def test_generated_messages_read_lazily_as_parsed(messages):
    # Lines as pi's JSON.stringify writes them, loaded as the window loads them (skimmed, the
    # textless replies decided while loading, usage decoded when summed) and loaded in full: every
    # entry's place in pi's tree and the path's usage, number types included, agree.
    lines = [entry_line(HEADER)]
    for index, body in enumerate(messages):
        lines.append(
            entry_line(entry_object("message", f"m{index}", f"m{index - 1}" if index else None, "2026-10-30T09:00:00.000Z", message=body))
        )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.jsonl"
        path.write_bytes(b"".join(lines))
        lazy, strict = Session.load(path), Session.load(path, lazy=False)
        for key, entry in strict.entries.items():
            assert is_textless_reply(lazy.entries[key]) is is_textless_reply(entry), key
        leaf = f"m{len(messages) - 1}"
        fast = path_usage(lazy.path_entries(leaf))
        assert repr(fast) == repr(path_usage(strict.path_entries(leaf)))
        assert not any(
            lazy.entries[key].is_parsed
            for key in lazy.entries
            if lazy.entries[key].role == "assistant" and lazy.entries[key].textless is not None
        )


@pytest.mark.parametrize("name", ["generated-s3", "generated-s5", "blog-example", "demo-session"])
def test_fixtures_read_lazily_as_parsed(name):
    path = session_file(name)
    lazy, strict = Session.load(path), Session.load(path, lazy=False)
    decided = [key for key, entry in lazy.entries.items() if entry.textless is not None]
    assert decided  # loading decided the assistant lines of pi's own files
    for key, entry in strict.entries.items():
        assert is_textless_reply(lazy.entries[key]) is is_textless_reply(entry), key
    for leaf in strict.leaves():
        assert repr(path_usage(lazy.path_entries(leaf))) == repr(path_usage(strict.path_entries(leaf))), leaf
