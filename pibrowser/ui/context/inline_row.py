"""One line of a card drawn as one widget: tags, short texts and a link, with their tooltips.

A card's header (role, number, label, time, badges, tokens, entry link) and the
short lines of tool calls and results were half a dozen labels and buttons each,
and every widget costs its construction, its polish when shown and its own paint:
with four cards built at each selection, most of a card's cost. An InlineRow lays
out and paints the same parts itself, with the same fonts, colours and sizes as the
widgets it stands for (a link is drawn by the style as an auto-raised tool button),
answers tooltips by hit-testing, and keeps the link clickable with the mouse and,
with Tab focus, from the keyboard. Its text is always plain: parts are drawn with
drawText (never read as rich text) and tooltips go through `safe_tip` by their makers.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontMetrics, QPainter, QPalette, QTextLayout
from PySide6.QtWidgets import QApplication, QSizePolicy, QStyle, QStyleOptionToolButton, QToolTip, QWidget

from ..style.colors import mix
from .widgets import paint_chip, smaller_size


class Look(enum.Enum):
    TEXT = "text"  # as a plain_label
    CHIP = "chip"  # as a Chip
    OUTLINE = "outline"  # as an outlined Chip (a badge)
    LINK = "link"  # as a link_button


@dataclass
class Part:
    """One thing on the line.

    size: the font's scale (a plain_label's small is 0.88); mute: how far the text goes
    towards the background (set_muted's amount); color: a chip's colour, or a text's own;
    stretch: takes the room the others leave (at most one part), shown in full, then as
    the `shorter` forms, then elided; max_width: a chip never wider than this.
    """

    text: str
    look: Look = Look.TEXT
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


def spacer() -> Part:
    """Empty room that takes what the other parts leave, as a layout's stretch does."""
    return Part("", stretch=True)


_FONTS: dict[tuple, tuple[QFont, QFontMetrics]] = {}  # (base font's key, size, bold, mono)
_SIZES: dict[tuple, QSize] = {}  # (a shared font, look, text, max width, style): the part's natural size
CHIP_SIZE, LINK_SIZE = 0.85, 0.9  # as Chip and link_button scale their fonts
CHIP_MARGINS = (6, 1)  # a Chip's contents margins (left/right, top/bottom)


class InlineRow(QWidget):
    """Parts side by side, `spacing` apart, drawn by the row itself. `parts` may change: call `changed()`.

    `followed` when its link (a row has one at most) is clicked or taken with Space or Enter. A
    signal, not a callable kept in the part: a part holding its card would make every card a
    reference cycle, kept until the collector runs.
    """

    followed = Signal()

    def __init__(self, parts: list[Part], spacing: int = 6, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.parts = parts
        self.spacing = spacing
        self._fonts: dict[tuple[float, bool, bool], tuple[QFont, QFontMetrics]] = {}
        self._rects: list[QRect | None] | None = None
        self._sizes: dict[int, QSize] = {}
        self._text_layouts: dict[int, QTextLayout] = {}
        self._laid_for = -1
        self._hover: Part | None = None
        self._down: Part | None = None
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)
        self.changed()

    # -- what the row shows

    def changed(self) -> None:
        """The parts (or their texts) changed: measure and paint again."""
        self._rects = None
        self._sizes, self._text_layouts = {}, {}
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus if self.links() else Qt.FocusPolicy.NoFocus)
        self._describe()
        self.updateGeometry()
        self.update()

    def shown(self) -> list[Part]:
        return [part for part in self.parts if part.visible]

    def texts(self) -> list[str]:
        """The text of every shown part, whole (as it would read with room enough)."""
        return [part.text for part in self.shown() if part.text]

    def links(self) -> list[Part]:
        return [part for part in self.shown() if part.look is Look.LINK]

    def _describe(self) -> None:
        # Screen readers get the line as one text, and the link that Space or Enter follows.
        self.setAccessibleName(" ".join(self.texts()))
        link = self._focused()
        self.setAccessibleDescription(f"Link: {link.text}" if link is not None else "")

    # -- fonts, colours and sizes, as the widgets the parts stand for have them

    def font_of(self, part: Part) -> QFont:
        return self._font_and_metrics(part)[0]

    def metrics_of(self, part: Part) -> QFontMetrics:
        return self._font_and_metrics(part)[1]

    def _font_and_metrics(self, part: Part) -> tuple[QFont, QFontMetrics]:
        size = CHIP_SIZE if part.look in (Look.CHIP, Look.OUTLINE) else LINK_SIZE if part.look is Look.LINK else part.size
        bold = part.bold or part.look in (Look.CHIP, Look.OUTLINE)
        key = (size, bold, part.mono)
        found = self._fonts.get(key)
        if found is None:
            base = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont) if part.mono else self.font()
            # Shared by every row: a font made afresh looks its glyphs up afresh, and that cost more than the row.
            shared = (base.key(), *key)
            found = _FONTS.get(shared)
            if found is None:
                font = QFont(base)
                if size != 1.0:
                    font.setPointSizeF(smaller_size(font.pointSizeF(), size))
                font.setBold(bold)
                found = _FONTS[shared] = (font, QFontMetrics(font))
            self._fonts[key] = found
        return found

    def color_of(self, part: Part) -> QColor:
        """The colour a text part is drawn in (a muted part, from the current palette)."""
        own = self.palette().color(QPalette.ColorRole.WindowText)
        if part.color is not None and part.look is Look.TEXT:
            own = QColor(part.color)
        if not part.mute:
            return own
        return mix(own, QApplication.palette(self).color(QPalette.ColorRole.Window), part.mute)

    def _link_option(self, part: Part, rect: QRect) -> QStyleOptionToolButton:
        option = QStyleOptionToolButton()
        option.initFrom(self)
        option.state &= ~(QStyle.StateFlag.State_MouseOver | QStyle.StateFlag.State_HasFocus)
        option.state |= QStyle.StateFlag.State_AutoRaise
        if self._down is part:
            option.state |= QStyle.StateFlag.State_Sunken
        else:
            option.state |= QStyle.StateFlag.State_Raised
        if self._hover is part and self.isEnabled():
            option.state |= QStyle.StateFlag.State_MouseOver
        if self.hasFocus() and self._focused() is part:
            option.state |= QStyle.StateFlag.State_HasFocus
        option.subControls = QStyle.SubControl.SC_ToolButton
        option.activeSubControls = QStyle.SubControl.SC_None
        option.features = QStyleOptionToolButton.ToolButtonFeature.None_
        option.toolButtonStyle = Qt.ToolButtonStyle.ToolButtonTextOnly
        option.arrowType = Qt.ArrowType.NoArrow
        option.text = part.text
        option.font = self.font_of(part)
        option.rect = rect
        return option

    def _natural(self, part: Part) -> QSize:
        # Layouts ask for hints many times over; the sizes only change with the parts or the font.
        # Rows share what they measured: role names, badges and numbers come back card after card.
        size = self._sizes.get(id(part))
        if size is None:
            font = self.font_of(part)
            key = (id(font), part.look, part.text, part.max_width, id(self.style()))
            size = _SIZES.get(key)
            if size is None:
                if len(_SIZES) > 4096:
                    _SIZES.clear()
                size = _SIZES[key] = self._measure(part)
            self._sizes[id(part)] = size
        return size

    def _measure(self, part: Part) -> QSize:
        metrics = self.metrics_of(part)
        if part.look in (Look.CHIP, Look.OUTLINE):
            across, down = CHIP_MARGINS
            size = QSize(metrics.horizontalAdvance(part.text) + 2 * across + 2, metrics.height() + 2 * down)
            if part.max_width is not None:
                size.setWidth(min(size.width(), part.max_width))
            return size
        if part.look is Look.LINK:
            text = metrics.size(int(Qt.TextFlag.TextShowMnemonic), part.text)
            option = self._link_option(part, QRect(0, 0, text.width(), text.height()))
            inner = QSize(text.width() + 2 * metrics.horizontalAdvance(" "), text.height())
            return self.style().sizeFromContents(QStyle.ContentsType.CT_ToolButton, option, inner, self)
        return metrics.boundingRect(QRect(0, 0, 2000, 2000), int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextExpandTabs), part.text).size()

    def sizeHint(self) -> QSize:
        sizes = [self._natural(part) for part in self.shown()]
        width = sum(size.width() for size in sizes) + self._gaps()
        return QSize(width, max((size.height() for size in sizes), default=0))

    def minimumSizeHint(self) -> QSize:
        # What a box layout of the same widgets would need: all but the stretching part.
        sizes = [(part, self._natural(part)) for part in self.shown()]
        width = sum(size.width() for part, size in sizes if not part.stretch) + self._gaps()
        return QSize(width, max((size.height() for _, size in sizes), default=0))

    def _gaps(self) -> int:
        # Spacing goes between the parts that show something; empty room takes none, as a layout's stretch.
        return self.spacing * max(sum(1 for part in self.shown() if not _is_room(part)) - 1, 0)

    def _layout(self) -> list[QRect | None]:
        """Where each part goes at the row's width: fixed parts at their size, the stretching one in between."""
        if self._rects is not None and self._laid_for == self.width():
            return self._rects
        shown = self.shown()
        sizes = {id(part): self._natural(part) for part in shown}
        height = self.height()
        widths = _share(self.width() - self._gaps(), [0 if part.stretch else sizes[id(part)].width() for part in shown], [part.stretch for part in shown])
        given = dict(zip(map(id, shown), widths))
        rects: list[QRect | None] = []
        x, after_one = 0, False
        for part in self.parts:
            if not part.visible:
                rects.append(None)
                continue
            if not _is_room(part):
                x += self.spacing if after_one else 0
                after_one = True
            size = sizes[id(part)]
            width = given[id(part)]
            if part.look is Look.TEXT:
                rects.append(QRect(x, 0, width, height))  # a label takes the line's height, its text centred
            else:
                rects.append(QRect(x, (height - size.height()) // 2, width, size.height()))
            x += width
        self._rects, self._laid_for = rects, self.width()
        return rects

    def resizeEvent(self, event) -> None:
        self._rects = None
        super().resizeEvent(event)

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fonts = {}
            self._sizes, self._text_layouts = {}, {}
            self._rects = None
            self.updateGeometry()
        super().changeEvent(event)

    # -- painting

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        for part, rect in zip(self.parts, self._layout()):
            if rect is None or rect.width() <= 0:
                continue
            if part.look is Look.LINK:
                self.style().drawComplexControl(QStyle.ComplexControl.CC_ToolButton, self._link_option(part, rect), painter, self)
            elif part.look is Look.TEXT:
                self._paint_text(painter, part, rect)
            else:
                painter.save()
                across, down = CHIP_MARGINS
                paint_chip(painter, QRectF(rect), rect.adjusted(across, down, -across, -down), part.text, part.color or QColor("gray"), part.look is Look.OUTLINE, self.font_of(part), self.palette())
                painter.restore()

    def _paint_text(self, painter: QPainter, part: Part, rect: QRect) -> None:
        font = self.font_of(part)
        painter.setFont(font)
        painter.setPen(self.color_of(part))
        if part.stretch:
            painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), self.shown_text(part, rect.width()))
            return
        # Placed as a selectable label places its text (a text layout centred by its line's height),
        # so the line reads pixel for pixel as the labels it replaces did.
        layout = self._text_layouts.get(id(part))
        if layout is None:
            layout = self._text_layouts[id(part)] = QTextLayout(part.text, font)
            layout.beginLayout()
            layout.createLine().setLineWidth(2000)
            layout.endLayout()
        top = int(max((rect.height() - layout.lineAt(0).height()) / 2, 0))
        painter.save()
        painter.setClipRect(rect)  # cut at its width, as a label is
        layout.draw(painter, QPointF(rect.x(), rect.y() + top))
        painter.restore()

    def shown_text(self, part: Part, width: int) -> str:
        """The part's text as it fits `width`: whole, a shorter form, or elided ("…")."""
        if not part.stretch:
            return part.text
        metrics = self.metrics_of(part)
        for text in (part.text, *part.shorter):
            if metrics.horizontalAdvance(text) <= width:
                return text
        return metrics.elidedText(part.shorter[-1] if part.shorter else part.text, Qt.TextElideMode.ElideRight, width)

    # -- tooltips, hover and clicks

    def part_at(self, x: int, y: int) -> Part | None:
        for part, rect in zip(self.parts, self._layout()):
            if rect is not None and rect.contains(x, y):
                return part
        return None

    def rect_of(self, part: Part) -> QRect | None:
        for candidate, rect in zip(self.parts, self._layout()):
            if candidate is part:
                return rect
        return None

    # The row's tooltip is the hovered part's, set as the mouse moves (an event() of our own would
    # see every event of every row go through Python).

    def _hover_at(self, position: QPoint) -> None:
        part = self.part_at(position.x(), position.y())
        hover = part if part is not None and part.look is Look.LINK else None
        if hover is not self._hover:
            self._hover = hover
            self.update()
        tip = part.tip if part is not None else ""
        if tip != self.toolTip():
            self.setToolTip(tip)
            if QToolTip.isVisible():
                if tip:
                    QToolTip.showText(self.mapToGlobal(position), tip, self, self.rect_of(part))
                else:
                    QToolTip.hideText()

    def enterEvent(self, event) -> None:
        self._hover_at(event.position().toPoint())
        super().enterEvent(event)

    def mouseMoveEvent(self, event) -> None:
        self._hover_at(event.position().toPoint())
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:
        if self._hover is not None:
            self._hover = None
            self.update()
        super().leaveEvent(event)

    def mousePressEvent(self, event) -> None:
        position = event.position().toPoint()
        part = self.part_at(position.x(), position.y())
        if event.button() == Qt.MouseButton.LeftButton and part is not None and part.look is Look.LINK:
            self._down = part
            self.update()
            event.accept()
            return
        event.ignore()  # the card hears clicks outside the link, as it did past a label

    def mouseReleaseEvent(self, event) -> None:
        down, self._down = self._down, None
        if down is None:
            event.ignore()
            return
        self.update()
        position = event.position().toPoint()
        event.accept()
        if self.part_at(position.x(), position.y()) is down:
            self.followed.emit()

    # -- the keyboard: Tab reaches the row's link (a row has one at most), Space or Enter follows it

    def _focused(self) -> Part | None:
        links = self.links()
        return links[0] if links else None

    def focusInEvent(self, event) -> None:
        self.update()
        super().focusInEvent(event)

    def focusOutEvent(self, event) -> None:
        self.update()
        super().focusOutEvent(event)

    def keyPressEvent(self, event) -> None:
        link = self._focused()
        if link is not None and event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.followed.emit()
            event.accept()
            return
        super().keyPressEvent(event)


def _is_room(part: Part) -> bool:
    return part.stretch and not part.text


def _share(room: int, minimums: list[int], stretch: list[bool]) -> list[int]:
    """Widths for parts side by side, as a box layout gives them: each its own, the stretching
    part what is left; with too little room, the widest ones are cut down to an equal width first."""
    needed = sum(minimums)
    if room >= needed:
        return [room - needed if stretches else width for width, stretches in zip(minimums, stretch)]
    ordered = sorted(minimums)
    count, total, used, current, at = len(ordered), 0, 0, 0, 0
    while at < count and used < room:
        current = ordered[at]
        used = total + current * (count - at)
        total += current
        at += 1
    items = count - (at - 1)
    deficit = max(used - room, 0)
    cap, remainder, rest = current - deficit // items, deficit % items, 0
    widths = []
    for width in minimums:
        limit = cap
        rest += remainder
        if rest >= items:
            limit -= 1
            rest -= items
        widths.append(max(min(width, limit), 0))
    return widths
