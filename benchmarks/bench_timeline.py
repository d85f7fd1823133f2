#!/usr/bin/env python3
"""Timeline timings on a generated heavy session (a benchmark, not a test).

    python benchmarks/bench_timeline.py [--entries 100000] [--file existing.jsonl] [--repeat 3]

Reports pi's context estimate for every entry of a path: a cold walk of a path of
2,500 messages (target: at most 100 ms), the neighbouring selections that reuse
it (parent, child, a sibling branch), and the whole current-leaf path, cold and warm.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate_session import add_source_arguments, source_path
from pibrowser.model import Session
from pibrowser.model.tokens.timeline import Timeline


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def message_depth(session: Session, path: list[str], messages: int) -> int:
    """The index on `path` where the count of message entries reaches `messages`."""
    seen = 0
    for index, key in enumerate(path):
        seen += session.entries[key].type == "message"
        if seen >= messages:
            return index
    return len(path) - 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_source_arguments(parser)
    args = parser.parse_args()
    path = source_path(args)
    leaf_path = Session.load(path).path_to(Session.load(path).leaf_id)
    cold, warm, neighbours, whole_cold, whole_warm = [], [], [], [], []
    for _ in range(args.repeat):
        session = Session.load(path)  # fresh: entries unparsed, nothing remembered
        at = message_depth(session, leaf_path, 2_500)
        node = leaf_path[at]
        timeline = Timeline(session)
        cold.append(timed(lambda: timeline.rows(node)))
        warm.append(timed(lambda: timeline.rows(node)))
        neighbours.append(max(timed(lambda key=key: timeline.rows(key)) for key in (leaf_path[at - 1], leaf_path[at + 1], *session.children(leaf_path[at - 40]))))
        whole_cold.append(timed(lambda: timeline.rows(session.leaf_id)))
        whole_warm.append(timed(lambda: timeline.rows(session.leaf_id)))
    print(f"file: {len(session):,} entries; the 2,500-message path has {at + 1:,} entries; the leaf path {len(leaf_path):,}")
    print(f"2,500-message path, cold        {min(cold) * 1000:7.1f} ms   (target ≤ 100 ms)")
    print(f"same path again                  {min(warm) * 1000:7.1f} ms")
    print(f"neighbouring selection (worst)  {min(neighbours) * 1000:7.1f} ms")
    print(f"whole leaf path, cold            {min(whole_cold) * 1000:7.1f} ms")
    print(f"whole leaf path, warm            {min(whole_warm) * 1000:7.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
