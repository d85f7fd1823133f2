"""JSON.stringify, the one writer: every JSON byte pibrowser prints or copies comes from here.

pi writes its answers with JSON.stringify over values JSON.parse built, so three
things differ from what a Python encoder writes by default:

- numbers are JS doubles written by Number::toString (`2.0` → `2`, `4.1e-6` →
  `0.0000041`, `1e16` → `10000000000000000`, `-0` → `0`, an integer beyond 2^53
  as the double JS holds, NaN and ±Infinity → `null`);
- an object lists its array-index keys ("0", "17", below 2^32 − 1) first, in
  ascending order, then the other keys in insertion order;
- a lone surrogate is written as a `\\uXXXX` escape (well-formed JSON.stringify).

orjson is the fast path: values are first brought into a shape it writes the
JS way (integral doubles as ints, other numbers as pre-written fragments, keys
reordered). What orjson refuses (lone surrogates, nesting past its limit) is
written by an iterative encoder of our own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from json.encoder import encode_basestring
from typing import Any

import msgspec
import orjson

from .map_key import JsKey
from .value import MISSING, js_number_string

_SAFE_INTEGER = 2**53
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def dump_json(value: Any) -> bytes:
    """JSON.stringify(value) as UTF-8 bytes, for any value parsed from a session."""
    written = _as_it_is(value)
    if written is not None:
        return written
    try:
        return orjson.dumps(_orjson_ready(value))
    except (orjson.JSONEncodeError, TypeError, RecursionError):
        return _slow_stringify(value).encode("utf-8")


# Where orjson writing a value as it is may differ from JSON.stringify, read off what it wrote.
# Compact JSON has a number right after ":", "," or "[" (or first), and a key right after "{" or ","; a quote
# inside a string is escaped, so "{" or "," before a bare quote is never inside one (the same bytes
# in a text only send the value the long way). One pattern each, led by its literal: the search
# skips to that byte (a pattern led by a class of bytes tried every byte: three times slower).
_NOT_AS_IT_IS = [
    re.compile(pattern)
    for lead in (rb":", rb",", rb"\[", rb"\A")  # (\A: a number written alone)
    for pattern in (
        lead + rb"-?[0-9]+[.eE]",  # a float: orjson writes 1.0 and 1e+16, JavaScript 1 and 10000000000000000
        lead + rb"-?[0-9]{16}",  # an integer that may be past 2**53: JavaScript holds it as a double
    )
] + [re.compile(rb'\{"[0-9]'), re.compile(rb',"[0-9]')]  # a key that may be an array index: JavaScript lists those first


def _as_it_is(value: Any) -> bytes | None:
    """orjson's JSON of `value` as it is, when that is JSON.stringify's: no number but integers
    below 16 digits, no key that starts with a digit, no id that is not a string (a subclass,
    refused), nothing orjson refuses (a lone surrogate, nesting past its limit, an integer past 64
    bits). Else None, and the value is walked (_orjson_ready): a million-entry context spent two
    seconds there, for values that have none of those."""
    try:
        written = orjson.dumps(value, option=orjson.OPT_PASSTHROUGH_SUBCLASS)
    except (orjson.JSONEncodeError, TypeError, RecursionError):
        return None
    return None if any(pattern.search(written) for pattern in _NOT_AS_IT_IS) else written


def dump_json_array(
    items: Iterable[Any],
    chunk: int = 4096,
    plain: Callable[[Any], Any] | None = None,
    ready: Callable[[Any], Any] | None = None,
    ready_struct: Callable[[Any], msgspec.Struct] | None = None,
) -> Iterator[bytes]:
    """JSON.stringify of the array of `items`, in pieces: a long array's JSON (and the copy of its
    items made for orjson) need not be held whole. Its elements are written one by one anyway.

    `plain` gives an item's value (the item itself without it). `ready` gives that value already in
    the shape orjson writes as JSON.stringify does (numbers as `ready_number` gives them, an object's
    keys in JS's order), so it is written without being walked; where orjson refuses what it gives
    (a lone surrogate, a JsKey), the plain values are written the usual way. `ready_struct` gives it
    as a msgspec Struct instead (made in C, where a dict is made in Python), its fields the object's
    keys in their order, its numbers as `ready_raw_number` gives them, its other values strings,
    bools, None and dicts of those: msgspec writes those as orjson does (strings alike at every
    code point), and refuses what orjson refuses."""
    yield b"["
    items = iter(items)
    separator = b""
    while batch := list(islice(items, chunk)):
        written = None
        if ready_struct is not None:
            try:
                written = _encode_structs(list(map(ready_struct, batch)))
            except (TypeError, UnicodeEncodeError, msgspec.EncodeError):  # a str subclass (a JsKey), a lone surrogate
                written = None
        elif ready is not None:
            try:
                # A subclass (an id that is not a string, a JsKey) is refused: its value is the one written.
                written = orjson.dumps(list(map(ready, batch)), option=orjson.OPT_PASSTHROUGH_SUBCLASS)
            except (orjson.JSONEncodeError, TypeError):
                written = None
        if written is None:
            written = dump_json(batch if plain is None else list(map(plain, batch)))
        yield separator + written[1:-1]
        separator = b","
    yield b"]"


def dump_json_indented(value: Any) -> str:
    """JSON.stringify(value, null, 2), for showing a value to a person.

    orjson's two-space layout is JSON.stringify's; what orjson refuses is shown
    compact by the slow path rather than not at all.
    """
    try:
        return orjson.dumps(_orjson_ready(value), option=orjson.OPT_INDENT_2).decode("utf-8")
    except (orjson.JSONEncodeError, TypeError, RecursionError):
        return _slow_stringify(value)


def js_stringify(value: Any) -> str | None:
    """JSON.stringify(value) as text; None where JavaScript gives undefined (a missing value)."""
    if value is MISSING:
        return None
    return dump_json(value).decode("utf-8")


def json_number(value: int | float) -> str:
    """How JSON.stringify writes a number JSON.parse read (an int beyond 2^53 is held as a double)."""
    if isinstance(value, int) and -_SAFE_INTEGER <= value <= _SAFE_INTEGER:
        return str(value)
    try:
        number = float(value)
    except OverflowError:  # more digits than a double holds: JS reads Infinity
        return "null"
    return js_number_string(number) if math.isfinite(number) else "null"


def js_key_order(keys: list[str]) -> list[str]:
    """The order a JavaScript object lists its own keys: array indices first, ascending."""
    indexed = [key for key in keys if _array_index(key) is not None]
    if not indexed:
        return keys
    indexed.sort(key=int)  # an array index's value is its digits read as a number
    return indexed + [key for key in keys if _array_index(key) is None]


def _array_index(key: Any) -> int | None:
    if isinstance(key, str) and key.isdigit() and key.isascii() and (key == "0" or key[0] != "0"):
        number = int(key)
        return number if number < 2**32 - 1 else None
    return None


_LEAVES = frozenset({str, bool, type(None)})  # written by orjson as JSON.stringify writes them


def _orjson_ready(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        # Leaves orjson writes as they are are not visited: a context holds tens of thousands.
        ready = {key: item if type(item) in _LEAVES else _orjson_ready(item) for key, item in value.items()}
        # A key that starts with an ASCII digit sorts before ":" (min() raises TypeError, and the
        # slow path writes the value, when a key is not a string).
        if ready and min(ready) < ":":
            ready = {key: ready[key] for key in js_key_order(list(ready))}
        return ready
    if kind is list:
        return [item if type(item) in _LEAVES else _orjson_ready(item) for item in value]
    if kind is int or kind is float:
        return ready_number(value)
    if kind is JsKey:  # an id that is not a string: written as the value it is (undefined: left out, by the slow path)
        return _orjson_ready(value.value)
    return value  # a leaf, or anything else: orjson's to refuse, and the slow path's to write


_READY_FLOATS: dict[float, Any] = {}  # ready_number of the doubles seen: a trace writes 500,000 figures
_READY_KEPT = 1 << 16


def ready_number(value: Any) -> Any:
    """A number as orjson writes it the way JSON.stringify does: an integral double or a safe int as
    an int (-0 as 0), any other as its JS digits; any other value as it is."""
    kind = type(value)
    if kind is int:
        return value if -_SAFE_INTEGER <= value <= _SAFE_INTEGER else orjson.Fragment(json_number(value))
    if kind is float:
        ready = _READY_FLOATS.get(value)  # -0.0 finds 0.0's: both are written 0
        if ready is None:
            if value.is_integer() and -_SAFE_INTEGER <= value <= _SAFE_INTEGER:
                ready = int(value)  # also turns -0.0 into 0, as JS writes it
            else:
                ready = orjson.Fragment(json_number(value))
            if len(_READY_FLOATS) >= _READY_KEPT:
                _READY_FLOATS.clear()
            _READY_FLOATS[value] = ready
        return ready
    return value


_RAW_FLOATS: dict[float, Any] = {}  # ready_raw_number of the doubles seen, as _READY_FLOATS


def ready_raw_number(value: Any) -> Any:
    """ready_number for msgspec (dump_json_array's `ready_struct`): JS digits as msgspec.Raw."""
    kind = type(value)
    if kind is float:
        ready = _RAW_FLOATS.get(value)  # -0.0 finds 0.0's: both are written 0
        if ready is None:
            ready = ready_number(value)
            if type(ready) is not int:
                ready = msgspec.Raw(json_number(value).encode("ascii"))
            if len(_RAW_FLOATS) >= _READY_KEPT:
                _RAW_FLOATS.clear()
            _RAW_FLOATS[value] = ready
        return ready
    if kind is int and not -_SAFE_INTEGER <= value <= _SAFE_INTEGER:
        return msgspec.Raw(json_number(value).encode("ascii"))
    return value


_encode_structs = msgspec.json.Encoder().encode


class _Text:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _slow_stringify(value: Any) -> str:
    """The same output without recursion, for values orjson refuses."""
    parts: list[str] = []
    stack: list[Any] = [value]  # values to write, and the punctuation between them
    while stack:
        item = _plain(stack.pop())
        if isinstance(item, _Text):
            parts.append(item.text)
        elif isinstance(item, dict):
            _push_object(stack, item)
        elif isinstance(item, list):
            _push_array(stack, item)
        else:
            parts.append(_scalar(item))
    return "".join(parts)


def _plain(value: Any) -> Any:
    return value.value if type(value) is JsKey else value


def _push_object(stack: list[Any], item: dict[str, Any]) -> None:
    keys = [key for key in js_key_order(list(item)) if _plain(item[key]) is not MISSING]
    if not keys:
        stack.append(_Text("{}"))
        return
    stack.append(_Text("}"))
    for index in range(len(keys) - 1, -1, -1):
        stack.append(item[keys[index]])
        stack.append(_Text(("{" if index == 0 else ",") + _quote(str(keys[index])) + ":"))


def _push_array(stack: list[Any], item: list[Any]) -> None:
    if not item:
        stack.append(_Text("[]"))
        return
    stack.append(_Text("]"))
    for index in range(len(item) - 1, -1, -1):
        child = _plain(item[index])
        stack.append(None if child is MISSING else child)
        stack.append(_Text("[" if index == 0 else ","))


def _scalar(value: Any) -> str:
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, (int, float)):
        return json_number(value)
    return "null"  # None, and anything no JSON holds


def _quote(text: str) -> str:
    quoted = encode_basestring(text)
    if not text.isascii() and _LONE_SURROGATE.search(quoted):
        quoted = _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", quoted)
    return quoted
