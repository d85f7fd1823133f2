"""One-line descriptions of entries, for the tree views and the text output."""

from __future__ import annotations

from typing import Any

from ..session.content import first_text
from ..session.content import tool_calls as calls_in
from ..session.entry import Entry
from ..js.stringify import js_stringify
from ..js.value import MISSING, unwrapped
from .terminal_text import shorten, visible_line


def entry_kind(entry: Entry) -> str:
    """The entry's type, or for a message its role: what colours and filters key on."""
    return entry_kind_of(entry.type, entry.role)


def entry_kind_of(kind: Any, role: Any) -> str:
    """entry_kind of an entry of this type and role."""
    if kind == "message":
        return str(role) if role is not MISSING else "message"
    return str(kind)


def entry_title(entry: Entry, width: int = 80) -> str:
    return fields_title(entry.type, entry.role, entry.data, width)


def fields_title(kind: Any, role: Any, fields: dict[str, Any], width: int = 80) -> str:
    """entry_title of the entry of this type and role whose line holds `fields`: for a pass over
    every line of a file, which has no Entry to make."""
    if kind == "message":
        return message_title(role, fields.get("message", MISSING), width)
    get = fields.get
    if kind == "compaction":
        return shorten(f"compaction ({get('tokensBefore', MISSING)} tokens before): {_one_line(get('summary', MISSING))}", width)
    if kind == "branch_summary":
        return shorten(f"branch summary: {_one_line(get('summary', MISSING))}", width)
    if kind == "model_change":
        return shorten(f"model → {get('provider', MISSING)}/{get('modelId', MISSING)}", width)
    if kind == "thinking_level_change":
        return shorten(f"thinking → {get('thinkingLevel', MISSING)}", width)
    if kind == "label":
        label, target = get("label", MISSING), get("targetId", MISSING)
        return shorten(f"label {target} = {label!r}" if label not in (MISSING, None, "") else f"label {target} cleared", width)
    if kind == "session_info":
        return shorten(f"name: {get('name', MISSING)}", width)
    if kind == "context_edit":
        verb = "drop" if get("replacement", MISSING) is None else "replace"
        return shorten(f"edit: {verb} {get('targetId', MISSING)}", width)
    if kind == "custom_message":
        return shorten(f"custom message [{get('customType', MISSING)}]: {_one_line(content_preview(get('content', MISSING)))}", width)
    if kind == "custom":
        return shorten(f"custom [{get('customType', MISSING)}]", width)
    if kind == "usage":
        return shorten(f"usage: {get('kind', MISSING)} {get('model', MISSING)}", width)
    return shorten(f"{kind}", width)


def model_name(model: Any) -> str | None:
    """A model as people read it, provider/modelId (a context's, a usage's, a path's last); None when
    it names none. Every place that shows a model's name asks here."""
    if isinstance(model, dict):
        return f"{as_text(model.get('provider'))}/{as_text(model.get('modelId'))}"
    return None


def message_title(role: Any, message: Any, width: int = 80) -> str:
    """entry_title of a message entry whose message (with this role) is `message`."""
    head = _MESSAGE_HEADS.get(role) if role.__class__ is str else None
    if head is None:
        head = f"{entry_kind_of('message', role)}: "
        if role.__class__ is str and len(_MESSAGE_HEADS) < 64:
            _MESSAGE_HEADS[role] = head
    return shorten(head + message_preview(message, width - len(head)), width)


_MESSAGE_HEADS: dict[str, str] = {}  # a message title's start, by role: made once for each of the few roles


def message_preview(message: Any, room: int | None = None) -> str:
    """A message on one line. With `room`, only what shows in `room` characters is sure: see _one_line."""
    if not isinstance(message, dict):
        return ""
    role = message.get("role")
    if role == "bashExecution":
        return "$ " + _one_line(message.get("command"), None if room is None else room - 2)
    if role == "toolResult":
        name = message.get("toolName")
        head = f"{name if name.__class__ is str else as_text(name)} → "
        return head + _one_line(content_preview(message.get("content")), None if room is None else room - len(head))
    content = message.get("content")
    text = content_preview(content)
    if not text:
        names = [as_text(call.get("name")) for call in calls_in(content)]
        if names:
            return "→ " + ", ".join(names)
    return _one_line(text, room)


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
            return f"→ {as_text(call.get('name'))}"
    return ""


def as_text(value: Any) -> str:
    """A session's value as people read it: a string as it is, nothing as "", anything else as its
    JSON (written without recursion: a value may be nested 100,000 levels deep, where str() fails)."""
    if isinstance(value, str):
        return value
    if value is None or value is MISSING:
        return ""
    return js_stringify(unwrapped(value)) or ""


def _one_line(value: Any, room: int | None = None) -> str:
    """The first 400 characters of `value` on one line, each run of white space one space, none at
    the ends. With `room`, the line may stop early, where it already runs past `room` characters:
    shortened to `room` it reads the same, and it is longer than `room` exactly when the whole line
    is. (A start of the text leaves a start of its line; a title shows 100 characters of it, and
    splitting all 400 was most of the cost of a tree's text.)"""
    text = (value if value.__class__ is str else as_text(value))[:400]
    if room is not None and len(text) > (room := room if room > 0 else 0) + 2:
        start = text[: room + 3]
        if "  " not in start and start.isprintable():
            return start.strip(" ")  # its only white space is single spaces (no other is printable): one line but for its ends
        start = " ".join(text[: room * 5 // 4 + 8].split())
        if len(start) > room:
            return start
    return " ".join(text.split())


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
