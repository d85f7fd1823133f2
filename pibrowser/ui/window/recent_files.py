"""File ▸ Open Recent: the files last opened, kept in the settings, listed while they still exist."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QSettings
from PySide6.QtWidgets import QMenu

MAX_RECENT = 10
SETTING = "recentFiles"


def recent_files() -> list[str]:
    """The recent files as saved, newest first (QSettings gives a lone name as a string)."""
    recent = QSettings().value(SETTING) or []
    return [recent] if isinstance(recent, str) else [str(name) for name in recent]


class RecentFiles(QObject):
    """Fills `menu` with the recent files; choosing one calls `open_path`, or `say`s it is gone."""

    def __init__(self, menu: QMenu, open_path: Callable[[str], None], say: Callable[[str], None], keep: bool = True) -> None:
        super().__init__(menu)
        self.menu, self._open_path, self._say = menu, open_path, say
        self._keep = keep  # False: the list is read, never written (a run that is not the user's, a screenshot)
        menu.aboutToShow.connect(self.refresh)  # files come and go while the window is open
        self.refresh()

    def remember(self, path: Path) -> None:
        self._save([str(path)] + [name for name in recent_files() if name != str(path)])

    def forget(self, path: Path) -> None:
        self._save([name for name in recent_files() if name != str(path)])

    def _save(self, recent: list[str]) -> None:
        self._store(recent[:MAX_RECENT])
        self.refresh()

    def _store(self, recent: list[str]) -> None:
        if self._keep:
            QSettings().setValue(SETTING, recent)

    def refresh(self) -> None:
        """The menu lists the recent files that still exist; vanished ones are dropped from it and from the list."""
        recent = recent_files()
        present = [name for name in recent if Path(name).exists()]
        if present != recent:
            self._store(present)
        self.menu.clear()
        for name in present:
            action = self.menu.addAction(name.replace("&", "&&"))
            action.triggered.connect(lambda checked=False, name=name: self.open(name))
        self.menu.setEnabled(bool(present))

    def open(self, name: str) -> None:
        """A recent file deleted or moved since the menu showed it: say so in the status bar, and forget it."""
        if not Path(name).exists():
            self._say(f"{name} no longer exists")
            self.forget(Path(name))
            return
        self._open_path(name)
