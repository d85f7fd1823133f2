"""The command line: `context`, `tree`, `diff`, `label`, `sessions`, `search`, `extract`, `timeline`, `trace`,
`composition`, `files`, `graph`, `upgrade`, `usage`, `share` and `shares` run headless on the model; anything else opens the app."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..model.context.resolve import Context, resolve
from ..model.fold.structure import context_of_path
from ..model.js.stringify import dump_json
from ..model.session.gcpause import gc_paused
from ..model.session.path_index import PathIndex
from ..model.session.problems import SessionLoadError
from .arguments import COMMANDS, app_parser, command_parser
from .failure import fail
from .log_file import start_logging

# `pibrowser context`, timed against pi, imports only what the path of a leaf needs; what the
# other commands use (the full Session, the fold, compare, the graph, writing, text for people)
# is imported where that command runs.
if TYPE_CHECKING:
    from ..model.session.session import Session

log = logging.getLogger(__name__)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    start_logging()
    try:
        if args and args[0] in COMMANDS:
            return _run_command(command_parser(args[0]).parse_args(args))
        if args and not args[0].startswith("-") and looks_like_a_word(Path(args[0])):
            problem = _not_a_path_nor_command(Path(args[0]))  # a mistyped command, before its arguments confuse argparse
            if problem is not None:
                fail(problem)
                return 2
        return _run_app(app_parser().parse_args(args))
    except BrokenPipeError:
        # `pibrowser context … | head` closed the pipe: not an error of ours.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


def _run_command(args: argparse.Namespace) -> int:
    if args.command in ("sessions", "search"):
        from .all_sessions import run_all_sessions_command

        return run_all_sessions_command(args, _write)
    if args.command == "usage":
        from .usage_command import run_usage_command

        return run_usage_command(args, _write)
    if args.command in ("share", "shares"):
        from .share_command import run_share_command

        return run_share_command(args)
    try:
        if args.command == "label":
            from ..model.writing import label_writer

            # An empty TEXT clears too; pi leaves the key out when clearing.
            # pi may be mid-line: say why the command pauses (a second or two at most).
            from dataclasses import replace

            patience = replace(label_writer.PATIENCE, on_wait=lambda message: print(message, file=sys.stderr))
            print(label_writer.append_label(args.file, args.target, args.text or None, patience=patience))
            return 0
        if args.command == "extract":
            return _extract(args)
        if args.command == "upgrade":
            from ..model.text.terminal_text import visible_line
            from ..model.writing.upgrade import upgrade

            done = upgrade(args.file)
            print(
                f"{visible_line(str(done.path))}: upgraded to pi's current format; the original is kept as {visible_line(str(done.backup))}"
            )
            return 0
        if args.command in ("trace", "composition", "files"):
            from .path_commands import run_path_command

            return run_path_command(args, _write, _check_known)
        if args.command == "context" and not args.all:
            # Only the leaves' paths are needed: a clean file is indexed, not loaded.
            index = PathIndex.scan(args.file)
            if index is not None:
                # The contexts' JSON holds no cycles: the collector would only walk the index again.
                with index, gc_paused():
                    return _print_contexts(index, args)
        session = _load(args.file)
        if args.command == "timeline":
            return _print_timeline(session, args)
        if args.command == "graph":
            from ..model.graph import session_graph
            from .graph_command import write_graph

            write_graph(session_graph(session), args.format, sys.stdout.buffer)
            return 0
        if args.command == "tree":
            from ..model.text.tree_json import tree_json
            from ..model.text.tree_text import tree_text

            _write(tree_json(session) + b"\n" if args.format == "json" else _text(tree_text(session)))
            return 0
        if args.command == "diff":
            return _print_diff(session, args)
        return _print_contexts(session, args)
    except SessionLoadError as error:
        return fail(str(error))
    except BrokenPipeError:
        raise  # the reader went away (`| head`): main() ends quietly
    except (OSError, ValueError, TypeError, KeyError, RecursionError) as error:
        # Input we did not foresee must still end in one line, not a traceback (that goes to the log).
        log.warning("%s %s failed", args.command, args.file, exc_info=error)
        return fail(f"{args.file}: cannot be processed ({type(error).__name__}: {error})")


def _load(path: Path) -> Session:
    """The whole session, its problems said on stderr."""
    from ..model.session.session import Session
    from ..model.text.terminal_text import visible_line

    session = Session.load(path, lazy=False)
    for problem in session.problems:
        print(visible_line(str(problem)), file=sys.stderr)
    return session


def _extract(args: argparse.Namespace) -> int:
    from ..model.session.session import Session
    from ..model.text.terminal_text import visible_line
    from ..model.writing.extract import extract_branch

    written = extract_branch(Session.load(args.file, lazy=False), args.node, args.output)
    if written is None:
        return fail(
            f"{args.file}: nothing written: the branch to {args.node} holds no user or assistant message yet, and pi writes no file before one"
        )
    print(visible_line(str(written)))  # the folder given may hold anything
    return 0


def _print_timeline(session: Session, args: argparse.Namespace) -> int:
    from ..model.fold.path_fold import path_rows
    from ..model.text.csv_cells import timeline_csv
    from ..model.tokens.timeline import timeline_json

    leaf = args.leaf if args.leaf is not None else session.leaf_id
    _check_known(session, [leaf])
    rows = path_rows(session, leaf) if leaf is not None else []
    _write(timeline_json(rows) + b"\n" if args.format == "json" else _text(timeline_csv(rows)))
    return 0


def _print_contexts(session: Session | PathIndex, args: argparse.Namespace) -> int:
    # --all: every entry in file order, a duplicate id once per line as pi's getEntries() lists it.
    leaves = [entry.id for entry in session.file_order] if args.all else (args.leaf or [session.leaf_id])
    _check_known(session, leaves)
    context_of = _context_reader(session)
    for leaf in leaves:
        context = context_of(leaf)
        if args.format == "json":
            _write(dump_json({"leaf": leaf, **context.to_pi()}) + b"\n")
        else:
            from ..model.text.transcript import render

            _write(_text(render(context, markdown=args.format == "markdown") + "\n"))
    return 0


def _context_reader(session: Session | PathIndex) -> Callable[[str | None], Context]:
    """How contexts are read: along the one path of an index, or from the fold of a session."""
    if isinstance(session, PathIndex):

        def along(leaf: str | None) -> Context:
            if not leaf or leaf not in session:
                return resolve(session, leaf)  # pi's default leaf, or the error it gives
            path = session.path_entries(leaf)
            return context_of_path(leaf, path, path.kind_codes())

        return along
    from ..model.fold.path_fold import PathFold

    return PathFold(session).context


def _print_diff(session: Session, args: argparse.Namespace) -> int:
    _check_known(session, [args.left, args.right])
    from ..model.compare.comparison import compare
    from ..model.compare.diff_report import diff_object, diff_text

    comparison = compare(session, args.left, args.right)
    _write(dump_json(diff_object(comparison)) + b"\n" if args.format == "json" else _text(diff_text(comparison)))
    return 0


def _check_known(session: Session | PathIndex, keys: list[str | None]) -> None:
    unknown = [key for key in keys if key is not None and key not in session]
    if unknown:
        raise SessionLoadError(session.path, f"no entry with id {unknown[0]!r}")


def looks_like_a_word(path: Path | None) -> bool:
    """A bare word (no folder, no extension): a command mistyped rather than a file."""
    return path is not None and len(path.parts) == 1 and not path.suffix


def _text(text: str) -> bytes:
    """Text for people, its control characters shown, never obeyed by the terminal (JSON is pi's, byte for byte)."""
    from ..model.text.terminal_text import visible

    return visible(text).encode("utf-8")


def _write(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _not_a_path_nor_command(path: Path | None) -> str | None:
    """One line for an argument that names neither something on disk nor a command (a typo, mostly)."""
    if path is None or path.exists():
        return None
    from difflib import get_close_matches

    close = get_close_matches(str(path), COMMANDS, n=1)
    hint = f" (did you mean `pibrowser {close[0]}`?)" if close else ""
    return f"{str(path)!r} is neither a file or folder nor a command{hint}; commands: {', '.join(COMMANDS)}"


def _run_app(args: argparse.Namespace) -> int:
    if args.screenshot is None or looks_like_a_word(args.path):
        # A screenshot of a missing file says so as any failed screenshot does (exit 1).
        problem = _not_a_path_nor_command(args.path)
        if problem is not None:
            fail(problem)
            return 2  # a usage error, as argparse's
    if args.install_desktop_entry:
        from .desktop_entry import install

        try:
            for path in install():
                print(path)
        except OSError as error:
            print(f"pibrowser: cannot install the desktop entry: {error}", file=sys.stderr)
            return 1
        return 0
    from ..ui.window.x11_check import no_display, x11_problem

    if args.screenshot is not None and no_display():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a screenshot needs no screen
    problem = x11_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    # Qt is imported only here, so the headless commands never load it.
    from ..ui.window.app import run_app

    return run_app(args)
