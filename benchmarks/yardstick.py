"""The machine's yardstick, printed first by every benchmark so figures from two machines compare.

Two figures: a plain Python loop (`s = 0; for i in range(10**7): s += i`), which says how fast this
interpreter runs on this CPU, and the time to `orjson.loads` every line of the session the benchmark
measures, which says how fast the machine reads such a file. The load average says how quiet it was.
"""

from __future__ import annotations

import gzip
import os
import time
from pathlib import Path

import orjson


def python_loop_seconds() -> float:
    """Best of three runs of the plain loop (the best is the machine, the rest is its neighbours)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        s = 0
        for i in range(10**7):
            s += i
        best = min(best, time.perf_counter() - start)
    return best


CHUNK_BYTES = 4 * 2**20  # read a stretch at a time: the benchmark's peak memory is the process's


def loads_seconds(path: Path) -> tuple[float, int]:
    """The time to orjson.loads every non-blank line of a session file (gzipped or not), and the lines.
    The file is read a stretch at a time and only the loads are timed: held whole with its lines, a
    160 MB file raised the process's peak memory to 2.4× the file before a window benchmark opened it."""
    opener = gzip.open if path.suffix == ".gz" else open
    seconds, count, rest = 0.0, 0, b""
    with opener(path, "rb") as source:
        while chunk := source.read(CHUNK_BYTES):
            lines = (rest + chunk).split(b"\n")
            rest = lines.pop()  # the start of a line the next stretch ends
            stretch_seconds, stretch_count = _loads_seconds(lines)
            seconds, count = seconds + stretch_seconds, count + stretch_count
    stretch_seconds, stretch_count = _loads_seconds([rest])
    return seconds + stretch_seconds, count + stretch_count


def _loads_seconds(lines: list[bytes]) -> tuple[float, int]:
    lines = [line for line in lines if line.strip()]
    start = time.perf_counter()
    for line in lines:
        try:
            orjson.loads(line)
        except orjson.JSONDecodeError:
            pass  # a damaged line costs its attempt, as it does in a reader
    return time.perf_counter() - start, len(lines)


def print_yardstick(session_file: Path | None = None) -> None:
    """Print the yardstick: the loop, orjson over the session file when there is one, the load."""
    load = os.getloadavg()
    parts = [f"python loop 10^7: {python_loop_seconds():.3f} s"]
    if session_file is not None and session_file.is_file():
        seconds, lines = loads_seconds(session_file)
        parts.append(f"orjson.loads of {lines:,} lines of {session_file.name}: {seconds:.3f} s")
    parts.append(f"load average {load[0]:.2f} on {os.cpu_count()} cores")
    print("yardstick: " + " · ".join(parts), flush=True)
