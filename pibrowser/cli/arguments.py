"""The command line's arguments: one subparser per command, and the window's own options.

Only the subparser of the command being run is built (`command_parser`): building them all
takes longer than `pibrowser context` takes to resolve a small file.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import __version__

COMMANDS = (
    "context",
    "tree",
    "diff",
    "label",
    "sessions",
    "search",
    "extract",
    "timeline",
    "trace",
    "composition",
    "files",
    "graph",
    "upgrade",
    "usage",
    "share",
    "shares",
)


def command_parser(command: str) -> argparse.ArgumentParser:
    """The parser for a run of `command`: its own subparser alone is built (all of them take
    longer to build than `pibrowser context` takes to resolve a small file)."""
    parser = argparse.ArgumentParser(prog="pibrowser", description="Look inside pi session files.")
    parser.add_argument("--version", action="version", version=f"pibrowser {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _ARGUMENTS[command](sub)
    return parser


Subparsers = Any  # argparse names its subparsers' type privately


def _context_arguments(sub: Subparsers) -> None:
    context = sub.add_parser("context", help="the resolved context pi would send for a leaf")
    context.add_argument("file", type=Path)
    context.add_argument("--leaf", action="append", default=[], metavar="ID", help="entry to treat as the leaf (repeatable)")
    context.add_argument("--all", action="store_true", help="every entry, in file order")
    context.add_argument("--format", choices=("json", "text", "markdown"), default="json")


def _tree_arguments(sub: Subparsers) -> None:
    tree = sub.add_parser("tree", help="the branch tree")
    tree.add_argument("file", type=Path)
    tree.add_argument("--format", choices=("json", "text"), default="text")


def _diff_arguments(sub: Subparsers) -> None:
    diff = sub.add_parser(
        "diff",
        help="what differs for the model between two entries' contexts",
        description="json: {ancestor, shared, left, right, left_tokens, right_tokens}: the lowest common ancestor, "
        "the number of leading messages the same for the model (timestamps, usage and the like aside), pi's messages "
        "after them on each side, and pi's estimateTokens summed over those. text: a unified view.",
    )
    diff.add_argument("file", type=Path)
    diff.add_argument("left", metavar="LEFT")
    diff.add_argument("right", metavar="RIGHT")
    diff.add_argument("--format", choices=("json", "text"), default="json")


def _label_arguments(sub: Subparsers) -> None:
    label = sub.add_parser("label", help="set (or, without TEXT, clear) the label of an entry, as pi does")
    label.add_argument("file", type=Path)
    label.add_argument("target")
    label.add_argument("text", nargs="?")


def _sessions_arguments(sub: Subparsers) -> None:
    sessions = sub.add_parser("sessions", help="every session under a folder (pi's by default), newest first")
    sessions.add_argument("dir", nargs="?", type=Path, help="default: pi's sessions folder")
    sessions.add_argument("--format", choices=("json", "text"), default="text")


def _search_arguments(sub: Subparsers) -> None:
    search = sub.add_parser("search", help="full-text search across every session under a folder")
    search.add_argument("query", help='words (all must occur, whole words) and "quoted phrases"')
    search.add_argument("dir", nargs="?", type=Path, help="default: pi's sessions folder")
    search.add_argument("--format", choices=("json", "text"), default="text")
    search.add_argument("--role", action="append", default=[], help="user, assistant, toolResult, bashExecution, … (repeatable)")
    search.add_argument("--tool", action="append", default=[], metavar="NAME", help="tool name of the call or result (repeatable)")
    search.add_argument("--project", metavar="P", help="part of the project's folder (the session's cwd)")
    search.add_argument("--since", metavar="DATE", help="entries at or after DATE (2026-11-30 or an ISO time)")
    search.add_argument("--until", metavar="DATE", help="entries before DATE")
    search.add_argument("--limit", type=int, default=100, help="most hits to print (default 100, 0 for all)")


def _extract_arguments(sub: Subparsers) -> None:
    extract = sub.add_parser(
        "extract", help="write the branch root…NODE as a new session file, as pi's createBranchedSession does; prints its path"
    )
    extract.add_argument("file", type=Path)
    extract.add_argument("node")
    extract.add_argument("--output", type=Path, metavar="DIR", help="folder for the new file (default: the original's folder)")


LEAF_HELP = "the path's last entry (default: the current leaf)"


def _path_command(sub: Subparsers, name: str, formats: tuple[str, ...], **described: str) -> None:
    """A command on one path of a file: FILE, --leaf ID and --format (the first format the default)."""
    command = sub.add_parser(name, **described)
    command.add_argument("file", type=Path)
    command.add_argument("--leaf", metavar="ID", help=LEAF_HELP)
    command.add_argument("--format", choices=formats, default=formats[0])


def _timeline_arguments(sub: Subparsers) -> None:
    _path_command(
        sub,
        "timeline",
        ("json", "csv"),
        help="pi's context-size estimate at every entry from the root to a leaf, with the recorded input tokens",
    )


def _trace_arguments(sub: Subparsers) -> None:
    _path_command(
        sub,
        "trace",
        ("json", "text"),
        help="the path as pi ran it: runs, turns, tool calls, with times, usage and errors",
        description="json: one row per entry on the path {entry, run, turn, kind, start, duration_ms, model, thinking, "
        "input, output, cache_read, cache_write, cost, stop_reason, error, tool}. text: an aligned table, then the "
        "totals of each run and of the path. What each time means: docs/trace.md.",
    )


def _composition_arguments(sub: Subparsers) -> None:
    composition = sub.add_parser(
        "composition",
        help="what the context pi would send at a node is made of, in pi's estimate (characters / 4)",
        description="json: {kind: {chars, tokens}}. A kind's tokens are its characters / 4; pi rounds up once per "
        'message, and what that adds is the kind "rounding": the tokens add up to pi\'s estimate.',
    )
    composition.add_argument("file", type=Path)
    composition.add_argument("id", nargs="?", metavar="ID", help="the node (default: the current leaf)")
    composition.add_argument("--format", choices=("json", "text"), default="json")


def _files_arguments(sub: Subparsers) -> None:
    _path_command(
        sub,
        "files",
        ("json", "text"),
        help="the files the path's tool calls read and changed, as pi's compaction lists them",
        description="json: {read_files, modified_files, calls: [{path, op, entry, tool_call_id}]}: pi's computeFileLists "
        "over extractFileOpsFromMessage of every message entry from the root to the node.",
    )


def _graph_arguments(sub: Subparsers) -> None:
    from .graph_command import FORMATS

    graph = sub.add_parser(
        "graph",
        help="the session as a graph file for Gephi, yEd or Cytoscape: entries as nodes (type, role, time, label, tokens), parent → child",
    )
    graph.add_argument("file", type=Path)
    graph.add_argument("--format", choices=FORMATS, default="graphml")


def _upgrade_arguments(sub: Subparsers) -> None:
    upgrade = sub.add_parser(
        "upgrade",
        help="rewrite a version 1 or 2 session in pi's current format, as pi would (with the ids pibrowser shows); "
        "the original is kept as FILE.v1.bak",
    )
    upgrade.add_argument("file", type=Path)


def _usage_arguments(sub: Subparsers) -> None:
    from ..model.usage.grouping import GROUPINGS

    usage = sub.add_parser(
        "usage",
        help="tokens and cost pi recorded across every session under a folder, by day, week, month, project, model or session",
        description='json: {"by", "rows": [{"key", "replies", "input", "output", "cache_read", "cache_write", "cost"}], '
        '"total": {...}}, rows by cost, largest first. A reply a fork, a /clone or an extracted branch copied into '
        "another file is counted once. Usage is read once and cached; a grown file is read on from where it was.",
    )
    usage.add_argument("folder", nargs="?", type=Path, metavar="FOLDER", help="default: pi's sessions folder")
    usage.add_argument("--by", choices=GROUPINGS, default="day")
    usage.add_argument("--since", metavar="DATE", help="usage at or after DATE (2026-11-30, its midnight in --tz, or an ISO time)")
    usage.add_argument("--until", metavar="DATE", help="usage before DATE")
    usage.add_argument("--project", metavar="P", help="part of the project's folder (the session's cwd), any case")
    usage.add_argument("--tz", metavar="ZONE", help="the time zone days are counted in: UTC (default), local, Europe/Berlin, +05:30")
    usage.add_argument("--format", choices=("text", "json", "csv"), default="text")


def _share_arguments(sub: Subparsers) -> None:
    from .share_command import share_arguments

    share_arguments(sub)


def _shares_arguments(sub: Subparsers) -> None:
    from .share_command import shares_arguments

    shares_arguments(sub)


# Every command's arguments.
_ARGUMENTS: dict[str, Callable[[Subparsers], None]] = {
    "context": _context_arguments,
    "tree": _tree_arguments,
    "diff": _diff_arguments,
    "label": _label_arguments,
    "sessions": _sessions_arguments,
    "search": _search_arguments,
    "extract": _extract_arguments,
    "timeline": _timeline_arguments,
    "trace": _trace_arguments,
    "composition": _composition_arguments,
    "files": _files_arguments,
    "graph": _graph_arguments,
    "upgrade": _upgrade_arguments,
    "usage": _usage_arguments,
    "share": _share_arguments,
    "shares": _shares_arguments,
}


def app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pibrowser",
        description="Browse pi sessions: the branch tree and the context pi resolves for any node. "
        "Commands: context, tree, diff, label, sessions, search, extract, timeline, trace, composition, files, graph, upgrade, usage, share, shares "
        "(see `pibrowser context --help`).",
    )
    parser.add_argument("--version", action="version", version=f"pibrowser {__version__}")
    parser.add_argument("path", nargs="?", type=Path, help="a session file or a sessions folder")
    parser.add_argument("--screenshot", type=Path, metavar="OUT.png", help="render the window offscreen to a PNG and exit")
    parser.add_argument("--select", metavar="ID", help="entry to select (with --screenshot)")
    parser.add_argument("--compare", nargs=2, metavar=("LEFT", "RIGHT"), help="compare two entries (with --screenshot)")
    parser.add_argument("--size", default="1400x900", metavar="WxH", help="window size for --screenshot")
    parser.add_argument("--theme", choices=("system", "light", "dark"), help="colours for this run (View ▸ Theme chooses for good)")
    parser.add_argument(
        "--install-desktop-entry",
        action="store_true",
        help="add pibrowser to the desktop's launcher (and as a handler of .jsonl files) for this user, then exit",
    )
    return parser
