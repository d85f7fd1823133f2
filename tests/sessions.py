"""Writing small session files for tests, line by line, as pi would (or as a broken tool would)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from collections.abc import Callable

import orjson

HEADER = {"type": "session", "version": 3, "id": "test-session", "timestamp": "2026-10-30T09:00:00.000Z", "cwd": "/work"}


def stamp(second: int) -> str:
    return f"2026-10-30T09:{second // 60:02d}:{second % 60:02d}.000Z"


def entry(kind: str, id: str, parent: str | None, second: int = 0, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "id": id, "parentId": parent, "timestamp": stamp(second), **fields}


def message(id: str, parent: str | None, role: str, content: Any = "text", second: int = 0, **fields: Any) -> dict[str, Any]:
    body = {"role": role, "content": content, **fields, "timestamp": 1793350800000 + second * 1000}
    return entry("message", id, parent, second, message=body)


def write(path: Path, *items: Any, header: dict[str, Any] | None = HEADER, newline_at_end: bool = True) -> Path:
    """Write items: dicts become JSON lines, bytes/str are written as raw lines."""
    lines: list[bytes] = []
    if header is not None:
        lines.append(orjson.dumps(header))
    for item in items:
        if isinstance(item, bytes):
            lines.append(item)
        elif isinstance(item, str):
            lines.append(item.encode("utf-8"))
        else:
            lines.append(orjson.dumps(item))
    data = b"\n".join(lines) + (b"\n" if newline_at_end else b"")
    path.write_bytes(data)
    return path


def append(path: Path, *items: Any) -> None:
    """Append to a session as pi does: dicts as JSON lines, bytes as they are (part of a line too)."""
    with open(path, "ab") as handle:
        for item in items:
            handle.write(item if isinstance(item, bytes) else orjson.dumps(item) + b"\n")


def linked(items: list[dict[str, Any]], key: Callable[[int], str] = "e{}".format) -> list[dict[str, Any]]:
    """Entries in one line of descent: each gets an id, the one before as parent and a time a
    second later, unless the item sets them; an item without a type is a message."""
    entries = []
    for index, item in enumerate(items):
        body = item if "type" in item else {"type": "message", "message": item}
        parent = entries[-1]["id"] if entries else None
        entries.append({"id": key(index), "parentId": parent, "timestamp": stamp(index), **body})
    return entries


def chain(count: int, prefix: str = "m") -> list[dict[str, Any]]:
    """A linear conversation of alternating user/assistant messages."""
    items = []
    parent = None
    for index in range(count):
        key = f"{prefix}{index}"
        role = "user" if index % 2 == 0 else "assistant"
        extra = {"provider": "p", "model": "m1"} if role == "assistant" else {}
        content = f"say {index}" if role == "user" else [{"type": "text", "text": f"said {index}"}]
        items.append(message(key, parent, role, content, second=index, **extra))
        parent = key
    return items


def long_session(path: Path, entries: int) -> Path:
    """A long pi-like session: turns of user, tool calls and results, answers; branches now and then."""
    rnd = random.Random(7)
    ids: list[str] = []
    leaf = None
    lines = [orjson.dumps({**HEADER, "id": "big"})]

    def emit(body: dict) -> None:
        nonlocal leaf
        key = f"{len(ids):08x}"
        seconds = len(ids)
        time = f"2026-01-{1 + seconds // 86400:02d}T{seconds // 3600 % 24:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.000Z"
        lines.append(orjson.dumps({"type": body.pop("type"), "id": key, "parentId": leaf, "timestamp": time, **body}))
        ids.append(key)
        leaf = key

    while len(ids) < entries:
        if ids and rnd.random() < 0.004:
            leaf = ids[rnd.randrange(max(0, len(ids) - 3000), len(ids))]
        emit({"type": "message", "message": {"role": "user", "content": f"please fix bug {len(ids)}"}})
        for _ in range(rnd.randint(0, 4)):
            emit(
                {
                    "type": "message",
                    "message": {
                        "role": "assistant",
                        "content": [{"type": "toolCall", "id": "c", "name": "bash", "arguments": {"command": "ls"}}],
                        "stopReason": "toolUse",
                    },
                }
            )
            emit(
                {
                    "type": "message",
                    "message": {
                        "role": "toolResult",
                        "toolCallId": "c",
                        "toolName": "bash",
                        "content": [{"type": "text", "text": "ok"}],
                        "isError": False,
                    },
                }
            )
        emit({"type": "message", "message": {"role": "assistant", "content": [{"type": "text", "text": "done"}], "stopReason": "stop"}})
        if rnd.random() < 0.01:
            emit({"type": "compaction", "summary": "s", "firstKeptEntryId": ids[-5], "tokensBefore": 1000})
        if rnd.random() < 0.005:
            emit({"type": "label", "targetId": ids[-2], "label": "mark"})
    path.write_bytes(b"\n".join(lines[: entries + 1]) + b"\n")
    return path
