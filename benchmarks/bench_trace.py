#!/usr/bin/env python3
"""The Trace tab on a heavy session (a benchmark, not a test).

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_trace.py --file F.jsonl[.gz] [--runs 5]

The file the targets are judged on is pi-written-100k.jsonl.gz (gunzipped to a temporary folder
here), the 100,000-entry session pi's own SessionManager wrote, whose default leaf's path is ~93,000
entries; it is not in the repository (160 MB): take it from the team's bench folder, or write one of
the same shape with `python benchmarks/generate_session.py OUT.jsonl`.
Opens the main window offscreen and reports, as medians of --runs:

- background: reading every entry's trace facts and building the leaf's trace, which the window
  does once per load, in the background (once the fold of pi's rules is done), counted from when
  the session shows;
- open: the Trace tab raised on the leaf, until the waterfall is painted (lanes laid out, the
  first frame drawn);
- open, another branch: the same for a leaf off that path (its trace built then, the runs it
  shares with the path shown taken over), and what building its trace whole would cost;
- open, cold: the leaf again with its facts dropped, as before the background reading is done:
  until the first waterfall is painted (the runs around the selection, read first) and until the
  whole path's trace is shown in its place;
- open at load: a new window with the Trace tab in front opens the file, the same two moments
  counted from when the session shows (the fold of pi's rules runs beside it);
- pan: one frame of dragging the waterfall sideways, at the whole path, zoomed in 40×, and with
  every run opened (tens of thousands of lanes), and one frame of scrolling down;
- the CLI: `pibrowser trace FILE` (json), once.

Targets on a 2-core machine: open ≤ 300 ms, a pan frame ≤ 16 ms.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.yardstick import print_yardstick
from PySide6.QtCore import QEvent

from pibrowser.model.trace.agent_loop import build_trace
from pibrowser.model.trace.table import FactsTable
from pibrowser.ui.window.app import make_application, wait_for_load
from pibrowser.ui.window.main_window import MainWindow
from tests.home import isolate_home


def settle(app, turns: int = 3) -> None:
    for _ in range(turns):
        app.processEvents()
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


def unpacked(path: Path, folder: Path) -> Path:
    if path.suffix != ".gz":
        return path
    target = folder / path.stem
    with gzip.open(path, "rb") as source, open(target, "wb") as out:
        shutil.copyfileobj(source, out)
    return target


def open_trace(app, window: MainWindow, key: str) -> float:
    """Select `key` (a leaf) with the Trace tab shown; seconds until the waterfall has painted its
    trace. The whole window follows the selection meanwhile (the tree moves its marks)."""
    panel = window.trace_panel
    start = time.perf_counter()
    window.controller.select(key)
    while panel.busy or panel.trace is None or panel.trace.leaf != key:
        app.processEvents()
        window.trace_facts.wait(5)
    panel.waterfall.viewport().repaint()
    return time.perf_counter() - start


def open_cold(app, window: MainWindow, key: str) -> tuple[float, float]:
    """Select `key` (a leaf) with the Trace tab shown and its facts not read; seconds until the
    first waterfall has painted (a stretch of the path, or the whole), and until the whole path's."""
    panel = window.trace_panel
    start = time.perf_counter()
    window.controller.select(key)
    return painted_in_two(app, window, start, lambda: panel.leaf == key and panel.trace is not None and (panel.partial or not panel.busy))


def painted_in_two(app, window: MainWindow, start: float, shown) -> tuple[float, float]:
    """Seconds from `start` until `shown()` holds and the waterfall has painted (a stretch of the
    path, or the whole), and until the whole path's has."""
    panel = window.trace_panel
    while not shown():
        app.processEvents()
        window.trace_facts.wait(1)
    panel.waterfall.viewport().repaint()
    first = time.perf_counter() - start
    while panel.busy:
        app.processEvents()
        window.trace_facts.wait(5)
    panel.waterfall.viewport().repaint()
    return first, time.perf_counter() - start


def open_at_load(app, path: Path) -> tuple[float, float]:
    """A new window with the Trace tab in front opens `path`: seconds from the session shown (the
    tree built) until the first waterfall has painted, and until the whole path's. The fold of
    pi's rules and the file's check run meanwhile."""
    window = MainWindow(restore_layout=False, interactive=False)
    window.resize(1600, 1000)
    window.show()
    window.trace_dock.raise_()
    settle(app)
    panel = window.trace_panel
    if not wait_for_load(window.controller, lambda: window.open_path(path)):
        raise SystemExit(window.last_error)
    first, complete = painted_in_two(app, window, time.perf_counter(), lambda: panel.trace is not None)
    window.trace_facts.wait()
    window.controller.wait_for_jobs()
    window.close()
    settle(app)
    return first, complete


def panel_open(window: MainWindow, trace) -> float:
    """The Trace tab alone taking a built trace: lanes laid out, the mark placed, the first frame."""
    panel = window.trace_panel
    start = time.perf_counter()
    panel._request += 1
    panel._built(panel._request, trace, None)
    panel.waterfall.viewport().repaint()
    return time.perf_counter() - start


def frames(app, waterfall, step, count: int = 120) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        step()
        waterfall.viewport().repaint()  # paints now, as a frame of a drag would
        times.append(time.perf_counter() - start)
    return times


def median_ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(values) * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms   (n={len(values)})"


def main() -> None:
    isolate_home("pibrowser-bench-home-")  # the window's settings, recent files and caches: not the user's
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", type=Path, required=True, help="the session to measure (.jsonl or .jsonl.gz)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print_yardstick(args.file)
    app = make_application()
    with tempfile.TemporaryDirectory() as scratch:
        path = unpacked(args.file, Path(scratch))
        print(f"{path.name}: {path.stat().st_size / 1e6:.0f} MB · load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        window = MainWindow(restore_layout=False, interactive=False)
        window.resize(1600, 1000)
        window.show()
        if not wait_for_load(window.controller, lambda: window.open_path(path)):
            raise SystemExit(window.last_error)
        loaded = time.perf_counter()
        facts = window.trace_facts

        # What the window reads in the background once a session is open (the Trace tab behind
        # another): every entry's facts, then the trace of the leaf's path.
        while not (facts.complete and facts.prebuilt is not None):
            app.processEvents()
            facts.wait(20)
        print(
            f"background: facts of every entry and the leaf's trace ready {time.perf_counter() - loaded:6.2f} s after the"
            " session shows (read once the fold of pi's rules is done, beside the file's check)"
        )
        settle(app, 5)
        window.controller.wait_for_jobs()
        session = window.controller.session
        leaf = session.leaf_id
        other = next(key for key in reversed(session.leaves()) if key != leaf and len(session.path_to(key)) > 1000)
        window.trace_dock.raise_()
        settle(app)

        opens, others, wholes = [], [], []
        for _ in range(args.runs):
            others.append(open_trace(app, window, other))  # off the path shown: built now, from the shown one's runs
            opens.append(open_trace(app, window, leaf))  # the leaf's path: built ahead
        for _ in range(args.runs):
            start = time.perf_counter()
            build_trace(session.path_entries(other), facts.table)
            wholes.append(time.perf_counter() - start)
        print(f"open the leaf's path ({len(session.path_to(leaf)):,} entries): {median_ms(opens)}")
        print(f"open another branch ({len(session.path_to(other)):,} entries): {median_ms(others)}")
        print(f"  its trace built whole instead: {median_ms(wholes)}")
        prebuilt = facts.prebuilt
        print(f"  of which the tab alone:  {median_ms([panel_open(window, prebuilt) for _ in range(args.runs)])}")

        firsts, completes = [], []
        for _ in range(args.runs):
            open_trace(app, window, other)  # another path shown: the leaf's must be built
            facts.table, facts.prebuilt = FactsTable(), None
            first, complete = open_cold(app, window, leaf)
            firsts.append(first)
            completes.append(complete)
        print(f"open, cold (facts not read yet): first waterfall {median_ms(firsts)}")
        print(f"  the whole path's trace shown: {median_ms(completes)}")

        waterfall = window.trace_panel.waterfall
        waterfall.fit()
        lanes = len(window.trace_panel.lanes)
        print(f"pan, whole path ({lanes:,} lanes): {median_ms(frames(app, waterfall, lambda: waterfall.pan(-3)))}")
        waterfall.fit()
        waterfall.zoom(40)
        print(f"pan, zoomed in 40×:       {median_ms(frames(app, waterfall, lambda: waterfall.pan(-3)))}")
        window.trace_panel._set_all(True)
        waterfall.fit()
        bar = waterfall.verticalScrollBar()
        bar.setValue(bar.maximum() // 2)
        print(
            f"pan, every run open ({len(window.trace_panel.lanes):,} lanes): {median_ms(frames(app, waterfall, lambda: waterfall.pan(-3)))}"
        )
        print(f"scroll down a row:        {median_ms(frames(app, waterfall, lambda: bar.setValue(bar.value() + 20)))}")
        facts.wait()
        window.controller.wait_for_jobs()
        window.close()

        firsts, completes = [], []
        for _ in range(max(1, args.runs // 2)):
            first, complete = open_at_load(app, path)
            firsts.append(first)
            completes.append(complete)
        print(f"open at load (the tab in front): first waterfall {median_ms(firsts)}")
        print(f"  the whole path's trace shown: {median_ms(completes)}")

        start = time.perf_counter()
        result = subprocess.run([sys.executable, "-m", "pibrowser", "trace", str(path)], capture_output=True)
        print(
            f"pibrowser trace (json):   {time.perf_counter() - start:6.2f} s, {len(result.stdout) / 1e6:.1f} MB of rows, exit {result.returncode}"
        )


if __name__ == "__main__":
    main()
