"""What text of an entry the all-sessions search indexes, and under which role and tool.

Only text a person would look for: what was said and thought, tool calls'
arguments and results, shell commands and their output, summaries, custom
messages, labels and session names. Ids, models, usage, signatures and image
data would only produce false hits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from collections.abc import Iterator

from ..session.content import BlockKind, blocks, tool_calls

# A tool that printed megabytes: the start is what anyone searches for, and the
# index stays a fraction of the sessions' size.
TEXT_LIMIT = 64 * 1024


@dataclass(frozen=True, slots=True)
class IndexRow:
    entry: str | None  # the entry a hit selects (a label's hit selects the labelled entry)
    role: str
    tool: str | None
    text: str


def index_rows(value: dict[str, Any], entry_id: str | None) -> Iterator[IndexRow]:
    """The rows one parsed entry contributes (none for entries without such text)."""
    kind = value.get("type")
    if kind == "message":
        message = value.get("message")
        if isinstance(message, dict):
            yield from _message_rows(message, entry_id)
    elif kind == "custom_message":
        yield from _row(entry_id, "custom", None, _content_text(value.get("content")))
    elif kind == "compaction":
        yield from _row(entry_id, "compactionSummary", None, _string(value.get("summary")))
    elif kind == "branch_summary":
        yield from _row(entry_id, "branchSummary", None, _string(value.get("summary")))
    elif kind == "label":
        target = value.get("targetId")
        yield from _row(target if isinstance(target, str) else entry_id, "label", None, _string(value.get("label")))
    elif kind == "session_info":
        yield from _row(entry_id, "name", None, _string(value.get("name")))


def _message_rows(message: dict[str, Any], entry_id: str | None) -> Iterator[IndexRow]:
    role = message.get("role")
    role = role if isinstance(role, str) else "message"
    if role == "bashExecution":
        yield from _row(entry_id, role, None, "\n".join(filter(None, (_string(message.get("command")), _string(message.get("output"))))))
        return
    tool = message.get("toolName") if role == "toolResult" else None
    yield from _row(entry_id, role, tool if isinstance(tool, str) else None, _content_text(message.get("content")))
    if role == "assistant":
        yield from _row(entry_id, role, None, _string(message.get("errorMessage")))
        for call in tool_calls(message.get("content")):
            name = call.get("name")
            yield from _row(entry_id, role, name if isinstance(name, str) else None, _leaf_text(call.get("arguments")))
    if role in ("branchSummary", "compactionSummary"):
        yield from _row(entry_id, role, None, _string(message.get("summary")))


def _row(entry: str | None, role: str, tool: str | None, text: str) -> Iterator[IndexRow]:
    if text and not text.isspace():
        yield IndexRow(entry, role, tool, text[:TEXT_LIMIT])


def _content_text(content: Any) -> str:
    """Text and thinking of a content value (a string or blocks); tool calls are rows of their own."""
    if isinstance(content, str):
        return content
    parts = []
    for kind, block in blocks(content):
        if kind is BlockKind.THINKING:
            parts.append(_string(block.get("thinking")))
        elif kind is BlockKind.TEXT or kind is BlockKind.OTHER:  # an unknown block's text is searchable too
            parts.append(_string(block.get("text")))
    return "\n".join(part for part in parts if part)


def _leaf_text(value: Any, depth: int = 0) -> str:
    """Every string and number inside a tool call's arguments, one per line."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if depth > 32:
        return ""
    items: Iterable[Any]
    if isinstance(value, dict):
        items = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return ""
    return "\n".join(text for text in (_leaf_text(item, depth + 1) for item in items) if text)


def _string(value: Any) -> str:
    return value if isinstance(value, str) else ""
