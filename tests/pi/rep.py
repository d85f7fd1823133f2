"""A JS value as pi_answers.mjs reports it (REP): what JSON.stringify would lose kept apart."""

from __future__ import annotations

from typing import Any

from pibrowser.model.js.value import js_string


def js_typeof(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"  # null, arrays and objects


def rep(value: Any) -> dict[str, Any]:
    """{"type": typeof, "value": the value (not for numbers: their string is exact), "string": String(value)}."""
    out: dict[str, Any] = {"type": js_typeof(value)}
    if out["type"] != "number":
        out["value"] = value
    out["string"] = js_string(value)
    return out
