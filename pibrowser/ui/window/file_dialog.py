"""Asking for a file or folder without a modal loop of its own.

QFileDialog.getOpenFileName and its kin run a loop of their own, which nothing may wait
on (a test choosing the menu entry hung there): the dialog is opened with open(), and
its answer handed on when the user gives it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QFileDialog, QWidget


def ask_for_path(
    parent: QWidget,
    title: str,
    start: str,
    mode: QFileDialog.FileMode,
    chosen: Callable[[QFileDialog, str], object],
    filters: str = "",
    save: bool = False,
) -> QFileDialog:
    """Open a file dialog (`save`: one that asks where to write); `chosen(dialog, name)` runs on the answer."""
    dialog = QFileDialog(parent, title, start, filters)
    dialog.setFileMode(mode)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, mode == QFileDialog.FileMode.Directory)
    if save:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.fileSelected.connect(lambda name: chosen(dialog, name))
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog
