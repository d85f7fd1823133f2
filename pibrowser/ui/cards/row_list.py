"""A list of painted rows: only what shows is built, measured and painted.

The rows come from a list model (a context's messages, or the rows of a comparison);
each row is drawn from a tree of pieces (a RowPieces) that a delegate paints, built and
measured only when the row comes into view: until then it counts with an estimated
height, so a list of thousands of rows costs what a screenful costs. Where the mouse
is, a live view painting the same pieces is laid over the row (LiveRow) and answers
the mouse; the keyboard moves a current row and Tab walks its links (RowActions).

Everything is measured when it is asked for, synchronously: the rows about to show
are measured before they are painted, and when rows measured above what shows turn
out taller or shorter than counted, the scroll position moves with them, so what the
user looks at never jumps. Where to scroll is a typed ScrollTarget.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractListModel, QEvent, QPoint, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QPainter, QTextDocument
from PySide6.QtWidgets import QAbstractItemView, QFrame, QStyle, QStyleOptionViewItem, QWidget

from ..guard import FAILURE_COLOR, guarded, guarded_paint, report
from .card_piece import CardState
from .images import ImageLoader
from .row_actions import RowActions
from .row_delegate import RowDelegate
from .live_row import LiveRow
from .pieces import Action, PaintState, Piece, WrappedText, fonts_changed
from .row_pieces import RowPieces
from .row_view import BOTTOM, SPACING, TOP, RowView
from .scroll_target import ScrollTarget, Stay, ToEnd, ToRow, ToStart
from .sections import Thumbnail
from ..common.widgets import MUTED

MAX_BUILT = 240  # rows whose pieces are kept built
FLASH_MS = 1400

RowState = dict[str, CardState]  # what the user opened in the cards of a row, by card


@dataclass(frozen=True)
class ListPlace:
    """Where the list stood: its scroll position, whether that was its end, and how many rows it had."""

    value: int
    at_bottom: bool
    rows: int


class RowModel(QAbstractListModel):
    """The Qt list model a RowList shows: one object in `rows` for each row, which the list's
    subclass builds the row's pieces from (build_root)."""

    rows: list[Any]


class RowList(RowView):
    """Rows of `model` (its `rows`), each drawn from the RowPieces that `build_root` makes.

    `activated(entry id, card)` when a card asks for its entry (or another) to be selected.
    """

    activated = Signal(object, object)  # an id may be a JsKey (an id that is not a string): kept as the object it is

    def __init__(self, model: RowModel, images: ImageLoader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Qt asks for geometry as soon as the view is set up: the state comes first.
        self.images = images
        self.rows_model = model
        self._roots: OrderedDict[int, RowPieces] = OrderedDict()  # by id() of the row's object, kept alive in `_objects`
        self._objects: dict[int, Any] = {}
        self._states: dict[int, tuple[Any, RowState]] = {}
        self._row_by_id: dict[int, int] | None = None  # row of each row's object (by id()); None: to be made again
        self.marks: Callable[[QTextDocument], list] | None = None  # the search's marks of a document, or None
        self.actions_ = RowActions(self)
        self.live = LiveRow(self, self.viewport(), model, self.root, self.row_rect)
        self.flashed: object | None = None
        self._flash_timer = QTimer(self, singleShot=True, interval=FLASH_MS)
        self._flash_timer.timeout.connect(lambda: self.flash(None))
        self.empty_text = ""
        self.setModel(model)
        self.setItemDelegate(
            RowDelegate(
                self, self.root, self.look_for, lambda: self.actions_.focus is not None, lambda row: self.geometry_of_rows.heights[row]
            )
        )
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # The keys scroll to the current row themselves; Qt's own scroll would come in the middle of a
        # change of rows too (the current row removed), when the rows are not all in place.
        self.setAutoScroll(False)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Always on: a bar that came and went would change the rows' width, and so their heights.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMouseTracking(True)
        self.verticalScrollBar().setSingleStep(24)
        images.ready.connect(self._image_ready)
        for rows_changed in (model.rowsInserted, model.rowsRemoved, model.rowsMoved, model.modelReset, model.layoutChanged):
            rows_changed.connect(self._rows_changed)

    @property
    def rows(self) -> list[Any]:
        return self.rows_model.rows

    def as_widget(self) -> QWidget:
        """The list itself, where its actions want a widget (a menu's parent) and not their Rows."""
        return self

    # -- what a subclass says

    def build_root(self, row: Any, state: RowState) -> RowPieces:
        raise NotImplementedError

    def jump(self, root: RowPieces, card: Piece | None, index: int) -> None:
        """A card's "go to #n" link: show the card of message `index` that the link means."""

    def paint_footer(self, painter: QPainter, rect: QRect) -> None:
        pass

    # -- rows built

    def root(self, row: int) -> RowPieces:
        """The pieces of a row, built now if they are not."""
        item = self.rows[row]
        root = self._roots.get(id(item))
        if root is None:
            root = self._built(item)
            self._roots[id(item)] = root
            self._objects[id(item)] = item
            if len(self._roots) > MAX_BUILT:
                gone, _ = self._roots.popitem(last=False)
                self._objects.pop(gone, None)
        else:
            self._roots.move_to_end(id(item))
        return root

    def _built(self, item: Any) -> RowPieces:
        """The row's pieces; a row that cannot be built says so in its place, and the others show."""
        try:
            return self.build_root(item, self.state_of(item))
        except Exception as error:  # noqa: BLE001 (logged by report, and said in the row)
            return RowPieces(
                [WrappedText(report(error, f"{type(self).__qualname__}.build_root"), color=FAILURE_COLOR)], margins=(8, 4, 8, 4)
            )

    def built(self) -> list[tuple[Any, RowPieces]]:
        """The rows' objects whose pieces are built, and the pieces."""
        return [(self._objects[key], root) for key, root in self._roots.items()]

    def state_of(self, item: Any) -> RowState:
        found = self._states.get(id(item))
        if found is None:
            found = self._states[id(item)] = (item, {})
        return found[1]

    def states(self) -> list[RowState]:
        return [state for _, state in self._states.values()]

    def forget_row(self, item: Any) -> None:
        """The row's pieces are built again when next shown, and measured again."""
        self._roots.pop(id(item), None)
        self._objects.pop(id(item), None)
        row = self.row_of(item)
        if row is not None:
            self.geometry_of_rows.forget(row)

    def forget_state(self, item: Any) -> None:
        self._states.pop(id(item), None)

    def forget_all(self) -> None:
        """Every row is built and measured again (the fonts changed, or all rows went)."""
        self._roots.clear()
        self._objects.clear()
        for row in range(len(self.rows)):
            self.geometry_of_rows.forget(row)

    def take_over(self, was: Any, item: Any) -> None:
        """`item` now stands for `was` (an equal row of a new list): its pieces and state go with it."""
        self._row_by_id = None
        root = self._roots.pop(id(was), None)
        self._objects.pop(id(was), None)
        if root is not None:
            self._roots[id(item)] = root
            self._objects[id(item)] = item
        state = self._states.pop(id(was), None)
        if state is not None:
            self._states[id(item)] = (item, state[1])

    def row_of(self, item: Any) -> int | None:
        """The row of this very object (None when it is not one of the rows). Asked for every search
        mark and every built row: the rows are indexed by identity once per change of rows, not scanned."""
        rows = self.rows
        if self._row_by_id is None:
            self._row_by_id = {id(candidate): row for row, candidate in enumerate(rows)}
        row = self._row_by_id.get(id(item))
        return row if row is not None and row < len(rows) and rows[row] is item else None

    def _rows_changed(self, *_) -> None:
        self._row_by_id = None

    def row_of_root(self, root: RowPieces) -> int | None:
        key = next((key for key, built in self._roots.items() if built is root), None)
        return self.row_of(self._objects[key]) if key is not None else None

    def rebuilt(self, root: RowPieces) -> None:
        """The row's state changed (a section opened, a text shown whole): build it again, its top kept in place."""
        row = self.row_of_root(root)
        if row is not None:
            self.forget_row(self.rows[row])
            self._settle(row, self.geometry_of_rows.top(row) - self.verticalScrollBar().value())

    # -- measuring and scrolling

    def _measure(self, row: int) -> int:
        width, geometry = self.card_width(), self.geometry_of_rows
        if not geometry.is_measured(row, width):
            geometry.set(row, self.root(row).height(width) + SPACING, width)
        return geometry.heights[row]

    def _cover(self, row: int, offset: int) -> None:
        """Measure the rows that show with `row`'s top `offset` below the view's top, and a third of the view past each edge."""
        view, count = self.viewport().height(), len(self.geometry_of_rows)
        y, at = offset, row
        while at < count and y < view + view // 3:
            y += self._measure(at)
            at += 1
        y, at = offset, row - 1
        while at >= 0 and y > -(view // 3):
            y -= self._measure(at)
            at -= 1

    def _settle(self, row: int, offset: int) -> None:
        """Show `row` with its top `offset` below the view's top, as near as the ends of the list allow."""
        geometry = self.geometry_of_rows
        if not len(geometry):
            self._scroll(0)
            return
        row = max(0, min(row, len(geometry) - 1))
        self._cover(row, offset)
        value = geometry.top(row) - offset
        if value > self.content_height() - self.viewport().height():
            self._settle_end()
            return
        if value < 0:
            value = 0
            self._cover(row, geometry.top(row))  # the row sits higher: more shows under it
        self._scroll(value)

    def _settle_end(self) -> None:
        """The last row's bottom at the view's bottom (what is under it, under it)."""
        geometry, view = self.geometry_of_rows, self.viewport().height()
        y, at = view - self.footer_height() - BOTTOM, len(geometry) - 1
        while at >= 0 and y > -(view // 3):
            y -= self._measure(at)
            at -= 1
        self._scroll(max(self.content_height() - view, 0))

    def _scroll(self, value: int) -> None:
        self.updateGeometries()
        self.verticalScrollBar().setValue(value)
        self.viewport().update()
        self.live.place()

    def stay_put(self) -> None:
        """Measure again what changed, keeping the row at the top of the view in place."""
        anchor = self.top_anchor()
        if anchor is None:
            self._scroll(0)
            return
        self._settle(*anchor)

    def place(self) -> ListPlace:
        bar = self.verticalScrollBar()
        return ListPlace(bar.value(), bar.value() >= bar.maximum() - 4, len(self.rows))

    def scroll_to(self, target: ScrollTarget) -> None:
        if isinstance(target, ToEnd):
            self._settle_end()
        elif isinstance(target, ToStart):
            self._settle(0, TOP)
        elif isinstance(target, ToRow):
            self._settle(target.row, target.offset if target.offset is not None else self.viewport().height() // 5)
            if target.flash and self.rows:
                self.flash(self.rows[max(0, min(target.row, len(self.rows) - 1))])
        elif isinstance(target, Stay):
            self.stay_put()

    def scroll_to_row(self, row: int, flash: bool = True) -> RowPieces | None:
        """Bring a row into view (its top a fifth of the way down); returns its pieces."""
        if not self.rows:
            return None
        row = max(0, min(row, len(self.rows) - 1))
        self.scroll_to(ToRow(row, flash=flash))
        return self.root(row)

    def ensure_visible(self, row: int) -> None:
        """Scroll as little as shows the whole row (its top, when it is taller than the view)."""
        rect, view = self.row_rect(row), self.viewport().height()
        if rect.top() < 0 or rect.height() > view:
            self._settle(row, 0)
        elif rect.bottom() >= view:
            self._settle(row, view - rect.height() - SPACING)

    def show_area(self, row: int, area: QRect) -> None:
        """Scroll, if need be, so this rectangle of a row shows (a third of the way down when it did not)."""
        rect, view = area.translated(self.row_rect(row).topLeft()), self.viewport().height()
        if rect.top() < 0 or rect.bottom() >= view:
            self._settle(row, view // 3 - area.top())

    def flash(self, item: object | None) -> None:
        """Light up the border of this row's card a moment (None: no longer)."""
        self.flashed = item
        if item is not None:
            self._flash_timer.start()
        self.viewport().update()
        self.live.update()

    @guarded
    def scrollContentsBy(self, dx: int, dy: int) -> None:
        anchor = self.top_anchor()
        if anchor is not None:
            heights = list(self.geometry_of_rows.heights)
            self._cover(*anchor)
            if heights != self.geometry_of_rows.heights:
                # Rows measured just now: the top one stays where it is; those above it move the position with them.
                self._scroll(self.geometry_of_rows.top(anchor[0]) - anchor[1])
                return
        self.viewport().scroll(dx, dy)
        self.live.place()

    @guarded
    def resizeEvent(self, event) -> None:
        at_end, anchor = self.place().at_bottom, self.top_anchor()
        QAbstractItemView.resizeEvent(self, event)
        if at_end and self.rows:
            self._settle_end()
        elif anchor is not None:
            self._settle(*anchor)
        else:
            self.updateGeometries()

    @guarded
    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._roots.clear()  # code is shaded from the palette as a text is made
            self._objects.clear()
            self.viewport().update()
        elif event.type() in (QEvent.Type.FontChange, QEvent.Type.ApplicationFontChange):
            fonts_changed()
            self.forget_all()
            self.stay_put()

    # -- painting

    def look_for(self, root: RowPieces, widget: QWidget) -> PaintState:
        focus = self.actions_.focus if self.hasFocus() and self.actions_.focus_root is root else None
        return PaintState(self.palette(), widget, flashed=self.flashed, marks=self.marks, focus=focus)

    @guarded_paint
    def paintEvent(self, event) -> None:
        painter = QPainter(self.viewport())
        if not self.rows:
            if self.empty_text:
                painter.setPen(PaintState(self.palette(), self).text_color(MUTED))
                painter.drawText(self.viewport().rect(), int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap), self.empty_text)
            return
        delegate, area, current = self.itemDelegate(), event.rect(), self.currentIndex()
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        for row in self.visible_rows():
            if not self.geometry_of_rows.is_measured(row, self.card_width()):
                self._measure(row)  # asked to paint before it settled: measured now, never painted at a guess
            option.rect = self.row_rect(row)
            option.state &= ~QStyle.StateFlag.State_HasFocus
            if self.hasFocus() and current.isValid() and current.row() == row:
                option.state |= QStyle.StateFlag.State_HasFocus
            if option.rect.intersects(area):
                delegate.paint(painter, option, self.rows_model.index(row, 0))
        top = self.geometry_of_rows.end() - self.verticalScrollBar().value()
        self.paint_footer(painter, QRect(self.row_rect(0).left(), top, self.card_width(), self.footer_height()))

    # -- the mouse, the keyboard

    @guarded
    def mouseMoveEvent(self, event) -> None:
        index = self.indexAt(event.position().toPoint())
        if index.isValid():
            self.live.over(index.row())

    def live_card(self, row: int):
        """The live view laid over a row, scrolled into view first (what a user reaches with the mouse)."""
        self.ensure_visible(row)
        return self.live.over(row)

    def act(self, root: RowPieces, card: Piece | None, action: Action) -> None:
        self.actions_.act(root, card, action)

    def card_menu(self, root: RowPieces, card: Piece | None, position: QPoint) -> None:
        self.actions_.card_menu(root, card, position)

    @guarded
    def keyPressEvent(self, event) -> None:
        if not self.actions_.key(event):
            super().keyPressEvent(event)

    @guarded(fallback=False)
    def focusNextPrevChild(self, forward: bool) -> bool:
        if self.hasFocus() and self.actions_.tab(forward):
            return True
        return super().focusNextPrevChild(forward)

    @guarded
    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        if not self.currentIndex().isValid() and self.rows:
            shown = self.visible_rows()
            self.setCurrentIndex(self.rows_model.index(shown[0] if shown else 0, 0))
        self.viewport().update()

    @guarded
    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.viewport().update()

    # -- images decoded

    def _image_ready(self, key: str) -> None:
        waiting = [item for item, root in self.built() if any(isinstance(piece, Thumbnail) and piece.key == key for piece in root.pieces())]
        for item in waiting:
            self.forget_row(item)
        if waiting:
            self.stay_put()
