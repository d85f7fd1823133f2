"""A card's text drawn by a plain widget until someone reaches for it, then a full SafeTextView.

A SafeTextView is a scroll area: the view, its viewport and two scroll bars, each
built, polished and painted, for every text of every card, though most are only
ever looked at. A TextSheet holds the same inert document (filled by the same
`set_markdown` / `set_plain` rules) and paints it itself, search marks included.
When the mouse enters it, a mouse button or a context menu reaches it, or it gets
the keyboard focus, it lays a SafeTextView over itself on the same document, so
selecting, copying, the context menu, links and their tooltips are the view's own.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QContextMenuEvent,
    QFontDatabase,
    QMouseEvent,
    QPainter,
    QPalette,
    QTextCursor,
)
from PySide6.QtWidgets import QApplication, QSizePolicy, QTextEdit, QWidget

from .safe_text import SafeTextDocument, SafeTextView, TextHeights, code_background, set_markdown, set_plain, shade_code


class TextSheet(QWidget):
    """Read-only, self-sizing card text; a SafeTextView over it once it is reached for.

    `clicked` for a plain click on the text (not a drag, a selection or a link), as SafeTextView.
    It answers what search marks and tests ask of a text view: document(), toPlainText(),
    extra selections, cursorRect(); viewport() is the view's (made then, if need be).
    """

    clicked = Signal()

    def __init__(self, parent: QWidget | None = None, monospace: bool = False) -> None:
        super().__init__(parent)
        self._document = SafeTextDocument(self)
        self._document.setUndoRedoEnabled(False)
        self._document.setDocumentMargin(2)
        self._heights = TextHeights(self._document, on_copy=False)
        self._selections: list[QTextEdit.ExtraSelection] = []
        self.view: SafeTextView | None = None
        if monospace:
            self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._document.setDefaultFont(self.font())
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # as the view's: Tab reaches the text

    # -- content (the rules are safe_text's, the same as the view's)

    def document(self) -> SafeTextDocument:
        return self._document

    def toPlainText(self) -> str:
        return self._document.toPlainText()

    def set_markdown(self, text: str, limit: int = 4000) -> int:
        hidden = set_markdown(self._document, text, limit)
        shade_code(self._document, code_background())
        self._fit()
        return hidden

    def set_plain(self, text: str, limit: int = 4000) -> int:
        hidden = set_plain(self._document, text, limit)
        self._fit()
        return hidden

    def _fit(self) -> None:
        self._heights.reset()
        self.updateGeometry()
        self.update()

    # -- sizing: as tall as the text at the width it gets

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        margins = self.contentsMargins()
        inner = max(width - margins.left() - margins.right(), 40)
        return self._heights.height(inner) + margins.top() + margins.bottom() + self.footer_height()

    def sizeHint(self) -> QSize:
        width = self.width() if self.width() > 40 else 400
        margins = self.contentsMargins()
        if self.parentWidget() is not None and not self._heights.knows(width - margins.left() - margins.right()):
            return QSize(width, self.fontMetrics().height())  # a card's layout asks heightForWidth (see SafeTextView)
        return QSize(width, self.heightForWidth(width))

    def footer_height(self) -> int:
        """Room kept under the text (a subclass's "show all", say)."""
        return 0

    def text_rect(self) -> QRect:
        """Where the text is: inside the margins, as tall as the text at that width."""
        area = self.contentsRect()
        return QRect(area.topLeft(), QSize(area.width(), self._heights.height(max(area.width(), 40))))

    def minimumSizeHint(self) -> QSize:
        return QSize(40, 8)

    # -- search marks

    def setExtraSelections(self, selections: list[QTextEdit.ExtraSelection]) -> None:
        self._selections = list(selections)
        if self.view is not None:
            self.view.setExtraSelections(selections)
        self.update()

    def extraSelections(self) -> list[QTextEdit.ExtraSelection]:
        return list(self._selections)

    def cursorRect(self, cursor: QTextCursor) -> QRect:
        """Where the cursor's position is drawn, in the sheet's coordinates."""
        self._lay_out()
        block = cursor.block()
        layout = block.layout()
        top = self._document.documentLayout().blockBoundingRect(block).topLeft() + QPointF(self.contentsRect().topLeft())
        line = layout.lineForTextPosition(cursor.positionInBlock()) if layout is not None else None
        if line is None or not line.isValid():
            return QRect(top.toPoint(), QSize(1, self.fontMetrics().height()))
        x = line.cursorToX(cursor.positionInBlock())[0]
        return QRect(round(top.x() + x), round(top.y() + line.y()), 1, round(line.height()))

    # -- painting

    def _lay_out(self) -> None:
        width = max(self.contentsRect().width(), 40)
        if self._document.textWidth() != width:
            self._document.setTextWidth(width)

    def paintEvent(self, event) -> None:
        if self.view is not None:
            return
        self._lay_out()
        painter = QPainter(self)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette = self.palette()
        context.palette.setColor(QPalette.ColorRole.Text, self.palette().color(QPalette.ColorRole.Text))
        context.cursorPosition = -1
        marks = []
        for selection in self._selections:
            mark = QAbstractTextDocumentLayout.Selection()
            mark.cursor, mark.format = selection.cursor, selection.format
            marks.append(mark)
        context.selections = marks
        area = self.contentsRect()
        painter.setClipRect(event.rect())
        painter.translate(area.topLeft())
        context.clip = QRectF(event.rect().translated(-area.topLeft()))
        self._document.documentLayout().draw(painter, context)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._document.setDefaultFont(self.font())
            self._fit()
        elif event.type() == QEvent.Type.PaletteChange:
            shade_code(self._document, code_background())
            self.update()

    # -- becoming a view when reached for

    def reach(self) -> SafeTextView:
        """The SafeTextView over the sheet, made now if there is none yet."""
        if self.view is None:
            # The view lays the document out at its width at every resize: measuring other widths on it
            # would leave it wrapped for a width it does not have.
            self._heights.measure_on_copy()
            view = SafeTextView(self, document=self._document)
            view.clicked.connect(self.clicked)
            view.setGeometry(self.text_rect())
            if self._selections:
                view.setExtraSelections(self._selections)
            QWidget.setTabOrder(self, view)  # Tab goes on from the view to what came after the sheet
            self.setFocusProxy(view)
            self.view = view
            view.show()
        return self.view

    def viewport(self) -> QWidget:
        return self.reach().viewport()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.view is not None:
            self.view.setGeometry(self.text_rect())

    def enterEvent(self, event) -> None:
        self.reach()
        super().enterEvent(event)

    def focusInEvent(self, event) -> None:
        self.reach().setFocus(event.reason())

    # What reaches the sheet before its view is there goes on to the view, where it would have gone.
    # (One handler each, not event(): that would take every event of every sheet through Python.)

    def mousePressEvent(self, event) -> None:
        self._hand_on(event)

    def mouseReleaseEvent(self, event) -> None:
        self._hand_on(event)

    def mouseDoubleClickEvent(self, event) -> None:
        self._hand_on(event)

    def mouseMoveEvent(self, event) -> None:
        self._hand_on(event)

    def contextMenuEvent(self, event) -> None:
        if not self.text_rect().contains(event.pos()):
            event.ignore()  # in the margin: the card's menu
            return
        viewport = self.reach().viewport()
        moved = QContextMenuEvent(event.reason(), viewport.mapFrom(self, event.pos()), event.globalPos(), event.modifiers())
        QApplication.sendEvent(viewport, moved)
        event.setAccepted(moved.isAccepted())

    def _hand_on(self, event: QMouseEvent) -> None:
        if self.view is None and not self.text_rect().contains(event.position().toPoint()):
            event.ignore()  # a click beside the text is the card's
            return
        viewport = self.reach().viewport()
        position = QPointF(viewport.mapFrom(self, event.position().toPoint())) + (event.position() - QPointF(event.position().toPoint()))
        moved = QMouseEvent(event.type(), position, event.scenePosition(), event.globalPosition(), event.button(), event.buttons(), event.modifiers())
        QApplication.sendEvent(viewport, moved)
        event.setAccepted(moved.isAccepted())
