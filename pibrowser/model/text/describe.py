"""One-line descriptions of entries, for the tree views and the text output."""

from __future__ import annotations

from typing import Any

from ..session.content import first_text
from ..session.content import tool_calls as calls_in
from ..session.entry import Entry
from ..js.value import MISSING
from .terminal_text import shorten, visible_line


def entry_kind(entry: Entry) -> str:
    """The entry's type, or for a message its role: what colours and filters key on."""
    if entry.type == "message":
        return str(entry.role) if entry.role is not MISSING else "message"
    return str(entry.type)


def entry_title(entry: Entry, width: int = 80) -> str:
    kind = entry.type
    if kind == "message":
        return shorten(f"{entry_kind(entry)}: {message_preview(entry.message)}", width)
    if kind == "compaction":
        return shorten(f"compaction ({entry.get('tokensBefore')} tokens before): {_one_line(entry.get('summary'))}", width)
    if kind == "branch_summary":
        return shorten(f"branch summary: {_one_line(entry.get('summary'))}", width)
    if kind == "model_change":
        return shorten(f"model → {entry.get('provider')}/{entry.get('modelId')}", width)
    if kind == "thinking_level_change":
        return shorten(f"thinking → {entry.get('thinkingLevel')}", width)
    if kind == "label":
        label = entry.get("label")
        text = (
            f"label {entry.get('targetId')} = {label!r}" if label not in (MISSING, None, "") else f"label {entry.get('targetId')} cleared"
        )
        return shorten(text, width)
    if kind == "session_info":
        return shorten(f"name: {entry.get('name')}", width)
    if kind == "context_edit":
        replacement = entry.get("replacement")
        verb = "drop" if replacement is None else "replace"
        return shorten(f"edit: {verb} {entry.get('targetId')}", width)
    if kind == "custom_message":
        return shorten(f"custom message [{entry.get('customType')}]: {_one_line(content_preview(entry.get('content')))}", width)
    if kind == "custom":
        return shorten(f"custom [{entry.get('customType')}]", width)
    if kind == "usage":
        return shorten(f"usage: {entry.get('kind')} {entry.get('model')}", width)
    return shorten(f"{kind}", width)


def model_name(model: Any) -> str | None:
    """A model as people read it, provider/modelId (a context's, a usage's, a path's last); None when
    it names none. Every place that shows a model's name asks here."""
    if isinstance(model, dict):
        return f"{model.get('provider')}/{model.get('modelId')}"
    return None


def message_preview(message: Any) -> str:
    if not isinstance(message, dict):
        return ""
    role = message.get("role")
    if role == "bashExecution":
        return "$ " + _one_line(message.get("command"))
    if role == "toolResult":
        return f"{message.get('toolName')} → " + _one_line(content_preview(message.get("content")))
    content = message.get("content")
    text = content_preview(content)
    if not text:
        names = [str(call.get("name")) for call in calls_in(content)]
        if names:
            return "→ " + ", ".join(names)
    return _one_line(text)


def content_preview(content: Any, limit: int | None = 400, tool_calls: bool = True) -> str:
    """The first text of a content value (a string or a list of blocks), up to `limit` characters.

    Without text, the first tool call stands in as "→ name" unless `tool_calls` is off.
    """
    text = first_text(content)
    if text is not None:
        return text[:limit]
    if tool_calls:
        call = next(iter(calls_in(content)), None)
        if call is not None:
            return f"→ {call.get('name')}"
    return ""


def _one_line(value: Any) -> str:
    text = value if isinstance(value, str) else ("" if value in (None, MISSING) else str(value))
    return " ".join(text[:400].split())


# Labels are bookmarks: shown in full in the label editor, everywhere else this long at most.
LABEL_WIDTH = 40


def short_label(label: Any) -> str:
    """A label on one line, its control characters visible, shortened to LABEL_WIDTH."""
    return shorten(visible_line(_one_line(label)), LABEL_WIDTH)


def session_title(session: Any, words: int = 8, width: int = 60) -> str:
    """What names a session in a title bar: its name (pi's session_info), else its first user message's first words."""
    if session.name:
        return shorten(visible_line(_one_line(session.name)), width)
    for entry in session.entries.values():
        message = entry.message if entry.type == "message" else None
        if isinstance(message, dict) and message.get("role") == "user":
            text = content_preview(message.get("content"), limit=2000, tool_calls=False).split()
            if text:
                return shorten(visible_line(" ".join(text[:words]) + (" …" if len(text) > words else "")), width)
    return ""
