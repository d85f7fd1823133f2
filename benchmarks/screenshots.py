#!/usr/bin/env python3
"""Pictures of the window for judging by eye (not a test): sizes, themes, files, the map and the outline.

    QT_QPA_PLATFORM=offscreen python benchmarks/screenshots.py OUT_DIR [--sizes 800x600,1000x700,1600x1000]
        [--themes light,dark] [--files s5,demo] [--views map,outline] [--zooms fit,100] [--compare]

Writes one PNG per combination, named file-view-zoom-size-theme[-compare].png. Each run
starts in a throwaway home of its own (tests/home.py), so the layout is the first-run one:
the sizes a user sets are not what is judged here. The compared pairs are two far-apart
leaves of each file (for generated-s5 the pair a tester reported: 931951b9 and ecdfd5fa).
Open every picture: each piece of text must be whole or elided on purpose (with a
tooltip), and nothing may overlap.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QEvent, QThreadPool

from pibrowser.ui.window.app import make_application, wait_for_load, wait_until
from tests.home import isolate_home

REPO = Path(__file__).resolve().parent.parent
FILES = {
    "s5": (REPO / "tests" / "fixtures" / "generated-s5.jsonl", "931951b9", "ecdfd5fa"),
    "demo": (REPO / "pibrowser" / "assets" / "demo-session.jsonl", None, None),
}


def settle(app, turns: int = 6) -> None:
    for _ in range(turns):
        app.processEvents()
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


def far_leaves(session) -> tuple[str, str]:
    """Two leaves whose paths part early: the first leaf and the last, in file order."""
    leaves = session.leaves()
    return leaves[0], leaves[-1]


def shoot(app, out: Path, name: str, size: tuple[int, int], theme: str, view: str, zoom: str, compare: bool) -> Path:
    from pibrowser.ui.window.main_window import MainWindow

    path, left, right = FILES[name]
    window = MainWindow(restore_layout=False, interactive=False)
    window.themes.use(theme)
    window.resize(*size)
    window.show()
    settle(app)
    if not wait_for_load(window.controller, lambda: window.open_path(path)):
        raise SystemExit(f"{path}: {window.last_error}")
    settle(app)
    tree = window.tree.view
    tree.mode.switch(view)
    if compare:
        if left is None:
            left, right = far_leaves(window.controller.session)
        window.controller.select(left)
        settle(app)
        window.controller.set_compare(left, right)
    settle(app)
    if zoom == "fit":
        tree.fit()
    else:
        tree.zoom_by(1.0 / tree.zoom_factor())
        key = window.controller.selected
        if key is not None:
            tree.scroll_to(key, center=True)
    settle(app)
    window.controller.wait_for_jobs()
    wait_until(lambda: not window.timeline.busy, 600_000)  # a long path's timeline is walked in the background
    settle(app)
    target = out / f"{name}-{view}-{zoom}-{size[0]}x{size[1]}-{theme}{'-compare' if compare else ''}.png"
    window.grab().save(str(target))
    window.close()
    window.deleteLater()
    settle(app)
    return target


def main() -> int:
    isolate_home("pibrowser-bench-home-")  # the window's settings, recent files and caches: not the user's
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sizes", default="800x600,1000x700,1600x1000")
    parser.add_argument("--themes", default="light,dark")
    parser.add_argument("--files", default="s5,demo")
    parser.add_argument("--views", default="map,outline")
    parser.add_argument("--zooms", default="fit,100")
    parser.add_argument("--compare", action="store_true", help="also each picture in compare mode")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    app = make_application()
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    for name in args.files.split(","):
        for size in sizes:
            for theme in args.themes.split(","):
                for view in args.views.split(","):
                    for zoom in args.zooms.split(","):
                        for compare in (False, True) if args.compare else (False,):
                            print(shoot(app, args.out, name, size, theme, view, zoom, compare))
    QThreadPool.globalInstance().waitForDone()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
