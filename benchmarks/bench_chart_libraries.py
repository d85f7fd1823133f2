#!/usr/bin/env python3
"""Qt Charts against pyqtgraph for the Usage view: start-up cost, memory, and drawing 1,000 stacked bars.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_chart_libraries.py [--runs 3]

Each library is measured in a fresh process (its import is part of what it costs): the import,
building a chart of 1,000 periods x 4 stacked series, the first and later renders of it at
1600x1000, and the resident memory it added. pyqtgraph (and numpy) are not dependencies: a
library that is not installed is said so and skipped. The figures that chose Qt Charts are
in the commit that added it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PERIODS, SERIES = 1000, 4


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def measure(library: str) -> None:
    """In this process: one library's figures, printed as one line."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    base = rss_mb()
    rng = random.Random(0)
    data = [[rng.random() * 10 for _ in range(PERIODS)] for _ in range(SERIES)]
    start = time.perf_counter()
    if library == "qtcharts":
        from PySide6.QtCharts import QBarCategoryAxis, QBarSet, QChart, QChartView, QStackedBarSeries, QValueAxis

        imported = time.perf_counter() - start
        start = time.perf_counter()
        series = QStackedBarSeries()
        for number, values in enumerate(data):
            bars = QBarSet(f"s{number}")
            bars.append(values)
            series.append(bars)
        chart = QChart()
        chart.addSeries(series)
        x, y = QBarCategoryAxis(), QValueAxis()
        x.append([str(index) for index in range(PERIODS)])
        chart.addAxis(x, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(y, Qt.AlignmentFlag.AlignLeft)
        series.attachAxis(x)
        series.attachAxis(y)
        view = QChartView(chart)
    else:
        import numpy
        import pyqtgraph

        imported = time.perf_counter() - start
        start = time.perf_counter()
        view = pyqtgraph.PlotWidget()
        x, bottom = numpy.arange(PERIODS), numpy.zeros(PERIODS)
        for number, values in enumerate(data):
            heights = numpy.array(values)
            view.addItem(pyqtgraph.BarGraphItem(x=x, height=heights, y0=bottom.copy(), width=0.8, brush=pyqtgraph.intColor(number)))
            bottom += heights
    built = time.perf_counter() - start
    view.resize(1600, 1000)
    view.show()
    app.processEvents()
    renders = []
    for _ in range(5):
        start = time.perf_counter()
        view.grab()
        renders.append(time.perf_counter() - start)
    print(
        f"{library}: import {imported * 1000:.0f} ms, build {built * 1000:.0f} ms, first render {renders[0] * 1000:.0f} ms, "
        f"later renders median {statistics.median(renders[1:]) * 1000:.0f} ms, memory +{rss_mb() - base:.0f} MB",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--one", choices=("qtcharts", "pyqtgraph"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        measure(args.one)
        return 0
    from benchmarks.yardstick import print_yardstick

    print_yardstick()
    for library, module in (("qtcharts", "PySide6.QtCharts"), ("pyqtgraph", "pyqtgraph")):
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
        if probe.returncode != 0:
            print(f"{library}: not installed, skipped")
            continue
        for _ in range(args.runs):
            subprocess.run([sys.executable, __file__, "--one", library], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
