"""Differential check of the file lists and the composition against pi 1.6.0 itself.

pi's answers come from tests/pi/pi_files_answers.mjs (pi's extractFileOpsFromMessage and
computeFileLists over getBranch(id); pi's estimateTokens, with each message's characters split
by kind). Runs when Node.js 22+ and the pi 1.6.0 package are on the machine (PIBROWSER_NODE,
PIBROWSER_PI_DIR; see test_against_pi.py), skipped otherwise. The inputs: every shared fixture
(the v1 file included: the script opens a copy, which pi migrates), the demo, an edge-case
session (tests/pi/files-edge.jsonl) and sessions pi's own SessionManager writes here.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import orjson
import pytest

from pibrowser.model import Session, resolve
from pibrowser.model.context.file_lists import file_operations
from pibrowser.model.tokens.composition import context_composition, counted_messages
from pibrowser.model.tokens.message_tokens import message_parts
from pibrowser.model.workspace import Workspace

from .conftest import DEMO, FIXTURES
from .pi.locate import PI_VERSION, node_binary, pi_files_each_command, pi_package

EDGE = Path(__file__).parent / "pi" / "files-edge.jsonl"
NODE = node_binary()
PI_DIR = pi_package() if NODE else None
pytestmark = [
    pytest.mark.skipif(PI_DIR is None, reason=f"needs Node.js >= 22 and pi {PI_VERSION} (PIBROWSER_NODE, PIBROWSER_PI_DIR)"),
    pytest.mark.xdist_group("pi"),  # beside test_against_pi, which writes pi's sessions
]


_LINES: dict[tuple[str, tuple[Path, ...]], dict[Path, list[dict]]] = {}


def pi_lines(mode: str, session_files: list[Path]) -> dict[Path, list[dict]]:
    """pi's lines for every entry of every file, asked in one process (pi's code loads once, not
    once a file) and kept for the tests that ask again."""
    key = (mode, tuple(session_files))
    if key not in _LINES:
        before = [path.read_bytes() for path in session_files]
        result = subprocess.run(pi_files_each_command(NODE, PI_DIR, mode, session_files), capture_output=True, timeout=900)
        assert result.returncode == 0, result.stderr.decode()
        assert [path.read_bytes() for path in session_files] == before  # the script works on copies
        _LINES[key] = dict(zip(session_files, map(orjson.loads, result.stdout.splitlines()), strict=True))
    return _LINES[key]


def inputs(pi_written: list[Path]) -> list[Path]:
    shared = sorted(FIXTURES.glob("*.jsonl")) + sorted((FIXTURES / "bytes").glob("*.jsonl"))
    return [*shared, DEMO, EDGE, *pi_written]


def answers_by_entry(mode: str, session_file: Path, session_files: list[Path]) -> list[tuple[dict, object]]:
    """pi's line for every entry of `session_file` (one of `session_files`, asked together) in file
    order, beside our entry (a v1 file's ids are minted anew by each migration, so lines are paired
    by place, not id)."""
    session = Session.load(session_file, lazy=False)
    lines = pi_lines(mode, session_files)[session_file]
    pairs = list(zip(lines, session.file_order, strict=True))
    migrated = orjson.loads(session_file.read_bytes().split(b"\n", 1)[0]).get("version") != 3
    for line, entry in pairs:
        assert migrated or line["id"] == entry.id, session_file.name
    return [(line, session, entry) for line, entry in pairs]


def test_every_nodes_file_lists_are_pis(pi_written_sessions):
    checked = touched = 0
    for session_file in inputs(pi_written_sessions):
        for line, session, entry in answers_by_entry("files", session_file, inputs(pi_written_sessions)):
            ours = file_operations(session.path_entries(entry.id))
            assert (ours.read_files, ours.modified_files) == (line["read_files"], line["modified_files"]), (session_file.name, entry.id)
            checked += 1
            touched += bool(ours.read_files or ours.modified_files)
    assert touched > 100 and checked > touched  # the inputs do read and change files, and not everywhere


def test_every_nodes_composition_adds_up_to_pis_estimate(pi_written_sessions):
    """What the window shows of every node (the workspace's context and composition, folded along
    the paths) against pi's own count; the fold and the composition's sums are held to the full
    statement by their own tests, and the full statement to pi here at the leaves."""
    for session_file in inputs(pi_written_sessions):
        parts_of = _PartsOf()  # a message on many paths is split into kinds once
        workspace = Workspace()
        for line, session, entry in answers_by_entry("composition", session_file, inputs(pi_written_sessions)):
            if workspace.session is not session:
                workspace.replace(session)
            context = workspace.context(entry.id)
            composition = workspace.composition(entry.id)
            if entry.id == session.leaf_id:
                assert composition == context_composition(resolve(session, entry.id)), session_file.name
            # pi's counted messages: the folded system message, then every other message.
            theirs = ([line["current_system"]] if line["current_system"] else []) + [
                message for message in line["messages"] if message["role"] != "system"
            ]
            ours = [parts_of(message) for message in counted_messages(context.messages)]
            assert ours == [_nonzero(message["parts"]) for message in theirs], (session_file.name, entry.id)
            # Every kind's characters add up to what pi counts, and the shares to pi's total.
            assert composition.total_chars == sum(message["chars"] for message in theirs)
            assert composition.tokens == line["estimated_total"] == sum(message["tokens"] for message in theirs)
            assert sum(tokens for _, _, tokens in composition.shares()) == composition.tokens


class _PartsOf:
    """message_parts of a message, its zeros left out, worked out once per message object (the
    contexts along a path share their messages: each node's check would split them all again)."""

    def __init__(self) -> None:
        self._done: dict[int, tuple[object, dict[str, int]]] = {}

    def __call__(self, message: dict) -> dict[str, int]:
        done = self._done.get(id(message))
        if done is None or done[0] is not message:
            done = self._done[id(message)] = (message, _nonzero(message_parts(message)))
        return done[1]


def _nonzero(parts: dict[str, int]) -> dict[str, int]:
    return {kind: chars for kind, chars in parts.items() if chars}
