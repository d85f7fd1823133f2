"""Bringing version 1 and 2 sessions up to version 3.

pi rewrites an old file when it opens it; pibrowser never writes the user's
file unasked, so it migrates the parsed entries each time it loads (and writes
the migrated file only when the user upgrades it: writing/upgrade.py).

pi gives a version 1 file's entries fresh random ids. Ours are made from the
file and the line instead (`stable_id`), so they are the same on every load:
the tree, the command line, the search index and a label all name the same
entry, and an upgrade writes those very ids.
"""

from __future__ import annotations

from typing import Any

from ..js.value import MISSING, js_to_number

CURRENT_VERSION = 3

_MASK = 0xFFFFFFFF


def header_version(header: dict[str, Any]) -> Any:
    version = header.get("version")
    return 1 if version is None else version  # `header.version ?? 1`


def needs_migration(header: dict[str, Any]) -> bool:
    # JS compares with ToNumber, so "2" counts as 2 and "abc" as NaN (never migrated).
    return js_to_number(header_version(header)) < CURRENT_VERSION


def has_no_ids(header: dict[str, Any]) -> bool:
    """A version 1 file: its entries get their ids from the migration (`stable_id`)."""
    return js_to_number(header_version(header)) < 2


def stable_id(session_id: Any, line: int) -> str:
    """The id a version 1 entry gets from us: 8 hex digits, as pi's, made from the session's id
    and the entry's line number, so the same bytes give the same ids on every load.

    The line number goes through a permutation of the 32-bit numbers keyed by the session id
    (xor, multiplications by odd numbers and xor-shifts are each one-to-one), so no two lines
    of a file ever share an id and no id needs checking against the others.
    """
    import hashlib  # only an old file needs it: reading a current one does not load it

    key = hashlib.blake2b(str(session_id).encode("utf-8", "surrogatepass"), digest_size=12).digest()
    first, second, third = (int.from_bytes(key[at : at + 4], "little") for at in (0, 4, 8))
    value = (line ^ first) & _MASK
    value = (value * 0x9E3779B1 + second) & _MASK
    value ^= value >> 15
    value = (value * (third | 1)) & _MASK
    value ^= value >> 13
    value = (value * 0x85EBCA6B) & _MASK
    value ^= value >> 16
    return f"{value:08x}"


class CannotMigrate(ValueError):
    """pi itself fails on this file: a version 1 line holds a number, a string or `true`."""

    def __init__(self, line: int, value: Any) -> None:
        self.line = line
        super().__init__(f"line {line} holds {_kind(value)}, not an entry; pi fails to open the file")


def migrate(header: dict[str, Any], records: list[tuple[int, Any]]) -> None:
    """Bring header and records ((line number, value) after the header, in file order) to version 3, in place.

    The values are what pi keeps of the file (its `fileEntries`): objects, and arrays, which
    take a place in a version 1 chain (an id no file line ever shows; the next entry's parent).
    """
    version = js_to_number(header_version(header))
    if not version < CURRENT_VERSION:
        return
    if version < 2:
        _add_tree_structure(header, records)
    _rename_hook_messages(header, [value for _, value in records])


def _add_tree_structure(header: dict[str, Any], records: list[tuple[int, Any]]) -> None:
    """v1 → v2: an id for every entry (`stable_id`), each the child of the one before."""
    header["version"] = 2
    # firstKeptEntryIndex counts pi's parsed values with the header at index 0; an array's id
    # lives only here (pi sets it as a property no JSON shows).
    everything = [header, *(value for _, value in records)]
    ids: list[Any] = [MISSING] * len(everything)
    previous: str | None = None
    for position, (line, entry) in enumerate(records, 1):
        if isinstance(entry, dict) and entry.get("type") == "session":
            entry["version"] = 2
            continue
        if not isinstance(entry, (dict, list)):
            raise CannotMigrate(line, entry)
        ids[position] = stable_id(header.get("id"), line)
        if isinstance(entry, dict):
            entry["id"] = ids[position]
            entry["parentId"] = previous
        previous = ids[position]
        if isinstance(entry, dict) and entry.get("type") == "compaction":
            _convert_first_kept_index(entry, everything, ids)


def _convert_first_kept_index(entry: dict[str, Any], everything: list[Any], ids: list[Any]) -> None:
    index = entry.get("firstKeptEntryIndex", MISSING)
    if not isinstance(index, (int, float)) or isinstance(index, bool):
        return
    if float(index).is_integer() and 0 <= index < len(everything):
        target = everything[int(index)]
        if not (isinstance(target, dict) and target.get("type") == "session"):
            # A later target has no id yet at this point, as in pi's single pass.
            target_id = ids[int(index)]
            if target_id is MISSING:
                entry.pop("firstKeptEntryId", None)
            else:
                entry["firstKeptEntryId"] = target_id
    del entry["firstKeptEntryIndex"]


def _rename_hook_messages(header: dict[str, Any], entries: list[Any]) -> None:
    """v2 → v3: the `hookMessage` role became `custom`."""
    header["version"] = 3
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        if entry.get("type") == "session":
            entry["version"] = 3
            continue
        message = entry.get("message")
        if entry.get("type") == "message" and isinstance(message, dict) and message.get("role") == "hookMessage":
            message["role"] = "custom"


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "a string"
