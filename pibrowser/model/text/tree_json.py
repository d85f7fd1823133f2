"""The tree as pi's getTree() gives it, serialised without recursion.

Sessions can be 100,000 entries deep in a single line of descent, deeper than
any recursive encoder allows, so the nesting is written out iteratively.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..js.map_key import JsKey
from ..js.stringify import dump_json
from ..js.value import MISSING

if TYPE_CHECKING:
    from ..session.session import Session


def tree_json(session: Session) -> bytes:
    """`{"leaf","name","labels","tree"}` in the shape of the fixtures' expected files."""
    head = dump_json({"leaf": session.leaf_id, "name": session.name, "labels": session.labels_json()})
    return head[:-1] + b',"tree":' + forest_json(session, session.roots) + b"}"


def forest_json(session: Session, roots: list[str]) -> bytes:
    labels = session.labels
    parts: list[bytes] = [b"["]
    # Each stack item is a node to open, or a closing marker.
    stack: list[tuple[str, bool] | None] = [(root, index == 0) for index, root in reversed(list(enumerate(roots)))]
    while stack:
        item = stack.pop()
        if item is None:
            parts.append(b"]}")
            continue
        key, first = item
        if not first:
            parts.append(b",")
        # JSON.stringify leaves out an id that is undefined (an entry without one).
        head = b"{" if key.__class__ is JsKey and key.value is MISSING else b'{"id":' + dump_json(key) + b","
        parts.append(head + b'"label":' + dump_json(labels.get(key)) + b',"children":[')
        stack.append(None)
        kids = session.children(key)
        stack.extend((kid, index == 0) for index, kid in reversed(list(enumerate(kids))))
    parts.append(b"]")
    return b"".join(parts)
