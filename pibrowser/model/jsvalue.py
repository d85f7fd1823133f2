"""JavaScript value semantics that pi's behaviour depends on.

pi is written in TypeScript; a few of its results hinge on JS rules (truthiness,
`undefined` keys vanishing from JSON, `String.prototype.trim`). Python has
different defaults, so the rules live here once.
"""

from __future__ import annotations

import math
from typing import Any


class _Missing:
    """A key that JavaScript would read as `undefined`: absent from JSON output."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()

# JS trim() strips WhiteSpace and LineTerminator code points; Python's strip()
# uses a different set (it strips \x1c-\x1f, keeps \ufeff).
_JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
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
    """ToNumber for the types a JSON header can hold (used for `version` comparisons)."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if value is None:
        return 0.0
    if isinstance(value, str):
        text = js_trim(value)
        if text == "":
            return 0.0
        try:
            if text[:2].lower() == "0x":
                return float(int(text[2:], 16))
            if text.lower().lstrip("+-") in ("inf", "infinity", "nan"):
                # Python accepts these spellings; JS only accepts "Infinity".
                return float(text) if text.lstrip("+-") == "Infinity" else math.nan
            return float(text)
        except ValueError:
            return math.nan
    return math.nan

