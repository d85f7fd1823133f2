"""Small widgets the context views share: inert labels, tags, link buttons, a section that opens, palette tweaks."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFontDatabase,
    QFontMetrics,
    QGuiApplication,
    QPainter,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QProgressBar,
    QSizePolicy,
    QStyle,
    QStyleOptionToolButton,
    QStylePainter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..style.colors import mix, readable
from .safe_text import safe_tip
from ..guard import guarded, guarded_paint


SMALL = 0.88  # the scale of a small label's font
MUTED = 0.45  # how far muted text goes towards the background


def plain_label(
    text: str = "", parent: QWidget | None = None, muted: bool = False, mono: bool = False, small: bool = False, wrap: bool = False
) -> QLabel:
    """A label that never interprets its text (QLabel would guess at HTML)."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if mono or small:
        # One font change, not two: each makes Qt work the label's size out again.
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont) if mono else label.font()
        if small:
            font.setPointSizeF(smaller_size(font.pointSizeF(), SMALL))
        label.setFont(font)
    if muted:
        set_muted(label)
    return label


_MUTED = "pibrowserMuted"  # the widget's total mute amount, kept to redo it when the theme changes
_MUTED_ROLES = (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText)


def set_muted(widget: QWidget, amount: float = MUTED) -> None:
    """Draw the widget's text `amount` of the way towards the background, or less: never so far
    that it no longer reads (colors.readable).

    Muting twice compounds. The amount is remembered, because a muted colour is
    a fixed colour: `remute` computes it again from a new palette.
    """
    before = widget.property(_MUTED)
    total = 1 - (1 - float(before)) * (1 - amount) if before is not None else amount
    widget.setProperty(_MUTED, total)
    _apply_mute(widget, total)


def _apply_mute(widget: QWidget, amount: float) -> None:
    theme = QApplication.palette(widget)
    palette = widget.palette()
    base = theme.color(QPalette.ColorRole.Window)
    for role in _MUTED_ROLES:
        palette.setColor(role, readable(mix(theme.color(role), base, amount), base, theme.color(role)))
    widget.setPalette(palette)


def remute(root: QWidget) -> None:
    """Mute again, from the current palette, every muted widget under `root` (after a theme switch)."""
    for widget in root.findChildren(QWidget):
        amount = widget.property(_MUTED)
        if amount is not None:
            _apply_mute(widget, float(amount))


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def smaller_size(points: float, factor: float) -> float:
    """A font size scaled down, but never below a readable 7 points."""
    return max(points * factor, 7)


def set_smaller(widget: QWidget, factor: float) -> None:
    font = widget.font()
    font.setPointSizeF(smaller_size(font.pointSizeF(), factor))
    widget.setFont(font)


def set_bold(widget: QWidget) -> None:
    font = widget.font()
    font.setBold(True)
    widget.setFont(font)


class ElidedLabel(QLabel):
    """One line of plain text that ends in "…" when there is no room, rather than being cut."""

    def __init__(self, text: str = "", parent: QWidget | None = None, shorter: tuple[str, ...] = ()) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.shorter = shorter  # shorter forms to try before cutting the text
        self.setText(text)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(safe_tip(text))  # the whole text, when the label had to cut it

    def shown(self) -> str:
        width = self.contentsRect().width()
        metrics = self.fontMetrics()
        for text in (self.text(), *self.shorter):
            if metrics.horizontalAdvance(text) <= width:
                return text
        return metrics.elidedText(self.shorter[-1] if self.shorter else self.text(), Qt.TextElideMode.ElideRight, width)

    @guarded(fallback=QSize())
    def minimumSizeHint(self) -> QSize:
        return QSize(min(super().minimumSizeHint().width(), 40), super().minimumSizeHint().height())

    @guarded_paint
    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        painter.setFont(self.font())
        area = self.contentsRect()
        painter.drawText(area, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), self.shown())


class ElidedToolButton(QToolButton):
    """A tool button whose text ends in "…" when the button has less room than the text wants (its
    tooltip then says it whole), so it never asks a dock for the width of a long sentence."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # A tool button is Fixed: its layout would never give it less than its whole text.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, self.sizePolicy().verticalPolicy())

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(safe_tip(text))

    def shown(self) -> str:
        """The text as drawn at the button's present width."""
        metrics = self.fontMetrics()
        whole = metrics.horizontalAdvance(self.text())
        room = whole - max(0, super().sizeHint().width() - self.width())  # what the arrow and margins leave
        return self.text() if room >= whole else metrics.elidedText(self.text(), Qt.TextElideMode.ElideRight, max(0, room))

    @guarded(fallback=QSize())
    def minimumSizeHint(self) -> QSize:
        hint = super().sizeHint()
        metrics = self.fontMetrics()
        first = self.text().split(" ")[0] + "…"
        return QSize(hint.width() - metrics.horizontalAdvance(self.text()) + metrics.horizontalAdvance(first), hint.height())

    @guarded_paint
    def paintEvent(self, event) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionToolButton()
        self.initStyleOption(option)
        option.text = self.shown()
        painter.drawComplexControl(QStyle.ComplexControl.CC_ToolButton, option)


class Chip(QLabel):
    """A small coloured tag: a role, a badge."""

    def __init__(self, text: str, color: QColor, parent: QWidget | None = None, outline: bool = False) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)
        font = self.font()
        font.setPointSizeF(smaller_size(font.pointSizeF(), 0.85))
        font.setBold(True)
        self.setFont(font)
        self._color = QColor(color)
        self._outline = outline
        self.setContentsMargins(6, 1, 6, 1)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    @guarded_paint
    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        paint_chip(painter, QRectF(self.rect()), self.contentsRect(), self.text(), self._color, self._outline, self.font(), self.palette())

    @guarded(fallback=QSize())
    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        return QSize(
            metrics.horizontalAdvance(self.text()) + margins.left() + margins.right() + 2,
            metrics.height() + margins.top() + margins.bottom(),
        )

    @guarded(fallback=QSize())
    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()


def paint_chip(painter: QPainter, rect: QRectF, text_area, text: str, color: QColor, outline: bool, font, palette: QPalette) -> None:
    """A tag: a filled rounded rectangle with white or black text, or (a badge) an outline in its colour."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if outline:
        painter.setPen(QPen(color, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        text_color = color if not is_dark(palette) else color.lighter(130)
    else:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        text_color = QColor("white") if color.lightness() < 170 else QColor("black")
    painter.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
    painter.setPen(text_color)
    painter.setFont(font)
    shown = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, text_area.width())
    painter.drawText(text_area, Qt.AlignmentFlag.AlignCenter, shown)


def fit_dialog(dialog: QWidget, width: int, height: int) -> None:
    """Size a dialog `width` × `height`, or as large as its window (else its screen) leaves room for:
    a dialog larger than the window it belongs to puts its buttons out of reach."""
    room = QSize(width, height)
    parent = dialog.parentWidget()
    if parent is not None and parent.window().isVisible():
        room = room.boundedTo(parent.window().size())
    screen = dialog.screen() or QApplication.primaryScreen()
    if screen is not None:
        room = room.boundedTo(screen.availableGeometry().size())
    dialog.resize(room)


def menu_text(text: str) -> str:
    """Session text as a menu item's text: an '&' stays an '&' (not a mnemonic), a tab is a space (not the shortcut column)."""
    return text.replace("&", "&&").replace("\t", " ")


def link_button(text: str, tip: str = "", parent: QWidget | None = None) -> QToolButton:
    button = QToolButton(parent)
    button.setText(text)
    button.setToolTip(safe_tip(tip) if tip else "")
    button.setAutoRaise(True)
    button.setCursor(Qt.CursorShape.PointingHandCursor)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    set_smaller(button, 0.9)
    return button


def thin_progress(height: int, width: int | None = None) -> QProgressBar:
    """A progress bar without its percentage, for a panel's busy line."""
    bar = QProgressBar(textVisible=False)
    bar.setMaximumHeight(height)
    if width is not None:
        bar.setMaximumWidth(width)
    return bar


class Collapsible(QWidget):
    """A titled section (a toggle with an arrow) that builds its content the first time it is opened."""

    def __init__(
        self, title: str, build: Callable[[], QWidget], expanded: bool = False, parent: QWidget | None = None, muted: bool = True
    ) -> None:
        super().__init__(parent)
        self._build = build
        self.content: QWidget | None = None
        self._expanded = False
        layout = self._column = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.toggle = ElidedToolButton(self)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setText(title)
        self.toggle.setCursor(Qt.CursorShape.PointingHandCursor)
        if muted:
            set_muted(self.toggle, 0.3)
        self.toggle.clicked.connect(lambda: self.set_expanded(not self._expanded))
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        if expanded:
            self.set_expanded(True)

    @property
    def expanded(self) -> bool:
        return self._expanded

    def set_expanded(self, on: bool) -> None:
        self._expanded = on
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        if on and self.content is None:
            self.content = self._build()
            self.content.setParent(self)
            self.content.setContentsMargins(14, 0, 0, 0)
            self._column.addWidget(self.content)
        if self.content is not None:
            self.content.setVisible(on)
