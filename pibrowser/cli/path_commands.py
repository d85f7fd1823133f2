"""`pibrowser trace`, `composition` and `files`: what one path of a session did, holds and touched."""

from __future__ import annotations

import argparse
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

# Imported where each command runs: `pibrowser context` builds this parser and needs none of it.
if TYPE_CHECKING:
    from ..model.session.path_index import PathIndex
    from ..model.session.session import Session

Write = Callable[[bytes], None]
COMMANDS = ("trace", "composition", "files")


def add_parser(sub: Any, command: str) -> None:  # argparse names its subparsers' type privately
    """The subparser of `command`, one of COMMANDS."""
    {"trace": _trace_arguments, "composition": _composition_arguments, "files": _files_arguments}[command](sub)


def _trace_arguments(sub: Any) -> None:
    trace = sub.add_parser(
        "trace",
        help="the path as pi ran it: runs, turns, tool calls, with times, usage and errors",
        description="json: one row per entry on the path {entry, run, turn, kind, start, duration_ms, model, thinking, "
        "input, output, cache_read, cache_write, cost, stop_reason, error, tool}. text: an aligned table, then the "
        "totals of each run and of the path. What each time means: docs/trace.md.",
    )
    trace.add_argument("file", type=Path)
    trace.add_argument("--leaf", metavar="ID", help="the path's last entry (default: the current leaf)")
    trace.add_argument("--format", choices=("json", "text"), default="json")


def _composition_arguments(sub: Any) -> None:
    composition = sub.add_parser(
        "composition",
        help="what the context pi would send at a node is made of, in pi's estimate (characters / 4)",
        description="json: {kind: {chars, tokens}}. A kind's tokens are its characters / 4; pi rounds up once per "
        'message, and what that adds is the kind "rounding": the tokens add up to pi\'s estimate.',
    )
    composition.add_argument("file", type=Path)
    composition.add_argument("id", nargs="?", metavar="ID", help="the node (default: the current leaf)")
    composition.add_argument("--format", choices=("json", "text"), default="json")


def _files_arguments(sub: Any) -> None:
    files = sub.add_parser(
        "files",
        help="the files the path's tool calls read and changed, as pi's compaction lists them",
        description="json: {read_files, modified_files, calls: [{path, op, entry, tool_call_id}]}: pi's computeFileLists "
        "over extractFileOpsFromMessage of every message entry from the root to the node.",
    )
    files.add_argument("file", type=Path)
    files.add_argument("--leaf", metavar="ID", help="the path's last entry (default: the current leaf)")
    files.add_argument("--format", choices=("json", "text"), default="json")


def run_path_command(args: argparse.Namespace, write: Write, check_known: Callable) -> int:
    """Run one of COMMANDS on the path to the chosen node (a clean file is indexed, not loaded)."""
    from ..model.session.path_index import PathIndex
    from ..model.session.session import Session

    source = PathIndex.scan(args.file)
    if source is None:
        source = Session.load(args.file, lazy=False)
    try:
        leaf = (args.id if args.command == "composition" else args.leaf) or source.leaf_id
        check_known(source, [leaf])
        if args.command == "trace":
            _trace(source, leaf, args.format, write)
        elif args.command == "composition":
            _composition(source, leaf, args.format, write)
        else:
            _files(source, leaf, args.format, write)
    finally:
        if isinstance(source, PathIndex):
            source.close()
    return 0


def _trace(source: Session | PathIndex, leaf: str | None, form: str, write: Write) -> None:
    from ..model.trace.build import trace_with_facts
    from ..model.trace.rows import rows_json, rows_text, trace_rows

    path = list(source.path_entries(leaf)) if leaf is not None else []
    trace, facts = trace_with_facts(path)
    rows = trace_rows(trace, facts.__getitem__)
    write(rows_json(rows) + b"\n" if form == "json" else rows_text(trace, rows).encode("utf-8"))


def _composition(source: Session | PathIndex, leaf: str | None, form: str, write: Write) -> None:
    from ..model.context.resolve import resolve
    from ..model.js.stringify import dump_json
    from ..model.text.terminal_text import one_line, pad
    from ..model.tokens.composition import context_composition, kind_name

    composition = context_composition(resolve(source, leaf))
    if form == "json":
        write(dump_json(composition.to_json()) + b"\n")
        return
    total = composition.tokens or 1
    lines = [f"{pad('kind', 36)}  {'chars':>12}  {'tokens':>12}  share"]
    for kind, chars, tokens in composition.shares():
        lines.append(f"{pad(one_line(kind_name(kind), 36), 36)}  {chars:>12,}  {tokens:>12,.2f}  {tokens / total:6.1%}")
    lines.append(f"{pad('total (pi: ceil(chars / 4) per message)', 36)}  {composition.total_chars:>12,}  {composition.tokens:>12,}")
    write(("\n".join(lines) + "\n").encode("utf-8"))


def _files(source: Session | PathIndex, leaf: str | None, form: str, write: Write) -> None:
    from ..model.context.files import file_operations
    from ..model.js.stringify import dump_json
    from ..model.text.terminal_text import one_line

    found = file_operations(source.path_entries(leaf) if leaf is not None else [])
    if form == "json":
        write(dump_json(found.to_json()) + b"\n")
        return
    lines = []
    for title, paths in (("modified", found.modified_files), ("read", found.read_files)):
        lines.append(f"{title} ({len(paths):,}):")
        for path in paths:
            calls = ", ".join(f"{call.op} in {call.entry}" for call in found.calls_for(path))
            lines.append(f"  {one_line(path)}    {one_line(calls, 120)}")
    write(("\n".join(lines) + "\n").encode("utf-8"))
