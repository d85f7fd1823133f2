"""JS value rules (model/js/value.py) checked against V8's own answers.

tests/v8/value_cases.json (written by tests/v8/value_cases.mjs with Node) holds
Number::toString for 600 doubles of every magnitude, Number() of numeric-looking
strings, String() and truthiness of JSON values, and trim() around every code point
some engine or library counts as white space.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from pibrowser.model.js.value import MISSING, compact, js_number_string, js_string, js_to_number, js_trim, js_truthy

CASES = json.loads((Path(__file__).parent / "v8" / "value_cases.json").read_text(encoding="utf-8"))


def test_number_to_string():
    wrong = [(value, js_number_string(float(value)), v8) for value, v8 in CASES["numberStrings"] if js_number_string(float(value)) != v8]
    assert wrong == []


@pytest.mark.parametrize("text, v8", CASES["numbers"])
def test_number_of_a_string(text, v8):
    assert js_number_string(js_to_number(text)) == v8


@pytest.mark.parametrize("value, text, truthy", CASES["strings"])
def test_string_and_truthiness_of_json_values(value, text, truthy):
    assert js_string(value) == text
    assert js_truthy(value) is truthy


@pytest.mark.parametrize("text, v8", CASES["trims"])
def test_trim(text, v8):
    assert js_trim(text) == v8


def test_what_json_cannot_hold():
    assert js_number_string(math.nan) == "NaN" and js_number_string(-math.inf) == "-Infinity" and js_number_string(-0.0) == "0"
    assert js_string(MISSING) == "undefined" and not js_truthy(MISSING) and not MISSING
    assert repr(MISSING) == "MISSING"
    assert math.isnan(js_to_number({})) and js_to_number(None) == 0 and js_to_number(True) == 1 and js_to_number([]) == 0
    assert js_to_number([" 2 "]) == 2 and math.isnan(js_to_number([1, 2])) and js_to_number(2.5) == 2.5
    assert not js_truthy(math.nan)
    assert compact(a=1, b=MISSING, c=None) == {"a": 1, "c": None}  # undefined vanishes, null stays


def test_plus_as_javascript_adds():
    from pibrowser.model.js.value import js_add

    assert js_add(1, 2) == 3 and js_add(None, 5) == 5 and js_add(True, 2) == 3
    assert js_add(js_add(js_add(1, 2), "3"), 4) == "334"  # a string concatenates from where it joins
    assert js_add("many", MISSING) == "manyundefined" and math.isnan(js_add(100, MISSING))
    assert js_add([1], 2) == "12" and js_add([], []) == "" and js_add({}, 1) == "[object Object]1"
    assert js_add(0.5, 0.25) == 0.75 and js_add(1e308, 1e308) == math.inf and js_add(10**400, 1) == math.inf
    assert js_add(2**53, 1) == 2**53  # past 2^53 the sum is a rounded double
