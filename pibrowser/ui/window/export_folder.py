"""Where File ▸ Export Tree Image proposes to write, remembered in the settings between runs."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

EXPORT_FOLDER_SETTING = "export/folder"


def export_folder() -> str:
    """The folder used last, else Pictures, else home; never beside the session, inside pi's
    sessions folder."""
    last = QSettings().value(EXPORT_FOLDER_SETTING)
    if isinstance(last, str) and Path(last).is_dir():
        return last
    pictures = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.PicturesLocation)
    return pictures if pictures and Path(pictures).is_dir() else str(Path.home())


def remember_export_folder(folder: Path) -> None:
    QSettings().setValue(EXPORT_FOLDER_SETTING, str(folder))
