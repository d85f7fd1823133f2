"""What a card is drawn from: pieces that measure, place and paint themselves, with no widget each.

A card of the context list (and of the compare view) is a tree of pieces: lines of
parts (tags, short texts, links), wrapped words, text documents, tinted frames,
sections that open, thumbnails. A piece knows its height at a width, places itself
and its children (`place` appends (piece, rect, mute) in painting order: a frame
before what is inside it), and paints itself into any painter. The list's delegate
paints rows with them, and the live card laid over the row under the mouse paints
the very same pieces, so swapping it in changes no pixel.

Colours are taken from the palette at paint time (a muted text is `mute` of the way
to the window colour), so a theme switch needs no rebuild; fonts are the
application's, scaled as the widgets the pieces stand for scaled theirs.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from PySide6.QtCore import QPoint, QRect, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetrics,
    QGuiApplication,
    QPainter,
    QPalette,
    QPen,
    QTextDocument,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import QWidget

from ..guard import paint_guarded
from ..style.colors import mix
from .frames import paint_rounded
from ..common.widgets import smaller_size


class ActionKind(enum.Enum):
    """What a click on a piece (or Space on it) does."""

    SELECT = "select"  # select the entry `value`
    JUMP = "jump"  # go to the card of message index `value`
    TOGGLE = "toggle"  # open or close the section keyed `value`
    SHOW_ALL = "show all"  # show the whole text keyed `value`
    OPEN_IMAGE = "open image"  # show the picture `value` full size
    PAGE = "page"  # show page `value[1]` of the blocks keyed `value[0]`


@dataclass(frozen=True)
class Action:
    do: ActionKind
    value: Any


@dataclass
class PaintState:
    """What painting needs besides the pieces: the palette and a widget whose style draws
    buttons, and the pieces the mouse or the keyboard is on."""

    palette: QPalette
    widget: QWidget
    hover: object | None = None
    pressed: object | None = None
    focus: object | None = None
    selected: str | None = None  # the selected entry: its cards are outlined
    flashed: object | None = None  # the row item whose card was just gone to
    marks: Callable[[QTextDocument], list] | None = None  # search marks of a document
    live: frozenset = frozenset()  # pieces a live widget draws instead

    def text_color(self, mute: float = 0.0, own: QColor | None = None) -> QColor:
        color = QColor(own) if own is not None else self.palette.color(QPalette.ColorRole.WindowText)
        return mix(color, self.palette.color(QPalette.ColorRole.Window), mute) if mute else color


def compound(a: float, b: float) -> float:
    """Muting twice: the second goes its share of what the first left."""
    return 1 - (1 - a) * (1 - b)


# ---- fonts ----------------------------------------------------------------------------------------

_FONTS: dict[tuple[float, bool, bool, bool], tuple[QFont, QFontMetrics]] = {}


def font_of(size: float = 1.0, bold: bool = False, mono: bool = False, italic: bool = False) -> QFont:
    return _font(size, bold, mono, italic)[0]


def metrics_of(size: float = 1.0, bold: bool = False, mono: bool = False, italic: bool = False) -> QFontMetrics:
    return _font(size, bold, mono, italic)[1]


def _font(size: float, bold: bool, mono: bool, italic: bool) -> tuple[QFont, QFontMetrics]:
    # Shared by every card: a font made afresh looks its glyphs up afresh, and that cost more than the card.
    key = (size, bold, mono, italic)
    found = _FONTS.get(key)
    if found is None:
        font = QFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont) if mono else QGuiApplication.font())
        if size != 1.0:
            font.setPointSizeF(smaller_size(font.pointSizeF(), size))
        font.setBold(bold)
        font.setItalic(italic)
        found = _FONTS[key] = (font, QFontMetrics(font))
    return found


_GENERATION = [0]


def fonts_changed() -> None:
    """The application's font changed: the pieces' fonts are made again from it."""
    _FONTS.clear()
    _GENERATION[0] += 1


def font_generation() -> int:
    """How many times the fonts changed: what is measured with them is good for one generation."""
    return _GENERATION[0]


def wrapped(text: str, font: QFont, width: int) -> tuple[QTextLayout, int]:
    """Text laid out in lines of at most `width`, broken between words (or inside one longer than
    a line: an id is never cut off); and its height."""
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    layout.beginLayout()
    y = 0.0
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(max(width, 1))
        line.setPosition(QRectF(0, y, 0, 0).topLeft())
        y += line.height()
    layout.endLayout()
    return layout, int(y + 0.999)


# ---- the pieces --------------------------------------------------------------------------------------

Placed = tuple["Piece", QRect, float]  # a piece, where it goes in the card, how muted it is


class Piece:
    """Something a card draws. `tip`: its tooltip (already made safe); `action`: what a click does."""

    is_card = False  # a message's card (a Card)

    def __init__(self, tip: str = "", action: Action | None = None) -> None:
        self.tip = tip
        self.action = action
        self._heights: dict[int, int] = {}

    def height(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            if len(self._heights) > 6:
                self._heights.clear()
            height = self._heights[width] = self.measure(width)
        return height

    def measure(self, width: int) -> int:
        raise NotImplementedError

    def place(self, x: int, y: int, width: int, mute: float, out: list[Placed]) -> int:
        height = self.height(width)
        out.append((self, QRect(x, y, width, height), mute))
        return height

    def paint(self, painter: QPainter, rect: QRect, look: PaintState, mute: float) -> None:
        pass

    def forget(self) -> None:
        """Drop what was measured (the fonts changed)."""
        self._heights.clear()

    def targets(self, rect: QRect) -> list[tuple[object, QRect]]:
        """What in the piece (placed at `rect`) answers the mouse: itself or its parts, with their places."""
        return [(self, rect)] if self.action is not None or self.tip else []

    def pieces(self) -> list[Piece]:
        """This piece and every piece inside it, in reading order."""
        return [self]

    @property
    def focusable(self) -> bool:
        """Whether Tab stops at it: it does something."""
        return self.action is not None


def placed_in(piece: Piece, width: int) -> list[Placed]:
    """The piece and everything in it, placed at this width from (0, 0), in painting order."""
    out: list[Placed] = []
    piece.place(0, 0, width, 0.0, out)
    return out


def paint_placed(placed: list[Placed], painter: QPainter, origin: QPoint, look: PaintState, clip: QRect | None = None) -> None:
    """Paint placed pieces moved to `origin`; those wholly outside `clip` are skipped."""
    for piece, rect, mute in placed:
        area = rect.translated(origin)
        if clip is None or area.intersects(clip):
            # One piece that cannot draw its value says so in its place; the rest of the card draws.
            paint_guarded(painter, area, piece.paint, painter, area, look, mute)


AnyPiece = TypeVar("AnyPiece", bound=Piece)  # what Stack.add is given, it returns


class Stack(Piece):
    """Pieces one under the other, `spacing` apart, inside margins (left, top, right, bottom).

    `mute` greys out everything inside (a dropped message, an original that was replaced);
    `min_height`: never shorter than this.
    """

    def __init__(
        self,
        children: list[Piece] | None = None,
        spacing: int = 4,
        margins: tuple[int, int, int, int] = (0, 0, 0, 0),
        mute: float = 0.0,
        tip: str = "",
        action: Action | None = None,
    ) -> None:
        super().__init__(tip, action)
        self.children: list[Piece] = children if children is not None else []
        self.spacing = spacing
        self.margins = margins
        self.mute = mute
        self.min_height = 0

    def add(self, piece: AnyPiece) -> AnyPiece:
        self.children.append(piece)
        self._heights.clear()
        return piece

    def measure(self, width: int) -> int:
        left, top, right, bottom = self.margins
        inner = max(width - left - right, 1)
        heights = [child.height(inner) for child in self.children]
        return max(top + bottom + sum(heights) + self.spacing * max(len(heights) - 1, 0), self.min_height)

    def place(self, x: int, y: int, width: int, mute: float, out: list[Placed]) -> int:
        height = self.height(width)
        mute = compound(mute, self.mute) if self.mute else mute
        out.append((self, QRect(x, y, width, height), mute))
        left, top, right, _ = self.margins
        inner = max(width - left - right, 1)
        at = y + top
        for child in self.children:
            at += child.place(x + left, at, inner, mute, out) + self.spacing
        return height

    def forget(self) -> None:
        super().forget()
        for child in self.children:
            child.forget()

    def pieces(self) -> list[Piece]:
        return [self, *(piece for child in self.children for piece in child.pieces())]


class Frame(Stack):
    """A rounded, lightly tinted inner frame: tool calls, results, shell runs, originals."""

    def __init__(
        self,
        color: QColor,
        children: list[Piece] | None = None,
        dashed: bool = False,
        tint: float = 0.06,
        tip: str = "",
        action: Action | None = None,
        mute: float = 0.0,
    ) -> None:
        super().__init__(children, spacing=3, margins=(8, 5, 8, 6), mute=mute, tip=tip, action=action)
        self.color = QColor(color)
        self.dashed = dashed
        self.tint = tint

    def paint(self, painter: QPainter, rect: QRect, look: PaintState, mute: float) -> None:
        base = look.palette.color(QPalette.ColorRole.Base)
        pen = QPen(mix(base, self.color, 0.55), 1, Qt.PenStyle.DashLine if self.dashed else Qt.PenStyle.SolidLine)
        paint_rounded(painter, rect, 5, mix(base, self.color, self.tint), pen)

    @property
    def focusable(self) -> bool:
        return False  # its click is the mouse's; the keyboard reaches the link inside it


class WrappedText(Piece):
    """Plain text, wrapped at the width it gets: a note, a model line, a banner. Never read as markup."""

    def __init__(
        self,
        text: str,
        size: float = 1.0,
        bold: bool = False,
        mono: bool = False,
        mute: float = 0.0,
        color: QColor | None = None,
        tip: str = "",
        center: bool = False,
    ) -> None:
        super().__init__(tip)
        self.text = text
        self.size, self.bold, self.mono = size, bold, mono
        self.mute = mute
        self.color = QColor(color) if color is not None else None
        self.center = center
        self._layout: tuple[int, QTextLayout] | None = None

    @property
    def font(self) -> QFont:
        return font_of(self.size, self.bold, self.mono)

    def _laid_out(self, width: int) -> QTextLayout:
        if self._layout is None or self._layout[0] != width:
            layout, _ = wrapped(self.text, self.font, width)
            self._layout = (width, layout)
        return self._layout[1]

    def measure(self, width: int) -> int:
        if not self.text:
            return metrics_of(self.size, self.bold, self.mono).height()
        layout, height = wrapped(self.text, self.font, width)
        self._layout = (width, layout)
        return height

    def color_in(self, look: PaintState, mute: float) -> QColor:
        return look.text_color(compound(mute, self.mute), self.color)

    def targets(self, rect: QRect) -> list[tuple[object, QRect]]:
        return [(self, rect)]  # its words can be selected (the live card lays a text view over them)

    @property
    def focusable(self) -> bool:
        return False

    def paint(self, painter: QPainter, rect: QRect, look: PaintState, mute: float) -> None:
        if self in look.live:
            return  # its live view draws it
        layout = self._laid_out(rect.width())
        painter.setPen(self.color_in(look, mute))
        if self.center:
            for number in range(layout.lineCount()):
                line = layout.lineAt(number)
                painter.save()
                painter.translate(rect.x() + (rect.width() - line.naturalTextWidth()) / 2 - line.x(), rect.y())
                line.draw(painter, QRectF(0, 0, 0, 0).topLeft())
                painter.restore()
            return
        layout.draw(painter, QRectF(rect).topLeft())

    def forget(self) -> None:
        super().forget()
        self._layout = None


class SideBySide(Piece):
    """Two pieces in equal columns `gap` apart (either may be None: its column stays empty), as tall as the taller."""

    def __init__(self, left: Piece | None, right: Piece | None, gap: int = 8) -> None:
        super().__init__()
        self.left, self.right, self.gap = left, right, gap

    def _widths(self, width: int) -> tuple[int, int]:
        left = max((width - self.gap) // 2, 1)
        return left, max(width - self.gap - left, 1)

    def measure(self, width: int) -> int:
        widths = self._widths(width)
        return max((piece.height(inner) for piece, inner in zip((self.left, self.right), widths) if piece is not None), default=0)

    def place(self, x: int, y: int, width: int, mute: float, out: list[Placed]) -> int:
        height = self.height(width)
        out.append((self, QRect(x, y, width, height), mute))
        left, right = self._widths(width)
        if self.left is not None:
            self.left.place(x, y, left, mute, out)
        if self.right is not None:
            self.right.place(x + left + self.gap, y, right, mute, out)
        return height

    def forget(self) -> None:
        super().forget()
        for piece in (self.left, self.right):
            if piece is not None:
                piece.forget()

    def pieces(self) -> list[Piece]:
        return [self, *(piece for side in (self.left, self.right) if side is not None for piece in side.pieces())]
