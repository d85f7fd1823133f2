"""A message's images as the shared page shows them: data: URIs, only for PNG, JPEG, GIF or WebP
as their first bytes say (session/raster.py), never what the message's mime type claims."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from ..session.content import BlockKind, ContentShape, block_kind, content_shape
from ..session.raster import raster_format

MAX_IMAGE_BASE64 = 64 * 1024 * 1024  # as the window: larger data is not shown
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_MIME = {b"png": "image/png", b"jpeg": "image/jpeg", b"gif": "image/gif", b"webp": "image/webp"}


def message_images(message: Any) -> list[str]:
    """The message's images as data: URIs, each only when its bytes are PNG, JPEG, GIF or WebP."""
    if not isinstance(message, dict):
        return []
    content = message.get("content")
    if content_shape(content) is not ContentShape.BLOCKS or not isinstance(content, list):
        return []
    found = []
    for block in content:
        if block_kind(block) is not BlockKind.IMAGE:
            continue
        data = block.get("data")
        if not isinstance(data, str) or len(data) > MAX_IMAGE_BASE64 or not _BASE64.fullmatch(data):
            continue
        try:
            head = base64.b64decode(data[:24], validate=True)
        except (binascii.Error, ValueError):
            continue
        kind = raster_format(head)
        if kind is not None:
            found.append(f"data:{_MIME[kind]};base64,{data}")
    return found
