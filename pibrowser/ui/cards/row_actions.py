"""What clicks and keys on a list of cards do.

A click (or Space, or Enter) on a card's part does that part's action: select an
entry, go to a tool call's card, open or close a section, show a text whole, open an
image full size. The keyboard moves a current card (↑ ↓ Page Up/Down Home End); Tab
walks the links, sections and thumbnails of the current card and on into the next,
Shift+Tab back; Enter or Space does what the part Tab is on does (or selects the
current card's entry); the Menu key opens the card's menu.
"""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPoint, QRect, Qt, SignalInstance
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QMenu, QScrollBar, QWidget

from .card_piece import CardPiece, CardState
from .images import ImageViewer
from .pieces import Action, ActionKind, Piece
from .row_pieces import RowPieces
from .sections import Thumbnail, ToggleHead
from .text_piece import INLINE_ALL_LIMIT, Text
from .text_viewer import TextViewer


class Rows(Protocol):
    """What the actions ask of the list they act on (a RowList): its rows and their pieces, the
    current row, where rows are, and what a card's action is answered with."""

    activated: SignalInstance  # (entry id, card): a card asked for its entry to be selected

    @property
    def rows_model(self) -> QAbstractItemModel: ...

    @property
    def rows(self) -> list[Any]: ...

    def root(self, row: int) -> RowPieces: ...

    def row_of_root(self, root: RowPieces) -> int | None: ...

    def state_of(self, item: Any) -> dict[str, CardState]: ...

    def rebuilt(self, root: RowPieces) -> None: ...

    def jump(self, root: RowPieces, card: Piece | None, index: int) -> None: ...

    def card_width(self) -> int: ...

    def row_rect(self, row: int) -> QRect: ...

    def visible_rows(self) -> range: ...

    def top_anchor(self) -> tuple[int, int] | None: ...

    def ensure_visible(self, row: int) -> None: ...

    def show_area(self, row: int, area: QRect) -> None: ...

    def currentIndex(self) -> QModelIndex: ...

    def setCurrentIndex(self, index: QModelIndex) -> None: ...

    def verticalScrollBar(self) -> QScrollBar: ...

    def viewport(self) -> QWidget: ...

    def window(self) -> QWidget: ...

    def as_widget(self) -> QWidget: ...


class RowActions:
    """Does what the rows of `rows` ask; keeps which part of which row Tab is on."""

    def __init__(self, rows: Rows) -> None:
        self.rows = rows
        self.focus: object | None = None  # the part Tab is on
        self.focus_root: RowPieces | None = None
        self.menu: QMenu | None = None
        self.opened: list = []  # viewers opened (each closes itself)

    # -- actions

    def act(self, root: RowPieces, card: Piece | None, action: Action) -> None:
        """Do what a part of a card (or of the row, when `card` is None) asks."""
        rows = self.rows
        if action.do is ActionKind.SELECT:
            rows.activated.emit(action.value, card)
        elif action.do is ActionKind.JUMP:
            rows.jump(root, card, action.value)
        elif action.do is ActionKind.TOGGLE:
            inside = card if card is not None else root
            head = next((piece for piece in inside.pieces() if isinstance(piece, ToggleHead) and piece.key == action.value), None)
            self._state(root, card).opened[action.value] = not (head.opened if head is not None else False)
            self._rebuilt(root, head)
        elif action.do is ActionKind.SHOW_ALL:
            self._show_all(root, card, action.value)
        elif action.do is ActionKind.PAGE:
            key, page = action.value
            self._state(root, card).pages[key] = page
            self._rebuilt(root, None)
        elif action.do is ActionKind.OPEN_IMAGE and isinstance(action.value, Thumbnail):
            thumb = action.value
            if thumb.loader is not None and isinstance(thumb.data, str):
                viewer = ImageViewer(thumb.data, thumb.mime, thumb.loader, rows.window())
                viewer.show()
                self.opened.append(viewer)

    def _state(self, root: RowPieces, card: Piece | None) -> CardState:
        if isinstance(card, CardPiece):
            return card.state
        row = self.rows.row_of_root(root)
        assert row is not None, "a row acts while it is shown"
        return self.rows.state_of(self.rows.rows[row]).setdefault("", CardState())

    def _show_all(self, root: RowPieces, card: Piece | None, key: str) -> None:
        inside = card if card is not None else root
        text = next((piece for piece in inside.pieces() if isinstance(piece, Text) and piece.key == key), None)
        if text is None:
            return
        if len(text.full) > INLINE_ALL_LIMIT:
            viewer = TextViewer(text.title, text.full, self.rows.window(), monospace=text.mono)
            viewer.show()
            self.opened.append(viewer)
            return
        self._state(root, card).whole.add(key)
        self._rebuilt(root, None)

    def _rebuilt(self, root: RowPieces, focused: object | None) -> None:
        """The row is built again; Tab stays on the section it was on."""
        row = self.rows.row_of_root(root)
        self.rows.rebuilt(root)
        if row is not None and isinstance(focused, ToggleHead) and self.focus is focused:
            self.focus_root = self.rows.root(row)
            self.focus = next(
                (piece for piece in self.focus_root.pieces() if isinstance(piece, ToggleHead) and piece.key == focused.key), None
            )

    def card_menu(self, root: RowPieces, card: Piece | None, position: QPoint) -> None:
        if not isinstance(card, CardPiece) or card.action is None:
            return
        action = card.action
        menu = card.menu(lambda: self.act(root, card, action), self.rows.as_widget())
        if menu is not None:
            self.menu = menu
            menu.popup(position)

    # -- the keyboard

    def key(self, event: QKeyEvent) -> bool:
        """Handle a key pressed in the list; False when it is not one of the list's."""
        rows, key = self.rows, event.key()
        if not rows.rows:
            return False
        current = rows.currentIndex().row() if rows.currentIndex().isValid() else None
        shown = rows.visible_rows() or range(len(rows.rows) - 1, len(rows.rows))
        last = len(rows.rows) - 1
        moves: dict[int, int] = {
            Qt.Key.Key_Up: current - 1 if current is not None else shown[-1],
            Qt.Key.Key_Down: current + 1 if current is not None else shown[0],
            Qt.Key.Key_Home: 0,
            Qt.Key.Key_End: last,
        }
        if key in moves:
            self.go(max(0, min(moves[key], last)))
            return True
        if key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            bar = rows.verticalScrollBar()
            bar.setValue(bar.value() + (bar.pageStep() if key == Qt.Key.Key_PageDown else -bar.pageStep()))
            anchor = rows.top_anchor()
            if anchor is not None:
                self.go(anchor[0], scroll=False)
            return True
        row = current if current is not None else shown[0]
        root = rows.root(row)
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            target = self.focus if self.focus_root is root else None
            card = self._card_of(root, target)
            action = getattr(target, "action", None)
            if action is None and card is not None:
                action = card.action
            if action is not None:
                self.act(root, card, action)
            return True
        if key == Qt.Key.Key_Menu:
            rect = rows.row_rect(row)
            self.card_menu(root, self._card_of(root, None), rows.viewport().mapToGlobal(rect.topLeft() + QPoint(20, 20)))
            return True
        return False

    def _card_of(self, root: RowPieces, target: object | None) -> Piece | None:
        """The card a part is in (the row's first card, for none)."""
        width = self.rows.card_width()
        if target is not None:
            area = root.rect_of(target, width)
            if area is not None:
                return root.card_at(area.center(), width)
        cards = root.cards()
        return cards[0] if cards else None

    def go(self, row: int, scroll: bool = True) -> None:
        """Make a row the current one (and show it)."""
        rows = self.rows
        rows.setCurrentIndex(rows.rows_model.index(row, 0))
        self.focus = self.focus_root = None
        if scroll:
            rows.ensure_visible(row)
        rows.viewport().update()

    def tab(self, forward: bool) -> bool:
        """Tab (or Shift+Tab) to the next part of the current row, or on into the next row; False past the list's end."""
        rows = self.rows
        if not rows.rows:
            return False
        current = rows.currentIndex()
        row = current.row() if current.isValid() else (rows.visible_rows() or range(1))[0]
        while 0 <= row < len(rows.rows):
            root = rows.root(row)
            targets = [target for target, _ in root.focusables(rows.card_width())]
            at = targets.index(self.focus) if self.focus_root is root and self.focus in targets else None
            step = (0 if forward else len(targets) - 1) if at is None else at + (1 if forward else -1)
            if 0 <= step < len(targets):
                rows.setCurrentIndex(rows.rows_model.index(row, 0))
                self.focus, self.focus_root = targets[step], root
                area = root.rect_of(targets[step], rows.card_width())
                if area is not None:
                    rows.show_area(row, area)
                rows.viewport().update()
                return True
            row += 1 if forward else -1
            self.focus = self.focus_root = None
        rows.viewport().update()
        return False
