"""What the share tests share: the CLI's answers to compare the page with, and shared pages written once."""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

from pibrowser.cli.main import main
from pibrowser.model.session.session import Session


def cli_text(*args: str) -> str:
    """What `pibrowser ARGS…` prints (in this process)."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(out):
        assert main(list(args)) == 0
    out.flush()
    return out.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined]


def context_text(path: Path, key: str) -> str:
    return cli_text("context", str(path), "--leaf", key, "--format", "text")


def some_nodes(path: Path, count: int, seed: int = 33) -> list[str]:
    """`count` entries of the file at random (seeded), and its current leaf."""
    session = Session.load(path, lazy=False)
    keys = list(session.entries)
    chosen = random.Random(seed).sample(keys, min(count, len(keys)))
    return list(dict.fromkeys([*chosen, session.leaf_id]))
