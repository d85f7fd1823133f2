"""Work for a tab only while it is shown: a tab behind another is still visible to Qt.

A dock tabbed behind another keeps `isVisible()` true; only the dock's
`visibilityChanged` says whether its tab is the one shown. A panel that works
out something long (a trace, a path's files) asks this helper to run its
`refresh` when what it shows changed, at once if its tab is shown, else when
it is shown next.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QDockWidget, QWidget


class WhenShown(QObject):
    def __init__(self, widget: QWidget, refresh: Callable[[], None]) -> None:
        super().__init__(widget)
        self.widget, self.refresh = widget, refresh
        self.dirty = True  # what it shows changed since the last refresh
        self.shown: bool | None = None  # told by the dock it follows; None: shown whenever visible
        widget.installEventFilter(self)

    def changed(self) -> None:
        self.dirty = True
        if self.active():
            self._run()

    def follow(self, dock: QDockWidget) -> None:
        """Work only while `dock`'s tab is the one shown. Until the dock says it shows, it is taken
        as hidden: at the window's first show its widgets see a Show event before the tabs are
        sorted out, and a tab behind would have started its long work for nothing."""
        self.shown = False
        dock.visibilityChanged.connect(self.set_shown)

    def set_shown(self, shown: bool) -> None:
        """Connected to the dock's visibilityChanged."""
        self.shown = shown
        if shown and self.dirty and self.widget.isVisible():
            self._run()

    def active(self) -> bool:
        return self.widget.isVisible() and self.shown is not False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and self.dirty and self.active():
            self._run()
        return False

    def _run(self) -> None:
        self.dirty = False
        self.refresh()
