#!/usr/bin/env python3
"""Aligning two long contexts after their fork (a benchmark, not a test).

    python benchmarks/bench_compare.py [--messages 2500] [--repeat 3]

Two synthetic contexts of --messages messages each share a tenth of them, then
differ in three ways: (1) every message distinct, with every other one present
on both sides; (2) the same, plus thousands of one repeated short tool result
("ok") on both sides, the worst case for a sequence matcher; (3) the rest
entirely different. Reports the alignment time (difflib over the messages'
model-visible form) and the word diffs of every paired row.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.yardstick import print_yardstick
from benchmarks.bench_load import best
from pibrowser.model.compare.alignment import align
from pibrowser.model.text.transcript import message_body
from pibrowser.model.compare.word_diff import word_diff


def message(role: str, text: str, second: int) -> dict:
    if role == "toolResult":
        return {
            "role": role,
            "toolCallId": f"c{second}",
            "toolName": "bash",
            "content": [{"type": "text", "text": text}],
            "isError": False,
            "timestamp": second,
        }
    if role == "assistant":
        return {
            "role": role,
            "content": [{"type": "text", "text": text}],
            "provider": "p",
            "model": "m",
            "usage": {"input": second},
            "timestamp": second,
        }
    return {"role": role, "content": text, "timestamp": second}


ROLES = ("user", "assistant", "toolResult")


def sides(count: int, case: int) -> tuple[list[dict], list[dict], int]:
    shared = count // 10
    prefix = [message(ROLES[n % 3], f"shared message {n} with some words in it", n) for n in range(shared)]
    left, right = list(prefix), list(prefix)
    for n in range(shared, count):
        role = ROLES[n % 3]
        if case == 2 and role == "toolResult":
            left.append(message(role, "ok", n))
            right.append(message(role, "ok", n + 1))
            continue
        if case == 3:
            left.append(message(role, f"left only {n} words", n))
            right.append(message(role, f"right only {n} words", n))
            continue
        same = n % 2 == 0
        left.append(message(role, f"message {n}: the quick brown fox {'jumps' if same else 'walks'} over", n))
        right.append(message(role, f"message {n}: the quick brown fox {'jumps' if same else 'runs'} over", n + 5))
    return left, right, shared


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print_yardstick()
    for case, name in ((1, "distinct, half shared"), (2, "repeated 'ok' results"), (3, "all different")):
        left, right, shared = sides(args.messages, case)
        seconds, rows = best(args.repeat, lambda: align(left, right, shared))
        pairs = [row for row in rows if row.left is not None and row.right is not None]

        def diff_all() -> None:
            for row in pairs:
                word_diff(message_body(left[row.left], None), message_body(right[row.right], None))

        diff_seconds, _ = best(args.repeat, diff_all)
        print(
            f"{args.messages:,} messages, {name:24} align {seconds:6.3f} s  ({len(rows):,} rows)  word diffs of {len(pairs):,} pairs {diff_seconds:6.3f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
