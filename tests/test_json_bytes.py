"""Context JSON equals pi's bytes: `context --all` against pi's own output, and the writer's number rules."""

import math
import subprocess
import sys
from typing import Any

import msgspec
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pibrowser.model import Session, resolve
from pibrowser.model.js.map_key import JsKey
from pibrowser.model.js.stringify import dump_json, dump_json_array, dump_json_indented, json_number, ready_number, ready_raw_number

from .conftest import FIXTURES, examples

PI_ALL = sorted(FIXTURES.glob("*.pi-all.ndjson")) + sorted((FIXTURES / "bytes").glob("*.pi-all.ndjson"))


def test_pi_answers_are_present():
    names = {path.name.removesuffix(".pi-all.ndjson") for path in PI_ALL}
    assert {"blog-example", "generated-s1", "generated-s5", "js-numbers"} <= names


@pytest.mark.parametrize("answers", PI_ALL, ids=lambda path: path.name.removesuffix(".pi-all.ndjson"))
def test_context_all_prints_pi_bytes(answers):
    session_file = answers.with_name(answers.name.removesuffix(".pi-all.ndjson") + ".jsonl")
    result = subprocess.run(
        [sys.executable, "-m", "pibrowser", "context", str(session_file), "--all", "--format", "json"],
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr.decode()
    expected = answers.read_bytes().splitlines()
    got = result.stdout.splitlines()
    assert len(got) == len(expected)
    for ours, pis in zip(got, expected):
        assert ours == pis


def test_js_numbers_session_every_entry_in_process():
    # The same answers without a subprocess, so a failure names the entry.
    session = Session.load(FIXTURES / "bytes" / "js-numbers.jsonl", lazy=False)
    expected = (FIXTURES / "bytes" / "js-numbers.pi-all.ndjson").read_bytes().splitlines()
    for entry, pis in zip(session.file_order, expected):
        assert dump_json({"leaf": entry.id, **resolve(session, entry.id).to_pi()}) == pis, entry.id


@pytest.mark.parametrize(
    "value, text",
    [
        (2.0, b"2"),
        (1.23e-6, b"0.00000123"),
        (1e16, b"10000000000000000"),
        (1e21, b"1e+21"),
        (1e-7, b"1e-7"),
        (9.99e-8, b"9.99e-8"),
        (-0.0, b"0"),
        (0.30000000000000004, b"0.30000000000000004"),
        (5e-324, b"5e-324"),
        (1.7976931348623157e308, b"1.7976931348623157e+308"),
        (9007199254740993, b"9007199254740992"),  # beyond 2^53: the double JS holds
        (18446744073709551616, b"18446744073709552000"),
        (10**400, b"null"),  # JSON.parse reads Infinity; JSON.stringify writes null
        (math.inf, b"null"),
        (math.nan, b"null"),
        (-(2**53), b"-9007199254740992"),
    ],
)
def test_numbers_are_written_as_json_stringify_writes_them(value, text):
    assert dump_json(value) == text
    assert dump_json([value]) == b"[" + text + b"]"
    assert json_number(value).encode() == text
    for _ in range(2):  # the second time from what the first kept
        assert (
            b"".join(dump_json_array([{"n": value}], plain=None, ready=lambda item: {"n": ready_number(item["n"])}))
            == b'[{"n":' + text + b"}]"
        )
        assert b"".join(dump_json_array([value], ready_struct=lambda item: _One(ready_raw_number(item)))) == b'[{"n":' + text + b"}]"


class _One(msgspec.Struct):
    n: Any


class _Item(msgspec.Struct):
    n: Any
    t: Any
    k: Any


def test_msgspec_writes_every_character_of_a_string_as_orjson_does():
    # What dump_json_array's `ready_struct` counts on: a lone surrogate refused by both.
    encode = msgspec.json.Encoder().encode
    for code in range(0x110000):
        text = chr(code)
        try:
            expected = orjson.dumps(text)
        except orjson.JSONEncodeError:
            expected = None
        try:
            written = encode(text)
        except UnicodeEncodeError:
            written = None
        assert written == expected, hex(code)


def test_an_array_in_pieces_made_ready_is_the_array_written_whole():
    items = [{"n": 1.0, "t": "x", "k": JsKey(12)}, {"n": -0.0, "t": "a\ud800b", "k": None}, {"n": 0.1, "t": "é", "k": "1"}] * 3
    whole = dump_json(items)

    def ready(item):
        return {**item, "n": ready_number(item["n"])}

    assert b"".join(dump_json_array(items, chunk=2, ready=ready)) == b"".join(dump_json_array(items, chunk=2)) == whole
    # Made ready, a batch orjson writes (no JsKey, no lone surrogate) is not walked again.
    plain = [item for item in items if type(item["k"]) is not JsKey and "\ud800" not in item["t"]]
    assert b"".join(dump_json_array(plain, ready=ready)) == dump_json(plain)

    def ready_struct(item):
        return _Item(ready_raw_number(item["n"]), item["t"], item["k"])

    # As Structs, the batches msgspec refuses (a JsKey, a lone surrogate) are written plain.
    assert b"".join(dump_json_array(items, chunk=2, ready_struct=ready_struct)) == whole
    assert b"".join(dump_json_array(plain, ready_struct=ready_struct)) == dump_json(plain)


def test_array_index_keys_come_first_as_in_a_js_object():
    assert dump_json({"b": 1, "2": 2, "a": 3, "1": 4, "01": 5, "4294967295": 6}) == (b'{"1":4,"2":2,"b":1,"a":3,"01":5,"4294967295":6}')


def test_lone_surrogates_and_deep_nesting_take_the_slow_path_with_the_same_rules():
    assert dump_json({"t": "a\ud800b", "n": 2.0, "2": 1e16}) == b'{"2":10000000000000000,"t":"a\\ud800b","n":2}'
    deep: object = 1.5e-7
    for _ in range(3000):
        deep = [deep]
    assert dump_json(deep) == b"[" * 3000 + b"1.5e-7" + b"]" * 3000


def test_indented_json_is_json_stringify_with_two_spaces():
    # JSON.stringify({b: 2.0, "1": [1e16, {}], e: []}, null, 2) in V8:
    assert dump_json_indented({"b": 2.0, "1": [1e16, {}], "e": []}) == (
        '{\n  "1": [\n    10000000000000000,\n    {}\n  ],\n  "b": 2,\n  "e": []\n}'
    )


_KEYS = st.sampled_from(["a", "role", "0", "1", "17", "01", "4294967295", "x:1.5", ' ,"9', "é"]) | st.text(max_size=4)
_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.sampled_from([0, -1, 2**53, 2**53 + 1, -(2**53), 10**15, 10**16 - 1, 2**63, -(2**63), 2**64])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([0.0, -0.0, 1.0, 1e16, 1e21, 5e-324, 0.1, 4.1e-6])
    | st.text(max_size=6)
    | st.sampled_from(['said :1.5 and ,"9', "\ud800", "[1.5]", '{"1":2}', JsKey(7), JsKey(None)])
)
_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4), max_leaves=20)


@settings(max_examples=examples(2000), deadline=None)
@given(value=_VALUES)
def test_a_value_written_as_it_is_is_what_the_walk_writes(value):
    # dump_json writes a value as orjson writes it when the bytes show nothing JSON.stringify writes
    # otherwise (a float, 16 digits or more, a key led by a digit, a subclass): byte for byte the walk's.
    from pibrowser.model.js.stringify import _as_it_is, _orjson_ready, _slow_stringify

    written = _as_it_is(value)
    try:
        walked = orjson.dumps(_orjson_ready(value))
    except (orjson.JSONEncodeError, TypeError, RecursionError):
        walked = _slow_stringify(value).encode("utf-8")
    assert written is None or written == walked
    assert dump_json(value) == walked


@pytest.mark.parametrize(
    "value, as_it_is",
    [
        ({"messages": [{"role": "user", "content": "m", "timestamp": 1793350800000}] * 3, "model": None}, True),
        ({"a": [True, False, None, -5, 999999999999999]}, True),
        (["x", ',"1'], True),  # a quote inside a text is escaped: no key there
        (["x", "1"], False),  # an array's text led by a digit, taken for a key: walked (to the same bytes)
        ({"a": "said :1.5"}, False),  # a text that reads as a float after ":": walked
        ({"a": [1.5]}, False),
        ([9999999999999999], False),
        ({"1": 2, "a": 3}, False),
        ([JsKey(7)], False),
    ],
)
def test_what_is_written_as_it_is_and_what_is_walked(value, as_it_is):
    from pibrowser.model.js.stringify import _as_it_is

    assert (_as_it_is(value) is not None) is as_it_is
    assert _as_it_is(value) in (None, orjson.dumps(value))
