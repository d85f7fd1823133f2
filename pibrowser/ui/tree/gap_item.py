"""A gap: the siblings of a level too wide to draw, shown as one capsule that says how many it hides."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ...model.text.describe import entry_title
from ...model.text.plural import counted
from .fold_item import FoldItem
from .layout import EXPAND_LIMIT, EXPAND_PAGE

if TYPE_CHECKING:
    from ...model.session.entry import Entry
    from .style import Style


class GapItem(FoldItem):
    """`hidden` siblings (and everything below them) that the tree leaves out of a level
    with too many children to draw; `key` is the first of them. A click shows the next
    page. Marks and painting are a fold's: it sits where its first sibling would."""

    def __init__(self, unit: int, first: str, hidden: int, entries: dict[str, Entry], style: Style, room: float) -> None:
        super().__init__(unit, [first], entries, style, room)
        self.hidden = hidden

    def count(self) -> int:
        return self.hidden

    def count_text(self) -> str:
        return f"{self.hidden:,} more " + ("branch" if self.hidden == 1 else "branches")

    def title_text(self) -> str:
        return f"{self.count_text()} (not drawn)"

    def page(self) -> int:
        """How many siblings a click shows."""
        return self.hidden if self.hidden <= EXPAND_LIMIT else EXPAND_PAGE

    def summary(self) -> str:
        return f"click to show {self.page():,}"

    def tooltip(self) -> str:
        first = self._entries[self.key]
        return "<br>".join(
            [
                f"<b>{counted(self.hidden, 'branch')} not drawn</b> — this entry has too many children to draw them all",
                f"click to show the next {counted(self.page(), 'branch')}; selecting an entry in one shows its branch",
                f"first: <code>{html.escape(first.id)}</code> {html.escape(entry_title(first, 70))}",
            ]
        )
