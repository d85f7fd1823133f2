"""Usage summed from unparsed lines (model/line_fields.py, via usage.py) must equal what parsing gives,
number types included."""

from __future__ import annotations

import json

import pytest

from pibrowser.model.entry import Entry
from pibrowser.model.jsonline import parse_line
from pibrowser.model.usage import path_usage

HEAD = '{"type":"message","id":"a1","parentId":null,"timestamp":"2026-10-30T09:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hi"}]'
USAGE = '"usage":{"input":3,"output":4,"cacheRead":0,"cacheWrite":0,"totalTokens":7,"cost":{"input":0.1,"output":0.2,"cacheRead":0,"cacheWrite":0,"total":0.30000000000000004}}'
PI = ',"provider":"p","model":"m",'

LINES = [
    HEAD + PI + USAGE + ',"stopReason":"stop","timestamp":1}}',  # pi's own shape
    HEAD + ',"stopReason":"stop"}}',  # no usage at all
    HEAD + ',"usage":null}}',
    HEAD + ',"usage":[1,2]}}',
    HEAD + PI + USAGE + ',"details":{"nested":1}}}',
    HEAD + PI + USAGE[:-1] + ',"big":' + "1" * 5000 + '}}}',  # a long usage
    HEAD + PI + USAGE + ',"responseModel":"m-2026"}}',
    HEAD + PI + USAGE + ',"responseModel":""}}',
    HEAD + PI + USAGE + ',"responseModel":null}}',
    HEAD + PI + USAGE + ',"responseModel":0}}',
    HEAD + ',"provider":"early","model":"x","note":{"provider":"p","usage":{"input":99}},"provider2":1,"provider":"p","model":"m",' + USAGE + "}}",
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
        + PI + f'"usage":{{"input":{index},"cost":{{"total":{cost!r}}}}}}}}}'
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


def test_numbers_are_read_as_json_reads_them():
    # json keeps an integer of any size exact (orjson and JSON.parse would round it to a double);
    # floats are Python's own reading of the digits.
    line = HEAD + PI + '"usage":{"input":123456789012345678901234567890,"output":0.1,"cacheRead":2.5e-324,"cost":{"total":1E+2}}}}'
    usage = path_usage([_lazy(line, "assistant")]).assistant
    expected = json.loads(line)["message"]["usage"]
    assert (usage.input, usage.output, usage.cache_read, usage.cost) == (expected["input"], expected["output"], expected["cacheRead"], expected["cost"]["total"])
    assert [type(value) for value in (usage.input, usage.output, usage.cost)] == [int, float, float]
