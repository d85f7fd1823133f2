"""A card's right-click menu: copy what it shows (whole, never clipped) or select its entry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QApplication, QMenu, QWidget

from ...model.session.content import tool_calls
from ...model.js.stringify import dump_json_indented
from ...model.text.transcript import content_text, message_body
from .card_items import CardItem
from ..common.widgets import menu_text


def message_text(message: Any) -> str:
    """What a person would paste: the text of a chat message, else the card's transcript form."""
    if isinstance(message, dict) and message.get("role") in ("user", "assistant", "custom") and "content" in message:
        return content_text(message.get("content"), limit=None)
    return message_body(message, limit=None)


def message_json(message: Any) -> str:
    """The message as pi's JSON.stringify(message, null, 2) writes it (numbers and key order as JS has them)."""
    return dump_json_indented(message)


def call_ids(message: Any) -> list[str]:
    """The tool call ids a message holds: its calls' (an assistant's), or the one it answers."""
    if not isinstance(message, dict):
        return []
    if message.get("role") == "toolResult":
        answered = message.get("toolCallId")
        return [answered] if isinstance(answered, str) else []
    if message.get("role") == "assistant":
        return [call["id"] for call in tool_calls(message.get("content")) if isinstance(call.get("id"), str)]
    return []


def card_menu(item: CardItem, select: Callable[[], None], parent: QWidget) -> QMenu:
    """The menu of a row's card; `select` selects its entry."""
    menu = QMenu(parent)
    message, entry = item.message, item.entry
    clipboard = QApplication.clipboard()
    menu.addAction("Copy Text", lambda: clipboard.setText(message_text(message)))
    menu.addAction("Copy Message JSON", lambda: clipboard.setText(message_json(message)))
    menu.addAction(menu_text(f"Copy Entry Id ({entry.id})"), lambda: clipboard.setText(entry.id))
    calls = call_ids(message)
    if calls:
        # The rows show ids shortened and drawn, not selectable: copied whole from here.
        label = f"Copy Tool Call Id ({calls[0]})" if len(calls) == 1 else f"Copy {len(calls)} Tool Call Ids"
        menu.addAction(menu_text(label), lambda: clipboard.setText("\n".join(calls)))
    menu.addSeparator()
    menu.addAction(menu_text(f"Select Entry {entry.id}"), select)
    return menu
