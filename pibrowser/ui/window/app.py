"""Starting the application: choose what to open, then show the window (or render it and exit)."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QEventLoop, QTimer, qVersion
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from ... import __version__
from ...failure import fail
from ...model.library.discovery import initial_path, start_target
from ...model.workspace import Change
from ...resources import ICON
from .demo import demo_copy
from ..control.gui_collector import collect_on_gui_thread
from ..style.scroll_bars import use_flat_scroll_bars
from .main_window import MainWindow
from .qt_messages import keep_harmless_messages_quiet

log = logging.getLogger(__name__)


def make_application(argv: list[str] | None = None) -> QApplication:
    keep_harmless_messages_quiet()
    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    assert isinstance(app, QApplication), "the window needs a QApplication, not a bare QCoreApplication"
    QCoreApplication.setOrganizationName("pibrowser")
    QCoreApplication.setApplicationName("pibrowser")
    QApplication.setDesktopFileName("pibrowser")  # Wayland compositors match the window to the installed entry
    if ICON.exists():
        app.setWindowIcon(QIcon(str(ICON)))
    collect_on_gui_thread(app)
    use_flat_scroll_bars(app)
    return app


def run_app(args: argparse.Namespace) -> int:
    if args.screenshot is not None:
        try:
            window_size(args.size)  # before any window: a size that cannot be is one line, not a traceback
        except ValueError as error:
            return fail(str(error))
    app = make_application()
    log.info("pibrowser %s starts (Qt %s, Python %s)", __version__, qVersion(), sys.version.split()[0])
    sys.excepthook = _log_uncaught
    window = MainWindow(restore_layout=args.screenshot is None, interactive=args.screenshot is None)
    if args.theme:
        window.themes.use(args.theme)
    target = start_target(args.path, demo=demo_copy)
    if args.screenshot is not None:
        try:
            return _screenshot(app, window, target, args)
        finally:
            # Background work may still run, whichever way the run ends: let it end before the
            # window and the objects it reports to are deleted.
            window.wind_down()
    window.show()
    if target is not None:
        window.open_path(target)
    try:
        return app.exec()
    finally:
        window.wind_down()


def _log_uncaught(kind, value, traceback) -> None:
    """An error no slot caught (Qt carries on after it): into the log, and to stderr as before."""
    log.critical("uncaught error", exc_info=(kind, value, traceback))
    sys.__excepthook__(kind, value, traceback)


MAX_SIDE = 8192  # pixels: a picture that size is 256 MB already; Qt's painter gives up on much larger ones


def window_size(text: str) -> tuple[int, int]:
    """`WxH` as two numbers of pixels, each from 1 to MAX_SIDE; ValueError saying what is wrong otherwise."""
    width, cross, height = text.lower().partition("x")
    if not (cross and width.isdecimal() and height.isdecimal() and int(width) > 0 and int(height) > 0):
        raise ValueError(f"--size {text!r}: expected width x height in pixels, like 1400x900")
    if int(width) > MAX_SIDE or int(height) > MAX_SIDE:
        raise ValueError(f"--size {text!r}: at most {MAX_SIDE} pixels a side")
    return int(width), int(height)


def _screenshot(app: QApplication, window, target: Path | None, args: argparse.Namespace) -> int:
    size = window_size(args.size)  # checked in run_app
    window.resize(*size)
    if target is not None and target.is_dir() and initial_path(target) is None:
        return fail(f"{target}: no session files in this folder")  # nothing will load: say so now
    if target is not None:
        # Loaded before the window is shown: a file that cannot open ends the run with one line.
        ok = wait_for_load(window.controller, lambda: window.open_path(target))
        if not ok:
            return fail(window.last_error or "loading timed out")
    # Every id is checked before the window is shown, so a failed run prints only its one line.
    session = window.controller.session
    wanted = ([args.select] if args.select else []) + list(getattr(args, "compare", None) or [])
    unknown = [key for key in wanted if session is None or key not in session.entries]
    if unknown:
        return fail(f"{target}: no entry with id {unknown[0]!r}")
    window.show()
    if args.select:
        window.controller.select(args.select)
    if getattr(args, "compare", None):
        window.controller.set_compare(*args.compare)
    for _ in range(5):
        app.processEvents()
    _wait_for_answers(window)
    QTimer.singleShot(50, app.quit)
    app.exec()
    if not window.grab().save(str(args.screenshot)):
        return fail(f"cannot write {args.screenshot}")
    return 0


def _wait_for_answers(window, timeout_ms: int = 60_000) -> None:
    """A long path's timeline is walked, and the selected node's context worked out, in the
    background: let both land before the picture (not "Working out the context…")."""
    controller, panel = window.controller, window.context_panel
    wait_until(
        lambda: (
            not (
                controller.working_ahead
                or window.timeline.busy
                or not controller.answers_now(controller.selected)
                or panel.working_out is not None  # the answers are in; the panel shows them at its next turn
            )
        ),
        timeout_ms,
    )


def wait_until(condition: Callable[[], bool], timeout_ms: int, poll_ms: int = 50) -> bool:
    """Run the event loop until `condition()` holds (asked every `poll_ms`) or `timeout_ms` passes;
    whether it holds. The loop sleeps between events: processEvents(WaitForMoreEvents, ms) does not
    wait (the flag is ignored with a time), and spinning on it took a core from the background work
    being waited for (a million-entry session's screenshot spent half its time there)."""
    if condition():
        return True
    loop, deadline = QEventLoop(), QDeadlineTimer(timeout_ms)
    poll = QTimer(interval=poll_ms)

    def look() -> None:
        if condition() or deadline.hasExpired():
            loop.quit()

    poll.timeout.connect(look)
    poll.start()
    loop.exec()
    poll.stop()
    return condition()


def wait_for_load(controller, start, timeout_ms: int = 120_000) -> bool:
    """Run `start` and spin an event loop until the controller reports the result."""
    loop = QEventLoop()
    outcome: list[bool] = []

    def done(ok: bool) -> None:
        outcome.append(ok)
        loop.quit()

    def on_change(change: Change) -> None:
        if change.replaced:
            done(True)

    on_failed = lambda message: done(False)  # noqa: E731
    controller.changed.connect(on_change)
    controller.loadFailed.connect(on_failed)
    QTimer.singleShot(timeout_ms, loop.quit)
    start()
    if not outcome:
        loop.exec()
    controller.changed.disconnect(on_change)
    controller.loadFailed.disconnect(on_failed)
    return bool(outcome and outcome[0])
