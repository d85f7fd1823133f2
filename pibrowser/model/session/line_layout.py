"""pi's line layout: what its JSON.stringify writes for each entry, read off the raw bytes.

pi writes every entry as one line (`entry_object`, `entry_line`), keys in a fixed order: type, id, parentId,
timestamp, then the entry's own fields; a message's object starts with its role.
Loading a 100,000-entry file parses no line in full: what the tree needs is read
from the leading bytes where pi's layout makes that certain, and a line that does
not look exactly as pi writes it is parsed instead (the filters and the usage
totals decode the few fields they need later, see line_fields.py). This module is
the only one that knows the layout.
"""

from __future__ import annotations

import re
from typing import Any

from ..js.stringify import dump_json


def entry_object(kind: str, key: str, parent: str | None, timestamp: str, **fields: Any) -> dict[str, Any]:
    """An entry with its keys in pi's order: type, id, parentId and timestamp, then its own fields."""
    return {"type": kind, "id": key, "parentId": parent, "timestamp": timestamp, **fields}


def entry_line(entry: dict[str, Any]) -> bytes:
    """The line pi appends for an entry: JSON.stringify's bytes and a newline."""
    return dump_json(entry) + b"\n"


# pi writes every entry with JSON.stringify and this key order, so the fields the
# tree needs sit at the front of the line. A line that does not start this way
# (hand-edited, escaped ids, `custom` entries) is parsed in full instead.
LEADING_FIELDS = re.compile(
    rb'\{"type":"([^"\\]*)","id":"([^"\\]+)","parentId":(?:"([^"\\]*)"|null),'
    rb'"timestamp":"([^"\\]*)"(?:,"message":\{"role":"([^"\\]*)")?'
)

# The same leading fields at the start of every line of a run of lines (each after the newline before
# it), for findall to read them off a batch without splitting it: type, id, parentId (empty for null), role.
LINE_STARTS = re.compile(
    rb'\n\{"type":"([^"\\]*)","id":"([^"\\]+)","parentId":(?:"([^"\\]*)"|null),'
    rb'"timestamp":"[^"\\]*"(?:,"message":\{"role":"([^"\\]*)")?'
)

# Loading marks a message line without this field as recording no usage (see LineTable.no_usage).
USAGE_FIELD = b'"usage":'


def edit_without_replacement(raw: bytes) -> bool:
    """Whether a context_edit's line has no `replacement` field (pi stops with a TypeError on a path
    where such an edit applies: reader.NO_REPLACEMENT). A byte search: the field's name inside a
    string can hide one, never invent one."""
    return b'"replacement":' not in raw
