"""What every command writes and checks the same way: bytes to stdout, text made safe for a
terminal, and the ids a command is given checked against the file."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..model.session.problems import SessionLoadError

if TYPE_CHECKING:
    from ..model.session.path_index import PathIndex
    from ..model.session.session import Session


def write(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def text(value: str) -> bytes:
    """Text for people, its control characters shown, never obeyed by the terminal (JSON is pi's, byte for byte)."""
    from ..model.text.terminal_text import visible

    return visible(value).encode("utf-8")


def check_known(session: Session | PathIndex, keys: list[str | None]) -> None:
    """A SessionLoadError naming the first of `keys` the file has no entry for."""
    unknown = [key for key in keys if key is not None and key not in session]
    if unknown:
        raise SessionLoadError(session.path, f"no entry with id {unknown[0]!r}")
