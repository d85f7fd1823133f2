"""The Usage view's part of bench_usage.py: opening it once the folder is cached, and redrawing a grouping.

Run through bench_usage.py (which makes the folder and reads it once); on its own:

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_usage_view.py DIR
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def measure_view(root: Path, repeat: int = 5) -> None:
    from PySide6.QtCore import QEventLoop, Qt, QThreadPool, QTimer

    from pibrowser.model.library.session_list import scan_sessions
    from pibrowser.model.usage.cache import UsageCache
    from pibrowser.model.usage.folder_cells import folder_cells
    from pibrowser.model.usage.periods import Calendar, zone_named
    from pibrowser.ui.window.app import make_application
    from pibrowser.ui.window.main_window import MainWindow

    start = time.perf_counter()
    scan_sessions(root)  # the session list cached, as a window that listed the folder once has it
    folder_cells(root, UsageCache.default(), Calendar(zone_named("local")))  # as the window reads it
    print(f"session list and usage cached in {time.perf_counter() - start:.1f} s", flush=True)
    app = make_application()
    opened, cpu = [], []
    for _ in range(repeat):
        window = MainWindow(restore_layout=False, interactive=False)
        window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
        window.resize(1600, 1000)
        window.show()
        listed = QEventLoop()
        window.sessions.scanned.connect(listed.quit)
        window.sessions.populate(root)
        listed.exec()
        view = window.usage_dock.widget()
        loop = QEventLoop()
        view.drawn.connect(lambda: loop.quit() if view.stacks is not None else None)
        QTimer.singleShot(60_000, loop.quit)
        began, began_cpu = time.perf_counter(), time.process_time()
        window.usage_action.trigger()
        loop.exec()
        view.stacked.viewport().repaint()
        view.hits.viewport().repaint()
        opened.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
        redraws = []
        for series, period in (("project", "day"), ("model", "week"), ("project", "month"), ("model", "day")):
            began = time.perf_counter()
            view.series_box.setCurrentIndex(view.series_box.findData(series))
            view.period_box.setCurrentIndex(view.period_box.findData(period))
            view.stacked.viewport().repaint()
            view.hits.viewport().repaint()
            redraws.append((time.perf_counter() - began) / 2)  # two redraws: one per box
        window.close()
        window.wind_down()
        window.deleteLater()
        app.processEvents()
    QThreadPool.globalInstance().waitForDone()
    print(
        f"Usage view opens (View > Usage to both charts painted, list and usage cached): median {statistics.median(opened) * 1000:,.0f} ms wall, "
        f"{statistics.median(cpu) * 1000:,.0f} ms CPU (runs {', '.join(f'{value * 1000:,.0f}' for value in opened)} ms; target <= 500 ms)",
        flush=True,
    )
    print(
        f"a change of grouping redrawn and painted: median {statistics.median(redraws) * 1000:,.0f} ms, worst {max(redraws) * 1000:,.0f} ms "
        f"(last run's; target <= 100 ms); {len(view.stacks.periods)} periods x {len(view.stacks.series)} series at the last",
        flush=True,
    )


if __name__ == "__main__":
    from tests.home import isolate_home

    isolate_home("pibrowser-bench-usage-view-")
    measure_view(Path(sys.argv[1]))
