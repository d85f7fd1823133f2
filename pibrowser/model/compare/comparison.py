"""Comparing the contexts of two nodes: common ancestor, shared prefix, what differs for the model.

"The same" here means the same for the model (see model_visible): the shared
prefix is the leading messages the model receives alike, and after it the two
sides are aligned (see alignment) so that what both send pairs up. A difference
that an edit or a compaction made of one entry on one side says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Mapping, Hashable

from .alignment import Row, RowKind, align, matching_row, role_tag
from ..context.resolve import Context, resolve
from ..session.entry import Entry
from .model_visible import same_for_model
from ..context.provenance import Edit, Part, Provenance, path_provenance
from ..text.transcript import message_body
from .word_diff import Segment, word_diff

if TYPE_CHECKING:
    from ..session.session import Session

ProvenanceOf = Callable[[Context], Mapping[str, Provenance]]


class CauseKind(str, Enum):
    COMPACTION = "compaction"
    EDIT = "edit"


@dataclass(frozen=True, slots=True)
class Cause:
    """Why a row differs when the same entry is projected differently on the two sides."""

    kind: CauseKind
    entry_id: str | None  # the compaction or the context_edit
    side: str  # "left" or "right": where the compaction or edit is
    text: str


@dataclass(frozen=True, slots=True)
class RowRun:
    """Consecutive rows on one side that one compaction or edit explains (37 summarized messages, say)."""

    cause: Cause
    rows: tuple[Row, ...]

    @property
    def side(self) -> str:
        return "left" if self.rows[0].kind is RowKind.LEFT else "right"


@dataclass(eq=False)
class Comparison:
    left: Context
    right: Context
    common_ancestor: str | None
    shared_prefix: int  # leading messages the same for the model
    provenance_of: ProvenanceOf = path_provenance

    @property
    def left_only(self) -> list[Any]:
        return self.left.messages[self.shared_prefix :]

    @property
    def right_only(self) -> list[Any]:
        return self.right.messages[self.shared_prefix :]

    @property
    def identical(self) -> bool:
        """The model would receive the same messages with the same settings."""
        return (
            len(self.left.messages) == len(self.right.messages) == self.shared_prefix
            and self.left.thinking_level == self.right.thinking_level
            and self.left.model == self.right.model
        )

    @cached_property
    def rows(self) -> list[Row]:
        """Every message in reading order: the shared prefix, then the aligned rest."""
        left, right = self.left.messages, self.right.messages
        prefix = [matching_row(left[index], right[index], index, index) for index in range(self.shared_prefix)]
        return prefix + align(left, right, self.shared_prefix, self._pair_tag)

    @cached_property
    def _path_ids(self) -> tuple[set[str], set[str]]:
        return {entry.id for entry in self.left.path}, {entry.id for entry in self.right.path}

    def _pair_tag(self, side: str, index: int) -> Hashable:
        """A message whose entry is on the other path too pairs only with that entry's
        projection there (an edit); others pair by role (a retyped prompt, another answer)."""
        entry = self.source(side, index)
        if entry.id in self._path_ids[1 if side == "left" else 0]:
            return ("entry", entry.id)
        messages = self.left.messages if side == "left" else self.right.messages
        return role_tag(side, index, messages)

    @property
    def rows_after_fork(self) -> list[Row]:
        return self.rows[self.shared_prefix :]

    def blocks(self, min_run: int = 3) -> list[Row | RowRun]:
        """The rows after the fork, with runs of at least `min_run` one-sided rows that share a cause grouped."""
        groups: list[tuple[Cause | None, list[Row]]] = []
        for row in self.rows_after_fork:
            cause = self.cause(row) if row.kind in (RowKind.LEFT, RowKind.RIGHT) else None
            if cause is not None and groups and groups[-1][0] == cause and groups[-1][1][0].kind is row.kind:
                groups[-1][1].append(row)
            else:
                groups.append((cause, [row]))
        blocks: list[Row | RowRun] = []
        for cause, rows in groups:
            if cause is not None and len(rows) >= min_run:
                blocks.append(RowRun(cause, tuple(rows)))
            else:
                blocks.extend(rows)
        return blocks

    @property
    def differences(self) -> int:
        return sum(1 for row in self.rows if row.differs)

    @cached_property
    def _sources(self) -> tuple[list[Entry], list[Entry]]:
        return self.left.message_sources(), self.right.message_sources()

    @cached_property
    def _provenance(self) -> tuple[Mapping[str, Provenance], Mapping[str, Provenance]]:
        return self.provenance_of(self.left), self.provenance_of(self.right)

    def source(self, side: str, index: int) -> Entry:
        """The entry a message on `side` ("left" or "right") came from."""
        return self._sources[0 if side == "left" else 1][index]

    def word_diff(self, row: Row) -> list[Segment]:
        """What changed inside a paired row, word by word ("-" left, "+" right)."""
        if row.left is None or row.right is None:
            return []
        return word_diff(message_body(self.left.messages[row.left], None), message_body(self.right.messages[row.right], None))

    def cause(self, row: Row) -> Cause | None:
        """A compaction or an edit behind this difference, when the same entry is projected otherwise."""
        if not row.differs:
            return None
        if row.kind is RowKind.CHANGED:
            return self._edit_cause(row.left, row.right)
        side, index = ("left", row.left) if row.kind is RowKind.LEFT else ("right", row.right)
        assert index is not None
        return self._alone_cause(side, index)

    def _edit_cause(self, left_index: int | None, right_index: int | None) -> Cause | None:
        assert left_index is not None and right_index is not None
        left_entry, right_entry = self.source("left", left_index), self.source("right", right_index)
        if left_entry.id != right_entry.id:
            return None
        for side, provenance in zip(("left", "right"), self._provenance):
            found = provenance.get(left_entry.id)
            if found is not None and found.edit is not None:
                return Cause(CauseKind.EDIT, found.edit_id, side, f"{found.edit.value} {found.edit_id} on the {side}")
        return None

    def _alone_cause(self, side: str, index: int) -> Cause | None:
        other = "right" if side == "left" else "left"
        entry = self.source(side, index)
        own, theirs = self._provenance if side == "left" else self._provenance[::-1]
        if entry.type == "compaction":
            return Cause(CauseKind.COMPACTION, entry.id, side, f"checkpoint of compaction {entry.id} on the {side}")
        mine = own.get(entry.id)
        if mine is not None and mine.edit is Edit.REPLACED:
            return Cause(CauseKind.EDIT, mine.edit_id, side, f"{mine.edit.value} {mine.edit_id} on the {side}")
        there = theirs.get(entry.id)
        if there is None:
            return None
        if there.edit is not None:
            return Cause(CauseKind.EDIT, there.edit_id, other, f"{there.edit.value} {there.edit_id} on the {other}")
        if there.part in (Part.SUMMARIZED, Part.SYSTEM_FOLDED):
            return Cause(CauseKind.COMPACTION, there.compaction_id, other, f"{there.part.value} {there.compaction_id} on the {other}")
        return None


def compare(
    session: Session,
    left: str,
    right: str,
    resolve_context: Callable[[str], Context] | None = None,
    provenance_of: ProvenanceOf | None = None,
) -> Comparison:
    """`resolve_context` and `provenance_of` let a caller that caches them (the GUI) supply them."""
    get = resolve_context or (lambda key: resolve(session, key))
    left_context, right_context = get(left), get(right)
    return Comparison(
        left_context,
        right_context,
        common_ancestor(session, left, right),
        shared_prefix(left_context, right_context),
        provenance_of or path_provenance,
    )


def common_ancestor(session: Session, left: str, right: str) -> str | None:
    """The lowest entry both are descended from (or equal to); None across separate roots."""
    return session.common_ancestor(left, right)


def shared_prefix(left: Context, right: Context) -> int:
    """Leading messages the model receives alike (timestamps, usage and the like aside)."""
    count = 0
    for a, b in zip(left.messages, right.messages):
        if not same_for_model(a, b):
            break
        count += 1
    return count
