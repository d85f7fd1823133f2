"""The shared page written: one HTML file that opens from disk with no network.

The template, script and style are package data (`page/`). The page's own script and
style are allowed by their hashes in its Content-Security-Policy, which forbids every
other script, style, fetch, frame, form and base; images are allowed only as data: URIs.
The session's data rides in `<script type="application/json">` elements, which are
never run, with every `<` written as \\u003c so that no text in it can end the element: the
main table first, then the page's script, then the messages in chunks, so that the tree is
usable while the browser still reads the messages.
The file is written beside its destination and renamed into place: a failure leaves
nothing half written.
"""

from __future__ import annotations

import base64
import hashlib
import html
import os
import tempfile
import threading
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from queue import Queue
from typing import Any, BinaryIO

import orjson

from ..js.stringify import dump_json
from ..js.value import to_well_formed
from .page_data import PageData

_PAGE = files(__package__) / "page"


def _asset(name: str) -> str:
    return (_PAGE / name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def content_security_policy(script: str, style: str) -> str:
    """Nothing but the page's own script and style, and data: images: no fetch of any kind."""
    return f"default-src 'none'; script-src {_hash(script)}; style-src {_hash(style)}; img-src data:; base-uri 'none'; form-action 'none'"


def _json(value: object) -> bytes:
    try:
        written = orjson.dumps(value)
    except TypeError:  # a lone surrogate (what a JS slice leaves of a character): written as an escape, as JSON.stringify does
        written = dump_json(value)
    return written.replace(b"<", b"\\u003c")


def page_parts(data: PageData) -> Iterator[bytes]:
    """The page's bytes, a piece at a time (a 100,000-entry session is never one string in memory)."""
    script, style = _asset("page.js"), _asset("page.css")
    head, tail = _asset("page.html").split("{{DATA}}")
    head = (
        head.replace("{{CSP}}", html.escape(content_security_policy(script, style)))
        .replace("{{TITLE}}", html.escape(to_well_formed(str(data.main.get("title", "")))))
        .replace("{{STYLE}}", style)
    )
    yield head.encode("utf-8")
    yield b'<script type="application/json" id="data">'
    yield _json(data.main)
    yield b"</script>\n"
    # The script comes before the messages' chunks: the tree is usable while the browser still reads them.
    yield f"<script>{script}</script>\n".encode()
    for index, chunk in enumerate(data.chunks):
        yield f'<script type="application/json" id="c{index}">'.encode()
        yield _json(chunk)
        yield b"</script>\n"
    yield tail.encode("utf-8")


def write_page(data: PageData, out: Path) -> tuple[str, int]:
    """Write the page to `out` (through a temporary file beside it); its SHA-256 and size."""
    folder = out.parent if str(out.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            digest, size = _hashed_and_written(page_parts(data), stream)
        os.chmod(temporary, 0o644)
        os.replace(temporary, out)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return digest.hexdigest(), size


def _hashed_and_written(parts: Iterator[bytes], stream: BinaryIO) -> tuple[Any, int]:
    """Hash and write each part in a second thread while this one makes the next: hashing and writing
    let go of the interpreter lock, so on a second core they cost the page no time. Its SHA-256 and size."""
    digest = hashlib.sha256()
    waiting: Queue[bytes | None] = Queue(maxsize=64)
    failed: list[BaseException] = []

    def hash_and_write() -> None:
        while (part := waiting.get()) is not None:
            if failed:
                continue  # taken and dropped: the maker must not wait on a full queue
            try:
                digest.update(part)
                stream.write(part)
            except BaseException as error:  # noqa: BLE001 (raised in the maker's thread below)
                failed.append(error)

    writer = threading.Thread(target=hash_and_write, name="share-page-writer", daemon=True)
    writer.start()
    size = 0
    try:
        for part in parts:
            size += len(part)
            waiting.put(part)
    finally:
        waiting.put(None)
        writer.join()
    if failed:
        raise failed[0]
    return digest, size
