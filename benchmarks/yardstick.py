"""The machine's yardstick, printed first by a benchmark: a plain Python loop and orjson over a file's
lines, each timed (CPU time), so that figures from machines of different speed can be compared."""

from __future__ import annotations

import os
import time
from pathlib import Path

import orjson


def yardstick(file: Path | None = None) -> str:
    start = time.process_time()
    total = 0
    for number in range(10**7):
        total += number
    loop = time.process_time() - start
    text = f"yardstick: a loop of 10**7 additions {loop:.2f} s CPU"
    if file is not None:
        with open(file, "rb") as handle:
            lines = handle.read().split(b"\n")
        start = time.process_time()
        for line in lines:
            if line:
                orjson.loads(line)
        parse = time.process_time() - start
        text += f"; orjson.loads of each of {file.name}'s {len(lines) - 1:,} lines {parse:.2f} s CPU"
    load = os.getloadavg()
    return text + f"; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
