"""The labelled entries of a path, for a walk along paths 100,000 entries deep.

Stepping up or down a path asks for the labels of a path that is a prefix or an extension
of the last one, and a selection elsewhere for one that shares the last one's entries down
to where the two fork: only the difference is looked at.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .entry import Entry
from .sequences import paths_shared


class PathLabels:
    """`on(path, labels)`: the entries of `path` that have a label, root first.

    Keeps the last path asked about (the list, not a copy) and where its labelled
    entries are. Paths run from the root and agree down to where they fork, so the
    entries the new path shares with the last one are found by bisection and only
    the rest of it is looked at.
    """

    def __init__(self) -> None:
        self._path: Sequence[Entry] = ()
        self._keys: frozenset[str] = frozenset()
        self._found: list[tuple[int, Entry]] = []  # (place on the path, entry)

    def on(self, path: Sequence[Entry], labels: Mapping[str, Any]) -> list[Entry]:
        old = self._path
        shared = paths_shared(min(len(old), len(path)), lambda at: old[at] is path[at]) if labels.keys() == self._keys else 0
        if not shared:
            self._keys = frozenset(labels.keys())
        found = [(at, entry) for at, entry in self._found if at < shared] + _labelled(path, labels, shared)
        self._path, self._found = path, found
        return [entry for _, entry in found]


def _labelled(path: Sequence[Entry], labels: Mapping[str, Any], start: int) -> list[tuple[int, Entry]]:
    if not labels:
        return []  # (a million-entry path was read entry by entry, by index, to find none)
    # A slice, not islice: a step along a path reads it in place (fold.spine.PathView), and iterating
    # one from the root made the whole 100,000-entry list to skip all but its last entries.
    return [(at, entry) for at, entry in enumerate(path[start:], start) if entry.id in labels]
