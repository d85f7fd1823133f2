"""check_line: the background check's quick answer equals parse_line's on every kind of line."""

from __future__ import annotations

import pytest

from pibrowser.model.session.jsonline import check_line, parse_line

from .conftest import DEMO, FIXTURES

TRICKY = [
    b'{"a":"\xff"}',  # not UTF-8 inside a string: pi repairs it, with a note
    b'{"a":"\\ud800"}',  # a lone surrogate escape: JSON.parse takes it, orjson does not
    b'{"a":1.5e999}',  # Infinity for JSON.parse
    b'{"a":' + b"[" * 2000 + b"]" * 2000 + b"}",  # deeper than the quick check goes
    b'{"a":01}',
    b'{"a":-}',
    b'{"a":.5}',
    b'{"a":1.}',
    b'{"a":"\t"}',
    b'\x0b{"a":1}',
    b'\xef\xbb\xbf{"a":1}',
    b'{"a":1,}',
    b'{"a":tru}',
    b'{"a":"\\x"}',
    b"{a:1}",
    b'{"a":1} ',
    b' {"a":1}\r',
    b'{"a":\xc0\x80}',
    b'{"a":-0}',
    b'{"a":1E+2}',
    b'{"a":"\\u00"}',
    b'{"a":1}x',
    b"[1]",
    b'"text"',
    b'{"a":1,"a":2}',
    b'{"ok":"caf\xc3\xa9"}',
    b"{}",
]


def _answer(check, raw: bytes):
    try:
        return ("note", check(raw))
    except ValueError as error:
        return ("error", str(error))


@pytest.mark.parametrize("raw", TRICKY, ids=range(len(TRICKY)))
def test_the_quick_check_answers_as_a_full_parse_on_tricky_lines(raw):
    assert _answer(check_line, raw) == _answer(lambda line: parse_line(line)[1], raw)


def test_the_quick_check_answers_as_a_full_parse_on_every_fixture_line():
    lines = [line for path in [*sorted(FIXTURES.glob("*.jsonl")), DEMO] for line in path.read_bytes().split(b"\n") if line.strip()]
    assert len(lines) > 1000
    for raw in lines:
        assert _answer(check_line, raw) == _answer(lambda line: parse_line(line)[1], raw), raw[:80]
