"""Showing untrusted session text: inert markdown, no resource loading, links only on click.

Everything a session holds was written by a model, a tool or a user, so none of
it is trusted:

- markdown is parsed with HTML switched off, so `<script>` or `<img>` stay text;
- the documents fetch nothing: `loadResource` answers only for images we
  registered ourselves (thumbnails), never for `http:`, `file:`, `data:` or a
  relative name, and markdown images are replaced by an inert note;
- a link opens only when clicked, and only for http, https and mailto;
- terminal escapes are removed and other control characters shown as symbols;
- huge text is clipped before it reaches a layout, so a 10 MB string costs
  no more than its first few thousand characters.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QEvent, QPoint, QSize, Qt, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QFontDatabase,
    QGuiApplication,
    QImage,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QToolTip, QWidget

from ...model.text.terminal_text import strip_ansi
from ..style.colors import mix

THUMB_SCHEME = "pibrowser-thumb"
OPENABLE_SCHEMES = ("http", "https", "mailto")
MARKDOWN_FEATURES = QTextDocument.MarkdownFeature.MarkdownDialectGitHub | QTextDocument.MarkdownFeature.MarkdownNoHTML

# ---- plain-text hygiene -----------------------------------------------------------


def clip(text: str, limit: int) -> tuple[str, int]:
    """The first `limit` characters and how many were left out."""
    if len(text) <= limit:
        return text, 0
    cut = text.rfind("\n", max(0, limit - 400), limit)
    cut = cut if cut > 0 else limit
    return text[:cut], len(text) - cut


def clean(text: str, limit: int) -> tuple[str, int]:
    """Clip first (cheap on huge text), then make the rest inert."""
    shown, hidden = clip(text, limit)
    return strip_ansi(shown), hidden


def plain(value: Any) -> str:
    """Any value as one line of inert text for a label."""
    text = value if isinstance(value, str) else "" if value is None else str(value)
    shown, hidden = clean(text, 300)
    shown = " ".join(shown.split())
    return shown + ("…" if hidden else "")


def safe_tip(text: str) -> str:
    """Tooltip text that Qt cannot take for HTML (it guesses, and would render `<img>`)."""
    return "<p style='white-space:pre-wrap'>" + html.escape(text) + "</p>"


# ---- links ---------------------------------------------------------------------------


def is_openable(url: QUrl | str) -> bool:
    """Only web and mail links leave the application; file:, javascript:, data: and relative ones never."""
    url = QUrl(url) if isinstance(url, str) else url
    return url.isValid() and url.scheme().lower() in OPENABLE_SCHEMES and (url.scheme().lower() == "mailto" or bool(url.host()))


def open_link(url: QUrl | str) -> bool:
    """Open a clicked link in the desktop's browser or mail client, if it is one we allow."""
    url = QUrl(url) if isinstance(url, str) else url
    if not is_openable(url):
        return False
    return QDesktopServices.openUrl(url)


# ---- documents -----------------------------------------------------------------------


class SafeTextDocument(QTextDocument):
    """A text document that loads nothing except the images registered with `add_image`."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._images: dict[str, QImage] = {}
        self.refused: list[str] = []

    def add_image(self, name: str, image: QImage) -> QUrl:
        url = QUrl(f"{THUMB_SCHEME}:{name}")
        self._images[url.toString()] = image
        self.addResource(QTextDocument.ResourceType.ImageResource, url, image)
        return url

    def loadResource(self, kind: int, name: QUrl) -> Any:
        key = name.toString()
        if name.scheme() == THUMB_SCHEME and key in self._images:
            return self._images[key]
        if len(self.refused) < 100:
            self.refused.append(key)
        return None


def set_markdown(document: QTextDocument, text: str, limit: int = 4000) -> int:
    """Render untrusted markdown inertly; returns how many characters were clipped."""
    shown, hidden = clean(text, limit)
    document.setMarkdown(shown, MARKDOWN_FEATURES)
    neutralize_images(document)
    return hidden


def set_plain(document: QTextDocument, text: str, limit: int = 4000) -> int:
    shown, hidden = clean(text, limit)
    document.setPlainText(shown)
    return hidden


def neutralize_images(document: QTextDocument) -> int:
    """Replace every image the markdown asked for (other than our own) with a plain note."""
    found: list[tuple[int, str, str]] = []
    block = document.begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            if fragment.isValid():
                fmt = fragment.charFormat()
                if fmt.isImageFormat():
                    image = fmt.toImageFormat()
                    if not image.name().startswith(THUMB_SCHEME + ":"):
                        alt = image.property(QTextFormat.Property.ImageAltText)
                        for offset in range(fragment.length()):
                            found.append((fragment.position() + offset, str(alt or ""), image.name()))
            iterator += 1
        block = block.next()
    if not found:
        return 0
    cursor = QTextCursor(document)
    note = QTextCharFormat()
    note.setForeground(QColor(128, 128, 128))
    note.setFontItalic(True)
    for position, alt, name in reversed(found):
        cursor.setPosition(position)
        cursor.setPosition(position + 1, QTextCursor.MoveMode.KeepAnchor)
        where = plain(name)
        where = where if len(where) <= 80 else where[:79] + "…"
        label = f"[image{': ' + alt if alt else ''} — {where} not loaded]"
        cursor.insertText(label, note)
    return len(found)


def shade_code(document: QTextDocument, background: QColor) -> None:
    """Give code spans and fenced blocks a background, and keep headings modest, as chat apps do."""
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    cursor = QTextCursor(document)
    block = document.begin()
    while block.isValid():
        fmt = block.blockFormat()
        level = fmt.headingLevel()
        if level:
            heading = QTextCharFormat()
            heading.setProperty(QTextFormat.Property.FontSizeAdjustment, 1 if level <= 2 else 0)
            heading.setFontWeight(700)
            cursor.setPosition(block.position())
            cursor.setPosition(block.position() + max(block.length() - 1, 0), QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(heading)
        if fmt.hasProperty(QTextFormat.Property.BlockCodeFence) or fmt.hasProperty(QTextFormat.Property.BlockCodeLanguage):
            fmt.setBackground(background)
            fmt.setNonBreakableLines(False)  # wrap long code lines rather than run off the card
            cursor.setPosition(block.position())
            cursor.setBlockFormat(fmt)
        else:
            iterator = block.begin()
            while not iterator.atEnd():
                fragment = iterator.fragment()
                if fragment.isValid() and fragment.charFormat().fontFixedPitch():
                    char = QTextCharFormat()
                    char.setBackground(background)
                    char.setFontFamilies(fixed.families())
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor)
                    cursor.mergeCharFormat(char)
                iterator += 1
        block = block.next()


def code_background() -> QColor:
    """The shade behind code: a text's own Base is transparent (the card shows through); the application's."""
    palette = QGuiApplication.palette()
    return mix(palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text), 0.08)


class TextHeights:
    """A document's height at a width, measured and remembered.

    A view lays its document out again at every resize, so a view's heights are measured on
    a copy (`on_copy`): laying the shown document out for the widths a layout asks about
    would throw away its layout at the width it has. A document drawn by hand is laid out
    at the width it is drawn at, which is the width asked last: measuring it in place does
    that layout once. Only new text or a new font changes the heights (`reset`).
    """

    def __init__(self, document: QTextDocument, on_copy: bool = True) -> None:
        self.document = document
        self.on_copy = on_copy
        self._heights: dict[int, int] = {}
        self._measure: QTextDocument | None = None

    def knows(self, width: int) -> bool:
        return max(width, 40) in self._heights

    def height(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            if self._measure is None:
                # Parented to the document: Qt then asks it (and only it) for any resource, never the file system.
                self._measure = self.document.clone(self.document) if self.on_copy else self.document
            self._measure.setTextWidth(width)
            height = int(self._measure.size().height() + 0.999)
            if len(self._heights) > 8:
                self._heights.clear()
            self._heights[width] = height
        return height

    def reset(self) -> None:
        self._heights = {}
        if self._measure is not None and self._measure is not self.document:
            self._measure.deleteLater()
        self._measure = None


# ---- the view ------------------------------------------------------------------------------


class SafeTextView(QTextBrowser):
    """Read-only, selectable, self-sizing text for a card; untrusted content stays inert.

    Emits `clicked` for a plain click (no drag, no selection, not on a link), so a
    card can treat a click on its text like a click on the card.
    """

    clicked = Signal()

    def __init__(self, parent: QWidget | None = None, monospace: bool = False, document: SafeTextDocument | None = None) -> None:
        super().__init__(parent)
        self.setDocument(document if document is not None else SafeTextDocument(self))
        self._heights = TextHeights(self.document())
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setReadOnly(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.setUndoRedoEnabled(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setLineWrapMode(QTextBrowser.LineWrapMode.WidgetWidth)
        self.setWordWrapMode(self.wordWrapMode().WrapAtWordBoundaryOrAnywhere)
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.viewport().setAutoFillBackground(False)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Base, QColor(0, 0, 0, 0))
        self.setPalette(palette)
        self.document().setDocumentMargin(2)
        if monospace:
            self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.anchorClicked.connect(self._link_clicked)
        self.highlighted.connect(self._hover_link)
        # Heights are measured on a copy; only new text (set_markdown, set_plain) or a new font
        # changes them. The view's own document lays itself out again at every resize (and a
        # palette change recolours code): neither may throw the measured heights away.
        self._press: QPoint | None = None
        self.opened: list[str] = []
        self._fit()

    # -- content

    def set_markdown(self, text: str, limit: int = 4000) -> int:
        hidden = set_markdown(self.document(), text, limit)
        shade_code(self.document(), code_background())
        self._fit()
        return hidden

    def set_plain(self, text: str, limit: int = 4000) -> int:
        hidden = set_plain(self.document(), text, limit)
        self._fit()
        return hidden

    def loadResource(self, kind: int, name: QUrl) -> Any:
        # The document answers for our own images; nothing else is ever fetched.
        return self.document().loadResource(kind, name)

    def doSetSource(self, name: QUrl, kind=None) -> None:
        pass  # navigation is never followed

    # -- links

    def _link_clicked(self, url: QUrl) -> None:
        self.opened.append(url.toString())
        if not open_link(url):
            QToolTip.showText(
                self.cursor().pos(), safe_tip(f"Not opened: {plain(url.toString())}\n(only http, https and mailto links open)"), self
            )

    def _hover_link(self, url: QUrl) -> None:
        if url.isEmpty():
            QToolTip.hideText()
            self.setToolTip("")
            return
        note = "" if is_openable(url) else "\n(this kind of link is not opened)"
        self.setToolTip(safe_tip(plain(url.toString()) + note))

    # -- sizing: the view is as tall as its text at the width it gets; the panel scrolls

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        frame = 2 * self.frameWidth()
        return self._heights.height(max(width - frame, 40)) + frame

    def sizeHint(self) -> QSize:
        width = self.width() if self.width() > 40 else 400
        if self.parentWidget() is not None and not self._heights.knows(width - 2 * self.frameWidth()):
            # Inside a card the view sits in a vertical layout, which sizes it by heightForWidth at the
            # width it gives: a height here would be thrown away, and laying the text out for the
            # width the view has before that (Qt's first 100 px) is the costliest layout of all.
            return QSize(width, self.fontMetrics().height())
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        return QSize(40, 8)

    def _fit(self, *args) -> None:
        self._heights.reset()
        self.updateGeometry()

    def wheelEvent(self, event) -> None:
        event.ignore()  # let the panel scroll

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            shade_code(self.document(), code_background())
        elif event.type() == QEvent.Type.FontChange:
            self._fit()

    # -- clicks

    def mousePressEvent(self, event) -> None:
        self._press = event.position().toPoint() if event.button() == Qt.MouseButton.LeftButton else None
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        press, self._press = self._press, None
        super().mouseReleaseEvent(event)
        event.accept()  # the view decides what a click on text means; the card must not see it too
        if press is None or event.button() != Qt.MouseButton.LeftButton:
            return
        position = event.position().toPoint()
        if (position - press).manhattanLength() > 4 or self.textCursor().hasSelection():
            return
        if self.anchorAt(position):
            return
        self.clicked.emit()
