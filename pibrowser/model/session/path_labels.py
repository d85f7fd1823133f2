"""The labelled entries of a path, for a walk along paths 100,000 entries deep.

Stepping up or down a path asks for the labels of a path that is a prefix or
an extension of the last one: only the difference is looked at.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .entry import Entry


class PathLabels:
    """`on(path, labels)`: the entries of `path` that have a label, root first.

    Keeps the last path asked about (the list, not a copy) and where its labelled
    entries are. A path whose last entry sits on the last path at the same depth
    is a prefix of it (paths run from the root), and a path that holds the last
    path's last entry at its depth extends it; anything else is looked at whole.
    """

    def __init__(self) -> None:
        self._path: Sequence[Entry] = ()
        self._keys: frozenset[str] = frozenset()
        self._found: list[tuple[int, Entry]] = []  # (place on the path, entry)

    def on(self, path: Sequence[Entry], labels: Mapping[str, Any]) -> list[Entry]:
        old, depth, known = self._path, len(path), len(self._path)
        same_labels = labels.keys() == self._keys
        if same_labels and 0 < depth <= known and old[depth - 1] is path[-1]:
            found = [(at, entry) for at, entry in self._found if at < depth]
        elif same_labels and 0 < known < depth and path[known - 1] is old[-1]:
            found = self._found + _labelled(path, labels, known)
        else:
            found = _labelled(path, labels, 0)
            self._keys = frozenset(labels.keys())
        self._path, self._found = path, found
        return [entry for _, entry in found]


def _labelled(path: Sequence[Entry], labels: Mapping[str, Any], start: int) -> list[tuple[int, Entry]]:
    return [(at, path[at]) for at in range(start, len(path)) if path[at].id in labels]
