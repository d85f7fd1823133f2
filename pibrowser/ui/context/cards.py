"""Message cards: one readable card per context message, built only when shown.

A card draws its own frame (no style sheet per card, so hundreds stay cheap),
shows the role, time and model, and renders the content: markdown text,
collapsible thinking, tool calls with their results nested, thumbnails, and
the special messages (system checkpoint, compaction and branch summaries,
custom messages, shell commands). Everything the session wrote goes through
`safe_text`, so it is shown, never interpreted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from PySide6.QtCore import QObject, QRectF, QRunnable, QSize, Qt, QThreadPool, Signal
from PySide6.QtGui import (
    QColor,
    QFontDatabase,
    QGuiApplication,
    QImage,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...model.context import Context
from ...model.entry import Entry
from ...model.jsdate import js_time
from ...model.jsvalue import MISSING
from ...model.provenance import Part, Provenance
from ...model.stats import _usage_number
from ...model.timefmt import format_millis
from ..colors import mix
from .safe_text import (
    THUMBNAIL_SIDE,
    SafeTextView,
    clean,
    decode_image,
    plain,
    safe_tip,
)

CARD_TEXT_LIMIT = 4000  # characters rendered in a card before "show all"
INLINE_ALL_LIMIT = 100_000  # "show all" expands in place up to this; beyond, a paged viewer
RESULT_TEXT_LIMIT = 1500  # a tool result nested under its call
ARGUMENT_LIMIT = 1500
JSON_STRING_LIMIT = 2000

ROLE_NAMES = {
    "user": "User",
    "assistant": "Assistant",
    "toolResult": "Tool result",
    "bashExecution": "Shell",
    "system": "System prompt",
    "custom": "Custom",
    "compactionSummary": "Compaction summary",
    "branchSummary": "Branch summary",
}

# Hues chosen to stay distinct on light and dark backgrounds.
ROLE_COLORS = {
    "user": "#3b82f6",
    "assistant": "#10b981",
    "toolResult": "#f59e0b",
    "bashExecution": "#a855f7",
    "system": "#64748b",
    "custom": "#ec4899",
    "compactionSummary": "#f97316",
    "branchSummary": "#06b6d4",
    "error": "#ef4444",
    "dropped": "#9ca3af",
}


# ---- what a card shows --------------------------------------------------------------


@dataclass(slots=True)
class CardItem:
    """One row of the panel: a message pi sends, or (greyed) one an edit dropped."""

    index: int | None  # position in the context's messages; None when dropped
    message: Any
    entry: Entry
    edit: Entry | None = None
    original: Any = None  # the message before a replacing edit
    dropped: bool = False
    part: Part | None = None
    tokens: int = 0

    @property
    def role(self) -> str:
        return str(self.message.get("role")) if isinstance(self.message, dict) else "value"

    @property
    def source_id(self) -> str:
        return self.entry.id


@dataclass(slots=True)
class ContextInfo:
    """What the cards of one context share: cross references, counts, the image loader."""

    context: Context
    items: list[CardItem]
    provenance: dict[str, Provenance]
    results: dict[str, int] = field(default_factory=dict)  # toolCallId → index of its result
    calls: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)  # toolCallId → (index, block)
    dropped_results: dict[str, CardItem] = field(default_factory=dict)
    by_index: dict[int, CardItem] = field(default_factory=dict)
    summarized: int = 0  # entries on the path that the compaction summary stands in for
    selected: str | None = None
    images: ImageLoader | None = None

    def message(self, index: int) -> Any:
        return self.context.messages[index]

    def source(self, index: int) -> Entry:
        return self.by_index[index].entry


def build_items(context: Context, provenance: dict[str, Provenance], tokens: list[int] | None = None) -> list[CardItem]:
    """Every message in order, with the messages edits dropped in their places."""
    items: list[CardItem] = []
    index = 0
    for projected in context.entries:
        part = provenance.get(projected.entry.id).part if projected.entry.id in provenance else None
        if projected.dropped:
            for message in projected.original:
                items.append(CardItem(None, message, projected.entry, projected.edit, None, True, part))
            continue
        for offset, message in enumerate(projected.messages):
            original = projected.original[offset] if projected.replaced_at(offset) else None
            count = tokens[index] if tokens is not None and index < len(tokens) else 0
            items.append(CardItem(index, message, projected.entry, projected.edit if original is not None else None, original, False, part, count))
            index += 1
    return items


def context_info(context: Context, provenance: dict[str, Provenance], tokens: list[int] | None = None) -> ContextInfo:
    items = build_items(context, provenance, tokens)
    info = ContextInfo(context, items, provenance)
    for item in items:
        message = item.message
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "toolResult" and isinstance(message.get("toolCallId"), str):
            if item.dropped:
                info.dropped_results.setdefault(message["toolCallId"], item)
            else:
                info.results.setdefault(message["toolCallId"], item.index)
        elif role == "assistant" and not item.dropped and isinstance(message.get("content"), list):
            for block in message["content"]:
                if isinstance(block, dict) and block.get("type") == "toolCall" and isinstance(block.get("id"), str):
                    info.calls.setdefault(block["id"], (item.index, block))
    info.summarized = sum(1 for value in provenance.values() if value.part is Part.SUMMARIZED)
    info.by_index = {item.index: item for item in items if item.index is not None}
    return info


# ---- small helpers ----------------------------------------------------------------------


def message_time(message: Any, entry: Entry) -> str:
    if isinstance(message, dict):
        text = format_millis(message.get("timestamp"))
        if text:
            return text
    return format_millis(js_time(entry.timestamp))


def format_count(value: float) -> str:
    value = float(value)
    if abs(value) >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if abs(value) >= 10_000:
        return f"{value / 1000:.0f}k"
    if abs(value) >= 1000:
        return f"{value / 1000:.1f}k"
    return f"{value:.0f}"


def format_cost(value: float) -> str:
    if value == 0:
        return "$0"
    if value < 0.01:
        return f"${value:.4f}"
    return f"${value:.2f}"


def clip_strings(value: Any, limit: int = JSON_STRING_LIMIT) -> tuple[Any, int]:
    """A display copy with long strings shortened; returns it and how many were."""
    count = 0

    def walk(node: Any) -> Any:
        nonlocal count
        if isinstance(node, str):
            if len(node) > limit:
                count += 1
                return node[:limit] + f"… [clipped: {len(node):,} characters in all]"
            return node
        if isinstance(node, dict):
            return {str(key): walk(item) for key, item in node.items()}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    return walk(value), count


def pretty_json(value: Any) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def display_json(value: Any, limit: int = JSON_STRING_LIMIT) -> tuple[str, int]:
    clipped, count = clip_strings(value, limit)
    return pretty_json(clipped), count


def format_arguments(arguments: Any, limit: int = ARGUMENT_LIMIT, total: int = 8 * ARGUMENT_LIMIT) -> str:
    """Tool-call arguments for reading: strings as written (not JSON-escaped), nested values indented."""
    if arguments is MISSING:
        return "(no arguments)"
    if isinstance(arguments, dict) and not arguments:
        return "(no arguments)"
    lines: list[str] = []
    _readable(arguments, 0, lines, limit)
    text = "\n".join(lines)
    if len(text) > total:
        text = text[:total] + f"… [{len(text) - total:,} more characters]"
    return text


def _scalar(value: Any, limit: int) -> str:
    if value == "":
        return '""'
    if isinstance(value, str):
        shown, hidden = clean(value, limit)
        return shown + (f"… [{hidden:,} more characters]" if hidden else "")
    return display_json(value, limit)[0]


def _readable(value: Any, indent: int, lines: list[str], limit: int, prefix: str = "") -> None:
    pad = "  " * indent
    if len(lines) > 400:
        if lines[-1] != f"{pad}…":
            lines.append(f"{pad}…")
        return
    if isinstance(value, dict) and value:
        first = True
        for key, item in value.items():
            lead = prefix if first else " " * len(prefix)
            first = False
            _readable_pair(str(key), item, indent, lines, limit, lead)
        return
    if isinstance(value, list) and value:
        for item in value:
            if isinstance(item, (dict, list)) and item:
                _readable(item, indent, lines, limit, prefix + "- ")
            else:
                _readable_pair(None, item, indent, lines, limit, prefix + "- ")
        return
    _readable_pair(None, value, indent, lines, limit, prefix)


def _readable_pair(key: str | None, value: Any, indent: int, lines: list[str], limit: int, lead: str) -> None:
    pad = "  " * indent + lead
    label = f"{key}: " if key is not None else ""
    if isinstance(value, (dict, list)) and value:
        if key is None:
            _readable(value, indent, lines, limit, lead)
            return
        lines.append(f"{pad}{key}:")
        _readable(value, indent + 1 + len(lead) // 2, lines, limit)
        return
    text = _scalar(value, limit)
    if "\n" in text:
        lines.append(f"{pad}{label}|")
        inner = " " * len(pad) + "  "
        lines.extend(inner + line for line in text.split("\n"))
    else:
        lines.append(f"{pad}{label}{text}")


def short_id(value: Any, width: int = 22) -> str:
    text = plain(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def plain_label(text: str = "", parent: QWidget | None = None, muted: bool = False, mono: bool = False, small: bool = False, wrap: bool = False) -> QLabel:
    """A label that never interprets its text (QLabel would guess at HTML)."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if mono:
        label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    if small:
        font = label.font()
        font.setPointSizeF(max(font.pointSizeF() * 0.88, 7))
        label.setFont(font)
    if muted:
        set_muted(label)
    return label


def set_muted(widget: QWidget, amount: float = 0.45) -> None:
    palette = widget.palette()
    base = palette.color(QPalette.ColorRole.Window)
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        palette.setColor(role, mix(palette.color(role), base, amount))
    widget.setPalette(palette)


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def accent(role: str) -> QColor:
    return QColor(ROLE_COLORS.get(role, ROLE_COLORS["system"]))


class ElidedLabel(QLabel):
    """One line of plain text that ends in "…" when there is no room, rather than being cut."""

    def __init__(self, text: str = "", parent: QWidget | None = None, shorter: tuple[str, ...] = ()) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)
        self.setToolTip(safe_tip(text))
        self.shorter = shorter  # shorter forms to try before cutting the text
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def shown(self) -> str:
        width = self.contentsRect().width()
        metrics = self.fontMetrics()
        for text in (self.text(), *self.shorter):
            if metrics.horizontalAdvance(text) <= width:
                return text
        return metrics.elidedText(self.shorter[-1] if self.shorter else self.text(), Qt.TextElideMode.ElideRight, width)

    def minimumSizeHint(self) -> QSize:
        return QSize(min(super().minimumSizeHint().width(), 40), super().minimumSizeHint().height())

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        painter.setFont(self.font())
        area = self.contentsRect()
        painter.drawText(area, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), self.shown())


class Chip(QLabel):
    """A small coloured tag: a role, a badge."""

    def __init__(self, text: str, color: QColor, parent: QWidget | None = None, outline: bool = False) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)
        font = self.font()
        font.setPointSizeF(max(font.pointSizeF() * 0.85, 7))
        font.setBold(True)
        self.setFont(font)
        self._color = QColor(color)
        self._outline = outline
        self.setContentsMargins(6, 1, 6, 1)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        if self._outline:
            painter.setPen(QPen(self._color, 1))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            text_color = self._color if not is_dark(self.palette()) else self._color.lighter(130)
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self._color)
            text_color = QColor("white") if self._color.lightness() < 170 else QColor("black")
        painter.drawRoundedRect(rect, 4, 4)
        painter.setPen(text_color)
        painter.setFont(self.font())
        area = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, area.width())
        painter.drawText(area, Qt.AlignmentFlag.AlignCenter, text)

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        return QSize(metrics.horizontalAdvance(self.text()) + margins.left() + margins.right() + 2, metrics.height() + margins.top() + margins.bottom())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()


def link_button(text: str, tip: str = "", parent: QWidget | None = None) -> QToolButton:
    button = QToolButton(parent)
    button.setText(text)
    button.setToolTip(safe_tip(tip) if tip else "")
    button.setAutoRaise(True)
    button.setCursor(Qt.CursorShape.PointingHandCursor)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    font = button.font()
    font.setPointSizeF(max(font.pointSizeF() * 0.9, 7))
    button.setFont(font)
    return button


# ---- images: decoded off the GUI thread, cached ----------------------------------------


class _DecodeSignals(QObject):
    done = Signal(str, object, object, str)  # key, QImage, QSize, error


class _DecodeJob(QRunnable):
    def __init__(self, key: str, data: str, max_side: int | None, signals: _DecodeSignals) -> None:
        super().__init__()
        self.key, self.data, self.max_side, self.signals = key, data, max_side, signals
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            image, size, error = decode_image(self.data, self.max_side)
        except Exception as failure:  # noqa: BLE001 (a decoder problem must not take the panel down)
            image, size, error = QImage(), QSize(), f"cannot decode image ({failure})"
        self.data = None
        self.signals.done.emit(self.key, image, size, error)


def image_key(data: Any, full: bool = False) -> str:
    if not isinstance(data, str):
        return "none"
    return f"{'full' if full else 'thumb'}:{len(data)}:{hash(data)}"


class ImageLoader(QObject):
    """Thumbnails and full images, decoded in a background pool; `ready(key)` when one is."""

    ready = Signal(str)

    def __init__(self, parent: QObject | None = None, max_cached: int = 300) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(2)
        self._signals = _DecodeSignals(self)
        self._signals.done.connect(self._done)
        self._cache: dict[str, tuple[QImage, QSize, str]] = {}
        self._pending: set[str] = set()
        self._max = max_cached

    def get(self, key: str) -> tuple[QImage, QSize, str] | None:
        return self._cache.get(key)

    def request(self, data: Any, full: bool = False) -> str:
        key = image_key(data, full)
        if key in self._cache or key in self._pending:
            return key
        if not isinstance(data, str):
            self._cache[key] = (QImage(), QSize(), "no image data")
            return key
        self._pending.add(key)
        self._pool.start(_DecodeJob(key, data, None if full else THUMBNAIL_SIDE, self._signals))
        return key

    def wait(self, msecs: int = 30000) -> bool:
        return self._pool.waitForDone(msecs)

    def _done(self, key: str, image: QImage, size: QSize, error: str) -> None:
        self._pending.discard(key)
        if len(self._cache) >= self._max:
            for old in list(self._cache)[: self._max // 4]:
                del self._cache[old]
        if key.startswith("full:"):
            # Full images can be tens of megabytes each: keep only the latest two.
            for old in [name for name in self._cache if name.startswith("full:")][:-1]:
                del self._cache[old]
        self._cache[key] = (image, size, error)
        self.ready.emit(key)


class ImageViewer(QDialog):
    """The full-size image, decoded in the background; fit to the window or actual size."""

    def __init__(self, data: str, mime: str, loader: ImageLoader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(f"Image — {plain(mime)}")
        self.resize(800, 600)
        self._loader = loader
        self._image = QImage()
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.info = plain_label("Decoding…", muted=True)
        self.fit = QCheckBox("Fit to window")
        self.fit.setChecked(True)
        self.fit.toggled.connect(self._show)
        bar.addWidget(self.info, 1)
        bar.addWidget(self.fit)
        layout.addLayout(bar)
        self.scroll = QScrollArea()
        self.scroll.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label = QLabel()
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll.setWidget(self.label)
        self.scroll.setWidgetResizable(True)
        layout.addWidget(self.scroll, 1)
        self._bytes = len(data) * 3 // 4
        self._key = loader.request(data, full=True)
        loader.ready.connect(self._ready)
        self._ready(self._key)

    def _ready(self, key: str) -> None:
        if key != self._key:
            return
        found = self._loader.get(key)
        if found is None:
            return
        image, _, error = found
        if error:
            self.info.setText(error)
            return
        self._image = image
        self.info.setText(f"{image.width()} × {image.height()} px · {self._bytes / 1024:,.1f} KB")
        self._show()

    def _show(self) -> None:
        if self._image.isNull():
            return
        pixmap = QPixmap.fromImage(self._image)
        if self.fit.isChecked():
            area = self.scroll.viewport().size() - QSize(8, 8)
            if pixmap.width() > area.width() or pixmap.height() > area.height():
                pixmap = pixmap.scaled(area, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
        self.label.setPixmap(pixmap)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.fit.isChecked():
            self._show()


class TextViewer(QDialog):
    """A huge text, shown a page at a time (plain, inert); Copy takes all of it."""

    PAGE = 200_000

    def __init__(self, title: str, text: str, parent: QWidget | None = None, monospace: bool = False) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(plain(title))
        self.resize(900, 700)
        self.text = text
        self.page = 0
        self.pages = max(1, -(-len(text) // self.PAGE))
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.previous = QPushButton("◀ Previous")
        self.next = QPushButton("Next ▶")
        self.position = plain_label("", muted=True)
        self.wrap = QCheckBox("Wrap lines")
        self.wrap.setChecked(True)
        copy = QPushButton("Copy all")
        copy.setObjectName("copyAll")
        copy.setToolTip("Copy the complete text, not just this page")
        copy.clicked.connect(lambda: QApplication.clipboard().setText(self.text))
        self.previous.clicked.connect(lambda: self.show_page(self.page - 1))
        self.next.clicked.connect(lambda: self.show_page(self.page + 1))
        self.wrap.toggled.connect(self._wrap)
        for widget in (self.previous, self.next, self.position):
            bar.addWidget(widget)
        bar.addStretch(1)
        bar.addWidget(self.wrap)
        bar.addWidget(copy)
        layout.addLayout(bar)
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        if monospace:
            self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        layout.addWidget(self.view, 1)
        self.show_page(0)

    def show_page(self, page: int) -> None:
        self.page = max(0, min(page, self.pages - 1))
        start = self.page * self.PAGE
        chunk, _ = clean(self.text[start:start + self.PAGE], self.PAGE)
        self.view.setPlainText(chunk)
        end = min(len(self.text), start + self.PAGE)
        self.position.setText(f"characters {start + 1:,}–{end:,} of {len(self.text):,} · page {self.page + 1} of {self.pages}")
        self.previous.setEnabled(self.page > 0)
        self.next.setEnabled(self.page < self.pages - 1)

    def _wrap(self, on: bool) -> None:
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth if on else QPlainTextEdit.LineWrapMode.NoWrap)


# ---- content blocks ------------------------------------------------------------------------


class TextBlock(QWidget):
    """Clipped, inert text with "show all"; markdown or plain."""

    clicked = Signal()

    def __init__(self, text: Any, markdown: bool = True, monospace: bool = False, limit: int = CARD_TEXT_LIMIT, parent: QWidget | None = None, title: str = "Text") -> None:
        super().__init__(parent)
        self.full = text if isinstance(text, str) else "" if text is None or text is MISSING else str(text)
        self.markdown = markdown
        self.title = title
        self.monospace = monospace
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.view = SafeTextView(self, monospace=monospace)
        self.view.clicked.connect(self.clicked)
        layout.addWidget(self.view)
        self.more: QToolButton | None = None
        self.hidden = self._render(limit)
        if self.hidden:
            self.more = link_button(f"Show all ({len(self.full):,} characters)", "Show the complete text")
            self.more.clicked.connect(self.show_all)
            layout.addWidget(self.more, 0, Qt.AlignmentFlag.AlignLeft)

    def _render(self, limit: int) -> int:
        if self.markdown:
            return self.view.set_markdown(self.full, limit)
        return self.view.set_plain(self.full, limit)

    def text(self) -> str:
        return self.view.toPlainText()

    def show_all(self) -> None:
        if len(self.full) <= INLINE_ALL_LIMIT:
            # Markdown of a whole long text can be slow to lay out; plain text stays quick.
            if len(self.full) > 20_000:
                self.markdown = False
            self.hidden = self._render(len(self.full))
            if self.more is not None:
                self.more.hide()
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
        if key != self.key or self.loader is None:
            return
        found = self.loader.get(key)
        if found is None:
            return
        image, size, error = found
        if error:
            self.thumb.setFixedSize(QSize(THUMBNAIL_SIDE, 40))
            self.thumb.setText(error)
            self.thumb.setWordWrap(True)
            return
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
        font = self.text_block.view.font()
        font.setItalic(True)
        self.text_block.view.setFont(font)
        set_muted(self.text_block.view, 0.25)
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

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        base = self.palette().color(QPalette.ColorRole.Base)
        pen = QPen(mix(base, self.color, 0.55), 1, Qt.PenStyle.DashLine if self.dashed else Qt.PenStyle.SolidLine)
        painter.setPen(pen)
        painter.setBrush(mix(base, self.color, self.tint))
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
            event.accept()
            return
        super().mouseReleaseEvent(event)


# ---- the card ----------------------------------------------------------------------------------


class MessageCard(QFrame):
    """One context message. `activated(entry id)` on a click; `jump(index)` to go to another card."""

    activated = Signal(str)
    jump = Signal(int)

    def __init__(self, item: CardItem, info: ContextInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        self.info = info
        self.selected = info.selected == item.entry.id
        self.flash = False
        self.text_blocks: list[TextBlock] = []
        self.thinking_blocks: list[ThinkingBlock] = []
        self.image_blocks: list[ImageBlock] = []
        self.tool_boxes: list[ToolCallBox] = []
        self.original_section: Collapsible | None = None
        self.result_content: Collapsible | None = None
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        # A card never asks for more width than the panel has; its layout gets the real width.
        self.setMinimumWidth(1)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 8, 10, 8)
        layout.setSpacing(4)
        self.body = layout
        self._build_header()
        if item.dropped:
            self._build_dropped_banner()
        self._build_content(item.message, layout)
        if item.original is not None and not item.dropped:
            self._build_original()
        if item.dropped:
            for widget in self.findChildren(QWidget):
                set_muted(widget, 0.4)

    # -- facts for the panel and for tests

    @property
    def index(self) -> int | None:
        return self.item.index

    @property
    def message(self) -> Any:
        return self.item.message

    @property
    def source_id(self) -> str:
        return self.item.entry.id

    @property
    def role(self) -> str:
        return self.item.role

    def role_label(self) -> str:
        return self.role_chip.text()

    def shown_text(self) -> str:
        """The plain text of every text view in the card, in order."""
        views = [view for view in self.findChildren(SafeTextView) if view.isVisibleTo(self)]
        return "\n".join(view.toPlainText() for view in views)

    # -- header

    def _title(self) -> str:
        message = self.item.message
        role = self.item.role
        if role == "system" and self.item.entry.type == "compaction":
            return "System prompt · checkpoint"
        if role == "custom" and isinstance(message, dict):
            return f"Custom · {short_id(message.get('customType'), 40)}"
        return ROLE_NAMES.get(role, role)

    def _build_header(self) -> None:
        item, message = self.item, self.item.message
        row = QHBoxLayout()
        row.setSpacing(6)
        color = accent("error") if isinstance(message, dict) and message.get("isError") else accent(item.role if not item.dropped else "dropped")
        self.accent = color
        self.role_chip = Chip(self._title(), color)
        row.addWidget(self.role_chip)
        number = f"#{item.index + 1}" if item.index is not None else "not sent"
        self.number_label = plain_label(number, muted=True, small=True)
        row.addWidget(self.number_label)
        # In a narrow panel the time gives way first (its tooltip keeps it).
        when = message_time(message, item.entry)
        self.details_label = ElidedLabel(when, shorter=(when[11:],) if len(when) > 11 else ())
        font = self.details_label.font()
        font.setPointSizeF(max(font.pointSizeF() * 0.88, 7))
        self.details_label.setFont(font)
        set_muted(self.details_label)
        row.addWidget(self.details_label, 1)  # takes the free room, so badges sit at the right
        if item.edit is not None and not item.dropped:
            row.addWidget(Chip("edited", accent("compactionSummary"), outline=True))
        if item.part is Part.KEPT:
            chip = Chip("kept", accent("system"), outline=True)
            chip.setToolTip("Before the compaction in the file, kept after it")
            row.addWidget(chip)
        if isinstance(message, dict):
            stop = message.get("stopReason")
            if stop in ("error", "aborted", "length"):
                row.addWidget(Chip(str(stop), accent("error"), outline=True))
            if message.get("excludeFromContext"):
                chip = Chip("excluded", accent("error"), outline=True)
                chip.setToolTip("pi leaves this shell run out of what the model sees (run with !!)")
                row.addWidget(chip)
        if item.tokens:
            tokens = plain_label(f"≈{format_count(item.tokens)} tok", muted=True, small=True)
            tokens.setToolTip("pi's estimate for this message: characters / 4")
            row.addWidget(tokens)
        self.entry_button = link_button(item.entry.id, f"Select entry {item.entry.id} (line {item.entry.line})")
        self.entry_button.clicked.connect(lambda: self.activated.emit(self.item.entry.id))
        row.addWidget(self.entry_button)
        self.body.addLayout(row)
        if isinstance(message, dict) and item.role == "assistant":
            parts = []
            model = message.get("responseModel") or message.get("model")
            if model:
                parts.append(f"{plain(model)} ({plain(message.get('provider'))})")
            usage = message.get("usage")
            if isinstance(usage, dict):
                parts.append(f"in {format_count(_usage_number(usage, 'input'))} · out {format_count(_usage_number(usage, 'output'))}")
                if _usage_number(usage, "cacheRead") or _usage_number(usage, "cacheWrite"):
                    parts.append(f"cache r {format_count(_usage_number(usage, 'cacheRead'))} / w {format_count(_usage_number(usage, 'cacheWrite'))}")
                cost = usage.get("cost")
                if isinstance(cost, dict) and _usage_number(cost, "total"):
                    parts.append(format_cost(_usage_number(cost, "total")))
            if parts:
                self.model_label = plain_label(" · ".join(parts), muted=True, small=True, wrap=True)
                self.body.addWidget(self.model_label)
        if isinstance(message, dict) and message.get("errorMessage"):
            self.body.addWidget(plain_label(plain(message.get("errorMessage")), small=True, wrap=True))

    def _build_dropped_banner(self) -> None:
        edit = self.item.edit
        banner = plain_label(f"✕ DROPPED by context edit {edit.id if edit else ''} — NOT sent to the model", small=True, wrap=True)
        font = banner.font()
        font.setBold(True)
        banner.setFont(font)
        palette = banner.palette()
        palette.setColor(QPalette.ColorRole.WindowText, accent("error"))
        banner.setPalette(palette)
        self.banner = banner
        self.body.addWidget(banner)

    def _build_original(self) -> None:
        edit = self.item.edit
        original = self.item.original

        def build() -> QWidget:
            box = Box(accent("dropped"), dashed=True)
            note = plain_label(f"Original before edit {edit.id if edit else ''} — replaced, not sent", muted=True, small=True, wrap=True)
            box.layout().addWidget(note)
            self._build_content(original, box.layout(), record=False)
            for widget in box.findChildren(QWidget):
                set_muted(widget, 0.35)
            return box

        self.original_section = Collapsible("Show original (before the edit)", build)
        self.body.addWidget(self.original_section)

    # -- content

    def _build_content(self, message: Any, layout: QVBoxLayout, record: bool = True) -> None:
        if not isinstance(message, dict):
            self._add_text(layout, display_json(message)[0], record, markdown=False, monospace=True)
            return
        role = message.get("role")
        if role == "toolResult":
            self._build_tool_result(message, layout, record)
        elif role == "bashExecution":
            self._build_bash(message, layout, record)
        elif role == "system":
            self._build_system(message, layout, record)
        elif role == "compactionSummary":
            self._build_compaction(message, layout, record)
        elif role == "branchSummary":
            self._build_branch_summary(message, layout, record)
        elif role in ("user", "assistant", "custom"):
            if role == "custom":
                self._build_custom_notes(message, layout)
            self._add_content(layout, message.get("content", MISSING), record)
        else:
            self._add_text(layout, display_json(message)[0], record, markdown=False, monospace=True)

    def _add_text(self, layout: QVBoxLayout, text: Any, record: bool, markdown: bool = True, monospace: bool = False, limit: int = CARD_TEXT_LIMIT) -> TextBlock:
        block = TextBlock(text, markdown=markdown, monospace=monospace, limit=limit, title=f"{self._title()} {self.number_label.text()}")
        block.clicked.connect(self._activate)
        layout.addWidget(block)
        if record:
            self.text_blocks.append(block)
        return block

    def _add_content(self, layout: QVBoxLayout, content: Any, record: bool, markdown: bool = True, monospace: bool = False, limit: int = CARD_TEXT_LIMIT) -> None:
        if isinstance(content, str):
            self._add_text(layout, content, record, markdown, monospace, limit)
            return
        if content is MISSING or content is None:
            layout.addWidget(plain_label("(no content)", muted=True, small=True))
            return
        if not isinstance(content, list):
            self._add_text(layout, display_json(content)[0], record, markdown=False, monospace=True)
            return
        if not content:
            layout.addWidget(plain_label("(empty content)", muted=True, small=True))
        for block in content:
            kind = block.get("type") if isinstance(block, dict) else None
            if kind == "text":
                self._add_text(layout, block.get("text", ""), record, markdown, monospace, limit)
            elif kind == "thinking":
                thinking = ThinkingBlock(block)
                layout.addWidget(thinking)
                if record:
                    self.thinking_blocks.append(thinking)
            elif kind == "image":
                image = ImageBlock(block, self.info.images)
                layout.addWidget(image)
                if record:
                    self.image_blocks.append(image)
            elif kind == "toolCall":
                box = ToolCallBox(block, self)
                layout.addWidget(box)
                if record:
                    self.tool_boxes.append(box)
            else:
                self._add_text(layout, display_json(block)[0], record, markdown=False, monospace=True)

    def _build_tool_result(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        call_id = message.get("toolCallId")
        call = self.info.calls.get(call_id) if isinstance(call_id, str) else None
        name = plain(message.get("toolName"))
        status = "error from" if message.get("isError") else "result of"
        row = QHBoxLayout()
        row.setSpacing(4)
        if call is not None:
            index, _ = call
            self.reference = plain_label(f"↩ {status} {name} — called in #{index + 1}", small=True)
            row.addWidget(self.reference)
            go = link_button(f"go to #{index + 1}", "Scroll to the assistant message that made this call")
            go.clicked.connect(lambda: self.jump.emit(index))
            row.addWidget(go)
        else:
            self.reference = plain_label(f"↩ {status} {name} — its call is not in this context", small=True, wrap=True)
            row.addWidget(self.reference, 1)
        self.reference.setToolTip(safe_tip(f"Answers tool call {plain(call_id)}"))
        row.addStretch(1)
        layout.addLayout(row)
        content = message.get("content", MISSING)
        if call is not None and record:
            # The content is shown under its call; here it is one click away.
            def build() -> QWidget:
                holder = QWidget()
                inner = QVBoxLayout(holder)
                inner.setContentsMargins(0, 0, 0, 0)
                self._add_content(inner, content, True, markdown=False, monospace=True)
                return holder

            title = f"Content · {_content_size(content)}"
            # An edited result shows its replacement at once; the original is one more click away.
            self.result_content = Collapsible(title, build, expanded=self.item.edit is not None)
            self.result_content.toggle.setToolTip(f"Also shown under its call in #{call[0] + 1}")
            layout.addWidget(self.result_content)
        else:
            self._add_content(layout, content, record, markdown=False, monospace=True)

    def _build_bash(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        box = Box(accent("bashExecution"), tint=0.05)
        self._add_text(box.layout(), "$ " + str(message.get("command", "")), record, markdown=False, monospace=True, limit=ARGUMENT_LIMIT)
        output = message.get("output", "")
        if output:
            self._add_text(box.layout(), output, record, markdown=False, monospace=True)
        else:
            box.layout().addWidget(plain_label("(no output)", muted=True, small=True))
        layout.addWidget(box)
        notes = []
        code = message.get("exitCode", MISSING)
        if code is not MISSING:
            notes.append(f"exit {plain(code)}")
        if message.get("cancelled"):
            notes.append("cancelled")
        if message.get("truncated"):
            notes.append("output truncated")
        if message.get("fullOutputPath"):
            notes.append(f"full output in {plain(message.get('fullOutputPath'))}")
        if notes:
            label = plain_label(" · ".join(notes), small=True, wrap=True)
            if code not in (0, MISSING, None) or message.get("cancelled"):
                palette = label.palette()
                palette.setColor(QPalette.ColorRole.WindowText, accent("error"))
                label.setPalette(palette)
            else:
                set_muted(label)
            layout.addWidget(label)

    def _build_system(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        if self.item.entry.type == "compaction":
            layout.addWidget(plain_label(f"Carried by compaction {self.item.entry.id}: the system prompt in force when it was made", muted=True, small=True, wrap=True))
        content = message.get("content", "")
        if content not in ("", None, MISSING, []):
            self._add_content(layout, content, record, markdown=False)
        sections = message.get("sections")
        if isinstance(sections, dict):
            for name, text in sections.items():
                if text is None:
                    layout.addWidget(plain_label(f"§ {plain(name)} removed", muted=True, small=True))
                    continue
                size = len(text) if isinstance(text, str) else 0
                section = Collapsible(f"§ {plain(name)} · {size:,} characters", lambda text=text: self._detached_text(text, record))
                layout.addWidget(section)
        for key, verb in (("toolsAdded", "tools added"), ("toolsRemoved", "tools removed")):
            tools = message.get(key)
            if isinstance(tools, list) and tools:
                names = ", ".join(plain(tool.get("name")) if isinstance(tool, dict) else plain(tool) for tool in tools)
                section = Collapsible(f"{len(tools)} {verb}: {names}", lambda tools=tools: self._detached_text(display_json(tools)[0], record, monospace=True))
                layout.addWidget(section)
        if content in ("", None, MISSING, []) and not sections:
            layout.addWidget(plain_label("(empty system prompt)", muted=True, small=True))

    def _detached_text(self, text: Any, record: bool, monospace: bool = False) -> QWidget:
        block = TextBlock(text, markdown=False, monospace=monospace, title=self._title())
        block.clicked.connect(self._activate)
        return block

    def _build_compaction(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        tokens = message.get("tokensBefore")
        tokens_text = f"{tokens:,} tokens before" if isinstance(tokens, (int, float)) and not isinstance(tokens, bool) else "tokens before unknown"
        entry_word = "entry" if self.info.summarized == 1 else "entries"
        self.compaction_note = plain_label(
            f"Summarizes {self.info.summarized} {entry_word} · {tokens_text} · compaction {self.item.entry.id}", small=True, wrap=True
        )
        self.compaction_note.setToolTip("Entries on the path before the compaction that pi no longer sends; this summary stands in for them")
        layout.addWidget(self.compaction_note)
        self._add_text(layout, message.get("summary", ""), record)

    def _build_branch_summary(self, message: dict[str, Any], layout: QVBoxLayout, record: bool) -> None:
        row = QHBoxLayout()
        row.addWidget(plain_label("Summary of an abandoned branch, left at", muted=True, small=True))
        source = message.get("fromId")
        button = link_button(plain(source), "Select the entry the branch was left at")
        if isinstance(source, str):
            button.clicked.connect(lambda: self.activated.emit(source))
        row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        self._add_text(layout, message.get("summary", ""), record)

    def _build_custom_notes(self, message: dict[str, Any], layout: QVBoxLayout) -> None:
        if message.get("display") is False:
            layout.addWidget(plain_label("Not displayed in pi's chat (display: false), but sent to the model", muted=True, small=True, wrap=True))
        details = message.get("details", MISSING)
        if details is not MISSING:
            layout.addWidget(Collapsible("details", lambda: self._detached_text(display_json(details)[0], False, monospace=True)))

    # -- interaction

    def _activate(self) -> None:
        self.activated.emit(self.item.entry.id)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._activate()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def set_selected(self, on: bool) -> None:
        if on != self.selected:
            self.selected = on
            self.update()

    def set_flash(self, on: bool) -> None:
        self.flash = on
        self.update()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        base = palette.color(QPalette.ColorRole.Base)
        window = palette.color(QPalette.ColorRole.Window)
        rect = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        path = QPainterPath()
        path.addRoundedRect(rect, 7, 7)
        if self.item.dropped:
            fill = mix(window, base, 0.4)
            painter.fillPath(path, fill)
            painter.setClipPath(path)
            painter.setPen(QPen(mix(fill, accent("dropped"), 0.35), 1))
            step = 12
            for x in range(-self.height(), self.width(), step):
                painter.drawLine(x, self.height(), x + self.height(), 0)
            painter.setClipping(False)
            border = QPen(mix(base, accent("dropped"), 0.9), 1.2, Qt.PenStyle.DashLine)
        else:
            painter.fillPath(path, mix(base, self.accent, 0.035))
            highlight = palette.color(QPalette.ColorRole.Highlight)
            if self.selected or self.flash:
                border = QPen(highlight, 2)
            else:
                border = QPen(mix(base, palette.color(QPalette.ColorRole.Text), 0.16), 1)
        painter.setPen(border)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
        stripe = QPainterPath()
        stripe.addRoundedRect(QRectF(rect.left(), rect.top(), 5, rect.height()), 2.5, 2.5)
        painter.fillPath(stripe, self.accent if not self.item.dropped else accent("dropped"))


class ToolCallBox(Box):
    """One tool call of an assistant message, with the result that answered it nested inside."""

    def __init__(self, block: dict[str, Any], card: MessageCard) -> None:
        super().__init__(accent("toolResult"), tint=0.05)
        self.block = block
        self.card = card
        self.result_index: int | None = None
        self.result_block: QWidget | None = None
        layout = self.layout()
        call_id = block.get("id")
        row = QHBoxLayout()
        name = plain_label(f"→ {plain(block.get('name'))}", mono=True)
        font = name.font()
        font.setBold(True)
        name.setFont(font)
        row.addWidget(name)
        row.addStretch(1)
        id_label = plain_label(short_id(call_id), muted=True, small=True)
        id_label.setToolTip(safe_tip(plain(call_id)))
        row.addWidget(id_label)
        layout.addLayout(row)
        arguments = TextBlock(format_arguments(block.get("arguments", MISSING)), markdown=False, monospace=True, title=f"Arguments of {plain(block.get('name'))}")
        arguments.clicked.connect(card._activate)
        layout.addWidget(arguments)
        self.arguments = arguments
        self.clicked.connect(card._activate)
        info = card.info
        index = info.results.get(call_id) if isinstance(call_id, str) else None
        if index is not None and not card.item.dropped:
            self.result_index = index
            self._nest_result(index)
        elif isinstance(call_id, str) and call_id in info.dropped_results:
            dropped = info.dropped_results[call_id]
            layout.addWidget(plain_label(f"↳ its result was dropped by edit {dropped.edit.id if dropped.edit else ''} — not sent", muted=True, small=True, wrap=True))
        elif not card.item.dropped:
            layout.addWidget(plain_label("↳ no result for this call in this context", muted=True, small=True, wrap=True))

    def _nest_result(self, index: int) -> None:
        card, info = self.card, self.card.info
        message = info.message(index)
        source = info.source(index)
        error = isinstance(message, dict) and bool(message.get("isError"))
        box = Box(accent("error" if error else "toolResult"), tint=0.08)
        box.setToolTip(safe_tip(f"Result #{index + 1}, entry {source.id} — click to select it"))
        row = QHBoxLayout()
        item = info.by_index.get(index)
        edited = f" · edited by {item.edit.id}" if item is not None and item.edit is not None else ""
        label = plain_label(f"↳ {'error' if error else 'result'} · #{index + 1}{edited}", small=True)
        row.addWidget(label)
        row.addStretch(1)
        go = link_button(source.id, f"Select the result's entry {source.id}")
        go.clicked.connect(lambda: card.activated.emit(source.id))
        row.addWidget(go)
        box.layout().addLayout(row)
        content = message.get("content", MISSING) if isinstance(message, dict) else message
        before = len(card.text_blocks)
        # Straight into the box's layout: text that grows must reach the card's layout.
        card._add_content(box.layout(), content, True, markdown=False, monospace=True, limit=RESULT_TEXT_LIMIT)
        for block in card.text_blocks[before:]:
            try:
                block.clicked.disconnect(card._activate)
            except (RuntimeError, TypeError):
                pass
            block.clicked.connect(lambda source=source.id: card.activated.emit(source))
        box.clicked.connect(lambda: card.activated.emit(source.id))
        self.result_block = box
        self.layout().addWidget(box)

    def result_text(self) -> str:
        if self.result_block is None:
            return ""
        return "\n".join(view.toPlainText() for view in self.result_block.findChildren(SafeTextView))


def _content_size(content: Any) -> str:
    if isinstance(content, str):
        return f"{len(content):,} characters"
    if isinstance(content, list):
        chars = sum(len(block.get("text", "")) for block in content if isinstance(block, dict) and isinstance(block.get("text"), str))
        images = sum(1 for block in content if isinstance(block, dict) and block.get("type") == "image")
        text = f"{chars:,} characters"
        return text + (f", {images} image{'s' if images != 1 else ''}" if images else "")
    return "no content"

