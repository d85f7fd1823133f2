"""The compare view's rows, as a list model, and the pieces each row is drawn from.

The shared prefix (messages the same for the model) is one row that opens into a
line per message. After it, the aligned rows (model.compare): a pair the model
receives alike is one quiet line; a pair that changed shows both cards side by side,
then a row with its word diff; a message on one side only stands in its column, with
the compaction or edit that explains it; a run of such messages with one cause is one
row that opens into their cards. Rows are built as they come into view, so a long
comparison is all there to scroll through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from ...model.compare.alignment import Row, RowKind
from ...model.compare.comparison import Cause, Comparison, RowRun
from ...model.text.describe import message_preview
from ..common.safe_text import plain
from ..cards import RowModel
from ..guard import guarded


@dataclass(eq=False)
class SharedBlock:
    """The shared prefix: `count` messages the same for the model, `quiet` of them only in time or model."""

    count: int
    quiet: int


@dataclass(eq=False)
class HeadsBlock:
    """The columns' heads: how many rows are only in A, only in B."""

    only_left: int
    only_right: int


@dataclass(eq=False)
class NoteBlock:
    text: str


@dataclass(eq=False)
class QuietBlock:
    """A pair the model receives alike (after the fork: only the time or the model differs)."""

    row: Row


@dataclass(eq=False)
class PairBlock:
    """A changed pair side by side, or a message on one side only (with why, when one entry explains it)."""

    row: Row
    cause: Cause | None


@dataclass(eq=False)
class DiffBlock:
    """What changed inside a pair, word by word."""

    row: Row
    cause: Cause | None


@dataclass(eq=False)
class RunBlock:
    """Many messages on one side that one compaction or edit explains."""

    run: RowRun


Block = SharedBlock | HeadsBlock | NoteBlock | QuietBlock | PairBlock | DiffBlock | RunBlock

NOTHING = "Choose Entry ▸ Compare With… (Ctrl+D), or Ctrl+click a node in the tree, to compare two contexts."
IDENTICAL = "Both send exactly the same messages, with the same settings, to the model."


def blocks_of(comparison: Comparison | None) -> list[Block]:
    """The rows of a comparison, in order."""
    if comparison is None:
        return [NoteBlock(NOTHING)]
    rows = comparison.rows
    blocks: list[Block] = [SharedBlock(comparison.shared_prefix, sum(1 for row in rows[: comparison.shared_prefix] if row.note))]
    if comparison.identical:
        return [*blocks, NoteBlock(IDENTICAL)]
    after = comparison.rows_after_fork
    blocks.append(HeadsBlock(sum(1 for row in after if row.kind is RowKind.LEFT), sum(1 for row in after if row.kind is RowKind.RIGHT)))
    for block in comparison.blocks():
        if isinstance(block, RowRun):
            blocks.append(RunBlock(block))
        elif not block.differs:
            blocks.append(QuietBlock(block))
        else:
            cause = comparison.cause(block)
            blocks.append(PairBlock(block, cause))
            if block.kind is RowKind.CHANGED:
                blocks.append(DiffBlock(block, cause))
    return blocks


class CompareRows(RowModel):
    """The rows of the comparison shown (`comparison`, None when there is none)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[Block] = []
        self.comparison: Comparison | None = None

    @guarded(fallback=0)
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    @guarded
    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self.describe(self.rows[index.row()])
        return None

    def show(self, comparison: Comparison | None) -> None:
        self.beginResetModel()
        self.comparison = comparison
        self.rows = blocks_of(comparison)
        self.endResetModel()

    def describe(self, block: Block) -> str:
        """A row as one line (what a screen reader says)."""
        comparison = self.comparison
        if isinstance(block, NoteBlock):
            return block.text
        if isinstance(block, SharedBlock):
            return f"{block.count:,} shared messages"
        if isinstance(block, HeadsBlock):
            return f"A: {block.only_left:,} only here; B: {block.only_right:,} only here"
        if isinstance(block, RunBlock):
            return f"{len(block.run.rows):,} messages only in {'A' if block.run.side == 'left' else 'B'}"
        row = block.row
        assert comparison is not None, "a row of a comparison is shown only with it"
        sides = [f"A #{row.left + 1}: {plain(message_preview(comparison.left.messages[row.left]))}"] if row.left is not None else []
        sides += [f"B #{row.right + 1}: {plain(message_preview(comparison.right.messages[row.right]))}"] if row.right is not None else []
        what = "same for the model" if isinstance(block, QuietBlock) else "word diff" if isinstance(block, DiffBlock) else "differs"
        return f"{what} — " + " | ".join(sides)
