"""JavaScript value semantics that pi's behaviour depends on.

pi is written in TypeScript; a few of its results hinge on JS rules (truthiness,
`undefined` keys vanishing from JSON, `String.prototype.trim`). Python has
different defaults, so the rules live here once.
"""

from __future__ import annotations

import math
import re
from typing import Any


class _Missing:
    """A key that JavaScript would read as `undefined`: absent from JSON output."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


class Unhashable:
    """A JSON object or array where pi compares a field with strings (an entry's `type`, a message's
    `role`). pi's `===` and `switch` match it with none of their strings, so it is a type or a role
    of its own, like an unknown word; Python's sets and dicts, which sort entries by those fields,
    cannot even hold it. This stands in for it there: equal only to itself, `value` the file's own,
    and it reads as its JSON."""

    __slots__ = ("value",)

    def __init__(self, value: dict[str, Any] | list[Any]) -> None:
        self.value = value

    def __str__(self) -> str:
        from .stringify import dump_json  # stringify builds on this module

        return dump_json(self.value).decode("utf-8")

    def __repr__(self) -> str:
        return f"Unhashable({type(self.value).__name__})"


def hashable(value: Any) -> Any:
    """`value`, or for an object or an array the Unhashable that stands in for it."""
    return Unhashable(value) if type(value) is dict or type(value) is list else value


def unwrapped(value: Any) -> Any:
    """The value the file holds where `hashable` may have stood in for it."""
    return value.value if type(value) is Unhashable else value


# JS trim() strips WhiteSpace and LineTerminator code points; Python's strip()
# uses a different set (it strips \x1c-\x1f, keeps \ufeff).
_JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    return text.strip(_JS_WHITESPACE)


def js_truthy(value: Any) -> bool:
    if value is MISSING or value is None or value is False:
        return False
    if isinstance(value, bool):
        return True
    if isinstance(value, (int, float)):
        return value != 0 and not math.isnan(value)
    if isinstance(value, str):
        return value != ""
    return True  # objects and arrays, even empty ones


def compact(**fields: Any) -> dict[str, Any]:
    """Build an object literal the way JS serialises it: undefined fields vanish."""
    return {key: value for key, value in fields.items() if value is not MISSING}


def js_to_number(value: Any) -> float:
    """ToNumber for what JSON can hold, and MISSING (undefined, NaN)."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        try:
            return float(value)
        except OverflowError:  # an integer literal past 1.8e308 parses to Infinity in JS
            return math.inf if value > 0 else -math.inf
    if value is None:
        return 0.0
    if isinstance(value, str):
        return _string_to_number(value)
    if isinstance(value, list):
        return _string_to_number(js_string(value))  # [] is 0, [2] is 2, [1, 2] is NaN
    return math.nan


# StringNumericLiteral, ASCII only: Python's float() and int() also take
# underscores, other scripts' digits and "inf"/"nan", which JS does not.
_DECIMAL = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)", re.ASCII)
_RADIX = re.compile(r"0(?:[xX]([0-9a-fA-F]+)|[oO]([0-7]+)|[bB]([01]+))", re.ASCII)


def _string_to_number(value: str) -> float:
    text = js_trim(value)
    if text == "":
        return 0.0
    if _DECIMAL.fullmatch(text):
        return float(text.replace("Infinity", "inf"))
    radix = _RADIX.fullmatch(text)
    if radix:
        hexadecimal, octal, binary = radix.groups()
        return float(int(hexadecimal, 16) if hexadecimal else int(octal, 8) if octal else int(binary, 2))
    return math.nan


_EXACT = 2**53  # past this a JS number is a rounded double


def js_add(left: Any, right: Any) -> Any:
    """`left + right` in JavaScript, for what JSON can hold (and MISSING for `undefined`).

    Arrays and objects turn into their strings first; then a string on either
    side concatenates, and anything else adds as numbers (undefined is NaN,
    null 0, booleans 0 or 1). A whole number a double holds exactly is an int.
    """
    if isinstance(left, (list, dict)):
        left = js_string(left)
    if isinstance(right, (list, dict)):
        right = js_string(right)
    if isinstance(left, str) or isinstance(right, str):
        return js_string(left) + js_string(right)
    if type(left) is int and type(right) is int and abs(left + right) <= _EXACT:
        return left + right
    total = js_to_number(left) + js_to_number(right)
    return int(total) if total.is_integer() and abs(total) <= _EXACT else total


def js_string(value: Any) -> str:
    """String(value) for what JSON can hold (arrays join their elements with commas)."""
    if type(value) is Unhashable:
        value = value.value
    if value is MISSING or value is None:
        return "undefined" if value is MISSING else "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number_string(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return _joined(value)
    return "[object Object]"


_END = object()


def _joined(value: list[Any]) -> str:
    """Array.prototype.join(",") all the way down, with a stack of its own: an array may hold
    arrays 100,000 levels deep."""
    done: list[list[str]] = [[]]  # the strings of each array being joined, innermost last
    walking = [iter(value)]
    while True:
        item = next(walking[-1], _END)
        if item is _END:
            walking.pop()
            text = ",".join(done.pop())
            if not walking:
                return text
            done[-1].append(text)
        elif type(item) is list:
            walking.append(iter(item))
            done.append([])
        else:
            done[-1].append("" if item is None or item is MISSING else js_string(item))


def js_number_string(value: float) -> str:
    """Number.prototype.toString(): the shortest round-trip digits, placed as JS places them."""
    number = float(value)
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "Infinity" if number > 0 else "-Infinity"
    if number == 0:
        return "0"
    # repr() gives the shortest digits that round-trip, as JS does; only the layout may differ.
    text = repr(number)
    if "e" not in text and not text.endswith(".0"):
        return text  # 1e-4 <= |number| < 1e16 and not whole: Python's layout is JS's
    from decimal import Decimal  # the layouts Python and JS do not share: seldom, so imported then

    sign = "-" if number < 0 else ""
    parts = Decimal(repr(abs(number))).normalize().as_tuple()
    digits = "".join(map(str, parts.digits))
    k = len(digits)
    assert isinstance(parts.exponent, int), "a finite number's exponent is a number"
    point = k + parts.exponent  # n in ECMA-262 Number::toString: where the decimal point falls
    if k <= point <= 21:
        return sign + digits + "0" * (point - k)
    if 0 < point <= 21:
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * -point + digits
    tail = f"{'+' if point > 0 else '-'}{abs(point - 1)}"
    return sign + digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + tail


def code_units(text: str) -> list[str]:
    """A string's UTF-16 code units, each a string of its own (half an emoji is a lone surrogate)."""
    if text.isascii():
        return list(text)
    data = text.encode("utf-16-le", "surrogatepass")
    return [data[at : at + 2].decode("utf-16-le", "surrogatepass") for at in range(0, len(data), 2)]


def object_entries(value: Any) -> list[tuple[str, Any]]:
    """Object.entries of a value that is not null or undefined: an object's fields, an array's items
    and a string's code units by their index, nothing of a number or a boolean."""
    if isinstance(value, dict):
        return list(value.items())
    if isinstance(value, list):
        return [(str(at), item) for at, item in enumerate(value)]
    if isinstance(value, str):
        return [(str(at), unit) for at, unit in enumerate(code_units(value))]
    return []


def array_join(items: list[Any], separator: str) -> str:
    """Array.prototype.join: null and undefined as nothing, anything else as String() writes it."""
    return separator.join("" if item is None or item is MISSING else js_string(item) for item in items)


def js_length(text: str) -> int:
    """`text.length` in JavaScript: UTF-16 code units."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def to_well_formed(text: str) -> str:
    """`text.toWellFormed()`: each lone surrogate (half an emoji, as JS leaves a sliced string) becomes U+FFFD.

    Such text cannot be encoded as UTF-8, so whatever must store or print it as UTF-8 asks for this first.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Through UTF-16, so two halves that make a pair become the one character they spell.
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text
