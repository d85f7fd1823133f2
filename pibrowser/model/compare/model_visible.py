"""What of a message the model receives: the fields it never sees are left out.

Two messages are "the same for the model" when they are equal without
`timestamp` (any message), `usage`, `api`, `provider`, `model`, `responseId`
(assistant messages) and `details` (tool results). Prompts sent twice, the same
answer from another model, a tool result recorded again: all the same here.
"""

from __future__ import annotations

from typing import Any

import orjson

from ..js.stringify import dump_json

IGNORED_EVERYWHERE = ("timestamp",)
IGNORED_BY_ROLE = {
    "assistant": ("api", "provider", "model", "usage", "responseId"),
    "toolResult": ("details",),
}

# How a difference in an ignored field is told, quietly.
_FIELD_WORDS = {
    "timestamp": "other time",
    "provider": "other model",
    "model": "other model",
    "api": "other model",
    "responseId": "other response id",
    "usage": "other usage",
    "details": "other details",
}


def ignored_fields(message: Any) -> tuple[str, ...]:
    if not isinstance(message, dict):
        return ()
    role = message.get("role")  # a role that is no string (in a hand-edited file) ignores no more
    return IGNORED_EVERYWHERE + (IGNORED_BY_ROLE.get(role, ()) if isinstance(role, str) else ())


def visible_form(message: Any) -> Any:
    """The message without the fields the model never receives."""
    ignored = ignored_fields(message)
    if not ignored:
        return message
    return {key: value for key, value in message.items() if key not in ignored}


def visible_key(message: Any) -> bytes:
    """A hashable form of `visible_form`: equal keys mean the same for the model.

    Keys are sorted so that two writers' field orders do not count as a
    difference; the bytes are only compared, never shown.
    """
    form = visible_form(message)
    try:
        return orjson.dumps(form, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    except (orjson.JSONEncodeError, TypeError):
        # Integers past 64 bits or nesting past orjson's limit: the writer without recursion
        # (keys in the file's order: rare enough for that).
        return dump_json(form)


def same_for_model(left: Any, right: Any) -> bool:
    return left is right or visible_key(left) == visible_key(right)


def quiet_difference(left: Any, right: Any) -> str | None:
    """For two messages the same for the model: None if equal outright, else
    the ignored fields that differ in words ("other time / other model")."""
    if left is right or left == right or not isinstance(left, dict) or not isinstance(right, dict):
        return None
    words: list[str] = []
    for field in ignored_fields(left):
        if left.get(field) != right.get(field):
            word = _FIELD_WORDS.get(field, f"other {field}")
            if word not in words:
                words.append(word)
    return "same text, " + " / ".join(words) if words else None
