"""`pibrowser usage`: where the tokens and the money went, across every session under a folder.

A question asked again of a folder whose files are all as they were is answered from the answer
kept (model/usage/answers): only the folder is listed, so this module imports the rest of the
usage model only when it has to add the usage up.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from .. import __version__
from ..model.session.regular_file import kind_of
from ..model.library.discovery import session_stats, sessions_dir
from ..model.usage.answers import code_stamp, folder_stamp, kept_answer
from ..model.usage.periods import Calendar, zone_named
from ..model.usage.store import default_location
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
        since, until = _when(args.since, calendar, "--since"), _when(args.until, calendar, "--until")
        project = _named(args.project)
    except ValueError as error:
        fail(str(error))
        return 2  # a usage error, as argparse's
    root = Path(os.path.abspath(root))
    files = session_stats(root)
    stamp = folder_stamp(files)
    # Everything the answer depends on besides the files (the zone as resolved: `local` is this machine's).
    question = repr((__version__, code_stamp(), args.by, since, until, project, repr(calendar.zone), args.tz or "UTC", args.format))
    answer = kept_answer(default_location(), str(root), question, stamp)
    if answer is None:
        answer = _answer(root, files, args, calendar, (since, until, project), (question, stamp))
    write(answer)
    return 0


def _answer(
    root: Path,
    files: list[tuple[str, os.stat_result | None]],
    args: argparse.Namespace,
    calendar: Calendar,
    filters: tuple[int | None, int | None, str | None],
    asked: tuple[str, bytes],
) -> bytes:
    """The usage added up and written as asked, and kept as the answer to `asked` (the question, the folder's stamp)."""
    import gc

    from ..model.session.gcpause import gc_paused
    from ..model.usage.cache import UsageCache
    from ..model.usage.grouping import group
    from ..model.usage.folder_cells import folder_cells
    from ..model.usage.ledger import Filters
    from ..model.usage.report import usage_csv, usage_json, usage_text

    cache = UsageCache.default()
    with gc_paused():  # hundreds of thousands of numbers and no cycles among them: the collector would only walk them
        ledger, cells = folder_cells(root, cache, calendar, Filters(*filters), files=files)
        table = group(cells, args.by, ledger, calendar)
        gc.freeze()  # they live until the command ends: the collector, enabled again, need not walk them once more
    if args.format == "json":
        answer = usage_json(table) + b"\n"
    elif args.format == "csv":
        answer = usage_csv(table).encode("utf-8")
    else:
        answer = usage_text(table, ledger, args.tz or "UTC").encode("utf-8")
    cache.keep_answer(*asked, answer)
    return answer


def _when(text: str | None, calendar: Calendar, option: str) -> int | None:
    """A bare date is its midnight in the --tz zone; any other time as JS's Date reads it."""
    if text is None:
        return None
    millis = calendar.start_of(text)
    if millis is None:
        from ..model.js.date import js_time

        millis = js_time(text)
    if millis is None:
        raise ValueError(f"{option}: {text!r} is not a date (use 2026-11-30 or an ISO time)")
    return millis


def _named(text: str | None) -> str | None:
    if text is not None and not text.strip():
        raise ValueError("--project: give part of a project's folder, not an empty one")
    return text
