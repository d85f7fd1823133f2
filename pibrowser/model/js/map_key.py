"""An entry id as pi's Map keys it: any JSON value, compared as JavaScript's Map compares keys.

pi indexes entries in a `Map` by `entry.id`, whatever its type, and looks parents,
labels and edits up in it by `parentId`, `targetId`: so `parentId: 123` names the
entry whose `id` is the number 123, and never the one whose id is the string "123";
every entry without an id is keyed `undefined`, the same key for all of them; an
object or array id is a key of its own that no lookup finds (SameValueZero compares
objects by identity, and every parsed object is a new one).

A string id is its own key. Any other value becomes a `JsKey`: a str (so it goes
wherever an id goes, and reads as its JSON text, or "undefined") that equals and
hashes only as that JS value would as a key, never as a string: a real entry whose
id is "@line3" or "123" stays apart from it.
"""

from __future__ import annotations

import math
from typing import Any

from .value import MISSING, js_string


class JsKey(str):
    """An id that is not a JSON string, keyed as JavaScript's Map keys it (`value`: the value itself)."""

    value: Any
    _identity: tuple[Any, ...]

    def __new__(cls, value: Any) -> JsKey:
        key = super().__new__(cls, _text(value))
        key.value = value
        key._identity = _identity(value)
        return key

    def __eq__(self, other: object) -> bool:
        return type(other) is JsKey and other._identity == self._identity

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._identity)

    def __repr__(self) -> str:
        return f"JsKey({'undefined' if self.value is MISSING else self.value!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (JsKey, (self.value,))


def js_key(value: Any) -> str:
    """The Map key of a parsed JSON value (MISSING: undefined): a string as it is, anything else a JsKey.
    A key already made is its own key (a linked entry's parentId holds its parent's)."""
    return value if value.__class__ is str or value.__class__ is JsKey else JsKey(value)


def key_truthy(key: str) -> bool:
    """Whether the value a key stands for is truthy in JS (pi follows a parentId only when it is)."""
    if key.__class__ is str:
        return key != ""
    value = key.value  # type: ignore[attr-defined]
    if value is MISSING or value is None or value is False:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value != 0
    return True


def key_string(key: str) -> str:
    """String() of the value a key stands for: how a JS object (JSON's keys, pi's answers) keys it."""
    return key if key.__class__ is str else js_string(key.value)  # type: ignore[attr-defined]


def _identity(value: Any) -> tuple[Any, ...]:
    if value is MISSING:
        return ("undefined",)
    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, (int, float)):
        return ("number", _double(value))  # 1 and 1.0 are one number, so are 0 and -0 (SameValueZero)
    if isinstance(value, str):
        return ("string", value)  # only reached through JsKey(str) directly; js_key keeps a string as it is
    return ("object", id(value))  # kept alive by `value`: identity, as a Map compares objects


def _double(value: int | float) -> float:
    try:
        number = float(value)
    except OverflowError:  # an integer literal beyond a double: Infinity in JS
        return math.inf if value > 0 else -math.inf
    return number


def _text(value: Any) -> str:
    if value is MISSING:
        return "undefined"
    from .stringify import dump_json

    return dump_json(value).decode("utf-8", errors="replace")
