"""Where the docks sit: a first layout that suits the window's width, and the user's own kept across runs."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabBar

GEOMETRY, STATE = "window/geometry", "window/state"
SHORT, NARROW = 800, 1200  # a first window smaller than this tabs its docks with the context


def default_dock_widths(width: int, sessions_shown: bool) -> tuple[int, int]:
    """(context, sessions) widths for a fresh window `width` pixels wide.

    The tree keeps at least 40% (the side panels share the rest); the context
    panel gets enough for cards to read (320 px) and no more than 620.
    """
    sessions = min(300, max(180, width * 18 // 100)) if sessions_shown else 0
    context = min(620, max(320, width * 40 // 100))
    spare = width * 60 // 100 - sessions - context
    if spare < 0:  # a narrow window: the side panels give back what the tree needs, the list first
        cut = min(-spare, max(0, sessions - 160))
        sessions -= cut
        context = max(300, context + spare + cut)
    return context, sessions


def tab_docks_for_size(
    window: QMainWindow, context_dock: QDockWidget, bottom_docks: Sequence[QDockWidget], sessions_dock: QDockWidget, width: int, height: int
) -> None:
    """The first run's docks for a window this size: a small one tabs them together with the
    context (the bottom docks when short, the sessions list when narrow), so the tree keeps its
    room; the user's own changes are kept from then on (restoreState)."""
    context_area = window.dockWidgetArea(context_dock)
    if height < SHORT and bottom_docks and window.dockWidgetArea(bottom_docks[0]) != context_area:
        for dock in bottom_docks:
            window.tabifyDockWidget(context_dock, dock)
    if width < NARROW and window.dockWidgetArea(sessions_dock) != context_area:
        window.tabifyDockWidget(context_dock, sessions_dock)
    context_dock.raise_()


def apply_default_layout(window: QMainWindow, context_dock: QDockWidget, sessions_dock: QDockWidget) -> None:
    """Size the side docks for the window's width (see default_dock_widths); a narrow window has
    the sessions list tabbed with the context (tab_docks_for_size), so it takes no width of its own."""
    context, sessions = default_dock_widths(window.width(), sessions_dock.isVisible() and window.width() >= NARROW)
    docks, widths = [context_dock], [context]
    if sessions:
        docks.append(sessions_dock)
        widths.append(sessions)
    window.resizeDocks(docks, widths, Qt.Orientation.Horizontal)


def restore_layout(window: QMainWindow) -> bool:
    """The window and panels as the user left them; False when there is nothing to restore."""
    settings = QSettings()
    geometry, state = settings.value(GEOMETRY), settings.value(STATE)
    if geometry is not None:
        window.restoreGeometry(geometry)
    if state is not None:
        window.restoreState(state)
    return state is not None


def save_layout(window: QMainWindow) -> None:
    settings = QSettings()
    settings.setValue(GEOMETRY, window.saveGeometry())
    settings.setValue(STATE, window.saveState())


def show_whole_titles(tab_bar: QTabBar) -> None:
    """Docks tabbed together show each title whole, with arrows to scroll the tabs when they do not
    all fit: Qt elides them by default, and on a small window every tab read "Co…"."""
    tab_bar.setElideMode(Qt.TextElideMode.ElideNone)
    tab_bar.setUsesScrollButtons(True)
