"""Images, decoded off the GUI thread and cached: thumbnails for cards, and the full-size viewer.

An image block's data is untrusted. It is decoded only as one of the raster formats
models are sent (PNG, JPEG, GIF, WebP), the one its first bytes name, whatever its
mimeType says: Qt's content sniffing would hand SVG to a plugin that opens the local
files its `<image xlink:href>` names (a FIFO or /dev/tty there hangs the process), and
other plugins parse formats nobody sends a model. Size is checked from the header
before any pixel is decoded.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, QSize, Qt, QThreadPool, Signal
from PySide6.QtGui import QImage, QImageReader, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ...model.session.raster import raster_format
from ..common.safe_text import plain
from ..common.widgets import fit_dialog, plain_label
from ..control.job import Job, JobSignals
from ..guard import guarded

MAX_IMAGE_BASE64 = 64 * 1024 * 1024  # larger data is not decoded at all
MAX_IMAGE_PIXELS = 50_000_000  # an 8K photo has 33 million; more is refused before decoding
ALLOCATION_LIMIT_MB = 256  # Qt's own guard, for what a header does not tell
THUMBNAIL_SIDE = 200
NOT_RASTER = "not a PNG, JPEG, GIF or WebP image: not shown"


def decode_image(data: Any, max_side: int | None = THUMBNAIL_SIDE) -> tuple[QImage, QSize, str]:
    """Decode base64 image data, scaled to fit `max_side` (None: full size).

    Returns (image, original size, error). Meant for a worker thread: only QImage
    and QImageReader are used, on a buffer in memory, with the one handler of the
    format the magic bytes name (no sniffing, no other plugin).
    """
    if not isinstance(data, str) or not data:
        return QImage(), QSize(), "no image data"
    if len(data) > MAX_IMAGE_BASE64:
        return QImage(), QSize(), f"image data too large to preview ({len(data) / 1e6:.0f} MB)"
    raw = QByteArray.fromBase64(QByteArray(data.encode("ascii", "ignore")))
    kind = raster_format(bytes(raw.left(16).data()))
    if kind is None:
        return QImage(), QSize(), NOT_RASTER
    buffer = QBuffer()
    buffer.setData(raw)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    try:
        return _read(QImageReader(buffer, QByteArray(kind)), max_side)
    finally:
        buffer.close()


def _read(reader: QImageReader, max_side: int | None) -> tuple[QImage, QSize, str]:
    reader.setAutoDetectImageFormat(False)
    reader.setDecideFormatFromContent(False)
    reader.setAllocationLimit(ALLOCATION_LIMIT_MB)
    size = reader.size()  # from the header alone
    if not size.isValid():
        return QImage(), QSize(), f"cannot decode image ({reader.errorString()})"
    if size.width() * size.height() > MAX_IMAGE_PIXELS:
        return QImage(), size, f"image too large to preview ({size.width()} × {size.height()} px)"
    if max_side and (size.width() > max_side or size.height() > max_side):
        reader.setScaledSize(size.scaled(max_side, max_side, Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    return image, size, "" if not image.isNull() else f"cannot decode image ({reader.errorString()})"


class _DecodeJob(Job):
    """Decodes one image: (QImage, its size, an error or ""). Tagged with the image's key."""

    failure_text = "cannot decode image"

    def __init__(self, key: str, data: str, max_side: int | None, signals: JobSignals) -> None:
        super().__init__(key, signals)
        self.data: str | None = data
        self.max_side = max_side

    def work(self) -> tuple[QImage, QSize, str]:
        data, self.data = self.data, None  # the job may outlive its answer: keep no megabytes
        return decode_image(data, self.max_side)


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
        self._signals = JobSignals(self)  # one for every decode: jobs come and go by the hundred
        self._signals.done.connect(self._done)
        self._signals.failed.connect(self._failed)
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

    def _failed(self, message: str, key: str) -> None:
        self._done((QImage(), QSize(), message), key)

    def _done(self, decoded: tuple[QImage, QSize, str], key: str) -> None:
        image, size, error = decoded
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
        fit_dialog(self, 800, 600)
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
        self.scroll_area = QScrollArea()
        self.scroll_area.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label = QLabel()
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll_area.setWidget(self.label)
        self.scroll_area.setWidgetResizable(True)
        layout.addWidget(self.scroll_area, 1)
        self._bytes = len(data) * 3 // 4
        self._key = loader.request(data, full=True)
        loader.ready.connect(self._ready)
        self._ready(self._key)

    def _ready(self, key: str) -> None:
        found = self._loader.get(key) if key == self._key else None
        if found is None:
            return
        image, _, error = found
        if error:
            self.info.setText(error)
        else:
            self._image = image
            self.info.setText(f"{image.width()} × {image.height()} px · {self._bytes / 1024:,.1f} KB")
            self._show()

    def _show(self) -> None:
        if self._image.isNull():
            return
        pixmap = QPixmap.fromImage(self._image)
        if self.fit.isChecked():
            area = self.scroll_area.viewport().size() - QSize(8, 8)
            if pixmap.width() > area.width() or pixmap.height() > area.height():
                pixmap = pixmap.scaled(area, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
        self.label.setPixmap(pixmap)

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.fit.isChecked():
            self._show()
