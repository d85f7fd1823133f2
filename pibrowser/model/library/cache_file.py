"""pibrowser's own cache files (the session list, the usage): written whole and atomically, kept per folder.

A cache is rewritten whole into a temporary file beside it and moved over it, so a second
process reading it sees the old one or the new one, never half of either. One that cannot
be written only costs time at the next run: that is logged, never raised.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path

log = logging.getLogger(__name__)


def write_whole(location: Path, data: bytes) -> bool:
    """`data` as the whole of `location`, atomically; False (and a warning in the log) when it cannot be written."""
    import tempfile  # (here: a run that writes no cache need not import it)

    temporary = None
    try:
        location.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{location.stem}-", dir=location.parent)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, location)
        return True
    except OSError as error:
        log.warning("%s cannot be written: %s", location, error)
        if temporary is not None:
            try:
                os.remove(temporary)
            except OSError:
                pass  # the warning above already says the cache was not written
        return False


def missing_under(keys: Iterable[str], root: Path, present: set[str]) -> list[str]:
    """The cached paths under `root` (or `root` itself) that are not `present` any more."""
    prefix = str(root).rstrip(os.sep) + os.sep
    return [key for key in keys if (key.startswith(prefix) or key == str(root)) and key not in present]
