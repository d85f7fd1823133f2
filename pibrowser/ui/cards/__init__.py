"""Cards: rows of painted pieces in a list that builds, measures and paints only the rows that show.

This package owns the cards' toolkit, which the context panel's messages (ui/context) and
the compare view's rows (ui/compare) are both shown with: pieces that measure, place and
paint themselves (`pieces`, `part_line`, `sections`, `text_piece`, `frames`), a row's
pieces and a card among them (`row_pieces`, `card_piece`), the list that shows rows of a
Qt list model (`row_list` on `row_view`, a QListView whose geometry is
`row_geometry`; `row_delegate` paints a row), the live card laid over the row under the
mouse (`live_row`, `live_card`), what clicks and keys do (`row_actions`), where the list
scrolls to (`scroll_target`), and the images of a card (`images`, `text_viewer` for a text
too long to show in place). What a card shows of a message is ui/context's, and it
imports nothing of the views that show cards.

Why pieces and a QListView rather than Qt's item-view machinery (a QAbstractItemView
painting each card as a QTextDocument): measured against such a prototype
(benchmarks/bench_card_routes.py), ours meets the targets for a selection and a scrolling
frame; the prototype, which leaves much of a card out, is faster at both and slower at
the live card (figures in ARCHITECTURE.md); the rebuild is an open choice. The list is a
QListView, not a bare QAbstractItemView, because a screen reader hears a QListView's rows
and a bare item view as one blank widget.

Its users import from here, never from its modules.
"""

from .card_piece import CardPiece, CardState
from .frames import paint_rounded
from .images import ImageLoader, ImageViewer
from .part_line import Line, Part, Shape, link, spacer
from .pieces import Action, ActionKind, Frame, PaintState, Piece, SideBySide, Stack, WrappedText, paint_placed, placed_in
from .row_list import RowList, RowModel, RowState
from .row_pieces import RowPieces
from .scroll_target import ScrollTarget, Stay, ToAnchor, ToEnd, ToRow, ToStart
from .sections import Picture, Section, Thumbnail
from .text_piece import CARD_TEXT_LIMIT, Text, text_with_more

__all__ = [
    "CARD_TEXT_LIMIT",
    "Action",
    "ActionKind",
    "CardPiece",
    "CardState",
    "Frame",
    "ImageLoader",
    "ImageViewer",
    "Line",
    "PaintState",
    "Part",
    "Picture",
    "Piece",
    "RowList",
    "RowModel",
    "RowPieces",
    "RowState",
    "ScrollTarget",
    "Section",
    "Shape",
    "SideBySide",
    "Stack",
    "Stay",
    "Text",
    "Thumbnail",
    "ToAnchor",
    "ToEnd",
    "ToRow",
    "ToStart",
    "WrappedText",
    "link",
    "paint_placed",
    "paint_rounded",
    "placed_in",
    "spacer",
    "text_with_more",
]
