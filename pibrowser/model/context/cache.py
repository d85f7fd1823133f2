"""Resolved contexts of one session, each new one built from a neighbour on its path.

The context of an entry is, in the common case, its parent's context plus its
own messages: walking down a path adds the entries passed, walking up takes
them off again. A compaction changes what comes first and a context_edit may
change an entry before it, so a step across either is resolved in full. Every
answer equals `resolve(session, key)`; only the cost differs: on a 100,000-entry
path a full resolve walks every entry, a step walks the difference.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass
from itertools import count, islice
from typing import Any

from .resolve import Context, ProjectedEntry, edits_by_target, path_settings, project, resolve, resolve_path
from ..session.entry import Entry, entry_id
from .provenance import Provenance, path_provenance
from ..session.session import Session

_BARRIERS = ("compaction", "context_edit")
_FARTHEST_WALK = 512  # steps up from an entry to look for a context to build from
# Path entries the kept contexts may span together. Each costs about 50 bytes (its place in
# the path, the context entries, the messages and the provenance): on a path 90,000 entries
# deep, 64 contexts would hold 280 MB, these a tenth. The spine is kept besides, and a step
# needs only its neighbour, so keeping fewer long contexts costs a step nothing.
PATH_BUDGET = 600_000


@dataclass(slots=True)
class _Resolved:
    context: Context
    edits: dict[Any, Entry]  # the context's context_edits by target, as resolving found them
    barrier: int  # place on the path of the last compaction or context_edit; -1 if none
    provenance: dict[str, Provenance] | None = None  # path_provenance, once asked for
    # The provenance of the context this one was built from, if it had one: a step
    # up keeps a prefix of it, a step down adds to it.
    neighbour_provenance: dict[str, Provenance] | None = None


class ContextCache:
    """`resolve` for one session, keeping the last `capacity` contexts to build the next from
    (fewer when their paths together pass `budget` entries; the last one always).

    One context, the spine (the last one resolved in full, usually the current
    leaf's), also knows the place of every entry on its path: an entry on that
    path, or below an entry on it, is reached by cutting the spine and walking
    down the difference, without walking its whole path again.
    """

    def __init__(self, session: Session, capacity: int = 64, budget: int = PATH_BUDGET) -> None:
        self.session = session
        self.capacity = capacity
        self.budget = budget
        self._resolved: OrderedDict[str, _Resolved] = OrderedDict()
        self._weight = 0  # the path entries of the kept contexts, together
        self._spine: _Resolved | None = None
        self._spine_places: dict[str, int] = {}

    def clear(self) -> None:
        self._resolved.clear()
        self._weight = 0
        self._spine, self._spine_places = None, {}

    def provenance(self, key: str) -> dict[str, Provenance]:
        """path_provenance of the context of `key`, from its neighbour's when there is one."""
        self.resolve(key)
        resolved = self._resolved.get(key)
        if resolved is None:
            return path_provenance(resolve(self.session, key))
        if resolved.provenance is None:
            resolved.provenance = _provenance(resolved)
            resolved.neighbour_provenance = None
        return resolved.provenance

    def get(self, key: str) -> Context | None:
        """The context of `key` if it is kept; nothing is resolved."""
        found = self._resolved.get(key)
        return found.context if found is not None else None

    def resolve(self, key: str) -> Context:
        found = self._resolved.get(key)
        if found is not None:
            self._resolved.move_to_end(key)
            return found.context
        if not key or key not in self.session.entries or "" in self.session.entries:
            # pi's default leaf, an error as resolve gives it, or a session whose
            # paths stop at a parentId "" (path_to knows that rule; the walk here does not).
            return resolve(self.session, key)
        resolved = self._from_below(key) or self._from_neighbour(key) or self._in_full(key)
        self._keep(key, resolved)
        return resolved.context

    def _keep(self, key: str, resolved: _Resolved) -> None:
        self._resolved[key] = resolved
        self._weight += len(resolved.context.path)
        while len(self._resolved) > self.capacity or (self._weight > self.budget and len(self._resolved) > 1):
            _, dropped = self._resolved.popitem(last=False)
            self._weight -= len(dropped.context.path)

    def _in_full(self, key: str) -> _Resolved:
        # The path is walked up only to the spine's: a branch of a long session usually
        # leaves it far down, and the spine's top part is taken whole.
        place, below = self.session.path_below(key, self._spine_places)
        if place < 0:
            return self._new_spine(resolve_path(key, below))
        assert self._spine is not None, "a place on the spine: there is one"
        return self._new_spine(resolve_path(key, [*self._spine.context.path[: place + 1], *below]), place + 1)

    def _new_spine(self, context: Context, shared: int = 0) -> _Resolved:
        """A context resolved over its whole path: the next ones are built from it.
        `shared`: how many leading entries its path has in common with the spine's."""
        places = self._spine_places
        if shared and self._spine is not None:
            # The places of the common part stay; the old spine's tail goes, the new one's comes.
            deque(map(places.pop, map(entry_id, islice(self._spine.context.path, shared, None))), maxlen=0)
            places.update(zip(map(entry_id, islice(context.path, shared, None)), count(shared)))
        else:
            # Built in C: the spine can be 100,000 entries deep.
            self._spine_places = dict(zip(map(entry_id, context.path), count()))
        self._spine = _completed(context)
        return self._spine

    def _from_below(self, key: str) -> _Resolved | None:
        """Cut the context asked for last when `key` is a few steps above it: the first step ↑
        from a context that was kept but is not the spine (a leaf selected again, say)."""
        if not self._resolved:
            return None
        last_key = next(reversed(self._resolved))
        node = last_key
        for steps in range(_FARTHEST_WALK):
            above = self.session.parent(node)
            if above is None:
                return None
            node = above
            if node == key:
                last = self._resolved[last_key]
                place = len(last.context.path) - 2 - steps
                return _cut(last, place + 1) if last.barrier <= place else None
        return None

    def _from_neighbour(self, key: str) -> _Resolved | None:
        """Walk up from `key` to a kept context or the spine, then down again."""
        chain = [key]  # from `key` up, not including where the walk stops
        node: str | None = key
        while node is not None:
            kept = self._resolved.get(node) if node != key else None
            if kept is not None:
                tail = self._entries(chain[:-1])
                return _extended(kept, key, tail) or self._new_spine(resolve_path(key, [*kept.context.path, *tail]))
            place = self._spine_places.get(node)
            if place is not None and self._spine is not None:
                tail = self._entries(chain[:-1])
                if self._spine.barrier <= place:
                    cut = _cut(self._spine, place + 1)
                    if not tail:
                        return cut
                    if self._spine.provenance is not None:
                        cut.provenance = _provenance(cut)  # to be extended in turn
                    return _extended(cut, key, tail)
                return self._new_spine(resolve_path(key, [*self._spine.context.path[: place + 1], *tail]))
            if len(chain) > _FARTHEST_WALK:
                return None  # far from anything known: walking the whole path at once is faster
            node = self.session.parent(node)
            if node is not None:
                chain.append(node)
        return None

    def _entries(self, chain: list[str]) -> list[Entry]:
        """The entries of a walk up, top first."""
        entries = self.session.entries
        return [entries[key] for key in reversed(chain)]


def _completed(context: Context) -> _Resolved:
    edits = edits_by_target([item.entry for item in context.entries])
    return _Resolved(context, edits, _last_barrier(context.path, len(context.path)))


def _extended(found: _Resolved, key: str, tail: list[Entry]) -> _Resolved | None:
    """The context of `key`, below `found` by `tail`; None when the tail holds a barrier."""
    if any(entry.type in _BARRIERS for entry in tail):
        return None
    above = found.context
    start = len(above.entries)
    added = [project(entry, start + offset, found.edits.get(entry.id)) for offset, entry in enumerate(tail)]
    thinking_level, model = path_settings(tail, (above.thinking_level, above.model))
    context = Context(
        key,
        [*above.path, *tail],
        above.compaction,
        above.entries + added,
        above.messages + [message for item in added for message in item.messages],
        thinking_level,
        model,
    )
    return _Resolved(context, found.edits, found.barrier, neighbour_provenance=found.provenance)


def _cut(found: _Resolved, depth: int) -> _Resolved:
    below = found.context
    path = below.path[:depth]
    # Everything after the last barrier is in the context, in path order: the entries
    # below the cut are the last projected entries.
    kept: list[ProjectedEntry] = below.entries[: len(below.entries) - (len(below.path) - depth)]
    dropped = below.entries[len(kept):]
    message_count = len(below.messages) - sum(len(item.messages) for item in dropped)
    thinking_level, model = path_settings(path)
    context = Context(path[-1].id, path, below.compaction, kept, below.messages[:message_count], thinking_level, model)
    return _Resolved(context, found.edits, found.barrier, neighbour_provenance=found.provenance)


def _provenance(resolved: _Resolved) -> dict[str, Provenance]:
    known = resolved.neighbour_provenance
    depth = len(resolved.context.path)
    if known is not None and len(known) >= depth:
        # A step up: the entries left keep their parts. Copying a dict whole is a block
        # copy; dropping its last few items is cheaper than rebuilding the rest.
        if len(known) - depth > depth:
            return dict(islice(known.items(), depth))
        kept = known.copy()
        for _ in range(len(known) - depth):
            kept.popitem()
        return kept
    return path_provenance(resolved.context, known)


def _last_barrier(path: Any, end: int) -> int:
    for at in range(end - 1, -1, -1):
        if path[at].type in _BARRIERS:
            return at
    return -1
