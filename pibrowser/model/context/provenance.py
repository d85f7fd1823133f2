"""The part each entry on a node's path plays in its context, for the overlays."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Reversible, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import chain, dropwhile, groupby, islice, repeat
from operator import attrgetter
from typing import Any, cast

from .resolve import Context, ProjectedEntry, first_kept_id, is_system_message
from ..session.entry import entry_id
from ..session.sequences import index_of


class Part(str, Enum):
    CHECKPOINT = "compaction checkpoint"
    SUMMARIZED = "summarized by compaction"
    KEPT = "kept by compaction"
    SYSTEM_FOLDED = "system message folded into the checkpoint"
    AFTER_COMPACTION = "after the compaction"
    IN_CONTEXT = "in context"
    SUPERSEDED = "older compaction, superseded"
    NOT_CONTEXT = "not a context entry"


class Edit(str, Enum):
    DROPPED = "dropped by edit"
    REPLACED = "content replaced by edit"


@dataclass(frozen=True, slots=True)
class Provenance:
    """An entry's part in a context; the same for every entry it describes, so it is shared."""

    part: Part
    compaction_id: str | None = None
    edit: Edit | None = None
    edit_id: str | None = None
    message_count: int = 0

    @property
    def sends_messages(self) -> bool:
        return self.message_count > 0

    def describe(self) -> str:
        text = self.part.value
        if self.compaction_id and self.part in (Part.SUMMARIZED, Part.KEPT, Part.SYSTEM_FOLDED, Part.AFTER_COMPACTION):
            text = f"{text} {self.compaction_id}" if self.part is not Part.AFTER_COMPACTION else text
        if self.edit is not None:
            text = f"{text}; {self.edit.value} {self.edit_id}"
        return text


Position = Callable[[Any, int], int]  # where an id lies above a depth of the path (resolve.position_on)


def path_provenance(context: Context, position: Position | None = None) -> Mapping[str, Provenance]:
    """For every entry on the path, its part in the context (path order).

    With `position` (the fold knows where each id lies on its path), the summarized prefix
    is kept as a count rather than an entry each (PathProvenance): a path 100,000 entries
    deep costs what its context costs.
    """
    compaction = context.compaction
    if compaction is None:
        rest = _uncompacted_parts(context)
        return rest if position is None else PathProvenance(context.path, 0, Provenance(Part.SUMMARIZED, None), rest, position)
    projected = {item.entry.id: (index, item) for index, item in enumerate(context.entries)}
    compaction_id = compaction.id if compaction is not None else None
    first_kept = first_kept_id(compaction) if compaction is not None else None
    summarized = Provenance(Part.SUMMARIZED, compaction_id)
    result: dict[str, Provenance] = {}
    start = 0
    if compaction is not None:
        if position is not None:
            at = position(compaction.id, len(context.path))
            start = position(first_kept, at)
        else:
            start = _summarized_prefix(context, first_kept, result, summarized)
    rest = _parts_from(context, start, projected, summarized)
    if position is None:
        result.update(rest)
        return result
    return PathProvenance(context.path, start, summarized, rest, position)


def _parts_from(
    context: Context, start: int, projected: dict[str, tuple[int, ProjectedEntry]], summarized: Provenance
) -> dict[str, Provenance]:
    """The parts of the path's entries from `start`, the first kept entry (or the compaction) on."""
    compaction = context.compaction
    compaction_id = compaction.id if compaction is not None else None
    first_kept = first_kept_id(compaction) if compaction is not None else None
    result: dict[str, Provenance] = {}
    after = False
    kept_range = False
    for entry in islice(context.path, start, None):
        kept_range = kept_range or entry.id == first_kept
        hit = projected.get(entry.id)
        if hit is None and not kept_range:
            result[entry.id] = summarized
            continue
        if compaction is not None and entry.id == compaction.id:
            after = True
            result[entry.id] = _with_edit(Part.CHECKPOINT, compaction_id, projected[entry.id][1])
            continue
        if hit is None:
            # A system message in the kept range is left out because the checkpoint
            # carries the system prompt; everything else before it was summarized.
            part = Part.SYSTEM_FOLDED if kept_range and is_system_message(entry) else Part.SUMMARIZED
            result[entry.id] = Provenance(part, compaction_id)
            continue
        index, item = hit
        if compaction is None:
            part = Part.IN_CONTEXT if item.original else Part.NOT_CONTEXT
        elif entry.type == "compaction" and index > 0:
            part = Part.SUPERSEDED
        else:
            part = Part.AFTER_COMPACTION if after else Part.KEPT
            if not item.original and part is Part.AFTER_COMPACTION:
                part = Part.NOT_CONTEXT
        result[entry.id] = _with_edit(part, compaction_id, item)
    return result


def _uncompacted_parts(context: Context) -> dict[str, Provenance]:
    """_parts_from of a context without a compaction: every entry on its path is a context entry,
    in path order (resolve.context_entries), so each one's part is read off its projection alone,
    without a map of them (a million-entry path's provenance took two seconds)."""
    in_context, not_context = _unedited(Part.IN_CONTEXT, None, 1), Part.NOT_CONTEXT
    result: dict[str, Provenance] = {}
    for item in context.entries:
        if item.edit is None and len(item.messages) == 1:
            result[item.entry.id] = in_context  # (one message unedited: its original is that message)
        else:
            result[item.entry.id] = _with_edit(Part.IN_CONTEXT if item.original else not_context, None, item)
    return result


def _summarized_prefix(context: Context, first_kept: object, result: dict[str, Provenance], summarized: Provenance) -> int:
    """Mark the path's entries up to the first kept entry (or the compaction, when that is not
    on the path) summarized; answer where the walk goes on.

    No context entry comes before the first kept one: the compaction's range starts
    there, and the compaction itself is at or after it. The ids are listed and
    searched in C: this prefix is most of a long path.
    """
    assert context.compaction is not None, "only a compaction summarizes a prefix"
    ids = list(map(entry_id, context.path))
    end = index_of(ids, context.compaction.id, len(ids))
    end = index_of(ids, first_kept, end)
    result.update(dict.fromkeys(islice(ids, end), summarized))
    return end


class PathProvenance(Mapping[str, Provenance]):
    """path_provenance of a long path: its summarized prefix (path[:until]) one shared answer
    found by position, the rest a map. Iterates in path order, as the plain answer does."""

    def __init__(self, path: Sequence[Any], until: int, summarized: Provenance, rest: dict[str, Provenance], position: Position) -> None:
        self._path, self._until, self._summarized, self._rest, self._position = path, until, summarized, rest, position

    def __getitem__(self, key: str) -> Provenance:
        found = self._rest.get(key)
        if found is not None:
            return found
        if self._position(key, self._until) < self._until:
            return self._summarized
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        found = self._rest.get(key)
        if found is None:
            return self._summarized if self._position(key, self._until) < self._until else default
        return found

    def __iter__(self) -> Iterator[str]:
        return chain(map(entry_id, islice(self._path, self._until)), self._rest)

    def __len__(self) -> int:
        return self._until + len(self._rest)

    def values(self) -> _Values:  # type: ignore[override]
        return _Values(self._until, self._summarized, list(self._rest.values()))

    def items(self) -> Iterator[tuple[str, Provenance]]:  # type: ignore[override]
        return zip(self, self.values())

    @property
    def summarized(self) -> Provenance:
        """The one answer of every entry in the summarized prefix."""
        return self._summarized

    def summarized_count(self, keys: Sequence[Any]) -> int | None:
        """How many of `keys` (entries down this path, top first) lie in the summarized prefix,
        found by bisection: the prefix is the path's top, so some twenty positions are read, not
        the keys. None where that cannot be read off (an id twice on the path)."""
        if len(self._rest) != len(self._path) - self._until:
            return None
        until, position = self._until, self._position
        return bisect_left(keys, True, key=lambda key: position(key, until) >= until)

    def cut(self, path: Sequence[Any], depth: int) -> PathProvenance | None:
        """The provenance of `path`, this one's path cut after `depth`, when every entry up to there
        plays the same part in both contexts (no compaction or edit after `depth` on this path:
        PathFold.same_parts): a step up a long path then costs a copy in C, not a walk. None where
        that cannot be read off this one (`depth` in the summarized prefix, an id twice on the path)."""
        if depth < self._until or len(self._rest) != len(self._path) - self._until or len(path) != depth + 1:
            return None
        rest = dict(islice(self._rest.items(), depth + 1 - self._until))
        return PathProvenance(path, self._until, self._summarized, rest, self._position)

    def runs(self, keys: list[str]) -> list[tuple[Part, int]]:
        """parts_runs of a stretch of the path: the members of the summarized prefix at its top
        are counted, not looked up one by one (a fold can hold tens of thousands)."""
        found = list(map(self._rest.get, keys))
        below = list(dropwhile(_is_none, found))  # the prefix's members come first: found in no map
        above = len(found) - len(below)
        runs = [(Part.SUMMARIZED, above)] if above and self._position(keys[above - 1], self._until) < self._until else []
        runs += [(part, len(list(run))) for part, run in groupby(map(_PART, filter(None, below)))]
        if len(runs) > 1 and runs[0][0] is runs[1][0]:
            runs[:2] = [(runs[0][0], runs[0][1] + runs[1][1])]
        return runs


def provenance_along(provenance: Mapping[str, Provenance], keys: list[Any]) -> list[Provenance | None]:
    """`provenance.get` of each of `keys`, entries down the path top first: of a long path, the
    summarized prefix is counted rather than looked up entry by entry (most of a 100,000-deep path)."""
    count = provenance.summarized_count(keys) if isinstance(provenance, PathProvenance) else None
    if not count:
        return list(map(provenance.get, keys))
    assert isinstance(provenance, PathProvenance)
    return [provenance.summarized] * count + list(map(provenance.get, islice(keys, count, None)))


class _Values(Sequence[Provenance]):
    """A PathProvenance's answers in path order: `until` times the summarized one, then the rest."""

    def __init__(self, until: int, summarized: Provenance, rest: list[Provenance]) -> None:
        self._until, self._summarized, self._rest = until, summarized, rest

    def __len__(self) -> int:
        return self._until + len(self._rest)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[at] for at in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        return self._summarized if index < self._until else self._rest[index - self._until]

    def __iter__(self) -> Iterator[Provenance]:
        return chain(repeat(self._summarized, self._until), self._rest)

    def __reversed__(self) -> Iterator[Provenance]:
        return chain(reversed(self._rest), repeat(self._summarized, self._until))


@lru_cache(maxsize=1024)
def _unedited(part: Part, compaction_id: str | None, count: int) -> Provenance:
    # Shared: a context's thousands of unedited entries take a handful of distinct answers.
    return Provenance(part, compaction_id, message_count=count)


def _with_edit(part: Part, compaction_id: str | None, item: ProjectedEntry) -> Provenance:
    count = len(item.messages)
    edit = item.edit
    if edit is None:
        return _unedited(part, compaction_id, count)
    if item.dropped:
        kind = Edit.DROPPED
    elif any(item.replaced_at(offset) for offset in range(count)):
        kind = Edit.REPLACED
    else:
        kind = None  # nothing to drop, or the edit reached only roles it leaves alone
    return Provenance(
        part,
        compaction_id,
        kind,
        edit.id if kind else None,
        count,
    )


def path_parts(provenance: Mapping[str, Provenance]) -> set[Part]:
    """Every part in a path's provenance (path order), without a look at each of its entries.

    Summarized entries are exactly those before the compaction's kept range: the
    kept range holds only entries in the context and system messages folded into
    the checkpoint, and every entry after the compaction is in the context. So a
    walk up from the leaf can stop at the first summarized entry, and a long
    path's tens of thousands above it are never read.
    """
    parts: set[Part] = set()
    for found in reversed(cast("Reversible[Provenance]", provenance.values())):  # a dict's and PathProvenance's run backwards
        parts.add(found.part)
        if found.part is Part.SUMMARIZED:
            break
    return parts


def parts_runs(keys: list[str], provenance: Mapping[str, Provenance]) -> list[tuple[Part, int]]:
    """Run-length of the parts of `keys` (a stretch of the path, top first) that `provenance` knows."""
    if isinstance(provenance, PathProvenance):
        return provenance.runs(keys)
    # In C: a fold on the path can hold tens of thousands of members.
    parts = map(_PART, filter(None, map(provenance.get, keys)))
    return [(part, len(list(run))) for part, run in groupby(parts)]


_PART = attrgetter("part")


def _is_none(value: Any) -> bool:
    return value is None
