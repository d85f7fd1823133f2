"""`pibrowser sessions` and `pibrowser search`: every session under a folder, listed or searched."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path
from collections.abc import Callable

from ..failure import fail
from .output import write
from ..model.library.discovery import sessions_dir
from ..model.session.regular_file import kind_of
from ..model.text.terminal_text import one_line
from ..model.js.date import js_time
from ..model.js.stringify import dump_json
from ..model.library.search_index import (
    KNOWN_ROLES,
    MARK_END,
    MARK_START,
    Hit,
    IndexUnavailable,
    SearchFilters,
    SearchIndex,
    normalize_role,
)
from ..model.library.session_list import scan_sessions
from ..model.library.session_list_text import sessions_text
from ..model.text.timefmt import format_millis

Write = Callable[[bytes], None]


def sessions(args: argparse.Namespace) -> int:
    return _run(args, _sessions)


def search(args: argparse.Namespace) -> int:
    return _run(args, _search)


def _run(args: argparse.Namespace, command: Callable[[Path, argparse.Namespace, Write], int]) -> int:
    root = args.dir if args.dir is not None else sessions_dir()
    if command is _search and args.dir is None and not root.is_dir():
        # Not "no hits": nothing was looked in. pi makes the folder on its first session.
        # (The list names the folder it found empty already.)
        return fail(f"{root}: pi's sessions folder does not exist (has pi run as this user? Or give the folder as DIR)")
    if args.dir is not None and not args.dir.exists():
        return fail(f"{args.dir}: no such file or folder")
    if args.dir is not None and not (args.dir.is_dir() or args.dir.is_file()):
        return fail(f"{args.dir}: is {kind_of(args.dir.stat().st_mode)}, not a session file or folder")
    try:
        return command(root, args, write)
    except (IndexUnavailable, sqlite3.Error) as error:
        return fail(f"the search index cannot be used: {error}")


def _sessions(root: Path, args: argparse.Namespace, write: Write) -> int:
    summaries = scan_sessions(root)
    if args.format == "json":
        write(dump_json([summary.to_json() for summary in summaries]) + b"\n")
    else:
        write(sessions_text(summaries, root).encode("utf-8"))
    return 0


def _search(root: Path, args: argparse.Namespace, write: Write) -> int:
    if not args.query.strip():
        fail("search: give the words to look for")
        return 2  # a usage error, as argparse's
    try:
        filters = SearchFilters(
            roles=tuple(args.role),
            tools=tuple(_named(tool, "--tool") for tool in args.tool),
            project=_named(args.project, "--project") if args.project is not None else None,
            since=_date(args.since, "--since"),
            until=_date(args.until, "--until"),
        )
        if args.limit < 0:
            raise ValueError(f"--limit: {args.limit} is not a number of hits (0 for all)")
    except ValueError as error:
        fail(str(error))
        return 2
    with SearchIndex() as index:
        index.sync(root)  # only what changed since the last search is read
        unknown = [role for role in filters.roles if normalize_role(role) not in KNOWN_ROLES and normalize_role(role) not in index.roles()]
        if unknown:
            fail(f"--role: {unknown[0]!r} is not a role; roles: {', '.join(KNOWN_ROLES)} (or one that sessions hold)")
            return 2
        hits = index.search(args.query, root, filters, limit=args.limit)
    if args.format == "json":
        for hit in hits:
            write(dump_json(hit.to_json()) + b"\n")
    else:
        marks = ("\x1b[1;33m", "\x1b[0m") if sys.stdout.isatty() else ("**", "**")
        write("".join(_hit_text(hit, marks) for hit in hits).encode("utf-8"))
        if not hits:
            print(f"pibrowser: no hits for {one_line(args.query)!r} under {one_line(str(root))}", file=sys.stderr)
    return 0


def _named(text: str, option: str) -> str:
    if not text.strip():
        raise ValueError(f"{option}: give a name, not an empty one")
    return text


def _date(text: str | None, option: str) -> int | None:
    if text is None:
        return None
    millis = js_time(text)
    if millis is None:
        raise ValueError(f"{option}: {text!r} is not a date (use 2026-11-30 or an ISO time)")
    return millis


def _hit_text(hit: Hit, marks: tuple[str, str]) -> str:
    where = f"{hit.file}:{hit.line}"
    role = hit.role + (f" {hit.tool}" if hit.tool else "")
    when = format_millis(hit.time)
    # Marks go in after the text is made inert, so an escape in the session cannot fake one.
    snippet = one_line(hit.marked).replace(MARK_START, marks[0]).replace(MARK_END, marks[1])
    entry = f"  #{one_line(hit.entry)}" if hit.entry else ""
    return f"{one_line(where)}{entry}  {one_line(role)}  {when}\n    {snippet}\n"
