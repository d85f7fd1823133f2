"""Bringing version 1 and 2 sessions up to version 3, in memory only.

pi rewrites an old file when it opens it; pibrowser never writes the user's
file, so it migrates the parsed entries each time it loads.
"""

from __future__ import annotations

import secrets
from typing import Any

from ..js.value import MISSING, js_to_number

CURRENT_VERSION = 3


def header_version(header: dict[str, Any]) -> Any:
    version = header.get("version")
    return 1 if version is None else version  # `header.version ?? 1`


def needs_migration(header: dict[str, Any]) -> bool:
    # JS compares with ToNumber, so "2" counts as 2 and "abc" as NaN (never migrated).
    return js_to_number(header_version(header)) < CURRENT_VERSION


def migrate(header: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    """Mutate header and entries (file order, header excluded) to version 3."""
    version = js_to_number(header_version(header))
    if not version < CURRENT_VERSION:
        return
    if version < 2:
        _add_tree_structure(header, entries)
    _rename_hook_messages(header, entries)


def _add_tree_structure(header: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    """v1 → v2: a fresh id for every entry, each the child of the one before."""
    header["version"] = 2
    # firstKeptEntryIndex counts pi's parsed entries with the header at index 0.
    everything = [header, *entries]
    used: set[str] = set()
    previous: str | None = None
    for entry in entries:
        if entry.get("type") == "session":
            entry["version"] = 2
            continue
        entry["id"] = _fresh_id(used)
        entry["parentId"] = previous
        previous = entry["id"]
        if entry.get("type") == "compaction":
            _convert_first_kept_index(entry, everything)


def _convert_first_kept_index(entry: dict[str, Any], everything: list[dict[str, Any]]) -> None:
    index = entry.get("firstKeptEntryIndex", MISSING)
    if not isinstance(index, (int, float)) or isinstance(index, bool):
        return
    if float(index).is_integer() and 0 <= index < len(everything):
        target = everything[int(index)]
        if target.get("type") != "session":
            # A later target has no id yet at this point, as in pi's single pass.
            target_id = target.get("id", MISSING)
            if target_id is MISSING:
                entry.pop("firstKeptEntryId", None)
            else:
                entry["firstKeptEntryId"] = target_id
    del entry["firstKeptEntryIndex"]


def _rename_hook_messages(header: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    """v2 → v3: the `hookMessage` role became `custom`."""
    header["version"] = 3
    for entry in entries:
        if entry.get("type") == "session":
            entry["version"] = 3
            continue
        message = entry.get("message")
        if entry.get("type") == "message" and isinstance(message, dict) and message.get("role") == "hookMessage":
            message["role"] = "custom"


def _fresh_id(used: set[str]) -> str:
    while True:
        candidate = secrets.token_hex(4)
        if candidate not in used:
            used.add(candidate)
            return candidate
