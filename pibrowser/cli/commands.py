"""Every command of `pibrowser COMMAND`, in one table: its name, what it does, its arguments, its runner.

Only the subparser of the command being run is built (`command_parser`): building them all
takes longer than `pibrowser context` takes to resolve a small file. A runner is named as
"module:function" under pibrowser.cli and imported when its command runs, so a command
imports only what it needs (`context`, timed against pi, least of all).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

from .. import __version__

Arguments = Callable[[argparse.ArgumentParser], None]


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    arguments: Arguments  # adds the command's arguments to its own parser
    runner: str  # "module:function" under pibrowser.cli: function(args) -> exit status
    description: str | None = None

    def run(self, args: argparse.Namespace) -> int:
        module, function = self.runner.split(":")
        return getattr(import_module(f"{__package__}.{module}"), function)(args)


def parse_command(argv: list[str]) -> argparse.Namespace:
    """The arguments of a run of command `argv[0]`: its own subparser alone is built, and it is
    the one that says what is wrong (an unknown option prints the command's usage, not the list
    of commands)."""
    parser = argparse.ArgumentParser(prog="pibrowser", description="Look inside pi session files.")
    parser.add_argument("--version", action="version", version=f"pibrowser {__version__}")
    command = COMMANDS[argv[0]]
    sub = parser.add_subparsers(dest="command", required=True)
    own = sub.add_parser(command.name, help=command.help, description=command.description)
    command.arguments(own)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        own.error(f"unrecognized arguments: {' '.join(unknown)}")
    _take_old_node(args, own)
    return args


# ---- each command's arguments -------------------------------------------------------------------

LEAF_HELP = "the path's last entry (default: the current leaf)"
FILE_HELP = "a pi session file (.jsonl)"
_OLD_NODE = "old_node"  # the node given as a bare argument, as `composition FILE ID` took it once


def _file(*formats: str) -> Arguments:
    """FILE, and --format among `formats` (the first the default) when there are any."""

    def add(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("file", type=Path, help=FILE_HELP)
        if formats:
            parser.add_argument("--format", choices=formats, default=formats[0])

    return add


def _path(*formats: str, leaf_help: str = LEAF_HELP, required: bool = False) -> Arguments:
    """A command on one path of a file: FILE, --leaf ID and --format. The node may also come
    bare after FILE, unlisted in the help, so scripts written for that form keep working."""

    def add(parser: argparse.ArgumentParser) -> None:
        _file(*formats)(parser)
        parser.add_argument(_OLD_NODE, nargs="?", help=argparse.SUPPRESS)
        parser.add_argument("--leaf", metavar="ID", help=leaf_help)
        parser.set_defaults(leaf_required=required)

    return add


def _take_old_node(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """`--leaf ID` from the bare form; a node given both ways, or a required one missing, is a usage error."""
    old = getattr(args, _OLD_NODE, None)
    if old is not None:
        if args.leaf is not None:
            parser.error(f"the node is given twice ({old!r} and --leaf {args.leaf!r}): give it once, as --leaf ID")
        args.leaf = old
    if getattr(args, "leaf_required", False) and args.leaf is None:
        parser.error("the following arguments are required: --leaf ID")


def _context(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help=FILE_HELP)
    parser.add_argument("--leaf", action="append", default=[], metavar="ID", help="entry to treat as the leaf (repeatable)")
    parser.add_argument("--all", action="store_true", help="every entry, in file order")
    parser.add_argument("--format", choices=("json", "text", "markdown"), default="json")


def _diff(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help=FILE_HELP)
    parser.add_argument("left", metavar="LEFT", help="the id of one entry")
    parser.add_argument("right", metavar="RIGHT", help="the id of the entry to compare it with")
    parser.add_argument("--format", choices=("json", "text"), default="json")


def _label(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help=FILE_HELP)
    parser.add_argument("target", metavar="TARGET", help="the id of the entry to label")
    parser.add_argument("text", nargs="?", metavar="TEXT", help='the label; leave it out (or give "") to clear the entry\'s label')


def _sessions(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", nargs="?", type=Path, help="default: pi's sessions folder")
    parser.add_argument("--format", choices=("json", "text"), default="text")


def _search(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", help='words (all must occur, whole words) and "quoted phrases"')
    _sessions(parser)
    parser.add_argument("--role", action="append", default=[], help="user, assistant, toolResult, bashExecution, … (repeatable)")
    parser.add_argument("--tool", action="append", default=[], metavar="NAME", help="tool name of the call or result (repeatable)")
    parser.add_argument("--project", metavar="P", help="part of the project's folder (the session's cwd)")
    parser.add_argument("--since", metavar="DATE", help="entries at or after DATE (2026-11-30 or an ISO time)")
    parser.add_argument("--until", metavar="DATE", help="entries before DATE")
    parser.add_argument("--limit", type=int, default=100, help="most hits to print (default 100, 0 for all)")


def _extract(parser: argparse.ArgumentParser) -> None:
    _path(leaf_help="the last entry of the branch to write", required=True)(parser)
    parser.add_argument("--output", type=Path, metavar="DIR", help="folder for the new file (default: the original's folder)")


def _graph(parser: argparse.ArgumentParser) -> None:
    from .graph_command import FORMATS

    _file(*FORMATS)(parser)


def _usage(parser: argparse.ArgumentParser) -> None:
    from ..model.usage.periods import GROUPINGS

    parser.add_argument("folder", nargs="?", type=Path, metavar="FOLDER", help="default: pi's sessions folder")
    parser.add_argument("--by", choices=GROUPINGS, default="day")
    parser.add_argument("--since", metavar="DATE", help="usage at or after DATE (2026-11-30, its midnight in --tz, or an ISO time)")
    parser.add_argument("--until", metavar="DATE", help="usage before DATE")
    parser.add_argument("--project", metavar="P", help="part of the project's folder (the session's cwd), any case")
    parser.add_argument("--tz", metavar="ZONE", help="the time zone days are counted in: UTC (default), local, Europe/Berlin, +05:30")
    parser.add_argument("--format", choices=("text", "json", "csv"), default="text")


def _share(parser: argparse.ArgumentParser) -> None:
    from .share_command import share_arguments

    share_arguments(parser)


def _shares(parser: argparse.ArgumentParser) -> None:
    from .share_command import shares_arguments

    shares_arguments(parser)


# ---- the table -----------------------------------------------------------------------------------

COMMANDS: dict[str, Command] = {
    command.name: command
    for command in (
        Command("context", "the resolved context pi would send for a leaf", _context, "file_commands:context"),
        Command("tree", "the branch tree", _file("text", "json"), "file_commands:tree"),
        Command(
            "diff",
            "what differs for the model between two entries' contexts",
            _diff,
            "file_commands:diff",
            description="json: {ancestor, shared, left, right, left_tokens, right_tokens}: the lowest common ancestor, "
            "the number of leading messages the same for the model (timestamps, usage and the like aside), pi's messages "
            "after them on each side, and pi's estimateTokens summed over those. text: a unified view.",
        ),
        Command("label", "set (or, without TEXT, clear) the label of an entry, as pi does", _label, "file_commands:label"),
        Command("sessions", "every session under a folder (pi's by default), newest first", _sessions, "all_sessions:sessions"),
        Command("search", "full-text search across every session under a folder", _search, "all_sessions:search"),
        Command(
            "extract",
            "write the branch root…ID as a new session file, as pi's createBranchedSession does; prints its path",
            _extract,
            "file_commands:extract",
        ),
        Command(
            "timeline",
            "pi's context-size estimate at every entry from the root to a leaf, with the recorded input tokens",
            _path("json", "csv"),
            "file_commands:timeline",
        ),
        Command(
            "trace",
            "the path as pi ran it: runs, turns, tool calls, with times, usage and errors",
            _path("json", "text"),
            "path_commands:trace",
            description="json: one row per entry on the path {entry, run, turn, kind, start, duration_ms, model, thinking, "
            "input, output, cache_read, cache_write, cost, stop_reason, error, tool}. text: an aligned table, then the "
            "totals of each run and of the path. What each time means: docs/trace.md.",
        ),
        Command(
            "composition",
            "what the context pi would send at a node is made of, in pi's estimate (characters / 4)",
            _path("json", "text"),
            "path_commands:composition",
            description="json: {kind: {chars, tokens}}. A kind's tokens are its characters / 4; pi rounds up once per "
            'message, and what that adds is the kind "rounding": the tokens add up to pi\'s estimate.',
        ),
        Command(
            "files",
            "the files the path's tool calls read and changed, as pi's compaction lists them",
            _path("json", "text"),
            "path_commands:files",
            description="json: {read_files, modified_files, calls: [{path, op, entry, tool_call_id}]}: pi's computeFileLists "
            "over extractFileOpsFromMessage of every message entry from the root to the node.",
        ),
        Command(
            "graph",
            "the session as a graph file for Gephi, yEd or Cytoscape: entries as nodes (type, role, time, label, tokens), parent → child",
            _graph,
            "file_commands:graph",
        ),
        Command(
            "upgrade",
            "rewrite a version 1 or 2 session in pi's current format, as pi would (with the ids pibrowser shows); "
            "the original is kept as FILE.v1.bak",
            _file(),
            "file_commands:upgrade",
        ),
        Command(
            "usage",
            "tokens and cost pi recorded across every session under a folder, by day, week, month, project, model or session",
            _usage,
            "usage_command:usage",
            description='json: {"by", "rows": [{"key", "replies", "input", "output", "cache_read", "cache_write", "cost"}], '
            '"total": {...}}, rows by cost, largest first. A reply a fork, a /clone or an extracted branch copied into '
            "another file is counted once. Usage is read once and cached; a grown file is read on from where it was.",
        ),
        Command(
            "share",
            "write the session as one HTML page that opens offline, with secrets found and removed first",
            _share,
            "share_command:share",
            description="The page shows the tree in pi's /tree order with pi's filters, every node's resolved context, "
            "the comparison of a pair, the trace and files of the shared path, and a search; it fetches nothing. "
            "Secrets (detect-secrets' detectors, AI providers' keys, your patterns and list) are replaced by "
            "«redacted: KIND» wherever they appear, also JSON-escaped, URL-encoded and base64-encoded. "
            "Every share is recorded (pibrowser shares).",
        ),
        Command("shares", "every session shared with `pibrowser share` or the window, oldest first", _shares, "share_command:shares"),
    )
}


def app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pibrowser",
        description="Browse pi sessions: the branch tree and the context pi resolves for any node. "
        f"Commands: {', '.join(COMMANDS)} (see `pibrowser context --help`).",
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
