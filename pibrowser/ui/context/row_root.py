"""A row of a list of cards, as pieces: placed at a width, painted, and asked what is where.

The root of a row is a card (a context message) or, in the compare view, a row made
of cards and lines. Whoever shows a row (a list's delegate, the live view over the row
under the mouse) places it at the width it gets, paints the placed pieces and asks the
root what answers the mouse at a point and which card that is in.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QPainter

from .part_line import Line, Part
from .pieces import Column, Look, Piece, Placed, Words, paint_placed, placed_in
from ..common.safe_text import plain
from .sections import Section
from .text_piece import Text


class Root(Column):
    """The top piece of a row."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._placed: tuple[int, list[Placed]] | None = None

    def placed(self, width: int) -> list[Placed]:
        """Every piece and where it goes at this width, relative to the row, in painting order."""
        if self._placed is None or self._placed[0] != width:
            self._placed = (width, placed_in(self, width))
        return self._placed[1]

    def forget(self) -> None:
        super().forget()
        self._placed = None

    def paint_all(self, painter: QPainter, origin: QPoint, width: int, look: Look, clip: QRect | None = None) -> None:
        """The row and all its pieces with its top left at `origin`; pieces outside `clip` are skipped."""
        paint_placed(self.placed(width), painter, origin, look, clip)

    def rect_of(self, piece: object, width: int) -> QRect | None:
        """Where a piece (or a part of a line) is at this width, relative to the row: what answers
        the mouse of it (a section's title, a thumbnail's box), or its whole place."""
        for placed, rect, _ in self.placed(width):
            if placed is piece:
                return next((area for target, area in placed.targets(rect) if target is piece), rect)
            if isinstance(placed, Line) and isinstance(piece, Part):
                found = placed.rect_of(piece, rect.width())
                if found is not None:
                    return found.translated(rect.topLeft())
        return None

    def target_at(self, point: QPoint, width: int) -> tuple[object, QRect] | None:
        """What answers a click or a hover at `point`: the innermost piece or part there that does
        something or has a tooltip."""
        for piece, rect, _ in reversed(self.placed(width)):
            if rect.contains(point):
                for target, area in piece.targets(rect):
                    if area.contains(point):
                        return target, area
        return None

    def card_at(self, point: QPoint, width: int) -> Piece | None:
        """The card (a message's) at `point`, if the point is on one."""
        for piece, rect, _ in reversed(self.placed(width)):
            if piece.is_card and rect.contains(point):
                return piece
        return None

    def cards(self) -> list[Piece]:
        """The messages' cards in the row, in reading order."""
        return [piece for piece in self.pieces() if piece.is_card]

    def focusables(self, width: int) -> list[tuple[object, QRect]]:
        """What Tab stops at, in reading order: links, sections, thumbnails."""
        found = []
        for piece, rect, _ in self.placed(width):
            for target, area in piece.targets(rect):
                if getattr(target, "focusable", False):
                    found.append((target, area))
        return found

    def texts_at(self, width: int) -> list[tuple[Text, QRect, float]]:
        return [(piece, rect, mute) for piece, rect, mute in self.placed(width) if isinstance(piece, Text)]

    def all_texts(self) -> list[Text]:
        """Every text the row shows, in reading order."""
        return [piece for piece in self.pieces() if isinstance(piece, Text)]

    def shown_lines(self) -> list[str]:
        """The short texts the row shows (headers, notes, tool-call and result lines, section titles),
        whole, in reading order."""
        lines = []
        for piece in self.pieces():
            if isinstance(piece, Line):
                lines.extend(piece.texts())
            elif isinstance(piece, Words):
                lines.append(piece.text)
            elif isinstance(piece, Section):
                lines.append(piece.title)
        return lines

    def shown_text(self) -> str:
        """The plain text of every text the row shows, in order."""
        return "\n".join(piece.plain_text() for piece in self.all_texts())

    def accessible_name(self) -> str:
        return plain(" ".join(self.shown_text().split())[:400])
