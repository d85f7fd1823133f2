"""A context as text or markdown for people: role, time, model, content, tool calls and results."""

from __future__ import annotations

from typing import Any

from .plural import plural
from ..session.content import BlockKind, ContentShape, block_kind, content_shape
from ..context.resolve import Context
from ..context.system_prompt import system_message_text
from .describe import as_text, model_name
from ..js.stringify import js_stringify
from .timefmt import format_millis

_MAX_INLINE = 4000


def render(context: Context, markdown: bool = False, limit: int | None = _MAX_INLINE) -> str:
    """The whole context; each text clipped to `limit` characters (None: nothing clipped, as for a copy)."""
    lines = [_header(context, markdown)]
    for message, source in zip(context.messages, context.message_sources()):
        lines.append(render_message(message, source.id, markdown, limit))
    return "\n".join(lines).rstrip() + "\n"


def _header(context: Context, markdown: bool) -> str:
    count = len(context.messages)  # no thousands separator: the shared page's script writes the same line
    text = f"leaf {context.leaf}: {count} {plural('message', count)}, {settings_text(context)}"
    return f"# Context at {context.leaf}\n\n{text}\n" if markdown else f"== {text}\n"


def settings_text(context: Context) -> str:
    """The header's "thinking …, model …" (the shared page replays it per node, so it is written here only)."""
    return settings_line(context.thinking_level, context.model)


def settings_line(thinking_level: Any, model: Any) -> str:
    """settings_text of the settings a context has (for a walk that knows them without the context)."""
    return f"thinking {thinking_level}, model {model_name(model) or 'none'}"


def render_message(message: Any, source_id: str, markdown: bool = False, limit: int | None = _MAX_INLINE) -> str:
    if not isinstance(message, dict):
        return _block(f"(value) [{source_id}]", message_body(message, limit), markdown)
    title = f"{as_text(message.get('role', '?'))} [{source_id}]"
    time = format_millis(message.get("timestamp"), utc=True)
    if time:
        title += f" · {time}"
    if message.get("model"):
        title += f" · {as_text(message.get('provider'))}/{as_text(message.get('model'))}"
    return _block(title, message_body(message, limit), markdown)


def _block(title: str, body: str, markdown: bool) -> str:
    if markdown:
        return f"## {title}\n\n{body}\n"
    return f"--- {title}\n{_indented(body)}\n"


# Where str.splitlines breaks a line besides "\n": with none of them, indenting is one replace.
_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def _indented(body: str) -> str:
    """Each line of `body` (as splitlines() cuts it) four spaces in; "(empty)" for none."""
    if not body:
        return "    (empty)"
    for mark in _OTHER_BREAKS:  # a search in C each: faster than one regex
        if mark in body:
            return "\n".join("    " + line for line in body.splitlines())
    return "    " + body.removesuffix("\n").replace("\n", "\n    ")


def message_body(message: Any, limit: int | None = _MAX_INLINE) -> str:
    """A message's text below its title line: summaries, shell runs and results in words, any other value as JSON."""
    if not isinstance(message, dict):
        return _json(message, limit)
    role = message.get("role")
    if role in ("compactionSummary", "branchSummary"):
        extra = f"(summarizes {as_text(message.get('tokensBefore'))} tokens)\n" if role == "compactionSummary" else ""
        return extra + as_text(message.get("summary", ""))
    if role == "system":
        return _clip(system_message_text(message), limit)  # a structured prompt: its text is in its sections
    if role == "bashExecution":
        return f"$ {as_text(message.get('command'))}\n{as_text(message.get('output'))}\n(exit {as_text(message.get('exitCode'))})"
    if role == "toolResult":
        status = "error" if message.get("isError") else "result"
        return f"{status} of {as_text(message.get('toolName'))} ({as_text(message.get('toolCallId'))}):\n{content_text(message.get('content'), limit)}"
    return content_text(message.get("content"), limit)


def content_text(content: Any, limit: int | None = _MAX_INLINE) -> str:
    shape = content_shape(content)
    if shape is ContentShape.STRING:
        return _clip(content, limit)
    if shape is ContentShape.BLOCKS:
        return "\n".join(_block_text(block, limit) for block in content)
    return "" if content is None else _json(content, limit)


def _block_text(block: Any, limit: int | None) -> str:
    kind = block_kind(block)
    if kind is BlockKind.TEXT:
        return _clip(as_text(block.get("text")), limit)
    if kind is BlockKind.THINKING:
        return "(thinking) " + _clip(as_text(block.get("thinking")), limit)
    if kind is BlockKind.IMAGE:
        return f"[image {as_text(block.get('mimeType', '?'))}, {len(as_text(block.get('data')))} base64 chars]"
    if kind is BlockKind.TOOL_CALL:
        return f"→ {as_text(block.get('name'))}({_json(block.get('arguments'), limit)}) [{as_text(block.get('id'))}]"
    return _json(block, limit)


def _json(value: Any, limit: int | None) -> str:
    # As pi's JSON.stringify writes it (2, not 2.0), like every other JSON we print.
    return _clip(js_stringify(value) or "undefined", limit)


def _clip(text: str, limit: int | None) -> str:
    if limit is None or len(text) <= limit:
        return text
    return text[:limit] + f"… ({len(text) - limit} more characters)"
