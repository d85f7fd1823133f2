"""Writing small session files for tests, line by line, as pi would (or as a broken tool would)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
