"""The command line: the commands of cli/commands.py run headless on the model; anything else opens the app."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from collections.abc import Sequence

from ..failure import fail
from ..log_file import start_logging
from ..model.session.problems import SessionLoadError
from .commands import COMMANDS, app_parser, parse_command

log = logging.getLogger(__name__)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    start_logging()
    try:
        if args and args[0] in COMMANDS:
            return _run_command(parse_command(args))
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
    try:
        return COMMANDS[args.command].run(args)
    except SessionLoadError as error:
        return fail(str(error))
    except BrokenPipeError:
        raise  # the reader went away (`| head`): main() ends quietly
    except (OSError, ValueError, TypeError, KeyError, RecursionError) as error:
        # Input we did not foresee must still end in one line, not a traceback (that goes to the log).
        where = getattr(args, "file", None) or getattr(args, "dir", None) or "pibrowser " + args.command
        log.warning("%s %s failed", args.command, where, exc_info=error)
        return fail(f"{where}: cannot be processed ({type(error).__name__}: {error})")


def looks_like_a_word(path: Path | None) -> bool:
    """A bare word (no folder, no extension): a command mistyped rather than a file."""
    return path is not None and len(path.parts) == 1 and not path.suffix


def _not_a_path_nor_command(path: Path | None) -> str | None:
    """One line for an argument that names neither something on disk nor a command (a typo, mostly)."""
    if path is None or path.exists():
        return None
    from difflib import get_close_matches

    close = get_close_matches(str(path), COMMANDS, n=1)
    hint = f" (did you mean `pibrowser {close[0]}`?)" if close else ""
    return f"{str(path)!r} is neither a file nor a folder nor a command{hint}; commands: {', '.join(COMMANDS)}"


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
    problem = x11_problem(commands=list(COMMANDS))
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    # Qt is imported only here, so the headless commands never load it.
    from ..ui.window.app import run_app

    return run_app(args)
