"""A generated sessions folder as pi lays it out: two projects, a fork, files that are not sessions."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .sessions import HEADER, entry, message, write

ALPHA, BETA = "/home/me/alpha", "/home/me/beta"


@dataclass
class Tree:
    root: Path
    parent: Path  # alpha: the session the fork was made from
    fork: Path  # alpha: parentSession names `parent`
    other: Path  # beta: a plain session
    broken: Path  # beta: lines pi skips, a half-written last line
    garbage: Path
    empty: Path
    headerless: Path


def header(session_id: str, cwd: str, **fields) -> dict:
    return {**HEADER, "id": session_id, "cwd": cwd, **fields}


def build(root: Path) -> Tree:
    alpha = root / "--home-me-alpha--"
    beta = root / "--home-me-beta--"
    alpha.mkdir(parents=True)
    beta.mkdir(parents=True)
    parent = write(
        alpha / "2026-11-01T10-00-00-000Z_p1.jsonl",
        message("u1", None, "user", "Please refactor the parser module", second=1),
        message(
            "a1",
            "u1",
            "assistant",
            [
                {"type": "thinking", "thinking": "The lexer feeds the parser"},
                {"type": "text", "text": "Looking at the sources first"},
                {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "grep -rn tokenizer src"}},
            ],
            second=2,
            provider="p",
            model="m1",
            usage={"input": 100, "output": 20, "cacheRead": 0, "cacheWrite": 0, "cost": {"total": 0.5}},
        ),
        message(
            "t1",
            "a1",
            "toolResult",
            [{"type": "text", "text": "src/lexer.py: def tokenizer_state()"}],
            second=3,
            toolCallId="c1",
            toolName="bash",
            isError=False,
        ),
        message("a2", "t1", "assistant", [{"type": "text", "text": "The parser is refactored"}], second=4, provider="p", model="m1"),
        entry("label", "l1", "a2", 5, targetId="u1", label="zebra checkpoint"),
        entry("session_info", "n1", "l1", 6, name="Parser work"),
        header=header("p1", ALPHA),
    )
    fork = write(
        alpha / "2026-11-02T10-00-00-000Z_f1.jsonl",
        message("u1", None, "user", "Please refactor the parser module", second=1),
        message("u9", "u1", "user", "Now talk about giraffes instead", second=61),
        header=header("f1", ALPHA, parentSession=str(parent)),
    )
    other = write(
        beta / "2026-11-03T10-00-00-000Z_o1.jsonl",
        message("u1", None, "user", "The giraffe eats leaves", second=1),
        message(
            "a1",
            "u1",
            "assistant",
            [{"type": "text", "text": "Giraffes are tall"}],
            second=2,
            provider="p",
            model="m1",
            usage={"input": 5, "output": 5, "cacheRead": 0, "cacheWrite": 0, "cost": {"total": 0.25}},
        ),
        message("b1", "a1", "bashExecution", None, second=3, command="ls savanna", output="acacia.txt", exitCode=0),
        header=header("o1", BETA),
    )
    broken = write(
        beta / "2026-11-04T10-00-00-000Z_b1.jsonl",
        message("u1", None, "user", "Count the flamingos", second=1),
        b'{"type":"message","id":"x1","parentId":"u1","timestamp":"garbled',
        message("a1", "u1", "assistant", [{"type": "text", "text": "Pink flamingos everywhere"}], second=7, provider="p", model="m1"),
        b'{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-10-30T09:00:09.000Z","message":{"role":"assistant","content":"half-written walrus',
        header=header("b1", BETA),
        newline_at_end=False,
    )
    garbage = root / "garbage.jsonl"
    garbage.write_bytes(b"this is not json at all\n\x00\xff\n")
    empty = root / "empty.jsonl"
    empty.write_bytes(b"")
    headerless = write(beta / "headerless.jsonl", message("u1", None, "user", "no header ostrich"), header=None)
    # Modification times in a known order; "modified" itself comes from the messages, as in pi.
    for offset, path in enumerate((parent, fork, other, broken, garbage, empty, headerless)):
        os.utime(path, (1_700_000_000 + offset, 1_700_000_000 + offset))
    return Tree(root, parent, fork, other, broken, garbage, empty, headerless)
