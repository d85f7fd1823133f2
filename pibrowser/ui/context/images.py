"""Images, decoded off the GUI thread and cached: thumbnails for cards, and the full-size viewer."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QSize, Qt, QThreadPool, Signal
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from .safe_text import THUMBNAIL_SIDE, decode_image, plain
from .widgets import plain_label
from ..control.job import Job, JobSignals


class _DecodeJob(Job):
    """Decodes one image: (QImage, its size, an error or ""). Tagged with the image's key."""

    failure_text = "cannot decode image"

    def __init__(self, key: str, data: str, max_side: int | None, signals: JobSignals) -> None:
        super().__init__(key, signals)
        self.data, self.max_side = data, max_side

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
            area = self.scroll.viewport().size() - QSize(8, 8)
            if pixmap.width() > area.width() or pixmap.height() > area.height():
                pixmap = pixmap.scaled(area, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
        self.label.setPixmap(pixmap)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.fit.isChecked():
            self._show()
