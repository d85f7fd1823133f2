"""The files the app ships inside its package (pibrowser/assets/): the demo session and the icon.

They are package data, found through importlib.resources, so an install that is not
editable (`pip install .`, a wheel, pipx) has them as a checkout does: the demo opens
on a machine without pi sessions, and the icon and desktop entry have their picture.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _asset(name: str) -> Path:
    # Installed as files (a checkout, a wheel, pipx): the resource is a path Qt can open. (From a
    # zip it would not be; Qt's own libraries cannot run from one either.)
    return Path(str(files(__package__ or "pibrowser").joinpath("assets", name)))


DEMO_SESSION = _asset("demo-session.jsonl")
ICON = _asset("pibrowser.svg")
