#!/usr/bin/env python3
"""The context cards two ways, measured on one file: ours, and a prototype on Qt's item-view machinery.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_card_routes.py --file F.jsonl [--selects 12] [--width 600]

Issue 35 asked whether the cards should be rebuilt on Qt's item-view machinery: a
QAbstractItemView subclass (as in Qt's Chart example) whose delegate paints each card
from a QTextDocument (which does the wrapping), and the live card under the mouse as
the delegate's editor, a widget card of labels and link buttons in a flow layout and
a text view per text. This benchmark builds that prototype far enough to measure it
(a card's header, its texts as markdown, tool calls and their nested results as
document frames; not thumbnails, sections or search marks) and measures, for the
same seeded random selections of entries of the file, what the card list costs:

- select: the rows of a new context shown, scrolled to the end, the view painted;
- scroll: a frame of the view scrolled 120 pixels up and painted (new cards come in);
- hover: the live card laid over a row the mouse reached and painted.

Each figure is CPU time of this process (the machine is shared) and wall time.
Both routes use the same lazy row geometry (only rows that show are measured): the
comparison is of the card (pieces vs one document) and of the live card (painted
pieces with a text view where the mouse is, vs an editor of widgets).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.yardstick import print_yardstick
from PySide6.QtCore import QModelIndex, QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QRegion, QTextCharFormat, QTextCursor, QTextFrameFormat, QTextLength
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QLabel,
    QLayout,
    QStyleOptionViewItem,
    QStyledItemDelegate,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWidgetItem,
)

from pibrowser.model import Session, path_provenance, resolve
from pibrowser.model.js.value import MISSING
from pibrowser.model.session.content import BlockKind, ContentShape, blocks, content_shape
from pibrowser.model.tokens.stats import context_stats
from pibrowser.ui.common.formatting import display_json, format_arguments, message_time
from pibrowser.ui.common.safe_text import MARKDOWN_FEATURES, SafeTextDocument, SafeTextView, clean, plain
from pibrowser.ui.window.app import make_application
from tests.home import isolate_home

CARD_TEXT_LIMIT, RESULT_TEXT_LIMIT = 4000, 1500
TOP, SPACING, SIDE = 6, 8, 8
MAX_BUILT = 240


# ---- the item-view route: a card as one document ---------------------------------------------------------


def _frame(color: str, tint: int, padding: int = 6) -> QTextFrameFormat:
    frame = QTextFrameFormat()
    frame.setBorder(1)
    frame.setBorderBrush(QBrush(QColor(color)))
    frame.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
    frame.setBackground(QColor(color).lighter(tint))
    frame.setPadding(padding)
    frame.setMargin(2)
    frame.setWidth(QTextLength(QTextLength.Type.PercentageLength, 100))
    return frame


def card_document(item, info) -> SafeTextDocument:
    """A card as the item-view route would paint it: one inert document."""
    document = SafeTextDocument()
    document.setUndoRedoEnabled(False)
    document.setDocumentMargin(4)
    document.rootFrame().setFrameFormat(_frame("#94a3b8", 190, 8))
    cursor = QTextCursor(document)
    bold, small = QTextCharFormat(), QTextCharFormat()
    bold.setFontWeight(QFont.Weight.Bold)
    small.setForeground(QColor("#64748b"))
    cursor.insertText(f"{item.role} ", bold)
    number = f"#{item.index + 1}" if item.index is not None else "not sent"
    cursor.insertText(f"{number}  {message_time(item.message, item.entry)}  ≈{item.tokens} tok  {item.entry.id}", small)
    message = item.message
    cursor.insertBlock()
    if not isinstance(message, dict):
        cursor.insertText(display_json(message)[0])
        return document
    role = message.get("role")
    if role == "toolResult" and message.get("toolCallId") in info.calls:
        cursor.insertText(f"↩ result of {plain(message.get('toolName'))} — shown under its call", small)
        return document
    _content(cursor, info, message.get("content", MISSING), markdown=role in ("user", "assistant"), limit=CARD_TEXT_LIMIT)
    return document


def _content(cursor: QTextCursor, info, content, markdown: bool, limit: int) -> None:
    shape = content_shape(content)
    if shape is ContentShape.STRING:
        _text(cursor, content, markdown, limit)
        return
    if shape is not ContentShape.BLOCKS:
        cursor.insertText(display_json(content)[0] if content is not MISSING else "(no content)")
        return
    for kind, block in blocks(content):
        if kind is BlockKind.TEXT:
            _text(cursor, block.get("text"), markdown, limit)
        elif kind is BlockKind.THINKING:
            cursor.insertText(f"▸ Thinking · {len(str(block.get('thinking', ''))):,} characters")
            cursor.insertBlock()
        elif kind is BlockKind.TOOL_CALL:
            _tool_call(cursor, info, block)
        elif kind is BlockKind.IMAGE:
            cursor.insertText("[image]")
            cursor.insertBlock()
        else:
            _text(cursor, display_json(block)[0], False, limit)


def _text(cursor: QTextCursor, text, markdown: bool, limit: int) -> None:
    shown, _ = clean(text if isinstance(text, str) else "", limit)
    if markdown:
        cursor.insertMarkdown(shown, MARKDOWN_FEATURES)
    else:
        cursor.insertText(shown)
    cursor.insertBlock()


def _tool_call(cursor: QTextCursor, info, block) -> None:
    outer = cursor.insertFrame(_frame("#f59e0b", 180))
    cursor.insertText(f"→ {plain(block.get('name'))}    {plain(block.get('id'))}")
    cursor.insertBlock()
    cursor.insertText(clean(format_arguments(block.get("arguments", MISSING)), CARD_TEXT_LIMIT)[0])
    index = info.results.get(block.get("id")) if isinstance(block.get("id"), str) else None
    if index is not None:
        cursor.insertFrame(_frame("#f59e0b", 170))
        message = info.message(index)
        cursor.insertText(f"↳ result · #{index + 1}    {info.source(index).id}")
        cursor.insertBlock()
        _content(cursor, info, message.get("content", MISSING) if isinstance(message, dict) else message, False, RESULT_TEXT_LIMIT)
    cursor.setPosition(outer.lastPosition())
    cursor.movePosition(QTextCursor.MoveOperation.NextBlock)


class FlowLayout(QLayout):
    """Qt's flow layout example: widgets left to right, wrapping to the next row."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list = []
        self.setSpacing(spacing)
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item) -> None:
        self._items.append(item)

    def addWidget(self, widget: QWidget) -> None:
        self.addChildWidget(widget)
        self.addItem(QWidgetItem(widget))

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int):
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int):
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._lay_out(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._lay_out(rect, move=True)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _lay_out(self, rect: QRect, move: bool) -> int:
        x, y, line = rect.x(), rect.y(), 0
        for item in self._items:
            hint = item.sizeHint()
            if x + hint.width() > rect.right() and line > 0:
                x, y, line = rect.x(), y + line + self.spacing(), 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self.spacing()
            line = max(line, hint.height())
        return y + line - rect.y()


def editor_card(item, parent: QWidget) -> QWidget:
    """The live card as a delegate's editor: the header's parts as labels and a link button in a flow
    layout, and a selectable text view per text."""
    card = QFrame(parent)
    card.setAutoFillBackground(True)
    column = QVBoxLayout(card)
    column.setContentsMargins(14, 8, 10, 8)
    head = QWidget()
    flow = FlowLayout(head)
    number = f"#{item.index + 1}" if item.index is not None else "not sent"
    for text in (item.role, number, message_time(item.message, item.entry), f"≈{item.tokens} tok"):
        flow.addWidget(QLabel(text))
    link = QToolButton()
    link.setText(item.entry.id)
    link.setAutoRaise(True)
    flow.addWidget(link)
    column.addWidget(head)
    content = item.message.get("content", MISSING) if isinstance(item.message, dict) else item.message
    texts = [content] if isinstance(content, str) else [b.get("text") for k, b in blocks(content) if k is BlockKind.TEXT]
    for text in texts:
        view = SafeTextView()
        view.set_markdown(text if isinstance(text, str) else "", CARD_TEXT_LIMIT)
        column.addWidget(view)
    column.addStretch(1)
    return card


class DocumentDelegate(QStyledItemDelegate):
    """Paints a row's card from its document; its editor is the widget card."""

    def __init__(self, view: DocumentList) -> None:
        super().__init__(view)
        self.view = view
        self.documents: OrderedDict[int, tuple[object, SafeTextDocument]] = OrderedDict()

    def document(self, row: int) -> SafeTextDocument:
        item = self.view.model().rows[row]
        found = self.documents.get(id(item))
        if found is None:
            found = self.documents[id(item)] = (item, card_document(item, self.view.model().info))
            if len(self.documents) > MAX_BUILT:
                self.documents.popitem(last=False)
        else:
            self.documents.move_to_end(id(item))
        return found[1]

    def sizeHint(self, option, index) -> QSize:
        document = self.document(index.row())
        width = self.view.card_width()
        if document.textWidth() != width:
            document.setTextWidth(width)
        return QSize(width, int(document.size().height() + 0.999))

    def paint(self, painter: QPainter, option, index) -> None:
        document = self.document(index.row())
        painter.save()
        painter.translate(option.rect.topLeft())
        document.drawContents(painter, QRectF(0, 0, option.rect.width(), option.rect.height()))
        painter.restore()

    def createEditor(self, parent: QWidget, option, index) -> QWidget:
        return editor_card(self.view.model().rows[index.row()], parent)

    def updateEditorGeometry(self, editor: QWidget, option, index) -> None:
        editor.setGeometry(option.rect)


class DocumentList(QAbstractItemView):
    """The prototype's view: a QAbstractItemView whose rows are measured (by the delegate) when they show."""

    def __init__(self, model) -> None:
        super().__init__()
        from pibrowser.ui.cards.row_geometry import RowGeometry

        self.geometry_of_rows = RowGeometry(TOP, 120 + SPACING)
        self.setModel(model)
        self.delegate = DocumentDelegate(self)
        self.setItemDelegate(self.delegate)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.editing: QModelIndex | None = None

    def card_width(self) -> int:
        return max(self.viewport().width() - 2 * SIDE, 1)

    def measure(self, row: int) -> int:
        geometry, width = self.geometry_of_rows, self.card_width()
        if not geometry.is_measured(row, width):
            geometry.set(row, self.delegate.sizeHint(None, self.model().index(row, 0)).height() + SPACING, width)
        return geometry.heights[row]

    def show_end(self) -> None:
        geometry, view = self.geometry_of_rows, self.viewport().height()
        y, row = view, len(geometry) - 1
        while row >= 0 and y > -(view // 3):
            y -= self.measure(row)
            row -= 1
        self.updateGeometries()
        self.verticalScrollBar().setValue(self.verticalScrollBar().maximum())

    def visible_rows(self) -> range:
        geometry, value = self.geometry_of_rows, self.verticalScrollBar().value()
        first = geometry.row_at(max(value, TOP))
        last = geometry.row_at(min(value + self.viewport().height() - 1, geometry.end() - 1))
        return range(first, last + 1) if first is not None and last is not None else range(0)

    def row_rect(self, row: int) -> QRect:
        geometry, value = self.geometry_of_rows, self.verticalScrollBar().value()
        top = geometry.top(row)
        return QRect(SIDE, top - value, self.card_width(), geometry.bottom(row) - top - SPACING)

    def hover(self, row: int) -> QWidget:
        if self.editing is not None:
            self.closePersistentEditor(self.editing)
        self.editing = self.model().index(row, 0)
        self.openPersistentEditor(self.editing)
        return self.indexWidget(self.editing)

    # -- the item view's questions

    def updateGeometries(self) -> None:
        bar, view = self.verticalScrollBar(), self.viewport().height()
        bar.setPageStep(view)
        bar.setRange(0, max(self.geometry_of_rows.end() + 10 - view, 0))
        super().updateGeometries()

    def visualRect(self, index) -> QRect:
        return self.row_rect(index.row()) if index.isValid() else QRect()

    def indexAt(self, point: QPoint) -> QModelIndex:
        row = self.geometry_of_rows.row_at(point.y() + self.verticalScrollBar().value())
        return self.model().index(row, 0) if row is not None else QModelIndex()

    def scrollTo(self, index, hint=QAbstractItemView.ScrollHint.EnsureVisible) -> None:
        pass

    def moveCursor(self, action, modifiers) -> QModelIndex:
        return self.currentIndex()

    def horizontalOffset(self) -> int:
        return 0

    def verticalOffset(self) -> int:
        return self.verticalScrollBar().value()

    def isIndexHidden(self, index) -> bool:
        return False

    def setSelection(self, rect, command) -> None:
        pass

    def visualRegionForSelection(self, selection) -> QRegion:
        return QRegion()

    def rowsInserted(self, parent, start: int, end: int) -> None:
        self.geometry_of_rows.replace(start, 0, end - start + 1)
        super().rowsInserted(parent, start, end)

    def rowsAboutToBeRemoved(self, parent, start: int, end: int) -> None:
        super().rowsAboutToBeRemoved(parent, start, end)
        self.geometry_of_rows.replace(start, end - start + 1, 0)

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        for row in self.visible_rows():
            self.measure(row)
        self.updateGeometries()
        self.viewport().scroll(dx, dy)

    def paintEvent(self, event) -> None:
        painter = QPainter(self.viewport())
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        for row in self.visible_rows():
            self.measure(row)
            option.rect = self.row_rect(row)
            if option.rect.intersects(event.rect()):
                self.delegate.paint(painter, option, self.model().index(row, 0))


# ---- measuring both --------------------------------------------------------------------------------------


class Route:
    """One way of showing cards: how to show a context's rows, scroll, and lay the live card over a row."""

    name = ""
    view: QAbstractItemView

    def show(self, info) -> None:
        raise NotImplementedError

    def hover(self, row: int) -> QWidget:
        raise NotImplementedError

    def visible_rows(self) -> range:
        return self.view.visible_rows()


class Ours(Route):
    name = "ours (pieces)"

    def __init__(self) -> None:
        from pibrowser.ui.cards import ImageLoader

        from pibrowser.ui.context.message_list import MessageList

        self.view = MessageList(ImageLoader())

    def show(self, info) -> None:
        from pibrowser.ui.cards import ToEnd

        self.view.show_rows(info, info.items, ToEnd())

    def hover(self, row: int) -> QWidget:
        view = self.view.live.over(row)
        texts = view.root.all_texts()
        if texts:
            view.reach(texts[0])  # the mouse on its first text: the text view laid over it
        return view


class OursDrawingLess(Ours):
    """Ours drawing what the prototype draws: a line's parts as plain text (no link buttons drawn by
    the style, no chips), frames and cards as plain rectangles, so what the pieces cost shows apart
    from what they draw."""

    name = "ours, drawing less"


class drawing_less:
    """While inside: lines, frames and cards painted plainly (see OursDrawingLess)."""

    def __enter__(self) -> None:
        import importlib

        modules = [importlib.import_module(name) for name in self.names()]
        self.saved = []
        for module in modules:
            for attribute in ("paint_rounded",):
                if hasattr(module, attribute):
                    self.saved.append((module, attribute, getattr(module, attribute)))
                    setattr(module, attribute, lambda painter, rect, radius, fill, pen: painter.fillRect(rect, fill))
        line = next(module.Line for module in modules if hasattr(module, "Line"))
        self.saved.append((line, "paint", line.paint))

        def plain_line(self, painter, rect, look, mute):
            placed, _ = self.flow(rect.width())
            painter.setPen(look.text_color(mute))
            for spot in placed:
                painter.drawText(spot.rect.translated(rect.topLeft()), 0, spot.shown)

        line.paint = plain_line

    @staticmethod
    def names() -> list[str]:
        return [
            "pibrowser.ui.cards.frames",
            "pibrowser.ui.cards.part_line",
            "pibrowser.ui.cards.pieces",
            "pibrowser.ui.context.message_card",
        ]

    def __exit__(self, *args) -> None:
        for owner, attribute, value in self.saved:
            setattr(owner, attribute, value)


class ItemView(Route):
    name = "item view (prototype)"

    def __init__(self) -> None:
        from pibrowser.ui.context.message_rows import MessageRows

        self.model = MessageRows()
        self.view = DocumentList(self.model)

    def show(self, info) -> None:
        self.model.show(info, info.items)
        self.view.show_end()

    def hover(self, row: int) -> QWidget:
        return self.view.hover(row)


def cpu_and_wall(work: Callable[[], object]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def measure(route: Route, infos: list, app) -> dict[str, list[tuple[float, float]]]:
    view = route.view
    view.resize(600, 800)
    view.show()
    app.processEvents()
    figures: dict[str, list[tuple[float, float]]] = {"select": [], "scroll frame": [], "hover": []}

    def select(info) -> None:
        route.show(info)
        view.viewport().repaint()

    for info in infos:
        figures["select"].append(cpu_and_wall(lambda info=info: select(info)))
        for _ in range(8):
            bar = view.verticalScrollBar()

            def frame(bar=bar) -> None:
                bar.setValue(bar.value() - 120)
                view.viewport().repaint()

            figures["scroll frame"].append(cpu_and_wall(frame))
        shown = route.visible_rows()
        if shown:
            middle = shown[len(shown) // 2]

            def hover(row=middle) -> None:
                widget = route.hover(row)
                widget.repaint()

            figures["hover"].append(cpu_and_wall(hover))
        app.processEvents()
    view.hide()
    return figures


def main() -> int:
    isolate_home("pibrowser-bench-home-")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, required=True)
    parser.add_argument("--selects", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print_yardstick(args.file)
    app = make_application()
    session = Session.load(args.file)
    keys = random.Random(0).sample(sorted(session.entries), args.selects)
    from pibrowser.ui.context.message_items import context_info

    infos = []
    for key in keys:
        context = resolve(session, key)
        infos.append(context_info(context, path_provenance(context), context_stats(context).message_tokens))
    print(
        f"{len(infos)} selections drawn at random (seed 0), {statistics.mean(len(info.items) for info in infos):,.0f} messages each on average"
    )
    routes = [Ours(), OursDrawingLess(), ItemView()]

    def drawing(route: Route):
        return drawing_less() if isinstance(route, OursDrawingLess) else contextlib.nullcontext()

    for route in routes:
        with drawing(route):
            measure(route, infos[:2], app)  # fonts, styles and the first documents paid once
    for round_ in range(args.rounds):
        for route in routes:
            with drawing(route):
                figures = measure(route, infos, app)
            for name, values in figures.items():
                cpu = [value[0] * 1e3 for value in values]
                wall = [value[1] * 1e3 for value in values]
                print(
                    f"round {round_ + 1} {route.name:22s} {name:12s} CPU median {statistics.median(cpu):6.1f} ms worst {max(cpu):6.1f}"
                    f"   wall median {statistics.median(wall):6.1f} ms worst {max(wall):6.1f}   ({len(values)})"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
