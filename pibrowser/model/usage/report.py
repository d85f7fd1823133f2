"""A usage grouping as people read it (an aligned table with its total), as JSON, or as CSV.

JSON: `{"by", "rows": [{"key", "replies", "input", "output", "cache_read", "cache_write",
"cost"}], "total": {...}}`, rows by cost, largest first, numbers as JSON.stringify writes
them (a sum JS's + turned into NaN is null, as pi's JSON would have it).
"""

from __future__ import annotations

import math
from typing import Any

from ..js.value import js_string
from ..text.amounts import format_cost
from ..text.plural import counted
from ..text.terminal_text import columns, fit, one_line, pad
from .grouping import UsageTable
from .ledger import Ledger

CSV_COLUMNS = ("key", "replies", "input", "output", "cache_read", "cache_write", "cost")
KEY_TITLES = {"day": "Day", "week": "Week", "month": "Month", "project": "Project", "model": "Model", "session": "Session"}
KEY_WIDTH = 60
NO_TIME_TEXT = "(time unknown)"


def usage_json(table: UsageTable) -> bytes:
    from ..js.stringify import dump_json  # (each format imports what it writes with: a run writes one)

    return dump_json({"by": table.by, "rows": [row.to_json() for row in table.rows], "total": table.total.to_json(with_key=False)})


def usage_csv(table: UsageTable) -> str:
    """A header and one line per row (the total is the spreadsheet's to make)."""
    from ..text.csv_cells import csv_text

    return csv_text(CSV_COLUMNS, ([row.key, row.replies, *row.figures] for row in table.rows))


def usage_text(table: UsageTable, ledger: Ledger, zone: str) -> str:
    """An aligned table: a row per group, largest cost first, then the total."""
    if not table.rows:
        return "No usage recorded.\n"
    titles = {usage.file: usage.title for usage in ledger.files}
    keys = [_key_text(table.by, row.key, titles) for row in table.rows]
    width = min(KEY_WIDTH, max(len(KEY_TITLES[table.by]), 5, *(columns(key) for key in keys)))
    header = ["Replies", "Input", "Output", "Cache read", "Cache write", "Tokens", "Cost"]
    cells = [_figures(row) for row in table.rows]
    total = _figures(table.total)
    widths = [max(len(title), *(len(line[column]) for line in [*cells, total])) for column, title in enumerate(header)]

    def line(key: str, values: list[str]) -> str:
        return pad(fit(key, width), width) + "  " + "  ".join(value.rjust(widths[column]) for column, value in enumerate(values))

    out = [line(KEY_TITLES[table.by], header), "─" * (width + 2 + sum(widths) + 2 * (len(widths) - 1))]
    out += [line(key, values) for key, values in zip(keys, cells)]
    out.append("─" * len(out[1]))
    out.append(line("Total", total))
    where = f" (days in {zone})" if table.by in ("day", "week", "month") else ""
    copies = f"; {ledger.copies:,} copied by forks or extracts, counted once" if ledger.copies else ""
    out.append(f"{counted(len(ledger.files), 'session')}{where}{copies}")
    return "\n".join(out) + "\n"


def _key_text(by: str, key: str | None, titles: dict[str, str]) -> str:
    if key is None:
        return NO_TIME_TEXT
    if by == "session":
        return one_line(titles.get(key, key))
    return one_line(key)


def _figures(row: Any) -> list[str]:
    return [f"{row.replies:,}", *(_count(value) for value in row.figures[:4]), _count(row.tokens), _cost(row.cost)]


def _count(value: Any) -> str:
    if type(value) is float and math.isfinite(value):
        return f"{value:,.0f}"
    return one_line(js_string(value), 24)  # NaN, Infinity, or what JS's + made of a string


def _cost(value: Any) -> str:
    if type(value) is float and math.isfinite(value):
        return format_cost(value)
    return one_line(js_string(value), 24)
