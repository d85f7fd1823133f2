"""The stretch of a long path traced first: whole runs around an entry, found by reading a few lines.

The trace of a 90,000-entry path needs every entry's facts: its 150 MB of lines
read, a second or more when they were not read before. The runs around the
entry the user looks at are a few thousand entries, read and built in tens of
milliseconds: the Trace tab shows them first, then the whole path.

A stretch starts where a run surely starts (build.starts_a_run: a user prompt
that steers nothing and was not queued while a run went on), so its runs are the
path's own, only not numbered as on the path: how many runs come before is not
known until the path is read. It ends where the entry's run ends (the next sure
start after it) or with the path, and reaches back over whole runs until it
holds `least` entries.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..session.entry import Entry
from .agent_loop import starts_a_run
from .table import FactsTable

STRETCH_ENTRIES = 2000  # about 25 ms of lines to read: the entry's run and runs before it


def stretch_around(path: Sequence[Entry], place: int, table: FactsTable, least: int = STRETCH_ENTRIES) -> tuple[int, int]:
    """(first, end): the places on `path` of the stretch `path[first:end]` around `path[place]`.
    Reads into `table` only the prompts it looks at and the entries just before them."""
    end = next((at for at in range(place + 1, len(path)) if starts_a_run(path, at, table)), len(path))
    first = _start_at_or_before(path, place, table)
    while first > 0 and end - first < least:
        first = _start_at_or_before(path, first - 1, table)
    return first, end


def _start_at_or_before(path: Sequence[Entry], place: int, table: FactsTable) -> int:
    return next((at for at in range(place, 0, -1) if starts_a_run(path, at, table)), 0)
