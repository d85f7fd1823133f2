"""`pibrowser usage`: where the tokens and the money went, across every session under a folder."""

from __future__ import annotations

import argparse
import gc
from pathlib import Path

from ..model.js.date import js_time
from ..model.session.gcpause import gc_paused
from ..model.session.regular_file import kind_of
from ..model.library.discovery import sessions_dir
from ..model.usage.cache import UsageCache
from ..model.usage.grouping import group
from ..model.usage.ledger import Filters, folder_ledger
from ..model.usage.periods import Calendar, zone_named
from ..model.usage.report import usage_csv, usage_json, usage_text
from ..failure import fail
from .output import write


def usage(args: argparse.Namespace) -> int:
    root: Path = args.folder if args.folder is not None else sessions_dir()
    if args.folder is not None and not args.folder.exists():
        return fail(f"{args.folder}: no such file or folder")
    if args.folder is not None and not (args.folder.is_dir() or args.folder.is_file()):
        return fail(f"{args.folder}: is {kind_of(args.folder.stat().st_mode)}, not a session file or folder")
    try:
        calendar = Calendar(zone_named(args.tz))
        filters = Filters(
            since=_when(args.since, calendar, "--since"),
            until=_when(args.until, calendar, "--until"),
            project=_named(args.project),
        )
    except ValueError as error:
        fail(str(error))
        return 2  # a usage error, as argparse's
    with gc_paused():  # hundreds of thousands of numbers and no cycles among them: the collector would only walk them
        ledger = folder_ledger(root, UsageCache.default())
        table = group(ledger.cells(calendar, filters), args.by, ledger, calendar)
        gc.freeze()  # they live until the command ends: the collector, enabled again, need not walk them once more
    if args.format == "json":
        write(usage_json(table) + b"\n")
    elif args.format == "csv":
        write(usage_csv(table).encode("utf-8"))
    else:
        write(usage_text(table, ledger, args.tz or "UTC").encode("utf-8"))
    return 0


def _when(text: str | None, calendar: Calendar, option: str) -> int | None:
    """A bare date is its midnight in the --tz zone; any other time as JS's Date reads it."""
    if text is None:
        return None
    millis = calendar.start_of(text)
    if millis is None:
        millis = js_time(text)
    if millis is None:
        raise ValueError(f"{option}: {text!r} is not a date (use 2026-11-30 or an ISO time)")
    return millis


def _named(text: str | None) -> str | None:
    if text is not None and not text.strip():
        raise ValueError("--project: give part of a project's folder, not an empty one")
    return text
