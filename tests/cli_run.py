"""`pibrowser ARGS…` as the tests run it: in this process, where what is tested is the command's
output and exit status (a process per command was a minute of the suite), or as a whole process,
where the process is what is tested (what it imports, a hang, memory, a closed pipe)."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from dataclasses import dataclass

from pibrowser.cli.main import main


@dataclass
class Ran:
    """A command's exit status and what it wrote, as bytes (as a process's, with text=True as str)."""

    returncode: int
    stdout: bytes | str
    stderr: bytes | str


def run(*args: object, text: bool = False) -> Ran:
    """The command in this process, its stdout and stderr caught as a pipe would (no terminal)."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(arg) for arg in args])
        except SystemExit as leaving:  # argparse ends a bad command line this way
            code = leaving.code if isinstance(leaving.code, int) else (0 if leaving.code is None else 1)
    stdout, stderr = out.buffer.getvalue(), err.buffer.getvalue()  # type: ignore[attr-defined]
    if text:
        return Ran(code, stdout.decode("utf-8"), stderr.decode("utf-8"))
    return Ran(code, stdout, stderr)


def run_process(*args: object, timeout: float = 120, **options) -> subprocess.CompletedProcess:
    """The command as a process of its own (`options` as subprocess.run takes them)."""
    return subprocess.run([sys.executable, "-m", "pibrowser", *map(str, args)], capture_output=True, timeout=timeout, **options)
