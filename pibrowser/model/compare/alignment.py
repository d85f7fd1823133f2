"""Pairing the messages of two contexts after their shared prefix.

A sequence alignment over the messages' model-visible form pairs what both
sides send: a summary, a repeated tool result, the same user text. Inside a
stretch that differs, messages of the same "pair tag" (by default the role)
pair up in order so a word diff can show what changed; the rest stand alone on
their side. The comparison tags a message
whose entry is on both paths by that entry, so it pairs only with its own
entry's other projection (an edit), never with an unrelated message.

The alignment is a patience diff (see sequence_match), near linear for
thousands of messages (see benchmarks/bench_compare.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any
from collections.abc import Callable, Hashable

from .model_visible import quiet_difference, visible_key
from .sequence_match import opcodes


class RowKind(str, Enum):
    SAME = "same"  # equal outright
    QUIET = "quiet"  # the same for the model; only fields it never receives differ
    CHANGED = "changed"  # paired, but the model receives something else
    LEFT = "left"  # only on the left
    RIGHT = "right"  # only on the right


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the comparison: message indexes into each side's context."""

    kind: RowKind
    left: int | None
    right: int | None
    note: str | None = None  # for QUIET: which ignored fields differ, in words

    @property
    def differs(self) -> bool:
        return self.kind not in (RowKind.SAME, RowKind.QUIET)


def matching_row(left: Any, right: Any, left_index: int, right_index: int) -> Row:
    """A pair the model receives alike: SAME, or QUIET with what else differs."""
    note = quiet_difference(left, right)
    return Row(RowKind.QUIET if note else RowKind.SAME, left_index, right_index, note)


PairTag = Callable[[str, int], Hashable]


def role_tag(side: str, index: int, messages: list[Any]) -> Hashable:
    """The role, and for a tool result the tool: a bash result never pairs with an edit's."""
    message = messages[index]
    if not isinstance(message, dict):
        return type(message).__name__
    role = str(message.get("role"))
    return (role, str(message.get("toolName"))) if role == "toolResult" else role


def align(left: list[Any], right: list[Any], start: int, pair_tag: PairTag | None = None) -> list[Row]:
    """Rows for left[start:] against right[start:], in reading order.

    `pair_tag(side, index)` says which messages may pair inside a differing
    stretch (equal tags); by default, the same role.
    """
    tag = pair_tag or (lambda side, index: role_tag(side, index, left if side == "left" else right))
    interned: dict[bytes, int] = {}
    a = [interned.setdefault(visible_key(message), len(interned)) for message in left[start:]]
    b = [interned.setdefault(visible_key(message), len(interned)) for message in right[start:]]
    rows: list[Row] = []
    for op, i1, i2, j1, j2 in opcodes(a, b):
        if op == "equal":
            rows.extend(matching_row(left[start + i], right[start + j], start + i, start + j) for i, j in zip(range(i1, i2), range(j1, j2)))
        else:
            stretch = (range(start + i1, start + i2), range(start + j1, start + j2))
            rows.extend(_pair_by_tag(left, right, stretch, a, b, start, tag))
    return rows


def _pair_by_tag(
    left: list[Any], right: list[Any], stretch: tuple[range, range], a: list[int], b: list[int], start: int, tag: PairTag
) -> list[Row]:
    """Inside a differing stretch: equal tags pair in order, the others stand alone.

    Greedy with a bounded look-ahead: roles repeat, so a full alignment of tags
    would be quadratic for nothing better.
    """
    lefts, rights = stretch
    tags_a = [tag("left", index) for index in lefts]
    tags_b = [tag("right", index) for index in rights]
    rows: list[Row] = []
    i = j = 0
    while i < len(tags_a) and j < len(tags_b):
        if tags_a[i] == tags_b[j]:
            left_index, right_index = lefts[i], rights[j]
            if a[left_index - start] == b[right_index - start]:
                rows.append(matching_row(left[left_index], right[right_index], left_index, right_index))
            else:
                rows.append(Row(RowKind.CHANGED, left_index, right_index))
            i, j = i + 1, j + 1
            continue
        ahead_b = _distance(tags_b, j, tags_a[i])
        ahead_a = _distance(tags_a, i, tags_b[j])
        if ahead_a <= ahead_b and ahead_a < LOOK_AHEAD:
            rows.extend(Row(RowKind.LEFT, lefts[k], None) for k in range(i, i + ahead_a))
            i += ahead_a
        elif ahead_b < LOOK_AHEAD:
            rows.extend(Row(RowKind.RIGHT, None, rights[k]) for k in range(j, j + ahead_b))
            j += ahead_b
        else:
            rows.append(Row(RowKind.LEFT, lefts[i], None))
            i += 1
    rows.extend(Row(RowKind.LEFT, lefts[k], None) for k in range(i, len(tags_a)))
    rows.extend(Row(RowKind.RIGHT, None, rights[k]) for k in range(j, len(tags_b)))
    return rows


LOOK_AHEAD = 64


def _distance(tags: list[Hashable], start: int, wanted: Hashable) -> int:
    """How far ahead of `start` the tag `wanted` comes (LOOK_AHEAD if not within it)."""
    for offset, found in enumerate(tags[start : start + LOOK_AHEAD]):
        if found == wanted:
            return offset
    return LOOK_AHEAD
