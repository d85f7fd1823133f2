"""A session whose fields are not what pi writes where pi takes their `.length`.

pi's estimateTokens reads `.length` of a text, a thinking, a tool's name, a summary, a
command and its output, and of each section of a system message. A number or `true` has
none (undefined, so JavaScript's `+` makes the count NaN), an object gives its own
`length` field as whatever it is, an array its item count, and a string of sections its
characters. Every entry below meets one of these; `PI_ESTIMATES` is pi 1.6.0's
estimateProjectedContextTokens at each, as `JSON.stringify` writes it (NaN is null).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HEADER = {"type": "session", "version": 3, "id": "odd-lengths", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/tmp"}


def _message(key: str, parent: str | None, second: int, message: dict[str, Any]) -> dict[str, Any]:
    return {"type": "message", "id": key, "parentId": parent, "timestamp": f"2025-01-01T00:00:{second:02}.000Z", "message": message}


def _reply(content: list[Any], usage: dict[str, int] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content, "provider": "p", "model": "m", "stopReason": "stop"}
    if usage is not None:
        message["usage"] = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, **usage}
    return message


def _user(content: Any) -> dict[str, Any]:
    return {"role": "user", "content": content, "timestamp": 1}


ENTRIES = [
    # sections a string: pi folds them into {"0": "a", …, "3": "d"}, 4 characters; 3 + 4 = 7 in all
    _message("s0", None, 0, {"role": "system", "content": "sys", "sections": "abcd", "timestamp": 0}),
    _message("u1", "s0", 1, _user("hello")),
    _message("a1", "u1", 2, _reply([{"type": "text", "text": "ok"}], {"input": 100, "output": 5})),
    _message("u2", "a1", 3, _user([{"type": "text", "text": 123}])),  # NaN after the usage
    # 6 from the object's length, then "2" concatenates: "62" characters, 16 tokens
    _message("a2", "u2", 4, _reply([{"type": "text", "text": {"length": 6}}, {"type": "thinking", "thinking": {"length": "2"}}])),
    # the edit replaces the NaN message: no usage trusted, every message by chars/4 again
    {
        "type": "context_edit",
        "id": "e1",
        "parentId": "a2",
        "timestamp": "2025-01-01T00:00:05.000Z",
        "targetId": "u2",
        "replacement": {"content": "abcdefgh"},
    },
    _message("b1", "e1", 6, {"role": "bashExecution", "command": {"length": 7}, "output": "abc", "exitCode": 0, "timestamp": 1}),
    _message("m2", "b1", 7, {"role": "branchSummary", "summary": True, "fromId": "u1", "timestamp": 1}),
    {
        "type": "compaction",
        "id": "c1",
        "parentId": "m2",
        "timestamp": "2025-01-01T00:00:08.000Z",
        "summary": "sum",
        "firstKeptEntryId": "b1",
        "tokensBefore": 9,
    },
    _message("a3", "c1", 9, _reply([{"type": "text", "text": "fine"}], {"input": 50})),
    _message("u3", "a3", 10, _user([{"type": "text", "text": [1, 2, 3]}])),  # an array's length: 3
    # a branch from a1: `true` for a text, a number for a tool's name
    _message("u4", "a1", 11, _user([{"type": "text", "text": True}])),
    _message("a4", "u4", 12, _reply([{"type": "toolCall", "id": "t1", "name": 5, "arguments": {}}])),
    _message("u5", "a4", 13, _user("after")),
    # branches from u1: a section that is a number (NaN), tools that are a string (each character a
    # tool without a name, so one key: the last, '["b"]', 5 characters)
    _message("s1", "u1", 14, {"role": "system", "content": "more", "sections": {"x": 5}, "timestamp": 0}),
    _message("s2", "u1", 15, {"role": "system", "content": "", "toolsAdded": "ab"}),
]

# pi 1.6.0's answers: String() of each estimate (every one a number).
PI_ESTIMATES = {
    "s0": "2", "u1": "4", "a1": "105", "u2": "NaN", "a2": "NaN", "e1": "23", "b1": "26", "m2": "NaN", "c1": "NaN",
    "a3": "50", "u3": "51", "u4": "NaN", "a4": "NaN", "u5": "NaN", "s1": "NaN", "s2": "5",
}  # fmt: skip


def write_odd_lengths(folder: Path) -> Path:
    path = folder / "odd-lengths.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in [HEADER, *ENTRIES]))
    return path
