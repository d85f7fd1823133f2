#!/usr/bin/env python3
"""Pictures of the Usage view for judging by eye (not a test): sizes, themes, folders.

    QT_QPA_PLATFORM=offscreen python benchmarks/usage_screenshots.py OUT_DIR [--folder NAME=DIR]...
        [--sizes 1000x700,1600x1000] [--themes light,dark]

Writes usage-NAME-WxH-THEME.png for the fixtures folder (tests/fixtures) and every --folder
given (a generated one: `benchmarks/bench_usage.py --dir DIR` writes one), in a throwaway
home. Open every picture: every axis, legend and label must read, nothing may overlap.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QEventLoop, QThreadPool, QTimer
from PySide6.QtWidgets import QApplication

from pibrowser.ui.window.app import make_application
from tests.home import isolate_home

REPO = Path(__file__).resolve().parent.parent


def wait_for(signal, timeout_ms: int = 600_000) -> None:
    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()


def shoot(view, sessions, folder: Path, out: Path, size: tuple[int, int]) -> None:
    view.resize(*size)
    view.show()
    if sessions.root != folder or sessions.usage is None:
        sessions.populate(folder)
        sessions.want_usage()
        while sessions.usage is None or sessions.reading_usage:
            wait_for(sessions.changed)
    view.redraw()
    app = QApplication.instance()
    for _ in range(10):
        app.processEvents()
    view.grab().save(str(out))
    print(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--folder", action="append", default=[], metavar="NAME=DIR")
    parser.add_argument("--sizes", default="1000x700,1600x1000")
    parser.add_argument("--themes", default="light,dark")
    parser.add_argument("--cache", type=Path, help="a cache folder that holds the folders' usage already (XDG_CACHE_HOME)")
    args = parser.parse_args()
    isolate_home("pibrowser-usage-shots-")
    if args.cache is not None:
        os.environ["XDG_CACHE_HOME"] = str(args.cache)
    app = make_application()
    from pibrowser.ui.control.controller import SessionController
    from pibrowser.ui.control.sessions_controller import SessionsController
    from pibrowser.ui.style.theme import ThemeSwitcher
    from pibrowser.ui.usage.usage_view import UsageView

    folders = {"fixtures": REPO / "tests" / "fixtures"}
    folders.update(dict((name, Path(path)) for name, path in (item.split("=", 1) for item in args.folder)))
    args.out.mkdir(parents=True, exist_ok=True)
    themes = ThemeSwitcher()
    controller = SessionController()
    sessions = SessionsController()
    view = UsageView(controller, sessions)
    for name, folder in folders.items():
        for theme in args.themes.split(","):
            themes.use(theme)
            app.processEvents()
            for size in args.sizes.split(","):
                width, height = map(int, size.split("x"))
                shoot(view, sessions, folder.resolve(), args.out / f"usage-{name}-{size}-{theme}.png", (width, height))
    QThreadPool.globalInstance().waitForDone()  # the session list may still be read: its thread ends before the application
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
