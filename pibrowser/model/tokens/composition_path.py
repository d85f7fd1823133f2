"""What the context is made of at every entry along a path, in one walk (the strip's stacked areas).

Resolving the context of each of 100,000 entries anew would walk the path
100,000 times. Walking it once, the context at an entry is, as ContextCache
relies on too, the context before it plus the messages the entry gives (an
edit already on the path applied to them), unless the entry is a compaction or
a context_edit: there it is projected afresh, with resolve.py's own steps
(the last compaction, the entries it keeps, the edits among them). Each
entry's sums are worked out once and kept while it is in the context.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..context.resolve import context_entries, edits_by_target, project
from ..context.system_prompt import current_system_message
from ..session.entry import Entry
from .composition import GROUPS, entry_sums, group_of, message_parts
from .context_estimate import is_system

_BARRIERS = ("compaction", "context_edit")
GROUP_NAMES = [group for group, _ in GROUPS]
_GROUP_PLACE = {group: place for place, group in enumerate(GROUP_NAMES)}


def _by_group(chars: dict[str, int]) -> list[int]:
    totals = [0] * len(GROUP_NAMES)
    for kind, count in chars.items():
        totals[_GROUP_PLACE[group_of(kind)]] += count
    return totals


def compositions_along(
    path: Sequence[Entry],
    wanted: Sequence[int],
    read: Callable[[Entry], Entry] = lambda entry: entry,
    stop: Callable[[], bool] = lambda: False,
) -> list[list[int]]:
    """For each position in `wanted` (ascending), the context at path[position] as characters by
    group (GROUPS order). `read` gives an entry with its fields (not kept parsed: see timeline.py);
    `stop` is asked every few hundred entries and ends the walk early (what was found is returned)."""
    walk = _Walk(path, read)
    found: list[list[int]] = []
    wanted_at = 0
    for index in range(len(path)):
        if not index & 255 and stop():
            break
        walk.add(index)
        while wanted_at < len(wanted) and wanted[wanted_at] == index:
            found.append(walk.groups())
            wanted_at += 1
    return found


class _Walk:
    def __init__(self, path: Sequence[Entry], read: Callable[[Entry], Entry]) -> None:
        self.path, self.read = path, read
        self.compaction: Entry | None = None
        self.selected: list[Entry] = []  # the context entries so far
        self.edits: dict[Any, Entry] = {}
        self.totals: dict[str, int] = {}
        self.systems: dict[int, list[Any]] = {}  # place in the context → the system messages it gives
        self.known: dict[str, tuple[dict[str, int], list[Any]]] = {}  # entry id → (its sums' chars, its system messages)

    def add(self, index: int) -> None:
        entry = self.read(self.path[index])
        if entry.type in _BARRIERS:
            if entry.type == "compaction":
                self.compaction = entry
            self._project_afresh(index)
            return
        self._add_entry(entry, len(self.selected), self.edits.get(entry.id))
        self.selected.append(entry)

    def _project_afresh(self, index: int) -> None:
        prefix = [self.read(entry) if entry.type in _BARRIERS else entry for entry in self.path[: index + 1]]
        self.selected = context_entries(prefix, self.compaction)
        self.edits = edits_by_target([self.read(entry) if entry.type == "context_edit" else entry for entry in self.selected])
        self.totals, self.systems = {}, {}
        keep = {entry.id for entry in self.selected}
        self.known = {key: value for key, value in self.known.items() if key in keep}
        for place, entry in enumerate(self.selected):
            self._add_entry(self.read(entry), place, self.edits.get(entry.id))

    def _add_entry(self, entry: Entry, place: int, edit: Entry | None) -> None:
        # A compaction gives its summary only in first place (an older one kept later gives nothing):
        # what it gives depends on its place, so it is not kept.
        keep = edit is None and entry.type != "compaction"
        found = self.known.get(entry.id) if keep else None
        if found is None:
            messages = project(entry, place, self.read(edit) if edit is not None else None).messages
            found = (entry_sums(messages).chars, [message for message in messages if is_system(message)])
            if keep:
                self.known[entry.id] = found
        chars, systems = found
        totals = self.totals
        for kind, count in chars.items():
            totals[kind] = totals.get(kind, 0) + count
        if systems:
            self.systems[place] = systems

    def groups(self) -> list[int]:
        totals = _by_group(self.totals)
        system = current_system_message([message for place in sorted(self.systems) for message in self.systems[place]])
        if system is not None:
            for group, count in enumerate(_by_group(message_parts(system))):
                totals[group] += count
        return totals
