"""pi's rules for what a session's tree shows beside its links: each entry's children in pi's order,
what a label entry does to the labels, and the session's name.

Two readers apply them and must agree to the byte: `Session`, which links every entry of a file, and
`IndexTree`, the tree `pibrowser tree` reads off a clean file's one-pass index. Each rule is here once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .entry import Entry
from ..js.date import in_time_order, js_time
from ..js.map_key import js_key, key_string
from ..js.sort import sort_by_js_time
from ..js.value import MISSING, js_trim, js_truthy

K = TypeVar("K")


def children_in_pi_order(kids: list[K], timestamp_of: Callable[[K], Any]) -> list[K]:
    """One parent's children, given in file order, in pi's order: by `new Date(timestamp)`, earlier
    first, a tie kept in file order; where a time does not parse, V8's sort replayed. `kids` itself
    when it is in that order already (as pi writes them: told from the strings, nothing parsed)."""
    if len(kids) > 1 and not in_time_order([timestamp_of(kid) for kid in kids]):
        return sort_by_js_time(kids, lambda kid: js_time(timestamp_of(kid)))
    return kids


def label_change(entry: Entry) -> tuple[Any, Any]:
    """What a label entry does to pi's label Map: (the key its targetId makes, keyed as pi's Map
    keys it: a target 123 is not the id "123"; the label it sets, or None when it clears the key:
    pi sets only a label that is truthy)."""
    label = entry.get("label")
    return js_key(entry.get("targetId", MISSING)), (label if js_truthy(label) else None)


def labels_json(labelled: Iterable[tuple[Any, Any]]) -> dict[str, Any]:
    """The labels as the fixtures' answers list them: each entry's label (pi's getLabel of its id),
    entries in file order, keyed by String(id). `labelled`: (entry key, label) for each entry that has
    one, in file order. A label whose target names no entry is not listed; two keys that read the
    same as strings (123 and "123") take the first one's place and the last one's label, as a JS
    object's assignment does."""
    out: dict[str, Any] = {}
    for key, label in labelled:
        out[key_string(key)] = label
    return out


def session_name(info: Entry) -> str | None:
    """The name a session_info entry gives the session (pi's getSessionName reads the last one):
    its name trimmed as JS trims; None for a name that is not a string or is blank."""
    name = info.get("name")
    return (js_trim(name) or None) if isinstance(name, str) else None
