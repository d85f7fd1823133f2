#!/usr/bin/env python3
"""Load + resolve timings on a generated heavy session (a benchmark, not a test).

    python benchmarks/bench_load.py [--entries 100000] [--file existing.jsonl] [--repeat 3]

Reports, best of --repeat runs: reading and indexing the file into the tree
(lazy, as the app does; strict, as the CLI does), resolving the current leaf's
context, the tree as JSON, and comparing two leaves (aligned). The target for 100,000
entries / ~160 MB on a 2-core machine is load + resolve of the leaf in about 1 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.yardstick import print_yardstick
from benchmarks.generate_session import add_source_arguments, source_path
from pibrowser.model import Session, resolve
from pibrowser.model.compare.comparison import compare
from pibrowser.model.fold.path_fold import PathFold
from pibrowser.model.session.path_index import PathIndex
from pibrowser.model.text.tree_json import tree_json


def best(repeat: int, work):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return min(times), result


def _index_and_resolve_leaf(path: Path):
    with PathIndex.scan(path) as index:  # a generated session is in pi's usual shape
        return resolve(index, index.leaf_id)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_source_arguments(parser)
    args = parser.parse_args()
    path = source_path(args)
    print_yardstick(path)
    size_mb = path.stat().st_size / 1e6
    load_lazy, session = best(args.repeat, lambda: Session.load(path))
    resolve_leaf, context = best(args.repeat, lambda: resolve(Session.load(path), session.leaf_id))
    resolve_only, _ = best(args.repeat, lambda: resolve(session, session.leaf_id))
    load_strict, _ = best(max(1, args.repeat - 1), lambda: Session.load(path, lazy=False))
    index_leaf, _ = best(args.repeat, lambda: _index_and_resolve_leaf(path))
    fold = PathFold(session)
    fold.context(session.leaf_id)
    up_path = session.path_to(session.leaf_id)[-2:-12:-1]
    step_up, _ = best(1, lambda: [fold.context(key) for key in up_path])
    fold_time, _ = best(1, fold.fold_spine)
    tree_time, _ = best(args.repeat, lambda: tree_json(session))
    leaves = session.leaves()
    compare_time, _ = best(args.repeat, lambda: compare(session, leaves[0], leaves[-1]).rows)
    print(f"file: {len(session):,} entries, {size_mb:.0f} MB, {len(leaves)} leaves, leaf context {len(context.messages)} messages")
    print(f"load (lazy, app)            {load_lazy:6.2f} s")
    print(f"load + resolve leaf         {resolve_leaf:6.2f} s")
    print(f"resolve leaf (loaded)       {resolve_only:6.3f} s")
    print(f"load (strict, --all/tree)   {load_strict:6.2f} s")
    print(f"index + resolve leaf (CLI)  {index_leaf:6.2f} s")
    print(f"↑ from the leaf, 10 steps   {step_up * 1000:6.1f} ms  (contexts from the fold's structure)")
    print(f"fold of the spine           {fold_time:6.2f} s  (every figure along the leaf's path; in the background)")
    print(f"tree as JSON                {tree_time:6.2f} s")
    print(f"compare first/last leaf     {compare_time:6.3f} s  (aligned rows included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
