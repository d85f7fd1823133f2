"""pi's getCurrentSystemMessage: every system message on a path folded into the one in force."""

from __future__ import annotations

from typing import Any

from ..session.content import BlockKind, block_text, blocks
from ..js.value import MISSING


def current_system_message(messages: list[Any]) -> dict[str, Any] | None:
    """pi's getCurrentSystemMessage: all system messages folded into one."""
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
        message_sections = message.get("sections")
        if isinstance(message_sections, dict):
            for name, value in message_sections.items():
                if value is None:
                    sections.pop(name, None)
                else:
                    sections[name] = value
        for tool in message.get("toolsRemoved") or ():
            if isinstance(tool, dict):
                tools.pop(tool.get("name"), None)
        for tool in message.get("toolsAdded") or ():
            if isinstance(tool, dict):
                tools[tool.get("name")] = tool
    if (timestamp is MISSING or timestamp is None) and not tools:
        return None
    folded: dict[str, Any] = {"role": "system", "content": "\n\n".join(content)}
    if sections:
        folded["sections"] = sections
    if tools:
        folded["toolsAdded"] = list(tools.values())
    folded["timestamp"] = timestamp if timestamp is not MISSING and timestamp is not None else 0
    return folded


def system_message_text(message: dict[str, Any]) -> str:
    """pi's getSystemMessageText: the whole prompt a system message gives, its content's text then the
    text of each section it sets (not those it removes), blank-line separated, empty parts left out."""
    parts = [_content_text(message.get("content"))]
    sections = message.get("sections")
    if isinstance(sections, dict):
        parts.extend(text for text in sections.values() if text is not None)
    return "\n\n".join(part for part in parts if isinstance(part, str) and part)


def _content_text(content: Any) -> str:
    # pi joins the text blocks' texts; a text that is not a string joins as nothing.
    if isinstance(content, str):
        return content
    return "\n".join(block_text(block) or "" for kind, block in blocks(content) if kind is BlockKind.TEXT)
