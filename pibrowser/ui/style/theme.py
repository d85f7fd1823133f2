"""View ▸ Theme: System, Light or Dark, remembered; with System the window follows the desktop live."""

from __future__ import annotations

from enum import Enum

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QMenu

SETTING = "view/theme"


class Theme(str, Enum):
    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


def dark_palette() -> QPalette:
    """A dark palette for the Fusion-like styles Qt uses on Linux when the desktop offers none."""
    window, base, text = QColor("#202124"), QColor("#17181a"), QColor("#e8eaed")
    palette = QPalette()
    for role, color in (
        (QPalette.ColorRole.Window, window),
        (QPalette.ColorRole.WindowText, text),
        (QPalette.ColorRole.Base, base),
        (QPalette.ColorRole.AlternateBase, QColor("#26282b")),
        (QPalette.ColorRole.ToolTipBase, QColor("#2d2f33")),
        (QPalette.ColorRole.ToolTipText, text),
        (QPalette.ColorRole.PlaceholderText, QColor("#9aa0a6")),
        (QPalette.ColorRole.Text, text),
        (QPalette.ColorRole.Button, QColor("#2b2d31")),
        (QPalette.ColorRole.ButtonText, text),
        (QPalette.ColorRole.BrightText, QColor("#ff6b6b")),
        (QPalette.ColorRole.Light, QColor("#3c3f44")),
        (QPalette.ColorRole.Midlight, QColor("#33363a")),
        (QPalette.ColorRole.Mid, QColor("#2a2c30")),
        (QPalette.ColorRole.Dark, QColor("#111214")),
        (QPalette.ColorRole.Shadow, QColor("#000000")),
        (QPalette.ColorRole.Highlight, QColor("#3b82f6")),
        (QPalette.ColorRole.HighlightedText, QColor("#ffffff")),
        (QPalette.ColorRole.Link, QColor("#8ab4f8")),
        (QPalette.ColorRole.LinkVisited, QColor("#c58af9")),
    ):
        palette.setColor(role, color)
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7c8087"))
    return palette


class ThemeSwitcher(QObject):
    """Applies the chosen theme to the application and offers the View ▸ Theme menu.

    With System the desktop's colour scheme decides, and a change of it (Qt's
    colorSchemeChanged) is applied as it happens.
    """

    changed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        app = QApplication.instance()
        assert isinstance(app, QApplication), "the theme is the running QApplication's"
        initial = app.palette()
        # The desktop's own palette when it is a light one; started under a dark desktop, the style's.
        started_dark = initial.color(QPalette.ColorRole.Window).lightness() < 128
        self._light = app.style().standardPalette() if started_dark else initial
        self._dark_applied = started_dark
        value = QSettings().value(SETTING, Theme.SYSTEM.value)
        self.theme = Theme(value) if value in {theme.value for theme in Theme} else Theme.SYSTEM  # another version's value: the default
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._system_changed)
        self.actions: dict[Theme, QAction] = {}

    def menu(self, parent) -> QMenu:
        menu = QMenu("&Theme", parent)
        group = QActionGroup(menu)
        for theme, text in ((Theme.SYSTEM, "&System"), (Theme.LIGHT, "&Light"), (Theme.DARK, "&Dark")):
            action = QAction(text, menu, checkable=True)
            action.setChecked(theme is self.theme)
            action.triggered.connect(lambda checked=False, theme=theme: self.set_theme(theme))
            group.addAction(action)
            menu.addAction(action)
            self.actions[theme] = action
        return menu

    def use(self, theme: Theme | str) -> None:
        """Apply `theme` for this run only (the command line's --theme): the remembered choice stays."""
        self.theme = Theme(theme)
        if self.theme in self.actions:
            self.actions[self.theme].setChecked(True)
        self.apply()

    def set_theme(self, theme: Theme) -> None:
        QSettings().setValue(SETTING, Theme(theme).value)
        self.use(theme)

    def apply(self, system_scheme: Qt.ColorScheme | None = None) -> None:
        hints = QGuiApplication.styleHints()
        if self.theme is Theme.SYSTEM:
            hints.unsetColorScheme()
            scheme = system_scheme if system_scheme is not None else hints.colorScheme()
            dark = scheme == Qt.ColorScheme.Dark
        else:
            dark = self.theme is Theme.DARK
            hints.setColorScheme(Qt.ColorScheme.Dark if dark else Qt.ColorScheme.Light)
        if dark or self._dark_applied:  # a light desktop's palette is left as Qt set it
            QApplication.setPalette(dark_palette() if dark else self._light)
        self._dark_applied = dark
        self.changed.emit("dark" if dark else "light")

    def _system_changed(self, scheme: Qt.ColorScheme) -> None:
        if self.theme is Theme.SYSTEM:
            self.apply(scheme)
