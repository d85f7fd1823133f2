"""The card the mouse is on, live: the pieces the list paints, answering the mouse.

The list paints every card through its delegate; over the one the mouse is on it lays
a LiveCard that paints the very same pieces (so nothing moves or changes colour when
it comes or goes) and answers the mouse: links and section titles hover and click,
every part shows its tooltip, a right click opens the card's menu, and where the mouse
is over a text a SafeTextView is laid on that text's own document, so selecting,
copying, the text's own menu and its links are the view's. The compare view shows its
cards with CardViews too. What a click asks for goes to the host (`act`).
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QPoint, QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QTextEdit, QToolTip, QWidget

from .pieces import Action, PaintState, Piece, WrappedText
from .row_pieces import RowPieces
from ..common.safe_text import SafeTextDocument, SafeTextView
from .text_piece import Text
from ..guard import guarded, guarded_paint


class CardHost(Protocol):
    """What shows rows of cards: how to paint one, and what to do when a card asks for something."""

    def look_for(self, root: RowPieces, widget: QWidget) -> PaintState: ...

    def act(self, root: RowPieces, card: Piece | None, action: Action) -> None: ...

    def card_menu(self, root: RowPieces, card: Piece | None, position: QPoint) -> None: ...


class LiveCard(QWidget):
    """One row (a card, or a compare row of cards), live. `root` is replaced (`set_root`) when the row is built again."""

    def __init__(self, root: RowPieces, host: CardHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.root = root
        self.host = host
        self.hover: object | None = None
        self.pressed: object | None = None
        self.texts: dict[Text | WrappedText, SafeTextView] = {}
        self.setMouseTracking(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)
        self.setAccessibleName(root.accessible_name())

    def set_root(self, root: RowPieces) -> None:
        if root is self.root:
            return
        self.root = root
        self._drop_texts()
        self.hover = self.pressed = None
        self.setAccessibleName(root.accessible_name())
        self.update()

    def _drop_texts(self) -> None:
        for view in self.texts.values():
            view.hide()
            view.deleteLater()
        self.texts = {}

    # -- painting

    @guarded_paint
    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        look = self.host.look_for(self.root, self)
        look.hover, look.pressed = self.hover, self.pressed
        look.live = frozenset(self.texts)
        self.root.paint_all(painter, QPoint(0, 0), self.width(), look, event.rect())

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self._drop_texts()  # laid out for another width
        else:
            self._place_texts()

    # -- the mouse

    def target_at(self, position: QPoint) -> tuple[object, QRect] | None:
        return self.root.target_at(position, self.width())

    def card_at(self, position: QPoint) -> Piece | None:
        return self.root.card_at(position, self.width())

    @guarded
    def mouseMoveEvent(self, event) -> None:
        position = event.position().toPoint()
        found = self.target_at(position)
        target = found[0] if found is not None else None
        if isinstance(target, (Text, WrappedText)):
            self.reach(target)
        hover = (
            target if target is not None and getattr(target, "action", None) is not None and not getattr(target, "is_card", False) else None
        )
        if hover is not self.hover:
            self.hover = hover
            self.update()
        super().mouseMoveEvent(event)

    @guarded
    def leaveEvent(self, event) -> None:
        if self.hover is not None:
            self.hover = None
            self.update()
        super().leaveEvent(event)

    @guarded
    def mousePressEvent(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        found = self.target_at(event.position().toPoint())
        self.pressed = found[0] if found is not None else None
        self.update()
        event.accept()

    @guarded
    def mouseReleaseEvent(self, event) -> None:
        pressed, self.pressed = self.pressed, None
        if event.button() != Qt.MouseButton.LeftButton or pressed is None:
            super().mouseReleaseEvent(event)
            return
        self.update()
        event.accept()
        position = event.position().toPoint()
        found = self.target_at(position)
        if found is not None and found[0] is pressed:
            card = self.card_at(position)
            action = getattr(pressed, "action", None) or getattr(card, "action", None)  # a note: as a click on its card
            if action is not None:
                self.host.act(self.root, card, action)

    @guarded
    def contextMenuEvent(self, event) -> None:
        self.host.card_menu(self.root, self.card_at(event.pos()), event.globalPos())
        event.accept()

    @guarded(fallback=False)
    def event(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            found = self.target_at(event.pos())
            tip = getattr(found[0], "tip", "") if found is not None else ""
            if tip and found is not None:
                QToolTip.showText(event.globalPos(), tip, self, found[1])
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    # -- live texts

    def reach(self, piece: Text | WrappedText) -> SafeTextView:
        """The SafeTextView laid over a text (on its own document) or a note (on a copy of its words),
        made now if there is none: selecting and copying are the view's."""
        view = self.texts.get(piece)
        if view is None:
            view = SafeTextView(self, document=piece.document if isinstance(piece, Text) else _words_document(piece))
            if isinstance(piece, WrappedText):
                view.document().setDocumentMargin(0)  # the view sets a text's margin; a note has none
            view.setFont(piece.font)
            view.setCursor(Qt.CursorShape.IBeamCursor)
            look = self.host.look_for(self.root, self)
            mute = next((mute for placed, _, mute in self.root.placed(self.width()) if placed is piece), 0.0)
            palette = view.palette()
            palette.setColor(QPalette.ColorRole.Text, piece.color_in(look, mute))
            palette.setColor(QPalette.ColorRole.Base, QColor(0, 0, 0, 0))
            view.setPalette(palette)
            if isinstance(piece, Text) and look.marks is not None:
                view.setExtraSelections(_selections(look.marks(piece.document)))
            area = self.root.rect_of(piece, self.width())
            card = self.card_at(area.center()) if area is not None else None
            action = piece.action if piece.action is not None else getattr(card, "action", None)
            if action is not None:
                view.clicked.connect(lambda: self.host.act(self.root, card, action))
            if piece.tip:
                view.setToolTip(piece.tip)
            self.texts[piece] = view
            self._place(piece, view)
            view.show()
            self.update()
        return view

    def _place(self, text: Text | WrappedText, view: SafeTextView) -> None:
        rect = self.root.rect_of(text, self.width())
        if rect is not None:
            view.setGeometry(rect)

    def _place_texts(self) -> None:
        for text, view in self.texts.items():
            self._place(text, view)

    def refresh_marks(self) -> None:
        """The search marks changed: the live texts show the new ones (the rest is painted)."""
        look = self.host.look_for(self.root, self)
        for text, view in self.texts.items():
            if isinstance(text, Text):  # a note's view shows a copy of its words, never marked (as reach() makes it)
                view.setExtraSelections(_selections(look.marks(text.document)) if look.marks is not None else [])
        self.update()


def _words_document(words: WrappedText) -> SafeTextDocument:
    """A note's words as a plain document laid out as the note paints them (no margin, the same font)."""
    document = SafeTextDocument()
    document.setDefaultFont(words.font)
    document.setPlainText(words.text)
    if words.center:
        option = document.defaultTextOption()
        option.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        document.setDefaultTextOption(option)
    return document


def _selections(marks: list) -> list[QTextEdit.ExtraSelection]:
    selections = []
    for cursor, text_format in marks:
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        selection.format = text_format
        selections.append(selection)
    return selections
