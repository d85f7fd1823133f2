"""A card among a row's pieces, and what the user opened in it (kept across builds by whoever shows it).

A row is made of cards (a context message's, or one per side in a compare row) and the
lines between them. A card is a column of pieces that a click on selects as a whole
(its action); its state says which of its sections are open and which texts are shown
whole, so building the card again (a step along a path, a font change) keeps them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtWidgets import QMenu, QWidget

from .row_pieces import RowPieces


@dataclass
class CardState:
    """What the user did to one card that outlives building it again: sections opened or closed
    (by key; a section not named here has its default), texts asked for whole, and the page shown
    of a content with more blocks than a page (by key; the first when not named)."""

    opened: dict[str, bool] = field(default_factory=dict)
    whole: set[str] = field(default_factory=set)
    pages: dict[str, int] = field(default_factory=dict)

    def is_open(self, key: str, default: bool) -> bool:
        return self.opened.get(key, default)


class CardPiece(RowPieces):
    """A card: Tab goes to what is inside it (it is the current row itself); `state` is what the user opened in it."""

    is_card = True
    focusable = False

    def __init__(self, state: CardState, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.state = state

    def menu(self, select: Callable[[], None], parent: QWidget) -> QMenu | None:
        """The card's right-click menu (`select` does the card's own action), None for none: what a card
        offers to copy is what it shows, which whoever builds it knows."""
        return None
