"""What the share tests share: the CLI's answers to compare the page with, and shared pages written once."""

from __future__ import annotations

import random
from pathlib import Path

from pibrowser.model.session.session import Session

from .cli_run import run


def cli_text(*args: str) -> str:
    """What `pibrowser ARGS…` prints (in this process)."""
    result = run(*args)
    assert result.returncode == 0, result.stderr
    return bytes(result.stdout).decode("utf-8")


def context_text(path: Path, key: str) -> str:
    return cli_text("context", str(path), "--leaf", key, "--format", "text")


def some_nodes(path: Path, count: int, seed: int = 33) -> list[str]:
    """`count` entries of the file at random (seeded), and its current leaf."""
    session = Session.load(path, lazy=False)
    keys = list(session.entries)
    chosen = random.Random(seed).sample(keys, min(count, len(keys)))
    return list(dict.fromkeys([*chosen, session.leaf_id]))
