"""JSON.parse without a nesting limit (model/js/deepjson.py): what V8 accepts and refuses."""

from __future__ import annotations

import pytest

from pibrowser.model.js import deepjson
from pibrowser.model.js.stringify import dump_json

# (text, what JSON.stringify(JSON.parse(text)) gives in Node 22; None where JSON.parse throws)
V8 = [
    ("[1,2] x", None),
    ('{"a" 1}', None),
    ("[1,]", None),
    ('{"a":1,}', None),
    ("[1 2]", None),
    ("{1:2}", None),
    ('["\\x"]', None),
    ('{"a\\x":1}', None),
    ("[[1,2],[3]]", "[[1,2],[3]]"),
    ('{"a":[1,{"b":2}],"c":3}', '{"a":[1,{"b":2}],"c":3}'),
    ('{"a":1,"a":2}', '{"a":2}'),
    ('["\\ud800"]', '["\\ud800"]'),
    ("  [ 1 , [ ] ]  ", "[1,[]]"),
]


@pytest.mark.parametrize("text, v8", V8)
def test_parses_and_refuses_as_json_parse(text, v8):
    if v8 is None:
        with pytest.raises(ValueError):
            deepjson.loads(text)
    else:
        assert dump_json(deepjson.loads(text)).decode() == v8


def test_nesting_past_any_recursion_limit():
    depth = 200_000
    value = deepjson.loads("[" * depth + "]" * depth)
    for _ in range(depth - 1):
        value = value[0]
    assert value == []
