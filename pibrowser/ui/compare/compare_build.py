"""The pieces of each compare row: cards in their side's column, quiet lines, word diffs, runs that open."""

from __future__ import annotations

from PySide6.QtGui import QColor

from ...model.compare.alignment import Row
from ...model.compare.comparison import Cause, CauseKind, Comparison
from ...model.compare.word_diff import KEPT
from ...model.text.describe import message_preview
from ..context.message_card import Card
from ..context.message_build import build_card
from ..context.message_items import ContextInfo
from ..cards import Action, ActionKind, CardState, Frame, Line, Part, Piece, RowPieces, Section, Shape, SideBySide, Stack, WrappedText, link
from ..context.roles import accent
from ..common.safe_text import plain
from ..common.widgets import MUTED, SMALL
from .compare_header import side_color
from .compare_rows import Block, DiffBlock, HeadsBlock, NoteBlock, PairBlock, QuietBlock, RunBlock, SharedBlock
from .word_diff_text import word_diff_text

SHARED_LIST_LIMIT = 300
RUN_CARDS_LIMIT = 200  # cards a group of one-sided rows opens into
PANEL = QColor("#64748b")  # the outline of a plain panel (the shared prefix, a run, a diff)


class CompareBuilder:
    """Builds the row of a block of `comparison`, whose sides' cards show `infos` (left, right)."""

    def __init__(self, comparison: Comparison, infos: tuple[ContextInfo, ContextInfo], expand_thinking: bool = False) -> None:
        self.comparison = comparison
        self.infos = infos
        self.expand_thinking = expand_thinking

    def build(self, block: Block, state: dict[str, CardState]) -> RowPieces:
        if isinstance(block, NoteBlock):
            return RowPieces([WrappedText(block.text, mute=MUTED, center=True)], margins=(0, 12, 0, 12))
        if isinstance(block, SharedBlock):
            return RowPieces([self._shared(block, state)])
        if isinstance(block, HeadsBlock):
            left, right = (
                Line([Part(f"{side} · {count:,} only here", Shape.CHIP, color=side_color(side))])
                for side, count in (("A", block.only_left), ("B", block.only_right))
            )
            return RowPieces([SideBySide(left, right)])
        if isinstance(block, QuietBlock):
            return RowPieces([self._quiet_line(block.row)])
        if isinstance(block, PairBlock):
            return RowPieces([self._pair(block, state)])
        if isinstance(block, DiffBlock):
            return RowPieces([self._diff(block)])
        return RowPieces([self._run(block, state)])

    # -- the shared prefix and quiet lines

    def _shared(self, block: SharedBlock, state: dict[str, CardState]) -> Piece:
        if block.count:
            title = f"{block.count:,} shared message{'' if block.count == 1 else 's'} — the same for the model"
            if block.quiet:
                title += f" · {block.quiet:,} only in time or model"
            section: Piece = Section(title, "shared", _opened(state, "", "shared"), self._shared_lines)
        else:
            section = WrappedText("No shared messages — the contexts differ from the first message", mute=0.3)
        return Frame(PANEL, [section], tint=0.0)

    def _shared_lines(self) -> Piece:
        comparison = self.comparison
        lines: list[Piece] = [self._quiet_line(row) for row in comparison.rows[: min(comparison.shared_prefix, SHARED_LIST_LIMIT)]]
        if comparison.shared_prefix > SHARED_LIST_LIMIT:
            lines.append(WrappedText(f"… and {comparison.shared_prefix - SHARED_LIST_LIMIT:,} more", size=SMALL, mute=MUTED))
        return Stack(lines, spacing=1)

    def _quiet_line(self, row: Row) -> Piece:
        """One line for a pair the model receives alike; it selects the left side's entry."""
        comparison = self.comparison
        left, right = _both(row)
        message = comparison.left.messages[left]
        role = message.get("role") if isinstance(message, dict) else "value"
        numbers = f"#{left + 1}" if left == right else f"#{left + 1} ↔ #{right + 1}"
        text = f"= {numbers}  {role}: {plain(message_preview(message))[:120]}"
        if row.note:
            text += f"  — {row.note}"
        source = comparison.source("left", left).id
        return Line([link(text, Action(ActionKind.SELECT, source), f"{text}\nSelect entry {source}")])

    # -- cards

    def card(self, side: int, index: int, state: dict[str, CardState]) -> Card:
        info = self.infos[side]
        return build_card(info.by_index[index], info, state.setdefault(f"{'AB'[side]}{index}", CardState()), self.expand_thinking)

    def _pair(self, block: PairBlock, state: dict[str, CardState]) -> Piece:
        row = block.row
        alone = block.cause if row.left is None or row.right is None else None
        sides: list[Piece | None] = []
        for side, index in enumerate((row.left, row.right)):
            if index is None:
                sides.append(None)
                continue
            card: Piece = self.card(side, index, state)
            if alone is not None:
                card = Stack([card, _cause(alone)], spacing=2)
            sides.append(card)
        return SideBySide(sides[0], sides[1])

    def _diff(self, block: DiffBlock) -> Piece:
        """What changed inside a pair, word by word, with what explains it."""
        row = block.row
        left, right = _both(row)
        segments = self.comparison.word_diff(row)
        common = any(op == KEPT for op, _ in segments)
        title = f"What changed in #{left + 1} ↔ #{right + 1}, word by word (struck: only in A; marked: only in B)"
        frame = Frame(
            PANEL,
            [WrappedText(title if common else f"#{left + 1} ↔ #{right + 1}: no words in common", size=SMALL, mute=MUTED)],
            tint=0.0,
        )
        if block.cause is not None:
            frame.add(_cause(block.cause))
        if common:
            frame.add(Frame(PANEL, [word_diff_text(segments)], tint=0.0))
        return frame

    def _run(self, block: RunBlock, state: dict[str, CardState]) -> Piece:
        """Many messages on one side that one compaction or edit explains: one row that opens into their cards."""
        run = block.run
        side = 0 if run.side == "left" else 1
        count = len(run.rows)

        def cards() -> Piece:
            shown: list[Piece] = [self.card(side, _on_side(row, side), state) for row in run.rows[:RUN_CARDS_LIMIT]]
            if count > RUN_CARDS_LIMIT:
                shown.append(
                    WrappedText(f"… and {count - RUN_CARDS_LIMIT:,} more: select an entry to see its whole context", size=SMALL, mute=MUTED)
                )
            return Stack(shown, spacing=6)

        section = Section(f"{count:,} messages only in {'AB'[side]}", "run", _opened(state, "", "run"), cards, mute=0.0)
        frame = Frame(PANEL, [section, _cause(run.cause)], tint=0.0)
        return SideBySide(frame, None) if side == 0 else SideBySide(None, frame)


def _opened(state: dict[str, CardState], card: str, key: str) -> bool:
    return state.setdefault(card, CardState()).is_open(key, False)


def _cause(cause: Cause) -> Piece:
    """Why a row differs, in the colour the tree uses for compactions or edits."""
    return WrappedText(
        f"↳ {cause.text}", size=SMALL, color=accent("compactionSummary") if cause.kind is CauseKind.COMPACTION else accent("error")
    )


def _both(row: Row) -> tuple[int, int]:
    """The messages of a pair on both sides (one the model receives alike, or a changed one)."""
    assert row.left is not None and row.right is not None, "a pair row has a message on each side"
    return row.left, row.right


def _on_side(row: Row, side: int) -> int:
    """The message of a row of a run on `side` (0: A, 1: B), the side the run is on."""
    index = row.left if side == 0 else row.right
    assert index is not None, "a run's rows are on its side"
    return index
