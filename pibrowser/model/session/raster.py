"""Which raster format an image's first bytes name: the only images pibrowser shows (PNG, JPEG,
GIF, WebP), chosen by magic bytes and never by the mime type a session claims (an SVG names
files to fetch; the window's decoder and the shared page both ask here)."""

from __future__ import annotations


def raster_format(head: bytes) -> bytes | None:
    """The raster format that data's first bytes name (Qt's name for it); None for anything else."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return b"png"
    if head.startswith(b"\xff\xd8\xff"):
        return b"jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return b"gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return b"webp"
    return None
