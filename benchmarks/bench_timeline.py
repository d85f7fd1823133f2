#!/usr/bin/env python3
"""Timeline timings on a generated heavy session (a benchmark, not a test).

    python benchmarks/bench_timeline.py [--entries 100000] [--file existing.jsonl] [--repeat 3]

Reports the fold of pi's rules along the current leaf's path (every figure the timeline
and the header show, once per load), a branch's rows folded from where it leaves the
spine, the spine's figures as the strip draws them, and one node's figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.yardstick import print_yardstick
from benchmarks.generate_session import add_source_arguments, source_path
from pibrowser.model import Session
from pibrowser.model.fold.path_fold import PathFold


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_source_arguments(parser)
    args = parser.parse_args()
    path = source_path(args)
    print_yardstick(path)
    leaf_path = Session.load(path).path_to(Session.load(path).leaf_id)
    spine, branch, rows, steps = [], [], [], []
    for _ in range(args.repeat):
        session = Session.load(path)  # fresh: entries unparsed, nothing remembered
        fold = PathFold(session)
        spine.append(timed(fold.fold_spine))
        others = [leaf for leaf in session.leaves() if leaf != session.leaf_id]
        branch.append(max((timed(lambda key=key: fold.rows(key)) for key in others[:20]), default=0.0))
        rows.append(timed(lambda: fold.along(session.leaf_id).estimates()))
        steps.append(max(timed(lambda key=key: fold.figures(key)) for key in leaf_path[-2:-12:-1]))
    print(f"file: {len(session):,} entries; the leaf path {len(leaf_path):,}")
    print(f"fold of the leaf's path (spine)  {min(spine):7.2f} s   (once per load, in the background)")
    print(f"a branch's rows (worst of 20)    {min(branch) * 1000:7.1f} ms")
    print(f"the spine's figures as a list    {min(rows) * 1000:7.1f} ms")
    print(f"one node's figures (worst of 10) {min(steps) * 1000:7.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
