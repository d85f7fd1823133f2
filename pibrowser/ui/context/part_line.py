"""A line of parts (tags, short texts, a link) that wraps where the card is too narrow.

A card's header (role, number, label, time, badges, tokens, entry link) and the short
lines of tool calls and results are parts side by side, drawn with the fonts, colours
and sizes the labels, tags and link buttons they stand for had (a link is drawn by the
style as an auto-raised tool button). Parts after the first stretching one sit at the
right. Where the width runs out the line wraps rather than cutting anything: a tag or
an id moves to the next line whole, a long text wraps between words; the stretching
part (a time) may first give way to a shorter form of itself, and only a part wider
than the whole card is elided, its tooltip keeping it whole. Text is always plain.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QTextLayout
from PySide6.QtWidgets import QStyle, QStyleOptionToolButton

from .pieces import Action, Look, Piece, compound, font_generation, font_of, metrics_of, wrapped
from ..common.safe_text import safe_tip
from ..common.widgets import paint_chip

CHIP_SIZE, LINK_SIZE = 0.85, 0.9  # as Chip and link_button scale their fonts
CHIP_MARGINS = (6, 1)  # a Chip's contents margins (left/right, top/bottom)
ROW_GAP = 2  # between the rows of a wrapped line


class Shape(enum.Enum):
    TEXT = "text"  # as a plain label
    CHIP = "chip"  # as a filled tag
    OUTLINE = "outline"  # as an outlined tag (a badge)
    LINK = "link"  # as a link button


@dataclass(eq=False)
class Part:
    """One thing on the line.

    size: the font's scale (small is 0.88); mute: how far the text goes towards the
    background; color: a tag's colour, or a text's own; stretch: takes the room the
    others leave (at most one part; the parts after it sit at the right), shown whole,
    then as its `shorter` forms; max_width: a tag never wider than this (elided, with
    its tooltip); action: what a click on a link does.
    """

    text: str
    shape: Shape = Shape.TEXT
    size: float = 1.0
    bold: bool = False
    mono: bool = False
    mute: float = 0.0
    color: QColor | None = None
    tip: str = ""
    stretch: bool = False
    shorter: tuple[str, ...] = ()
    max_width: int | None = None
    visible: bool = True
    action: Action | None = None

    @property
    def focusable(self) -> bool:
        return self.shape is Shape.LINK and self.action is not None

    @property
    def font(self) -> QFont:
        return font_of(*self.font_key())

    @property
    def metrics(self) -> QFontMetrics:
        return metrics_of(*self.font_key())

    def font_key(self) -> tuple[float, bool, bool]:
        size = CHIP_SIZE if self.shape in (Shape.CHIP, Shape.OUTLINE) else LINK_SIZE if self.shape is Shape.LINK else self.size
        return size, self.bold or self.shape in (Shape.CHIP, Shape.OUTLINE), self.mono


def spacer() -> Part:
    """Empty room that takes what the other parts leave: the parts after it sit at the right."""
    return Part("", stretch=True)


@dataclass(eq=False)
class _Placed:
    part: Part
    rect: QRect
    shown: str  # the text drawn: whole, a shorter form, or elided
    lines: QTextLayout | None = None  # a text too long for one row, wrapped


class Line(Piece):
    """Parts side by side, `spacing` apart; rows of them where the width runs out."""

    def __init__(self, parts: list[Part], spacing: int = 6) -> None:
        super().__init__()
        self.parts = parts
        self.spacing = spacing
        self._flow: tuple[int, list[_Placed], int] | None = None

    def shown(self) -> list[Part]:
        return [part for part in self.parts if part.visible]

    def texts(self) -> list[str]:
        """The text of every shown part, whole (as it reads with room enough)."""
        return [part.text for part in self.shown() if part.text]

    def links(self) -> list[Part]:
        return [part for part in self.shown() if part.shape is Shape.LINK]

    def changed(self) -> None:
        """The parts (or their texts) changed."""
        self.forget()

    def forget(self) -> None:
        super().forget()
        self._flow = None

    # -- sizes and places

    def measure(self, width: int) -> int:
        return self.flow(width)[1]

    def flow(self, width: int) -> tuple[list[_Placed], int]:
        """Where each shown part goes at this width (relative to the line's top left), and the height."""
        if self._flow is None or self._flow[0] != width:
            placed, height = _Flow(self, width).run()
            self._flow = (width, placed, height)
        return self._flow[1], self._flow[2]

    def targets(self, rect: QRect) -> list[tuple[object, QRect]]:
        placed, _ = self.flow(rect.width())
        return [(spot.part, spot.rect.translated(rect.topLeft())) for spot in placed if spot.part.action is not None or spot.part.tip]

    def rect_of(self, part: Part, width: int) -> QRect | None:
        """Where the part is at this width, relative to the line; None when it is not shown."""
        return next((spot.rect for spot in self.flow(width)[0] if spot.part is part), None)

    def shown_text(self, part: Part, width: int) -> str | None:
        """The text the part shows at this width (whole, shorter or elided); None when not shown."""
        return next((spot.shown for spot in self.flow(width)[0] if spot.part is part), None)

    # -- painting

    def paint(self, painter: QPainter, rect: QRect, look: Look, mute: float) -> None:
        placed, _ = self.flow(rect.width())
        for spot in placed:
            area = spot.rect.translated(rect.topLeft())
            part = spot.part
            if part.shape is Shape.LINK:
                look.widget.style().drawComplexControl(
                    QStyle.ComplexControl.CC_ToolButton, _link_option(part, area, look, spot.shown), painter, look.widget
                )
            elif part.shape is Shape.TEXT:
                _paint_text(painter, spot, area, look.text_color(compound(mute, part.mute), part.color if part.color is not None else None))
            else:
                across, down = CHIP_MARGINS
                color = part.color or QColor("gray")
                if mute:
                    color = look.text_color(mute, color)
                painter.save()
                paint_chip(
                    painter,
                    QRectF(area),
                    area.adjusted(across, down, -across, -down),
                    part.text,
                    color,
                    part.shape is Shape.OUTLINE,
                    part.font,
                    look.palette,
                )
                painter.restore()


_SIZES: dict[tuple, QSize] = {}  # (font, shape, text, max width): a part's natural size (cleared with the fonts)


def natural_size(part: Part, text: str) -> QSize:
    """The part's size with room enough: what the label, tag or button it stands for would ask."""
    key = (font_generation(), part.font_key(), part.shape, text, part.max_width)
    size = _SIZES.get(key)
    if size is None:
        if len(_SIZES) > 4096:
            _SIZES.clear()
        size = _SIZES[key] = _measure(part, text)
    return size


def _measure(part: Part, text: str) -> QSize:
    metrics = part.metrics
    if part.shape in (Shape.CHIP, Shape.OUTLINE):
        across, down = CHIP_MARGINS
        size = QSize(metrics.horizontalAdvance(text) + 2 * across + 2, metrics.height() + 2 * down)
        if part.max_width is not None:
            size.setWidth(min(size.width(), part.max_width))
        return size
    if part.shape is Shape.LINK:
        return link_size(text, metrics)
    return metrics.boundingRect(QRect(0, 0, 2000, 2000), int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextExpandTabs), text).size()


def link_size(text: str, metrics: QFontMetrics) -> QSize:
    """A link button's size for this text, as the style gives it."""
    from PySide6.QtWidgets import QApplication

    inner = metrics.size(int(Qt.TextFlag.TextShowMnemonic), text)
    option = QStyleOptionToolButton()
    option.rect = QRect(0, 0, inner.width(), inner.height())
    option.toolButtonStyle = Qt.ToolButtonStyle.ToolButtonTextOnly
    option.text = text
    inner = QSize(inner.width() + 2 * metrics.horizontalAdvance(" "), inner.height())
    return QApplication.style().sizeFromContents(QStyle.ContentsType.CT_ToolButton, option, inner, None)


class _Flow:
    """Parts placed in rows at one width: the parts before the stretching one from the left, the rest
    at the right; a row is full when the next part does not fit, and then the part starts the next."""

    def __init__(self, line: Line, width: int) -> None:
        self.line, self.width, self.spacing = line, max(width, 1), line.spacing
        self.rows: list[list[_Placed]] = [[]]
        self.x = 0

    def run(self) -> tuple[list[_Placed], int]:
        shown = self.line.shown()
        split = next((at for at, part in enumerate(shown) if part.stretch), len(shown))
        for part in shown[:split]:
            self._left(part)
        if split < len(shown) and shown[split].text:
            self._stretching(shown[split])
        self._right(shown[split + 1 :])
        return self._stack()

    def _room(self) -> int:
        return self.width - self.x - (self.spacing if self.rows[-1] else 0)

    def _put(self, part: Part, size: QSize, shown: str, lines: QTextLayout | None = None) -> None:
        if self.rows[-1] and size.width() > self._room():
            self._new_row()
        x = self.x + (self.spacing if self.rows[-1] else 0)
        self.rows[-1].append(_Placed(part, QRect(x, 0, size.width(), size.height()), shown, lines))
        self.x = x + size.width()

    def _new_row(self) -> None:
        self.rows.append([])
        self.x = 0

    def _left(self, part: Part) -> None:
        size = natural_size(part, part.text)
        if size.width() <= self.width:
            self._put(part, size, part.text)
        elif part.shape is Shape.TEXT:
            # A text longer than the card: its own rows, wrapped between words.
            if self.rows[-1]:
                self._new_row()
            lines, height = wrapped(part.text, part.font, self.width)
            self._put(part, QSize(self.width, height), part.text, lines)
            self._new_row()
        else:
            self._put(part, QSize(self.width, size.height()), _elided(part, part.text, self.width))

    def _stretching(self, part: Part) -> None:
        room = self._room()
        for text in (part.text, *part.shorter):
            size = natural_size(part, text)
            if size.width() <= room:
                self._put(part, size, text)
                return
        if self.rows[-1]:
            self._new_row()
        self._left(part)

    def _right(self, parts: list[Part]) -> None:
        if not parts:
            return
        sizes = [natural_size(part, part.text) for part in parts]
        total = sum(size.width() for size in sizes) + self.spacing * (len(parts) - 1)
        if total > self._room() and self.rows[-1]:
            self._new_row()
        start = len(self.rows) - 1
        for part, size in zip(parts, sizes):
            if size.width() <= self.width:
                self._put(part, size, part.text)
            else:
                self._put(part, QSize(self.width, size.height()), _elided(part, part.text, self.width))
        right = set(map(id, parts))
        for row in self.rows[start:]:
            _push_right([spot for spot in row if id(spot.part) in right], self.width)

    def _stack(self) -> tuple[list[_Placed], int]:
        """Each row as tall as its tallest part, its texts centred in it, the rest centred too."""
        placed: list[_Placed] = []
        y = 0
        rows = [row for row in self.rows if row]
        for number, row in enumerate(rows):
            height = max(spot.rect.height() for spot in row)
            for spot in row:
                rect = spot.rect
                if spot.part.shape is Shape.TEXT and spot.lines is None:
                    spot.rect = QRect(rect.x(), y, rect.width(), height)  # a label takes the row's height, its text centred
                else:
                    spot.rect = QRect(rect.x(), y + (height - rect.height()) // 2, rect.width(), rect.height())
                placed.append(spot)
            y += height + (ROW_GAP if number < len(rows) - 1 else 0)
        return placed, y


def _push_right(spots: list[_Placed], width: int) -> None:
    """Move these spots (the right-hand parts of one row) so the last ends at the row's end."""
    if not spots:
        return
    shift = width - spots[-1].rect.right() - 1
    for spot in spots:
        spot.rect.translate(shift, 0)


def _elided(part: Part, text: str, width: int) -> str:
    if part.shape in (Shape.CHIP, Shape.OUTLINE):
        return text  # paint_chip elides to the tag's own width
    return part.metrics.elidedText(text, Qt.TextElideMode.ElideRight, width - (8 if part.shape is Shape.LINK else 0))


def _paint_text(painter: QPainter, spot: _Placed, rect: QRect, color: QColor) -> None:
    part = spot.part
    painter.setPen(color)
    painter.setFont(part.font)
    if spot.lines is not None:
        spot.lines.draw(painter, QPointF(rect.topLeft()))
        return
    if spot.shown != part.text or part.stretch:
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), spot.shown)
        return
    # Placed as a label places its text (a text layout centred by its line's height).
    layout = QTextLayout(spot.shown, part.font)
    layout.beginLayout()
    layout.createLine().setLineWidth(2000)
    layout.endLayout()
    top = int(max((rect.height() - layout.lineAt(0).height()) / 2, 0))
    painter.save()
    painter.setClipRect(rect)
    layout.draw(painter, QPointF(rect.x(), rect.y() + top))
    painter.restore()


def _link_option(part: Part, rect: QRect, look: Look, text: str) -> QStyleOptionToolButton:
    option = QStyleOptionToolButton()
    option.palette = look.palette
    option.fontMetrics = part.metrics
    option.state = QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Active | QStyle.StateFlag.State_AutoRaise
    option.state |= QStyle.StateFlag.State_Sunken if look.pressed is part else QStyle.StateFlag.State_Raised
    if look.hover is part:
        option.state |= QStyle.StateFlag.State_MouseOver
    if look.focus is part:
        option.state |= QStyle.StateFlag.State_HasFocus
    option.subControls = QStyle.SubControl.SC_ToolButton
    option.activeSubControls = QStyle.SubControl.SC_None
    option.features = QStyleOptionToolButton.ToolButtonFeature.None_
    option.toolButtonStyle = Qt.ToolButtonStyle.ToolButtonTextOnly
    option.arrowType = Qt.ArrowType.NoArrow
    option.text = text
    option.font = part.font
    option.rect = rect
    return option


def link(text: str, action: Action, tip: str = "") -> Part:
    """A link part: clicked, or taken with Space or Enter, it does `action`."""
    return Part(text, Shape.LINK, tip=safe_tip(tip) if tip else "", action=action)
