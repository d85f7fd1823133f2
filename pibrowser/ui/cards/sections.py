"""Pieces that do something when clicked: a section that opens, and a thumbnail that opens the image.

A section (thinking, an edit's original, a result's content, a system prompt's
sections) is a title with an arrow, drawn by the style as the auto-raised tool button
it stands for; what it holds is built only while it is open (the card is built again
when it opens or closes). A thumbnail is decoded in the background by the ImageLoader
and shows "loading…" until then.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QImage, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionToolButton

from ..style.colors import mix
from .images import THUMBNAIL_SIDE, ImageLoader
from .pieces import Action, Stack, ActionKind, PaintState, Piece, WrappedText, compound, font_of, metrics_of, wrapped
from ..common.safe_text import plain

INDENT = 14  # what a section holds sits this far in


class ToggleHead(Piece):
    """A section's title and arrow; a click opens or closes the section keyed `key`."""

    def __init__(self, title: str, key: str, opened: bool, mute: float = 0.3, tip: str = "") -> None:
        super().__init__(tip, Action(ActionKind.TOGGLE, key))
        self.title = title
        self.key = key
        self.opened = opened
        self.mute = mute

    def size(self) -> QSize:
        return QApplication.style().sizeFromContents(QStyle.ContentsType.CT_ToolButton, self._option(QRect(), None), self._contents(), None)

    def _contents(self) -> QSize:
        metrics = metrics_of()
        text = metrics.size(int(Qt.TextFlag.TextShowMnemonic), self.title)
        icon = QApplication.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        return QSize(icon + 4 + text.width() + 2 * metrics.horizontalAdvance(" "), max(icon, text.height()))

    def measure(self, width: int) -> int:
        return self.size().height()

    def targets(self, rect: QRect) -> list[tuple[object, QRect]]:
        return [(self, self.head_rect(rect))]

    def head_rect(self, rect: QRect) -> QRect:
        """The button: its own width (at most the card's), at the left."""
        return QRect(rect.x(), rect.y(), min(self.size().width(), rect.width()), rect.height())

    def _option(self, rect: QRect, look: PaintState | None, mute: float = 0.0) -> QStyleOptionToolButton:
        option = QStyleOptionToolButton()
        if look is not None:
            option.initFrom(look.widget)
            palette = QPalette(look.palette)
            color = look.text_color(compound(mute, self.mute), palette.color(QPalette.ColorRole.ButtonText))
            palette.setColor(QPalette.ColorRole.ButtonText, color)
            palette.setColor(QPalette.ColorRole.WindowText, color)
            option.palette = palette
            option.state &= ~(QStyle.StateFlag.State_MouseOver | QStyle.StateFlag.State_HasFocus)
            option.state |= QStyle.StateFlag.State_Sunken if look.pressed is self else QStyle.StateFlag.State_Raised
            if look.hover is self:
                option.state |= QStyle.StateFlag.State_MouseOver
            if look.focus is self:
                option.state |= QStyle.StateFlag.State_HasFocus
        option.state |= QStyle.StateFlag.State_AutoRaise
        option.subControls = QStyle.SubControl.SC_ToolButton
        option.activeSubControls = QStyle.SubControl.SC_None
        option.features = QStyleOptionToolButton.ToolButtonFeature.Arrow
        option.arrowType = Qt.ArrowType.DownArrow if self.opened else Qt.ArrowType.RightArrow
        option.toolButtonStyle = Qt.ToolButtonStyle.ToolButtonTextBesideIcon
        icon = QApplication.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        option.iconSize = QSize(icon, icon)
        option.text = self.title
        option.font = font_of()
        option.rect = rect
        return option

    def paint(self, painter: QPainter, rect: QRect, look: PaintState, mute: float) -> None:
        head = self.head_rect(rect)
        look.widget.style().drawComplexControl(QStyle.ComplexControl.CC_ToolButton, self._option(head, look, mute), painter, look.widget)


class Section(Stack):
    """A titled section; `build()` makes what it holds, only while it is open."""

    def __init__(self, title: str, key: str, opened: bool, build: Callable[[], Piece], mute: float = 0.3, tip: str = "") -> None:
        self.head = ToggleHead(title, key, opened, mute, tip)
        self.content: Piece | None = build() if opened else None
        children: list[Piece] = [self.head]
        if self.content is not None:
            children.append(Stack([self.content], margins=(INDENT, 0, 0, 0)))
        super().__init__(children, spacing=2)

    @property
    def opened(self) -> bool:
        return self.head.opened

    @property
    def title(self) -> str:
        return self.head.title


class Thumbnail(Piece):
    """An image's thumbnail, decoded in the background; "loading…" until it is, or why it cannot be.
    A click opens the image full size."""

    LOADING = QSize(THUMBNAIL_SIDE // 2, THUMBNAIL_SIDE // 3)

    def __init__(self, data: Any, mime: str, loader: ImageLoader | None) -> None:
        super().__init__("Click for the full image", Action(ActionKind.OPEN_IMAGE, self) if loader is not None else None)
        self.data = data
        self.mime = mime
        self.loader = loader
        self.key = loader.request(data) if loader is not None else ""
        self._pixmap: QPixmap | None = None

    def state(self) -> tuple[QImage | None, QSize | None, str]:
        """The decoded thumbnail and the image's real size, or the error; (None, None, "") while loading."""
        found = self.loader.get(self.key) if self.loader is not None else None
        if found is None:
            return None, None, "" if self.loader is not None else "image"
        image, size, error = found
        return (None, None, error) if error else (image, size, "")

    @property
    def has_thumbnail(self) -> bool:
        return self.state()[0] is not None

    def pixmap(self) -> QPixmap | None:
        image = self.state()[0]
        if image is None:
            return None
        if self._pixmap is None:
            pixmap = QPixmap.fromImage(image)
            small = max(image.width(), image.height())
            if 0 < small < 48:
                # Icons are shown bigger, pixels kept sharp; the caption gives the real size.
                factor = -(-48 // small)
                pixmap = pixmap.scaled(image.size() * factor, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.FastTransformation)
            self._pixmap = pixmap
        return self._pixmap

    def box(self, width: int) -> QSize:
        error = self.state()[2]
        pixmap = self.pixmap()  # there is one once the image is decoded
        if pixmap is not None:
            return pixmap.size() + QSize(4, 4)
        if error and error != "image":
            return QSize(min(THUMBNAIL_SIDE, width), max(40, wrapped(error, font_of(), min(THUMBNAIL_SIDE, width) - 8)[1] + 8))
        return QSize(min(self.LOADING.width(), width), self.LOADING.height())

    def measure(self, width: int) -> int:
        return self.box(width).height()

    def targets(self, rect: QRect) -> list[tuple[object, QRect]]:
        return [(self, QRect(rect.topLeft(), self.box(rect.width())))]

    def paint(self, painter: QPainter, rect: QRect, look: PaintState, mute: float) -> None:
        area = QRect(rect.topLeft(), self.box(rect.width()))
        palette = look.palette
        painter.save()
        painter.setPen(mix(palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text), 0.3))
        painter.drawRect(area.adjusted(0, 0, -1, -1))
        pixmap = self.pixmap()
        if pixmap is not None:
            painter.drawPixmap(area.x() + 2, area.y() + 2, pixmap)
        else:
            _, _, error = self.state()
            painter.setPen(look.text_color(mute))
            painter.setFont(font_of())
            flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
            painter.drawText(area.adjusted(4, 4, -4, -4), int(flags), error or "loading…")
        if look.focus is self:
            painter.setPen(palette.color(QPalette.ColorRole.Highlight))
            painter.drawRect(area.adjusted(1, 1, -2, -2))
        painter.restore()

    def forget(self) -> None:
        super().forget()
        self._pixmap = None


class Picture(Stack):
    """A thumbnail and its caption: the type, the size in pixels once decoded, the size in KB."""

    def __init__(self, block: dict[str, Any], loader: ImageLoader | None) -> None:
        data = block.get("data")
        mime = str(block.get("mimeType", "image"))
        self.thumbnail = Thumbnail(data, mime, loader)
        size = len(data) * 3 // 4 if isinstance(data, str) else 0
        image, real, _ = self.thumbnail.state()
        if image is not None and real is not None and real.isValid():
            caption = f"{plain(mime)} · {real.width()} × {real.height()} px · {size / 1024:,.1f} KB"
        else:
            caption = f"{plain(mime)} · {size / 1024:,.1f} KB"
        self.caption = WrappedText(caption, size=0.88, mute=0.45)
        super().__init__([self.thumbnail, self.caption], spacing=2, margins=(0, 2, 0, 2))

    @property
    def has_thumbnail(self) -> bool:
        return self.thumbnail.has_thumbnail
