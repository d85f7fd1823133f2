"""Images from a session are decoded as raster formats only, chosen by their magic bytes, within limits.

Qt's SVG plugin follows `<image xlink:href>` to local files (a FIFO or /dev/tty would
hang the process with the GIL held); other plugins read formats nobody sends a model.
Only PNG, JPEG, GIF and WebP are decoded, by the format their first bytes name, whatever
the block's mimeType says.
"""

import base64
import gzip
import os
import struct
import subprocess
import sys
import zlib

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage

from pibrowser.ui.cards import images
from pibrowser.ui.cards.images import decode_image

GIF_1X1 = base64.b64decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")


def svg_naming(target: str) -> bytes:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
        f'<image xlink:href="{target}" width="10" height="10"/></svg>'
    ).encode()


def encoded(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def saved(kind: str, side: int = 6) -> bytes:
    image = QImage(side, side, QImage.Format.Format_RGB32)
    image.fill(0x336699)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert image.save(buffer, kind)
    buffer.close()
    return bytes(data)


@pytest.fixture(autouse=True)
def application(qapp):
    return qapp  # image plugins are loaded through the application


def png_declaring(width: int, height: int) -> bytes:
    """A valid 1-bit greyscale PNG of the given size, all black: small on disk, large in pixels."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    row = b"\x00" + bytes((width + 7) // 8)
    pixels = zlib.compress(row * height, 9)
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def test_an_svg_image_naming_a_fifo_is_never_opened(tmp_path):
    # Run apart: before the fix the decoder blocks forever in open() on the FIFO.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    script = (
        "import base64, sys\n"
        "from pibrowser.ui.cards.images import decode_image\n"
        "image, size, error = decode_image(sys.argv[1])\n"
        "print('null' if image.isNull() else 'decoded', error)\n"
    )
    try:
        result = subprocess.run(
            [sys.executable, "-c", script, encoded(svg_naming(str(fifo)))],
            capture_output=True,
            timeout=60,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        )
    except subprocess.TimeoutExpired:
        pytest.fail("decoding an SVG image block opened the FIFO it names")
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().startswith("null")


@pytest.mark.parametrize("mime", ["image/svg+xml", "image/png"])
def test_svg_is_refused_whatever_the_mime_type_says(tmp_path, mime):
    named = tmp_path / "secret.png"
    named.write_bytes(saved("PNG", 40))
    for data in (svg_naming(str(named)), gzip.compress(svg_naming(str(named)))):
        image, _, error = decode_image(encoded(data))
        assert image.isNull()
        assert "not a PNG, JPEG, GIF or WebP image" in error


@pytest.mark.parametrize("kind", ["BMP", "TIFF", "XPM", "PPM", "ICO"])
def test_formats_other_than_the_four_raster_ones_are_not_decoded(kind):
    image, _, error = decode_image(encoded(saved(kind)))
    assert image.isNull() and "not a PNG, JPEG, GIF or WebP image" in error


@pytest.mark.parametrize("data", [saved("PNG"), saved("JPEG"), saved("WEBP"), GIF_1X1], ids=["png", "jpeg", "webp", "gif"])
def test_png_jpeg_gif_and_webp_are_decoded(data):
    image, size, error = decode_image(encoded(data), max_side=None)
    assert error == "" and not image.isNull()
    assert size.width() == image.width() and size.height() == image.height()


def test_an_image_with_too_many_pixels_is_refused_before_it_is_decoded():
    side = 9000  # 81 million pixels in a file of a few kilobytes
    assert side * side > images.MAX_IMAGE_PIXELS
    data = png_declaring(side, side)
    assert len(data) < 100_000
    image, size, error = decode_image(encoded(data))
    assert image.isNull()
    assert (size.width(), size.height()) == (side, side)
    assert "too large" in error and "9000 × 9000" in error


def test_a_png_that_is_cut_short_gives_an_error_not_an_image():
    image, _, error = decode_image(encoded(saved("PNG", 64)[:40]))
    assert image.isNull() and error
