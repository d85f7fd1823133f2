"""pi's getCurrentSystemMessage: every system message on a path folded into the one in force."""

from __future__ import annotations

from typing import Any

from ..session.content import BlockKind, blocks
from ..js.map_key import js_key
from ..js.value import MISSING, array_join, object_entries


def current_system_message(messages: list[Any]) -> dict[str, Any] | None:
    """pi's getCurrentSystemMessage: all system messages folded into one.

    As pi's JavaScript reads them: the first timestamp that is not null, the content's texts,
    the sections by Object.entries (a string's are its characters), and the tools added and
    removed keyed by their `name` as a Map keys it (a tool that is no object has none). What
    would make pi throw (tools that are an object, a null tool, content of no list) is left out.
    """
    content: list[str] = []
    sections: dict[str, Any] = {}
    tools: dict[Any, Any] = {}
    timestamp: Any = MISSING
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "system":
            continue
        if timestamp is MISSING or timestamp is None:
            timestamp = message.get("timestamp", MISSING)
        text = _content_text(message.get("content"))
        if text:
            content.append(text)
        for name, value in object_entries(message.get("sections")):
            if value is None:
                sections.pop(name, None)
            else:
                sections[name] = value
        for tool in _tools(message.get("toolsRemoved")):
            tools.pop(_tool_key(tool), None)
        for tool in _tools(message.get("toolsAdded")):
            tools[_tool_key(tool)] = tool
    if (timestamp is MISSING or timestamp is None) and not tools:
        return None
    folded: dict[str, Any] = {"role": "system", "content": "\n\n".join(content)}
    if sections:
        folded["sections"] = sections
    if tools:
        folded["toolsAdded"] = list(tools.values())
    folded["timestamp"] = timestamp if timestamp is not MISSING and timestamp is not None else 0
    return folded


def _tools(value: Any) -> list[Any]:
    # `for (const tool of message.toolsAdded ?? [])`: a list's items, a string's characters.
    items = value if isinstance(value, list) else list(value) if isinstance(value, str) else ()
    return [tool for tool in items if tool is not None]


def _tool_key(tool: Any) -> Any:
    return js_key(tool.get("name", MISSING) if isinstance(tool, dict) else MISSING)


def system_message_text(message: dict[str, Any]) -> str:
    """pi's getSystemMessageText: the whole prompt a system message gives, its content's text then the
    text of each section it sets (not those it removes), blank-line separated, empty parts left out."""
    parts = [_content_text(message.get("content"))]
    sections = message.get("sections")
    if isinstance(sections, dict):
        parts.extend(text for text in sections.values() if text is not None)
    return "\n\n".join(part for part in parts if isinstance(part, str) and part)


def _content_text(content: Any) -> str:
    # pi's contentText: a string as it is; else the text blocks' texts joined as Array.join writes them.
    if isinstance(content, str):
        return content
    return array_join([block.get("text", MISSING) for kind, block in blocks(content) if kind is BlockKind.TEXT], "\n")
