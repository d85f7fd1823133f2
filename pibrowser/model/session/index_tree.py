"""The tree of a clean session file from the one pass of its PathIndex: what `pibrowser tree` writes.

A Session links an object per entry before a line of the tree is written. A file in pi's usual shape
(one PathIndex.scan takes, UTF-8 throughout) holds nothing the full load would report, and its tree
needs only each entry's parent and timestamp, its label entries and its last session_info, which the
same pass gives: the entries stay places in the file's columns, and pi's rules are the ones Session
applies (`pi_tree`). Any other file gets no IndexTree, and the caller loads the Session, which says
what is wrong with it. The tree is linked in C as far as it can be: a chain of 100,000 entries takes
no Python step per entry.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Collection, Sequence
from itertools import compress, count, repeat
from operator import ne, setitem
from pathlib import Path
from typing import Any

from .path_index import PathIndex, PreviewColumn, places
from .pi_tree import children_in_pi_order, label_change, labels_json, session_name


class IndexTree:
    """A Forest (see forest.py) whose nodes are the entries' places in file order."""

    def __init__(self, index: PathIndex) -> None:
        keys = index.keys
        self._parents = index.parents
        self.leaf: int | None = len(keys) - 1 if keys else None
        # What `previews` made of each entry, in file order (by node).
        self.column: list[Any] = index.column if index.column is not None else []
        self._roots, children = _linked(self._parents, index.times or [])
        self.children = children.__getitem__
        self.key = keys.__getitem__
        self._labels: dict[Any, Any] = {}  # pi's label Map: target id → label, in the Map's order
        for at in index.places_of("label"):
            key, label = label_change(index.entry(at))
            if label is not None:
                self._labels[key] = label
            else:
                self._labels.pop(key, None)
        labels = {at: self._labels[keys[at]] for at in compress(count(), map(self._labels.__contains__, keys))}
        self._labelled = labels  # place → label, in file order
        self.label, self.labelled = labels.get, labels.keys
        infos = index.places_of("session_info")
        self.name = session_name(index.entry(infos[-1])) if infos else None

    @classmethod
    def scan(cls, path: str | Path, previews: PreviewColumn | None = None) -> IndexTree | None:
        """The tree of a clean file, read in one pass (with the column `previews` makes); None for any other file."""
        index = PathIndex.scan(path, utf8=True, times=True, previews=previews)
        if index is None:
            return None
        with index:
            return cls(index)

    def __len__(self) -> int:
        return len(self._parents)

    def roots(self) -> Sequence[int]:
        return self._roots

    def labels_json(self) -> dict[str, Any]:
        return labels_json((self.key(at), label) for at, label in self._labelled.items())

    def on_path(self, node: int) -> _Places:
        parents = self._parents
        marked = bytearray(len(parents))
        while node >= 0:
            marked[node] = 1
            node = parents[node]
        return _Places(marked)

    def cut_roots(self) -> Collection[int]:
        return ()  # a clean file's parents come before their children: no cycle to cut


class _Places:
    """Some of a file's places, marked in a byte each (a path 100,000 entries deep, as a set of
    ints, would take megabytes)."""

    def __init__(self, marked: bytearray) -> None:
        self._marked = marked

    def __contains__(self, node: object) -> bool:
        return type(node) is int and self._marked[node] == 1


def _linked(parents: array, times: Sequence[Any]) -> tuple[list[int], list[Sequence[int]]]:
    """The roots (in file order) and each entry's children in pi's order, by place. Linked in C:
    only the children of entries with more than one are put in order a step at a time."""
    children: list[Sequence[int]] = [()] * (len(parents) + 1)  # the last one takes the roots' parent, -1
    deque(map(setitem, repeat(children), parents, zip(count())), maxlen=0)  # each parent's (last child,)
    # The children that are not their parent's last, with it (a root's -1 has none): the few to order.
    earlier: dict[int, list[int]] = {}
    for parent, at in compress(zip(parents, count()), map(ne, zip(count()), map(children.__getitem__, parents))):
        if parent >= 0:
            earlier.setdefault(parent, []).append(at)
    for parent, kids in earlier.items():
        children[parent] = children_in_pi_order([*kids, *children[parent]], times.__getitem__)
    return list(places(parents, -1)), children
