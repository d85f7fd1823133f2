#!/usr/bin/env python3
"""How the outline feels on a heavy session (a benchmark, not a test).

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_outline.py --file pi-written-100k.jsonl [--unfolded]

Opens the window offscreen on the file and reports, as medians and worst of several runs:
switching the tree from the map to the outline and back (the switch, the layout of the
rows and the first paint), and one frame of scrolling the outline (a scroll of 40 pixels
and its paint), at the top, in the middle and at the end of the rows, at 100% and zoomed
out. With --unfolded every entry is unfolded first, so the outline has a row per entry
(a hundred thousand on the benchmark file): a frame must still cost what a screenful costs.
Targets on a 2-core machine: a switch within 200 ms, a frame within 16 ms.
The machine is shared: the script prints the load average it ran under.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.yardstick import print_yardstick
from benchmarks.bench_gui import open_window, quiet, settle
from pibrowser.ui.tree.view_mode import MAP, OUTLINE
from pibrowser.ui.window.app import make_application
from tests.home import isolate_home


def report(name: str, values: list[float]) -> None:
    print(f"{name:40s} median {statistics.median(values) * 1000:7.1f} ms   worst {max(values) * 1000:7.1f} ms   ({len(values)} times)")


def switch_times(app, view, to: str, rounds: int) -> list[float]:
    """The first switch lays the rows out; later ones find them kept (report both)."""
    times = []
    back = MAP if to == OUTLINE else OUTLINE
    for _ in range(rounds):
        view.mode.switch(back)
        settle(app)
        start = time.perf_counter()
        view.mode.switch(to)
        view.viewport().repaint()
        times.append(time.perf_counter() - start)
    return times


def scroll_frames(app, view, where: float, zoom: float, frames: int = 30) -> list[float]:
    """Frames of scrolling the outline by 40 pixels, from a place `where` (0 top, 1 end) of its rows."""
    view.zoom_by(zoom / view.zoom_factor())
    rows = view.outline.rows
    row = min(len(rows) - 1, int(len(rows) * where))
    view.centerOn(view.outline.node_point(rows.unit(row)))  # the rows there, as deep as they sit
    bar = view.verticalScrollBar()
    settle(app)
    times = []
    for step in range(frames):
        start = time.perf_counter()
        bar.setValue(bar.value() + (40 if step % 2 == 0 else -40) * (1 if where < 0.5 else -1))
        view.viewport().repaint()
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    isolate_home("pibrowser-bench-home-")  # the window's settings, recent files and caches: not the user's
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, required=True)
    parser.add_argument("--unfolded", action="store_true", help="unfold every entry first: a row per entry")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--picture", type=Path, help="save the last frame as a PNG")
    args = parser.parse_args()
    print_yardstick(args.file)
    app = make_application()
    window, opened = open_window(app, args.file)
    quiet(app, window)
    view = window.tree.view
    if args.unfolded:
        start = time.perf_counter()
        view.unfold_all()
        settle(app)
        print(f"{'unfold all (the map builds its items)':40s} {time.perf_counter() - start:7.2f} s")
    view.mode.switch(MAP)
    settle(app)
    print(f"{args.file.name}: {len(window.controller.session):,} entries, {len(view.tree_layout):,} units (rows)")
    first = switch_times(app, view, OUTLINE, 1)
    print(f"{'first switch map → outline (rows laid out)':40s} {first[0] * 1000:7.1f} ms")
    report("switch map → outline", switch_times(app, view, OUTLINE, args.rounds))
    report("switch outline → map", switch_times(app, view, MAP, args.rounds))
    view.mode.switch(OUTLINE)
    settle(app)
    for zoom in (1.0, 0.5):
        for where, name in ((0.0, "top"), (0.5, "middle"), (1.0, "end")):
            report(f"outline scroll frame, {name}, zoom {zoom:g}", scroll_frames(app, view, where, zoom))
    if args.picture:
        view.viewport().grab().save(str(args.picture))  # the last frame, to see that rows were drawn
    load = os.getloadavg()
    print(f"load average while it ran: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (2 cores, shared)")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
