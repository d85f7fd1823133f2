"""Tables as CSV for a spreadsheet: the one place that says how a value becomes a cell.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula (and a
tab or carriage return first lets one through some importers), so session text such
as an id `=HYPERLINK(…)` could run when the file is opened. Text that starts so gets
a leading apostrophe, which spreadsheets read as "this is text" (OWASP's advice for
CSV injection); a number is written as JSON writes it, so `-5` stays a number. A
value that is absent, null or not a finite number is an empty cell: JSON writes NaN
and Infinity as null, and null is an empty cell here.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from typing import Any

from ..js.stringify import js_stringify
from ..js.value import MISSING
from ..tokens.timeline import CSV_COLUMNS, TimelineRow

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> str:
    """One value as the text of its cell: text safe to open, numbers as JSON writes them."""
    if value is None or value is MISSING:
        return ""
    if isinstance(value, str):
        return "'" + value if value.startswith(_FORMULA_STARTS) else value
    if isinstance(value, float) and not math.isfinite(value):
        return ""
    text = js_stringify(value)
    if text is None or text == "null":
        return ""
    return text if isinstance(value, (int, float)) else csv_cell(text)


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A header row, then one line per row, each value through `csv_cell`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([csv_cell(value) for value in row] for row in rows)
    return out.getvalue()


def timeline_csv(rows: list[TimelineRow]) -> str:
    """The context over time's rows (tokens/timeline.py) as CSV."""
    return csv_text(CSV_COLUMNS, ([row.to_json()[column] for column in CSV_COLUMNS] for row in rows))
