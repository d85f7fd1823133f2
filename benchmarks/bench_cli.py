#!/usr/bin/env python3
"""`pibrowser context FILE` side by side with pi (a benchmark, not a test).

    python benchmarks/bench_cli.py [--repeat 5] [--file F.jsonl]... [--no-stress] [--commands "tree,tree --format json,trace"]

Times the command for the default leaf as a fresh process, the way a user runs
it, on generated sessions of 10,000 and 100,000 entries and on the stress case
(one root with 1,000,000 children), or on the given files. For each it reports
the median wall time and CPU time of --repeat runs and the peak memory, and, when
Node 22 and pi 1.6.0 are found, the same for pi's load + buildSessionContext (tests/pi/pi_answers.mjs) and
the ratios (pibrowser / pi) — CPU time is the steadier figure on a busy machine.
Node is $PIBROWSER_NODE or `node` on PATH; pi is the package folder
$PIBROWSER_PI_DIR or @earendil-works/pi-coding-agent under `npm root -g`. Targets (README): on pi-written-100k at most
0.4× pi's time and a peak memory at most half the file; on the stress case at most 0.5× pi's time.

`--commands` times other commands on each file the same way, each beside `context` (a command's
options follow its name: `tree --format json`; issue 32's
target for `tree` and `trace` on pi-written-100k: within 2× context's time, peak memory at most
the file's size).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate_session import generate, generate_siblings
from tests.pi.locate import PI_VERSION, node_binary, pi_command, pi_package


@dataclass
class Run:
    wall: float
    cpu: float
    peak: int  # bytes
    output: bytes  # its digest: the outputs themselves (a tree's text is 19 MB) would grow this process, and a
    # child started from it counts that memory in its peak until it runs pibrowser


def run_once(command: list[str]) -> Run:
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            raise SystemExit(f"{' '.join(command)} exited {process.returncode}")
        out.seek(0)
        return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, hashlib.file_digest(out, "sha256").digest())


def measure(command: list[str], repeat: int) -> list[Run]:
    return [run_once(command) for _ in range(repeat)]


def find_pi() -> tuple[str, Path] | None:
    """(node, pi's package folder) when Node 22+ and pi 1.6.0 are on this machine."""
    node = node_binary()
    package = pi_package() if node else None
    if package is None:
        print(f"pi side by side skipped: needs Node.js >= 22 and pi {PI_VERSION} (PIBROWSER_NODE, PIBROWSER_PI_DIR)")
        return None
    return node, package


def median(runs: list[Run], field: str) -> float:
    return statistics.median(getattr(run, field) for run in runs)


LINE = "  pibrowser {:18} wall {:6.2f} s   cpu {:6.2f} s   peak {:5.0f} MB ({:.2f}× the file)"


def report(path: Path, repeat: int, pi: tuple[str, Path] | None, commands: list[str]) -> None:
    size = path.stat().st_size
    ours = measure([sys.executable, "-m", "pibrowser", "context", str(path)], repeat)
    print(f"\n{path.name}: {size / 1e6:.0f} MB")
    print(
        LINE.format("context", median(ours, "wall"), median(ours, "cpu"), max(r.peak for r in ours) / 1e6, max(r.peak for r in ours) / size)
    )
    for command in commands:
        name, *options = command.split()
        other = measure([sys.executable, "-m", "pibrowser", name, str(path), *options], repeat)
        peak = max(r.peak for r in other)
        print(
            LINE.format(command, median(other, "wall"), median(other, "cpu"), peak / 1e6, peak / size)
            + f"   {median(other, 'cpu') / median(ours, 'cpu'):.2f}× context's cpu"
        )
    if pi is None:
        return
    line = LINE.replace("{:18}", "context".ljust(18))
    theirs = measure(pi_command(*pi, "context", path), repeat)
    print(
        line.format(
            median(theirs, "wall"), median(theirs, "cpu"), max(r.peak for r in theirs) / 1e6, max(r.peak for r in theirs) / size
        ).replace("pibrowser context", "pi               ")
    )
    print(
        f"  ratio to pi         wall {median(ours, 'wall') / median(theirs, 'wall'):6.2f}×   cpu {median(ours, 'cpu') / median(theirs, 'cpu'):6.2f}×"
        f"   output {'identical' if ours[0].output == theirs[0].output else 'DIFFERENT'}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--file", type=Path, action="append", default=[], help="benchmark this file (repeatable) instead of generated ones")
    parser.add_argument("--no-stress", action="store_true", help="leave out the 1,000,000-children stress case")
    parser.add_argument(
        "--commands",
        default="",
        help="other commands to time beside context, comma-separated, each with its options (tree,tree --format json)",
    )
    args = parser.parse_args()
    files = list(args.file)
    if not files:
        folder = Path(tempfile.gettempdir())
        for entries in (10_000, 100_000):
            path = folder / f"pibrowser-bench-{entries}.jsonl"
            if not path.exists():
                generate(path, entries=entries, seed=0)
            files.append(path)
        if not args.no_stress:
            path = folder / "pibrowser-bench-siblings-1000000.jsonl"
            if not path.exists():
                generate_siblings(path, children=1_000_000, seed=0)
            files.append(path)
    # In a process of its own: reading the file here would grow this process, and a child forked
    # from it starts with that memory counted in its peak.
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from benchmarks.yardstick import print_yardstick as p; p(__import__('pathlib').Path(sys.argv[1]))",
            str(files[0]),
        ],
        cwd=Path(__file__).resolve().parent.parent,
        check=True,
    )
    pi = find_pi()
    for path in files:
        report(path, args.repeat, pi, [name for name in args.commands.split(",") if name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
