"""The demo session, opened from the user's own copy so that labelling it never touches the one we ship."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from ...resources import DEMO_SESSION

log = logging.getLogger(__name__)

COPY_NAME = "demo-session.jsonl"


def demo_copy_path() -> Path:
    # The generic data folder plus our name (~/.local/share/pibrowser): AppDataLocation would
    # name us twice, as organization and as application.
    data = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(data) / "pibrowser" / COPY_NAME


def demo_copy() -> Path | None:
    """The user's copy of the demo, made (or renewed) from the shipped one; None when neither can be had.

    A copy the user has labelled still begins with the shipped bytes (labels are
    appended), so it is kept; a copy that does not is from an older demo and is replaced.
    """
    if not DEMO_SESSION.exists():
        return None
    target = demo_copy_path()
    shipped = DEMO_SESSION.read_bytes()
    try:
        if target.exists() and target.read_bytes().startswith(shipped):
            return target
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".partial")
        partial.write_bytes(shipped)
        partial.replace(target)
    except OSError as error:
        # A read-only home: better no demo than one we would write labels into.
        log.warning("the demo session cannot be copied to %s: %s", target, error)
        return None
    return target


def is_demo(path: Path | None) -> bool:
    if path is None:
        return False
    try:
        return path.resolve() == demo_copy_path().resolve()
    except OSError:
        return False
