"""The tree as pi's getTree() gives it, serialised without recursion.

Sessions can be 100,000 entries deep in a single line of descent, deeper than
any recursive encoder allows, so the nesting is written out iteratively.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..js.map_key import JsKey
from ..js.stringify import dump_json
from ..js.value import MISSING
from ..session.forest import Forest, as_forest

if TYPE_CHECKING:
    from ..session.session import Session

K = TypeVar("K")


def tree_json(session: Session | Forest[Any]) -> bytes:
    """`{"leaf","name","labels","tree"}` in the shape of the fixtures' expected files."""
    forest = as_forest(session)
    leaf = forest.leaf
    head = dump_json({"leaf": forest.key(leaf) if leaf is not None else None, "name": forest.name, "labels": forest.labels_json()})
    return head[:-1] + b',"tree":' + forest_json(forest, forest.roots()) + b"}"


def forest_json(forest: Forest[K], roots: Sequence[K]) -> bytes:
    key_of, label_of, children = forest.key, forest.label, forest.children
    out = bytearray(b"[")  # written into as it goes: a part kept per node would take several times the text
    # The children still to write, at each level down to the node being written.
    stack: list[Iterator[K]] = [iter(roots)]
    pop, push = stack.pop, stack.append
    first = True
    while stack:
        node = next(stack[-1], _DONE)
        if node is _DONE:
            pop()
            out += b"]}" if stack else b"]"
            first = False
            continue
        if not first:
            out += b","
        key = key_of(node)
        # JSON.stringify leaves out an id that is undefined (an entry without one).
        out += b"{" if key.__class__ is JsKey and key.value is MISSING else b'{"id":' + dump_json(key) + b","
        label = label_of(node)
        out += b'"label":null,"children":[' if label is None else b'"label":' + dump_json(label) + b',"children":['
        push(iter(children(node)))
        first = True
    return bytes(out)


_DONE: Any = object()  # the end of a level's children
