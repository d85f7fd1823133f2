"""How a run of pibrowser ends when it fails: one line on stderr, exit status 1 (the window's start-up uses it too)."""

from __future__ import annotations

import sys


def fail(message: str) -> int:
    """The one line on stderr that ends a failed run (it quotes file names and ids: shown, not obeyed)."""
    from .model.text.terminal_text import visible_line  # a run that does not fail never needs it

    print(f"pibrowser: {visible_line(message)}", file=sys.stderr)
    return 1
