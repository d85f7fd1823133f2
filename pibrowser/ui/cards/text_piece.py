"""A card's text as a painted piece: an inert document, clipped, with "show all" under it when it is.

The document is filled by the same `set_markdown` / `set_plain` rules as every text
view (safe_text): HTML stays text, nothing is fetched, escapes are removed, huge text
is clipped before it reaches a layout. The piece paints the document itself, search
marks included; the live card lays a SafeTextView on the same document over it where
the mouse is, so selecting, copying, links and their tooltips are the view's own.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, QRectF, QSize, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QColor, QFont, QPainter, QPalette, QTextCursor

from ...model.text.describe import as_text
from .pieces import Action, Stack, ActionKind, PaintState, Piece, compound, font_of, metrics_of
from .part_line import Line, link
from ..common.safe_text import SafeTextDocument, code_background, set_markdown, set_plain, shade_code

CARD_TEXT_LIMIT = 4000  # characters rendered in a card before "show all"
INLINE_ALL_LIMIT = 100_000  # "show all" shows the whole text in place up to this; beyond, a paged viewer
PLAIN_ABOVE = 20_000  # a whole text longer than this is shown plain: markdown of it is slow to lay out
MORE_SPACING = 2  # between a text and its "show all"


class Text(Piece):
    """An inert text document: markdown or plain, clipped at `limit` characters.

    `hidden`: how many characters the clip left out. `mute` greys it; `action` is what a
    plain click on it does (select the card's entry, or a nested result's).
    """

    def __init__(
        self,
        text: str,
        markdown: bool = True,
        mono: bool = False,
        italic: bool = False,
        limit: int = CARD_TEXT_LIMIT,
        mute: float = 0.0,
        action: Action | None = None,
        title: str = "Text",
    ) -> None:
        super().__init__(action=action)
        self.full = text
        self.markdown = markdown
        self.mono = mono
        self.italic = italic
        self.mute = mute
        self.title = title
        self.key = ""  # what "show all" names it by in its card
        self.document = SafeTextDocument()
        self.document.setUndoRedoEnabled(False)
        self.document.setDocumentMargin(2)
        self.document.setDefaultFont(self.font)
        if markdown:
            self.hidden = set_markdown(self.document, text, limit)
            shade_code(self.document, code_background())
        else:
            self.hidden = set_plain(self.document, text, limit)

    @property
    def font(self) -> QFont:
        return font_of(mono=self.mono, italic=self.italic)

    @property
    def focusable(self) -> bool:
        return False  # Tab goes to what a click on it would do by other means: the card's links

    def plain_text(self) -> str:
        return self.document.toPlainText()

    def lay_out(self, width: int) -> None:
        if self.document.textWidth() != width:
            self.document.setTextWidth(width)

    def measure(self, width: int) -> int:
        self.lay_out(width)
        return int(self.document.size().height() + 0.999)

    def targets(self, rect: QRect) -> list[tuple[object, QRect]]:
        return [(self, rect)] if self.action is not None else []

    def color_in(self, look: PaintState, mute: float) -> QColor:
        return look.text_color(compound(mute, self.mute), look.palette.color(QPalette.ColorRole.Text))

    def paint(self, painter: QPainter, rect: QRect, look: PaintState, mute: float) -> None:
        if self in look.live:
            return  # its live view draws it
        self.lay_out(rect.width())
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette = QPalette(look.palette)
        context.palette.setColor(QPalette.ColorRole.Text, self.color_in(look, mute))
        context.cursorPosition = -1
        marks = []
        for cursor, text_format in look.marks(self.document) if look.marks is not None else ():
            mark = QAbstractTextDocumentLayout.Selection()
            mark.cursor, mark.format = cursor, text_format
            marks.append(mark)
        context.selections = marks
        painter.save()
        painter.translate(rect.topLeft())
        area = QRectF(0, 0, rect.width(), rect.height())
        visible = painter.clipBoundingRect() if painter.hasClipping() else area
        context.clip = visible.intersected(area)  # lays out and draws only what shows
        painter.setClipRect(area, Qt.ClipOperation.IntersectClip)
        self.document.documentLayout().draw(painter, context)
        painter.restore()

    def cursor_rect(self, cursor: QTextCursor, width: int) -> QRect:
        """Where the cursor's position is drawn, relative to the piece, at this width."""
        self.lay_out(width)
        block = cursor.block()
        layout = block.layout()
        top = self.document.documentLayout().blockBoundingRect(block).topLeft()
        line = layout.lineForTextPosition(cursor.positionInBlock()) if layout is not None else None
        if line is None or not line.isValid():
            return QRect(top.toPoint(), QSize(1, metrics_of(mono=self.mono).height()))
        # PySide6's stub types cursorToX's (x, position) pair as object.
        x = line.cursorToX(cursor.positionInBlock())[0]  # type: ignore[index]
        return QRect(round(top.x() + x), round(top.y() + line.y()), 1, round(line.height()))

    def forget(self) -> None:
        super().forget()
        self.document.setDefaultFont(self.font)


def text_with_more(
    text: Any,
    key: str,
    whole: bool,
    markdown: bool = True,
    mono: bool = False,
    limit: int = CARD_TEXT_LIMIT,
    action: Action | None = None,
    title: str = "Text",
    italic: bool = False,
    mute: float = 0.0,
) -> tuple[Piece, Text]:
    """A text, and "show all" under it when it is clipped; `whole`: shown whole (the user asked).

    Returns the piece to add and the text in it.
    """
    full = as_text(text)
    if whole and len(full) <= INLINE_ALL_LIMIT:
        limit, markdown = len(full), markdown and len(full) <= PLAIN_ABOVE
    piece = Text(full, markdown=markdown, mono=mono, italic=italic, limit=limit, mute=mute, action=action, title=title)
    piece.key = key
    if not piece.hidden:
        return piece, piece
    more = Line([link(f"Show all ({len(full):,} characters)", Action(ActionKind.SHOW_ALL, key), "Show the complete text")])
    return Stack([piece, more], spacing=MORE_SPACING), piece
