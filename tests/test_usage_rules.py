"""pi's usage → context tokens rule with JavaScript's semantics (issue 25, item 1).

pi takes `usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite`
(calculateContextTokens) with JS's `||` and `+`, and trusts a usage only when that is `> 0`
(getAssistantUsage); a usage it does not trust gives way to an earlier one, or to chars/4.
The answers below are pi 1.6.0's own (tests/test_against_pi.py asks pi for them again).
"""

from __future__ import annotations

import csv
import io

from pathlib import Path

import orjson
import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.js.stringify import dump_json
from pibrowser.model.tokens.context_estimate import (
    context_tokens_of_usage,
    estimate_context_tokens,
    estimate_number,
    estimate_text,
    projected_context_tokens,
)
from pibrowser.model.fold.path_fold import PathFold, path_rows
from pibrowser.model.text.csv_cells import timeline_csv

from .pi.rep import js_typeof, rep

# (usage as JSON, calculateContextTokens as (typeof, String()) or "throws", trusted by getAssistantUsage)
USAGE_SHAPES = [
    ('{"input":100,"output":50}', ("number", "NaN"), False),
    ('{"input":100,"output":50,"cacheRead":0,"cacheWrite":0}', ("number", "150"), True),
    ("{}", ("number", "NaN"), False),
    ('{"input":"many"}', ("string", "manyundefinedundefinedundefined"), False),
    ('{"totalTokens":0,"input":1,"output":2,"cacheRead":3,"cacheWrite":4}', ("number", "10"), True),
    ('{"totalTokens":"5"}', ("string", "5"), True),
    ('{"totalTokens":"0","input":1,"output":1,"cacheRead":1,"cacheWrite":1}', ("string", "0"), False),
    ('{"totalTokens":-5,"input":1,"output":1,"cacheRead":1,"cacheWrite":1}', ("number", "-5"), False),
    ('{"totalTokens":true}', ("boolean", "true"), True),
    ('{"totalTokens":[7]}', ("object", "7"), True),
    ('{"input":1,"output":2,"cacheRead":"3","cacheWrite":4}', ("string", "334"), True),
    ('{"input":null,"output":null,"cacheRead":null,"cacheWrite":5}', ("number", "5"), True),
    ('{"input":-10,"output":5,"cacheRead":0,"cacheWrite":0}', ("number", "-5"), False),
    ('{"input":0.5,"output":0.25,"cacheRead":0,"cacheWrite":0}', ("number", "0.75"), True),
    ('{"input":1e+308,"output":1e+308,"cacheRead":0,"cacheWrite":0}', ("number", "Infinity"), True),
    ('{"input":1e400,"output":0,"cacheRead":0,"cacheWrite":0}', ("number", "Infinity"), True),
    ('{"input":[],"output":[],"cacheRead":[],"cacheWrite":[]}', ("string", ""), False),
    ('{"input":[1],"output":2,"cacheRead":0,"cacheWrite":0}', ("string", "1200"), True),
    ('{"input":true,"output":false,"cacheRead":1,"cacheWrite":0}', ("number", "2"), True),
    ('{"input":{},"output":1,"cacheRead":1,"cacheWrite":1}', ("string", "[object Object]111"), False),
    ('{"totalTokens":12345678901234567890}', ("number", "12345678901234567000"), True),
    ('{"input":9007199254740993,"output":0,"cacheRead":0,"cacheWrite":0}', ("number", "9007199254740992"), True),
    ('{"totalTokens":" 12 "}', ("string", " 12 "), True),
    ('{"totalTokens":"0x10"}', ("string", "0x10"), True),
    ('{"totalTokens":{}}', ("object", "[object Object]"), False),
    ("null", "throws", False),
    ("5", ("number", "NaN"), False),
    ('"x"', ("number", "NaN"), False),
    ("[]", ("number", "NaN"), False),
    ("true", ("number", "NaN"), False),
    ("0", ("number", "NaN"), False),
]


def parse_usage(text: str):
    from pibrowser.model.session.jsonline import parse_line

    return parse_line(text.encode())[0]


def ours(usage) -> tuple[object, bool]:
    try:
        tokens = context_tokens_of_usage(usage)
        calculated = (js_typeof(tokens), rep(tokens)["string"])
    except TypeError:
        calculated = "throws"
    reply = {"role": "assistant", "content": [], "usage": usage, "stopReason": "stop", "timestamp": 0}
    return calculated, estimate_context_tokens([reply]).last_usage_index == 0


@pytest.mark.parametrize("text, calculated, trusted", USAGE_SHAPES)
def test_every_usage_shape_as_pi_reads_it(text, calculated, trusted):
    assert ours(parse_usage(text)) == (calculated, trusted)


def test_a_stopped_or_failed_reply_is_never_trusted():
    usage = {"input": 1, "output": 1, "cacheRead": 1, "cacheWrite": 1}
    for stop, trusted in (("aborted", False), ("error", False), ("length", True), (None, True)):
        reply = {"role": "assistant", "content": [], "usage": usage, "stopReason": stop}
        assert (estimate_context_tokens([reply]).last_usage_index == 0) is trusted


# A path of replies whose usage takes every odd shape, then a compaction; pi's own estimate for
# each entry as the leaf (tokens as (typeof, String())).
USER = '{"role":"user","content":"12345678","timestamp":1}'


def reply(usage: str, stop: str = "stop") -> str:
    return '{"role":"assistant","content":[{"type":"text","text":"ok"}],"usage":%s,"stopReason":"%s","timestamp":2}' % (usage, stop)


PATH = [
    ("u1", USER),
    ("a1", reply('{"input":100,"output":50,"cacheRead":0,"cacheWrite":0}')),
    ("u2", USER),
    ("a2", reply('{"input":500,"output":50}')),  # no cache fields: NaN, so a1's 150 + chars/4 after it
    ("a3", reply('{"totalTokens":"7"}')),  # a string: "7" + 0 is "70"
    ("u3", USER),  # "7" + 2 is "72"
    ("a4", reply('{"input":0.5,"output":0,"cacheRead":0,"cacheWrite":0}')),  # kept as 0.5
    ("a5", reply('{"totalTokens":true}')),  # true + 0 is 1
    ("a6", reply('{"input":1e308,"output":1e308,"cacheRead":0,"cacheWrite":0}')),  # Infinity
    ("a7", reply('{"input":10,"output":0,"cacheRead":0,"cacheWrite":0}', "error")),  # skipped: Infinity + 1
    ("a8", reply('{"totalTokens":"0","input":1,"output":1,"cacheRead":1,"cacheWrite":1}')),  # "0" is not > 0
    ("a9", reply('{"input":[1],"output":2,"cacheRead":0,"cacheWrite":0}')),  # "1200"
    ("a10", reply('{"input":1,"output":1,"cacheRead":1,"cacheWrite":1}')),
]
PI_ESTIMATES = {
    "u1": ("number", "2"),
    "a1": ("number", "150"),
    "u2": ("number", "152"),
    "a2": ("number", "153"),
    "a3": ("string", "70"),
    "u3": ("string", "72"),
    "a4": ("number", "0.5"),
    "a5": ("number", "1"),
    "a6": ("number", "Infinity"),
    "a7": ("number", "Infinity"),
    "a8": ("number", "Infinity"),
    "a9": ("string", "12000"),
    "a10": ("number", "4"),
    "c1": ("number", "7"),  # chars/4 after a compaction: its summary and the kept a9, a10
    "a11": ("number", "4"),
}


def write_usage_path(folder: Path) -> Path:
    lines = ['{"type":"session","version":3,"id":"usage-shapes","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/tmp"}']
    parent = "null"
    for number, (key, message) in enumerate(PATH):
        lines.append(
            f'{{"type":"message","id":"{key}","parentId":{parent},"timestamp":"2025-01-01T00:00:{number:02}.000Z","message":{message}}}'
        )
        parent = f'"{key}"'
    lines.append(
        f'{{"type":"compaction","id":"c1","parentId":{parent},"timestamp":"2025-01-01T00:01:00.000Z",'
        '"summary":"what happened before","firstKeptEntryId":"a9","tokensBefore":1}'
    )
    lines.append(
        '{"type":"message","id":"a11","parentId":"c1","timestamp":"2025-01-01T00:01:01.000Z","message":%s}'
        % reply('{"input":1,"output":1,"cacheRead":1,"cacheWrite":1}')
    )
    path = folder / "usage-shapes.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_estimates_along_a_path_of_odd_usages_are_pis(tmp_path):
    session = Session.load(write_usage_path(tmp_path), lazy=False)
    got = {}
    for entry in session.file_order:
        tokens = projected_context_tokens(resolve(session, entry.id)).tokens
        got[entry.id] = (js_typeof(tokens), rep(tokens)["string"])
    assert got == PI_ESTIMATES
    walked = {row.id: (js_typeof(row.tokens_estimate), rep(row.tokens_estimate)["string"]) for row in path_rows(session, "a11")}
    assert walked == PI_ESTIMATES
    fold = PathFold(session)  # the window's fold: along the spine, the figures read back from its columns
    fold.fold_spine()
    for key, (kind, text) in PI_ESTIMATES.items():
        for tokens in (fold.row(key).tokens_estimate, fold.figures(key).estimate.tokens):
            assert (js_typeof(tokens), rep(tokens)["string"]) == (kind, text), key


def test_the_header_and_the_strip_say_the_same_figure(tmp_path):
    session = Session.load(write_usage_path(tmp_path), lazy=False)
    rows = {row.id: row.tokens_estimate for row in path_rows(session, "a11")}
    for key in ("a3", "a4", "a6"):
        assert rows[key] == projected_context_tokens(resolve(session, key)).tokens
    assert estimate_text(rows["a3"]) == "“70” (text)"
    assert estimate_text(rows["a4"]) == "0.5"
    assert estimate_text(rows["a6"]) == "Infinity"
    assert estimate_text(1234567) == "1,234,567"
    assert [estimate_number(rows[key]) for key in ("a3", "a4", "a6", "a9")] == [70, 0.5, 0, 12000]


def test_the_timeline_writes_js_values_as_pi_would(tmp_path):
    session = Session.load(write_usage_path(tmp_path), lazy=False)
    rows = path_rows(session, "a11")
    printed = {row["id"]: row["tokens_estimate"] for row in orjson.loads(dump_json([row.to_json() for row in rows]))}
    assert printed["a3"] == "70" and printed["a4"] == 0.5 and printed["a6"] is None  # JSON.stringify(Infinity) is null


def test_the_timeline_csv_writes_what_json_writes_as_null_as_an_empty_cell(tmp_path):
    # README: "csv has a header row and empty cells for null"; JSON writes Infinity as null.
    rows = list(csv.reader(io.StringIO(timeline_csv(path_rows(Session.load(write_usage_path(tmp_path), lazy=False), "a11")))))
    cells = {row[0]: row[2] for row in rows[1:]}
    assert cells["a6"] == cells["a7"] == "" and cells["a3"] == "70" and cells["a4"] == "0.5"
    assert "null" not in {cell for row in rows for cell in row}
