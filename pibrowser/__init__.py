"""pibrowser: look inside the session files of the pi coding agent.

From Python: `pibrowser.open_session(path)` reads a session file; its `.graph`
is the session as a networkx DiGraph and its `.session` the whole model (see
pibrowser/api.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from pathlib import Path

    from .api import OpenSession


def open_session(path: str | Path) -> OpenSession:
    """Read a pi session file: `.session` (entries, tree, labels, problems), `.graph` (a networkx
    DiGraph of the entries, parent → child), `.context(key)`. See pibrowser/api.py."""
    from .api import open_session as open_file  # the window and the commands never pay for it

    return open_file(path)
