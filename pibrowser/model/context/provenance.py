"""The part each entry on a node's path plays in its context, for the overlays."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import groupby, islice
from operator import attrgetter

from .resolve import Context, ProjectedEntry, is_system_message
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


def path_provenance(context: Context, known: dict[str, Provenance] | None = None) -> dict[str, Provenance]:
    """For every entry on the path, its part in the context (path order).

    `known`: the answer for a prefix of the path in a context that shares this
    one's compaction and edits (its parent's, say); only the rest is worked out.
    """
    projected = {item.entry.id: (index, item) for index, item in enumerate(context.entries)}
    compaction = context.compaction
    compaction_id = compaction.id if compaction is not None else None
    first_kept = compaction.get("firstKeptEntryId") if compaction is not None else None
    result: dict[str, Provenance] = dict(known) if known else {}
    after = compaction_id in result
    kept_range = isinstance(first_kept, str) and first_kept in result
    # Paths run to 100,000 entries, most of them summarized: one shared answer for those.
    summarized = Provenance(Part.SUMMARIZED, compaction_id)
    start = len(result)
    if compaction is not None and not kept_range:
        start = _summarized_prefix(context, first_kept, start, result, summarized)
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


def _summarized_prefix(context: Context, first_kept: object, start: int, result: dict[str, Provenance], summarized: Provenance) -> int:
    """Mark the path's entries from `start` up to the first kept entry (or the compaction, when
    that is not on the path) summarized; answer where the walk goes on.

    No context entry comes before the first kept one: the compaction's range starts
    there, and the compaction itself is at or after it. The ids are listed and
    searched in C: this prefix is most of a long path.
    """
    assert context.compaction is not None, "only a compaction summarizes a prefix"
    ids = list(map(entry_id, islice(context.path, start, None)))
    end = index_of(ids, context.compaction.id, len(ids))
    end = index_of(ids, first_kept, end)
    result.update(dict.fromkeys(islice(ids, end), summarized))
    return start + end


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


def path_parts(provenance: dict[str, Provenance]) -> set[Part]:
    """Every part in a path's provenance (path order), without a look at each of its entries.

    Summarized entries are exactly those before the compaction's kept range: the
    kept range holds only entries in the context and system messages folded into
    the checkpoint, and every entry after the compaction is in the context. So a
    walk up from the leaf can stop at the first summarized entry, and a long
    path's tens of thousands above it are never read.
    """
    parts: set[Part] = set()
    for found in reversed(provenance.values()):
        parts.add(found.part)
        if found.part is Part.SUMMARIZED:
            break
    return parts


def parts_runs(keys: list[str], provenance: dict[str, Provenance]) -> list[tuple[Part, int]]:
    """Run-length of the parts of `keys` (a stretch of the path, top first) that `provenance` knows."""
    # In C: a fold on the path can hold tens of thousands of members.
    parts = map(_PART, filter(None, map(provenance.get, keys)))
    return [(part, len(list(run))) for part, run in groupby(parts)]


_PART = attrgetter("part")
