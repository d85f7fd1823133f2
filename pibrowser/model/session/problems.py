"""What went wrong in a file that still loads, and why a file did not load."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in a session file that pi would skip or that cannot be followed."""

    path: Path
    line: int | None  # 1-based physical line; None for problems of the whole file
    reason: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else str(self.path)
        return f"{where}: {self.reason}"


class NeedsReload(Exception):
    """The file changed in a way that appending cannot describe: it must be read again."""


class SessionLoadError(Exception):
    """The file cannot be opened as a pi session at all."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = Path(path)
        self.reason = reason
