"""Rows as CSV a spreadsheet reads, its text cells made safe against formula injection.

A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return before
one) as a formula, and session text (a project's folder, a model's name, a title) is
whatever a file holds. Such a text cell gets a leading apostrophe, which spreadsheets
read as "this is text"; numbers are written as JavaScript writes them and left alone.
The one place CSV is written from the usage report: swapped for the project's shared
writer once there is one.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from ..js.value import js_string

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> str:
    """A cell's text: a number as JS prints it, None empty, text that a spreadsheet would run made inert."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        text = value if isinstance(value, str) else js_string(value)
        return "'" + text if text.startswith(_FORMULA_START) else text
    return js_string(value)


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A header line and one line per row, every cell through safe_cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(value) for value in row])
    return out.getvalue()
