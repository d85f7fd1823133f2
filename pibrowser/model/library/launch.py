"""Starting `pi --session FILE` in the user's terminal: the command, built as an argument list.

The terminal is the one configured (Preferences), else `$TERMINAL`, else the
first of x-terminal-emulator, gnome-terminal, konsole and xterm on PATH; on
macOS, Terminal.app through `open -a Terminal`. Each terminal takes the command
to run in its own way, and some can be told the working folder; the process
also starts in the session's cwd when that folder exists.

Nothing here goes through a shell: every piece of the command is its own
argument, so a file name with spaces or quotes reaches pi unchanged.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

FALLBACK_TERMINALS = ("x-terminal-emulator", "gnome-terminal", "konsole", "xterm")


class LaunchError(Exception):
    """pi or a terminal is missing: one line for the user."""


@dataclass(frozen=True, slots=True)
class Launch:
    argv: list[str]
    cwd: str | None  # the folder the terminal starts in (None: ours)


def _run_flag(flag: str):
    return lambda pi, cwd: [flag, *pi]


def _gnome(pi: list[str], cwd: str | None) -> list[str]:
    return [*([f"--working-directory={cwd}"] if cwd else []), "--", *pi]


def _konsole(pi: list[str], cwd: str | None) -> list[str]:
    return [*(["--workdir", cwd] if cwd else []), "-e", *pi]


def _kitty(pi: list[str], cwd: str | None) -> list[str]:
    return [*(["--directory", cwd] if cwd else []), *pi]


def _wezterm(pi: list[str], cwd: str | None) -> list[str]:
    return ["start", *(["--cwd", cwd] if cwd else []), "--", *pi]


def _foot(pi: list[str], cwd: str | None) -> list[str]:
    return [*([f"--working-directory={cwd}"] if cwd else []), *pi]


# How each known terminal is told what to run (and, where it can be, where).
# Any other terminal gets `-e COMMAND ARGS…`, the xterm convention most follow.
_ARGUMENTS = {
    "gnome-terminal": _gnome,
    "konsole": _konsole,
    "kitty": _kitty,
    "wezterm": _wezterm,
    "foot": _foot,
    "xfce4-terminal": _run_flag("-x"),
    "terminator": _run_flag("-x"),
    "mate-terminal": _run_flag("-x"),
}


def terminal_arguments(terminal: list[str], pi: list[str], cwd: str | None) -> list[str]:
    """The whole command: the terminal as configured, then what makes it run pi.

    A terminal given with arguments of its own ("alacritty -e") is trusted to end
    with what precedes the command; a bare name gets the arguments it is known to take.
    """
    if len(terminal) > 1:
        return [*terminal, *pi]
    build = _ARGUMENTS.get(Path(terminal[0]).name, _run_flag("-e"))
    return [terminal[0], *build(pi, cwd)]


def find_terminal(configured: str | None, env: Mapping[str, str], platform: str = sys.platform) -> list[str] | None:
    """The terminal command to use, as a list; None when there is none."""
    path = env.get("PATH", "")
    for choice in (configured, env.get("TERMINAL")):
        if choice and choice.strip():
            words = shlex.split(choice)
            found = shutil.which(words[0], path=path)
            if found is not None:
                return [found, *words[1:]]
    if platform == "darwin":
        return ["open", "-a", "Terminal"]
    for name in FALLBACK_TERMINALS:
        found = shutil.which(name, path=path)
        if found is not None:
            return [_through_alternative(found)]
    return None


def _through_alternative(found: str) -> str:
    """Debian's x-terminal-emulator is a link to the real terminal: when that is one whose
    arguments we know, run it directly (its `-e` may not take a command's arguments apart)."""
    real = os.path.realpath(found)
    return real if Path(real).name in _ARGUMENTS else found


def launch_command(
    session_file: str | Path,
    cwd: str | None,
    *,
    configured: str | None = None,
    env: Mapping[str, str] | None = None,
    platform: str = sys.platform,
) -> Launch:
    """How to start `pi --session FILE` in a terminal; LaunchError says what is missing."""
    env = os.environ if env is None else env
    pi = shutil.which("pi", path=env.get("PATH", ""))
    terminal = find_terminal(configured, env, platform)
    if pi is None or terminal is None:
        raise LaunchError(f"{launch_problem(configured=configured, env=env, platform=platform)}; the new session is at {session_file}")
    folder = cwd if cwd and os.path.isdir(cwd) else None
    command = [pi, "--session", str(session_file)]
    if terminal[:3] == ["open", "-a", "Terminal"] and len(terminal) == 3:
        return Launch([*terminal, str(_macos_launcher(command, folder))], folder)
    return Launch(terminal_arguments(terminal, command, folder), folder)


def launch_problem(*, configured: str | None = None, env: Mapping[str, str] | None = None, platform: str = sys.platform) -> str | None:
    """Why pi cannot be started in a terminal, asked before a branch is written for it; None when it can."""
    env = os.environ if env is None else env
    if shutil.which("pi", path=env.get("PATH", "")) is None:
        return "pi is not on PATH"
    if find_terminal(configured, env, platform) is None:
        return "no terminal found (set one in Preferences, or $TERMINAL)"
    return None


def _macos_launcher(command: list[str], folder: str | None) -> Path:
    """Terminal.app runs a `.command` file it is given: one that starts pi, each argument quoted."""
    handle, name = tempfile.mkstemp(prefix="pibrowser-continue-", suffix=".command")
    lines = ["#!/bin/sh"]
    if folder:
        lines.append(f"cd {shlex.quote(folder)} || exit 1")
    lines.append("exec " + " ".join(shlex.quote(part) for part in command))
    with os.fdopen(handle, "w", encoding="utf-8") as script:
        script.write("\n".join(lines) + "\n")
    os.chmod(name, stat.S_IRWXU)
    return Path(name)


def start_detached(launch: Launch, env: Mapping[str, str] | None = None) -> subprocess.Popen:
    """Start the terminal in a session of its own: it outlives pibrowser, and no shell is involved."""
    return subprocess.Popen(
        launch.argv,
        cwd=launch.cwd,
        env=None if env is None else dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
    )


@dataclass(frozen=True, slots=True)
class Continued:
    """What "Continue in pi" did: the new file, and the terminal started or why not."""

    session_file: Path
    launch: Launch | None
    problem: str | None


def continue_in_pi(
    session_file: Path,
    cwd: str | None,
    *,
    configured: str | None = None,
    env: Mapping[str, str] | None = None,
    platform: str = sys.platform,
) -> Continued:
    """Start pi on an extracted branch; a missing pi or terminal leaves the file and says so."""
    try:
        launch = launch_command(session_file, cwd, configured=configured, env=env, platform=platform)
        start_detached(launch)
    except LaunchError as error:
        return Continued(session_file, None, str(error))
    except OSError as error:
        return Continued(
            session_file, None, f"the terminal did not start ({error.strerror or error}); the new session is at {session_file}"
        )
    return Continued(session_file, launch, None)
