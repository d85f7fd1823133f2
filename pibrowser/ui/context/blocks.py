"""The pieces a card's content is made of: text, images, collapsible sections, thinking, tinted boxes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QFrame, QLabel, QToolButton, QVBoxLayout, QWidget

from ...model.js.value import MISSING
from ..style.colors import mix
from .frames import paint_rounded
from .images import THUMBNAIL_SIDE, ImageLoader, ImageViewer
from .safe_text import plain
from .text_sheet import TextSheet
from .text_viewer import TextViewer
from .widgets import keep_own_look, layout_hint, link_button, plain_label, set_muted

CARD_TEXT_LIMIT = 4000  # characters rendered in a card before "show all"
INLINE_ALL_LIMIT = 100_000  # "show all" expands in place up to this; beyond, a paged viewer
MORE_SPACING = 2  # between a text and its "show all"


class TextBlock(TextSheet):
    """Clipped, inert text with "show all" under it; markdown or plain."""

    def __init__(self, text: Any, markdown: bool = True, monospace: bool = False, limit: int = CARD_TEXT_LIMIT, parent: QWidget | None = None, title: str = "Text") -> None:
        super().__init__(parent, monospace=monospace)
        self.full = text if isinstance(text, str) else "" if text is None or text is MISSING else str(text)
        self.markdown = markdown
        self.title = title
        self.monospace = monospace
        self.more: QToolButton | None = None
        self.setAccessibleName(plain(title))  # its text is read out once it has the focus (its view's)
        self.hidden = self._render(limit)
        if self.hidden:
            self.more = link_button(f"Show all ({len(self.full):,} characters)", "Show the complete text", self)
            keep_own_look(self.more)
            self.more.clicked.connect(self.show_all)
            self._place_more()

    def _render(self, limit: int) -> int:
        if self.markdown:
            return self.set_markdown(self.full, limit)
        return self.set_plain(self.full, limit)

    def text(self) -> str:
        return self.toPlainText()

    def footer_height(self) -> int:
        return MORE_SPACING + self.more.sizeHint().height() if self.more is not None and not self.more.isHidden() else 0

    def _place_more(self) -> None:
        # Under the text, at the left, as the layout that held the two placed it.
        if self.more is not None:
            below = self.text_rect()
            self.more.setGeometry(QRect(QPoint(below.left(), below.bottom() + 1 + MORE_SPACING), self.more.sizeHint()))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place_more()

    def show_all(self) -> None:
        if len(self.full) <= INLINE_ALL_LIMIT:
            # Markdown of a whole long text can be slow to lay out; plain text stays quick.
            if len(self.full) > 20_000:
                self.markdown = False
            if self.more is not None:
                self.more.hide()
            self.hidden = self._render(len(self.full))
            return
        viewer = TextViewer(self.title, self.full, self.window(), monospace=self.monospace)
        viewer.show()


class ImageBlock(QWidget):
    """A thumbnail (decoded in the background); click for the full image."""

    def __init__(self, block: dict[str, Any], loader: ImageLoader | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data = block.get("data")
        self.mime = str(block.get("mimeType", "image"))
        self.loader = loader
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(2)
        self.thumb = QLabel(self)
        self.thumb.setFixedSize(QSize(THUMBNAIL_SIDE // 2, THUMBNAIL_SIDE // 3))
        self.thumb.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.thumb.setFrameShape(QFrame.Shape.StyledPanel)
        self.thumb.setCursor(Qt.CursorShape.PointingHandCursor)
        self.thumb.setToolTip("Click for the full image")
        self.thumb.setTextFormat(Qt.TextFormat.PlainText)
        self.thumb.setText("loading…")
        size = len(self.data) * 3 // 4 if isinstance(self.data, str) else 0
        self.caption = plain_label(f"{plain(self.mime)} · {size / 1024:,.1f} KB", muted=True, small=True)
        layout.addWidget(self.thumb)
        layout.addWidget(self.caption)
        self.key = ""
        if loader is not None:
            self.key = loader.request(self.data)
            loader.ready.connect(self._ready)
            self._ready(self.key)
        else:
            self.thumb.setText("image")

    @property
    def has_thumbnail(self) -> bool:
        pixmap = self.thumb.pixmap()
        return pixmap is not None and not pixmap.isNull()

    def _ready(self, key: str) -> None:
        found = self.loader.get(key) if key == self.key and self.loader is not None else None
        if found is None:
            return
        image, size, error = found
        if error:
            self._show_error(error)
        else:
            self._show_thumbnail(image, size)

    def _show_error(self, error: str) -> None:
        self.thumb.setFixedSize(QSize(THUMBNAIL_SIDE, 40))
        self.thumb.setText(error)
        self.thumb.setWordWrap(True)

    def _show_thumbnail(self, image: QImage, size: QSize) -> None:
        pixmap = QPixmap.fromImage(image)
        small = max(image.width(), image.height())
        if 0 < small < 48:
            # Icons are shown bigger, pixels kept sharp; the caption gives the real size.
            factor = -(-48 // small)
            pixmap = pixmap.scaled(image.size() * factor, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.FastTransformation)
        self.thumb.setFixedSize(pixmap.size() + QSize(4, 4))
        self.thumb.setPixmap(pixmap)
        if size.isValid():
            self.caption.setText(f"{plain(self.mime)} · {size.width()} × {size.height()} px · {len(self.data) * 3 // 4 / 1024:,.1f} KB")

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.thumb.geometry().contains(event.position().toPoint()):
            self.open_full()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def open_full(self) -> ImageViewer | None:
        if self.loader is None or not isinstance(self.data, str):
            return None
        viewer = ImageViewer(self.data, self.mime, self.loader, self.window())
        viewer.show()
        return viewer


class Collapsible(QWidget):
    """A titled section that builds its content the first time it is opened."""

    def __init__(self, title: str, build: Callable[[], QWidget], expanded: bool = False, parent: QWidget | None = None, muted: bool = True) -> None:
        super().__init__(parent)
        self._build = build
        self.content: QWidget | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self._expanded = False
        self.toggle = QToolButton(self)
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

    def sizeHint(self) -> QSize:
        return layout_hint(self)

    def set_expanded(self, on: bool) -> None:
        self._expanded = on
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        if on and self.content is None:
            self.content = self._build()
            self.content.setParent(self)
            self.content.setContentsMargins(14, 0, 0, 0)
            self.layout().addWidget(self.content)
        if self.content is not None:
            self.content.setVisible(on)


class ThinkingBlock(Collapsible):
    def __init__(self, block: dict[str, Any], parent: QWidget | None = None) -> None:
        text = block.get("thinking")
        text = text if isinstance(text, str) else ""
        redacted = bool(block.get("redacted"))
        title = "Thinking (redacted)" if redacted else f"Thinking · {len(text):,} characters"
        self.text_block: TextBlock | None = None
        super().__init__(title, lambda: self._make(text), expanded=False, parent=parent)

    def _make(self, text: str) -> QWidget:
        self.text_block = TextBlock(text, markdown=True, title="Thinking")
        font = self.text_block.font()
        font.setItalic(True)
        self.text_block.setFont(font)
        set_muted(self.text_block, 0.25)
        return self.text_block


class Box(QFrame):
    """A rounded, lightly tinted inner frame (tool calls, results, originals)."""

    clicked = Signal()

    def __init__(self, color: QColor, parent: QWidget | None = None, dashed: bool = False, tint: float = 0.06) -> None:
        super().__init__(parent)
        self.color = QColor(color)
        self.dashed = dashed
        self.tint = tint
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 5, 8, 6)
        layout.setSpacing(3)

    def sizeHint(self) -> QSize:
        return layout_hint(self)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        base = self.palette().color(QPalette.ColorRole.Base)
        pen = QPen(mix(base, self.color, 0.55), 1, Qt.PenStyle.DashLine if self.dashed else Qt.PenStyle.SolidLine)
        paint_rounded(painter, self.rect(), 5, mix(base, self.color, self.tint), pen)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
            event.accept()
            return
        super().mouseReleaseEvent(event)
