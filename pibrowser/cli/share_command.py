"""`pibrowser share` (a session as one offline HTML page, its secrets removed) and `pibrowser shares`
(what was shared, from the record)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ..failure import fail


def share_arguments(share: argparse.ArgumentParser) -> None:
    share.add_argument("file", type=Path, help="a pi session file (.jsonl)")
    share.add_argument("-o", "--output", type=Path, metavar="OUT.html", help="the page to write")
    share.add_argument(
        "--leaf", metavar="ID", help="the node whose path the trace and files follow, selected on opening (default: the current leaf)"
    )
    share.add_argument("--compare", nargs=2, metavar=("LEFT", "RIGHT"), help="two nodes to compare in the page")
    share.add_argument("--no-redact", action="store_true", help="do not look for secrets (your own patterns and list still apply)")
    share.add_argument(
        "--redact-pattern",
        action="append",
        default=[],
        metavar="REGEX",
        help="also remove what this regular expression matches (repeatable)",
    )
    share.add_argument(
        "--redact-file", type=Path, metavar="F", help="also remove each secret F lists: one per line, or NAME=VALUE as in an env file"
    )
    share.add_argument("--redact-home", action="store_true", help="shorten home folders (/home/NAME, /Users/NAME) to ~")
    share.add_argument("--dry-run", action="store_true", help="list what would be removed and write nothing")


def shares_arguments(shares: argparse.ArgumentParser) -> None:
    shares.add_argument("--format", choices=("text", "json"), default="text")


def shares(args: argparse.Namespace) -> int:
    return _list_shares(args.format)


def share(args: argparse.Namespace) -> int:
    from ..model.session.problems import SessionLoadError
    from ..model.share.page_data import ShareRequest
    from ..model.share.secrets import listed_secrets
    from ..model.share.share import ShareOptions, find_for_share, write_share
    from ..model.text.terminal_text import visible_line

    if args.output is None and not args.dry_run:
        print("pibrowser share: -o OUT.html is needed (or --dry-run)", file=sys.stderr)
        return 2
    for pattern in args.redact_pattern:
        try:
            re.compile(pattern)
        except re.error as error:
            print(f"pibrowser share: --redact-pattern {visible_line(pattern)!r} is not a regular expression: {error}", file=sys.stderr)
            return 2
    try:
        if args.output is not None and args.output.resolve() == args.file.resolve():
            return fail(f"{args.file}: the page would overwrite the session itself; choose another -o")
        listed = tuple(listed_secrets(args.redact_file.read_text(encoding="utf-8"))) if args.redact_file else ()
        request = ShareRequest(args.leaf, tuple(args.compare) if args.compare else None)
        options = ShareOptions(request, not args.no_redact, tuple(args.redact_pattern), listed, args.redact_home)
        findings = find_for_share(args.file, options)
        counts = findings.by_kind()
        summary = ", ".join(f"{kind} {count}" for kind, count in counts.items()) or "none"
        if args.dry_run:
            for finding in findings.items:
                print(f"{visible_line(finding.kind)}\t{visible_line(finding.entry)}\t{finding.snippet}")
            print(f"{len(findings.items)} secrets would be removed ({summary}); nothing written")
            return 0
        shared = write_share(args.file, args.output, options, findings, parallel=True)  # no thread here: the views are worked out in a fork
    except SessionLoadError as error:
        return fail(str(error))
    except (OSError, ValueError, UnicodeDecodeError) as error:
        return fail(f"{args.file}: cannot be shared ({type(error).__name__}: {error})")
    print(f"removed {len(findings.items)} secrets ({summary})" + ("; home folders shortened to ~" if args.redact_home else ""))
    print(f"wrote {visible_line(str(shared.out))}: {shared.size:,} bytes, sha256 {shared.sha256}")
    return 0


def _list_shares(form: str) -> int:
    from ..model.js.stringify import dump_json
    from ..model.writing.share_record import read_shares
    from ..model.text.terminal_text import visible_line

    shares = read_shares()
    if form == "json":
        sys.stdout.buffer.write(dump_json(shares) + b"\n")
        return 0
    for share in shares:
        what = f"leaf {share.get('leaf')}" if share.get("leaf") else "current leaf"
        if share.get("pair"):
            what += f", compare {' '.join(map(str, share['pair']))}"
        removed = ", ".join(f"{kind} {count}" for kind, count in (share.get("removed") or {}).items()) or "nothing removed"
        line = f"{share.get('time')}  {share.get('source')} → {share.get('output')}  ({what}; {removed}; sha256 {str(share.get('sha256'))[:16]}…)"
        print(visible_line(line))
    if not shares:
        print("nothing shared yet")
    return 0
