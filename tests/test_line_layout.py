"""Reading a raw line in pi's layout (model/line_layout.py) must agree with parsing it."""

from __future__ import annotations

import json

import pytest

from pibrowser.model.line_layout import assistant_usage, model_key

HEAD = '{"type":"message","id":"a1","parentId":null,"timestamp":"2026-10-30T09:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hi"}]'
USAGE = '"usage":{"input":3,"output":4,"cacheRead":0,"cacheWrite":0,"totalTokens":7,"cost":{"total":0.5}}'

# (line, whether the raw bytes settle the usage)
USAGE_CASES = [
    (HEAD + ',"provider":"p","model":"m",' + USAGE + ',"stopReason":"stop","timestamp":1}}', True),  # pi's own shape
    (HEAD + ',"stopReason":"stop"}}', True),  # no usage at all
    (HEAD + ',"usage":null}}', False),  # a usage that is not an object: parse
    (HEAD + ',' + USAGE + ',"details":{"nested":1}}}', False),  # more than flat fields after it: parse
    (HEAD + ',' + USAGE[:-1] + ',"big":' + "1" * 5000 + '}}}', False),  # longer than the window read: parse
]


@pytest.mark.parametrize("line, settles", USAGE_CASES)
def test_usage_read_from_the_raw_line_agrees_with_parsing(line, settles):
    settled, usage = assistant_usage(line.encode())
    assert settled is settles
    if settled:
        assert usage == json.loads(line)["message"].get("usage")


@pytest.mark.parametrize(
    "fields",
    [
        ',"provider":"p","model":"m",' + USAGE,
        ',"provider":"p","model":"m",' + USAGE + ',"responseModel":"m-2026"',
        ',"provider":"p","model":"m",' + USAGE + ',"responseModel":""',
        ',"provider":"early","model":"x","note":{"provider":"p"},"provider2":1,"provider":"p","model":"m",' + USAGE,
        "," + USAGE,
    ],
)
def test_provider_and_model_read_from_the_raw_line_agree_with_parsing(fields):
    line = HEAD + fields + "}}"
    message = json.loads(line)["message"]
    expected = f"{message.get('provider')}/{message.get('responseModel') or message.get('model')}"
    assert model_key(line.encode()) == expected
