#!/usr/bin/env python3
"""What one message card costs: building its pieces, measuring them, placing them and painting them.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_cards.py [--file F.jsonl] [--cards 50] [--width 560] [--profile]

Builds the cards of the last --cards messages of the leaf's context (the ones a
selection near the leaf shows), one at a time as the card list does, and reports
per card the median and mean of each step: building the pieces, measuring the
height at the list's width, placing the pieces, and painting them (into an image
the size of the card). --profile prints where the whole run spends its time instead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.yardstick import print_yardstick
from PySide6.QtCore import QPoint
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QWidget

from benchmarks.generate_session import generate
from pibrowser.model import Session, path_provenance, resolve
from pibrowser.model.tokens.stats import context_stats
from pibrowser.ui.window.app import make_application
from pibrowser.ui.context.message_build import build_card
from pibrowser.ui.context.message_items import context_info
from pibrowser.ui.cards.pieces import PaintState
from tests.home import isolate_home

STEPS = ("build", "measure", "place", "paint")


def build_cards(info, items, width: int) -> dict[str, list[float]]:
    """Each card, step by step, as the list builds, measures and paints a row."""
    widget = QWidget()  # whose style draws the links and sections
    look = PaintState(widget.palette(), widget)
    times: dict[str, list[float]] = {step: [] for step in STEPS}
    for item in items:
        marks = [time.perf_counter()]
        card = build_card(item, info)
        marks.append(time.perf_counter())
        height = card.height(width)
        marks.append(time.perf_counter())
        card.placed(width)
        marks.append(time.perf_counter())
        image = QImage(width, max(height, 1), QImage.Format.Format_ARGB32_Premultiplied)
        painter = QPainter(image)
        card.paint_all(painter, QPoint(0, 0), width, look)
        painter.end()
        marks.append(time.perf_counter())
        for step, start, end in zip(STEPS, marks, marks[1:]):
            times[step].append(end - start)
    return times


def report(times: dict[str, list[float]]) -> None:
    total = [sum(parts) for parts in zip(*times.values())]
    for name, values in (*times.items(), ("total", total)):
        print(
            f"{name:8s} median {statistics.median(values) * 1e3:6.2f} ms   mean {statistics.mean(values) * 1e3:6.2f} ms   worst {max(values) * 1e3:6.2f} ms"
        )


def main() -> int:
    isolate_home("pibrowser-bench-home-")  # the window's settings, recent files and caches: not the user's
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path)
    parser.add_argument("--cards", type=int, default=50)
    parser.add_argument("--width", type=int, default=560)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    source = args.file or Path(tempfile.gettempdir()) / "pibrowser-bench-10000.jsonl"
    if not source.exists():
        generate(source, entries=10_000, seed=0)
    print_yardstick(source)
    make_application()
    session = Session.load(source)
    context = resolve(session, session.leaf_id)
    info = context_info(context, path_provenance(context), context_stats(context).message_tokens)
    items = info.items[-args.cards :]
    print(f"{len(items)} cards of the leaf's context ({len(info.items)} messages), width {args.width}")
    build_cards(info, items[:5], args.width)  # the first cards pay for fonts and styles once
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(build_cards, info, items, args.width)
        pstats.Stats(profile).sort_stats("tottime").print_stats(35)
        return 0
    merged: dict[str, list[float]] = {step: [] for step in STEPS}
    for _ in range(args.rounds):
        for step, values in build_cards(info, items, args.width).items():
            merged[step] += values
    report(merged)
    return 0


if __name__ == "__main__":
    sys.exit(main())
