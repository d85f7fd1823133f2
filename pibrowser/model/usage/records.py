"""One file's usage records, in packed columns: what each recorded, when, under which model; and their runs.

A record is one entry pi's session statistics (getSessionStats) add a usage for: an
assistant reply, a `usage` entry, a tool result that carries a usage, a branch summary or
a compaction that does. A folder holds hundreds of thousands, and a run of `pibrowser
usage` must not build an object per record: the columns are packed arrays (the cache
stores their bytes as they are), and each file also keeps its records summed into runs
(`Run`s: consecutive records of one quarter hour and one model key), which are what a
grouping reads unless a filter or a copy elsewhere asks for the records themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from ..js.value import MISSING
from ..library.discovery import cwd_from_folder

# What kind of entry recorded the usage.
REPLY, USAGE_ENTRY, TOOL_RESULT, SUMMARY = 0, 1, 2, 3
TOOLS_AND_SUMMARIES = "Tools/summaries"  # pi's cost breakdown files tool results and summaries here
NO_LEVEL = "off"  # pi's thinking level before any entry sets one
NO_TIME = -(2**63)  # in `times`: the record's time cannot be read
NO_KEY = 0  # in `keys`: the record has no identity across copies (no string id)
BUCKET_MS = 15 * 60_000  # a run's span: every time zone since 1970 is a whole number of quarter hours from UTC
FIGURES = 5  # input, output, cache read, cache write, cost: as pi adds them up (addUsageToTotals)

Figures = list[Any]  # the five sums: floats, or what JS's + made of odd values


class FileUsage(msgspec.Struct, array_like=True):
    """A session file's usage records, their runs, and what reading it on from where it stopped needs.

    Strings (providers, models, model keys, levels, tool names) are stored once in `names` and
    named by index. A figure that is not a plain number in the file (missing, null, a string…)
    is NaN in `figures`, and the five values as pi would add them are in `odd`: record index →
    each `[]` for undefined or `[value]`; `odd[index] == []` is a reply without a usage object.
    """

    file: str
    size: int = -1
    mtime_ns: int = 0
    header_found: bool = False
    # the session
    session: str | None = None
    cwd: str = ""
    started: int | None = None  # the header's time, epoch ms: the older of two files holding a reply wrote it first
    parent_session: str | None = None
    legacy: bool = False  # version 1: ids made from the lines, as on loading
    problem: str | None = None  # not a session: the reason
    name: str | None = None  # the latest session_info name
    first_message: str | None = None
    names: list[str] = msgspec.field(default_factory=list)
    count: int = 0  # how many records
    keys: bytes = b""  # a 64-bit digest of each record's identity across copies (ledger.py), NO_KEY for none
    # the records summed: runs, and the whole file as pi sums a session
    run_buckets: bytes = b""  # q: the quarter hour (epoch ms // BUCKET_MS), NO_TIME where unknown
    run_keys: bytes = b""  # I: names, the model key
    run_counts: bytes = b""  # I: replies, records, tool calls, three per run
    run_figures: bytes = b""  # d: five per run
    run_odd: dict[int, list[Any]] = msgspec.field(default_factory=dict)  # a run's five sums where one is not a float
    first_time: int | None = None
    last_time: int | None = None
    total: list[Any] = msgspec.field(default_factory=lambda: [0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0.0])  # replies, records, tools, five sums
    # The fields from here on (APART) are kept apart by the cache, and read back only when a file's records are
    # summed one by one (a fork's, one a time filter cuts) or it is read on (cache.py): what a run over
    # unchanged files reads is the fields above.
    records_apart: bool = False  # the fields below are in the cache's store, not here
    # reading on from where it stopped (session/same_file.ReadMark, and the line count)
    consumed: int = 0
    head: bytes = b""
    fingerprint: bytes = b""
    next_line: int = 1
    # the thinking level of the last entries read, to give appended entries theirs (level → their ids, NUL between)
    levels: dict[str, str] = msgspec.field(default_factory=dict)
    last_id: str | None = None  # the entry read last (a version 1 file's next entry's parent)
    # the records, in file order, packed (array typecodes: TYPECODES)
    times: bytes = b""  # epoch ms, NO_TIME where unknown
    kinds: bytes = b""
    providers: bytes = b""  # names
    models: bytes = b""  # names
    model_keys: bytes = b""  # names: pi's cost breakdown key, provider/model or Tools/summaries
    thinking: bytes = b""  # names
    tool_calls: bytes = b""  # how many tool calls each record made (a reply's)
    figures: bytes = b""  # five per record
    tool_names: bytes = b""  # names, every record's calls one after the other
    odd: dict[int, list[list[Any]]] = msgspec.field(default_factory=dict)

    def __len__(self) -> int:
        return self.count

    @property
    def records_held(self) -> bool:
        """Whether the record columns (and the rest of APART) are here, not only in the cache's store."""
        return not self.records_apart

    @property
    def project(self) -> str:
        """The folder the session ran in (its cwd); else the file's folder, as the session list says it."""
        return self.cwd if self.cwd else cwd_from_folder(Path(self.file).parent.name)

    @property
    def title(self) -> str:
        """What a person reads for the session: its name, else its first words, else the file's name."""
        return self.name or self.first_message or Path(self.file).name

    def column(self, name: str) -> memoryview:
        """A packed column, read in place (a copy to change is `array(TYPECODES[name], column)`)."""
        view: Any = memoryview(getattr(self, name))  # Any: the checker wants the typecode as a literal
        return view.cast(TYPECODES[name])

    def record_figures(self, index: int, figures: memoryview | None = None) -> tuple[Any, ...] | None:
        """Record `index`'s five figures as pi adds them: numbers, or the odd values themselves (MISSING
        for undefined); None for a reply without a usage object (counted, adding nothing)."""
        odd = self.odd.get(index)
        if odd is None:
            values = figures if figures is not None else self.column("figures")
            return tuple(values[index * FIGURES : (index + 1) * FIGURES])
        if not odd:
            return None
        return tuple(value[0] if value else MISSING for value in odd)


RECORD_COLUMNS = ("times", "kinds", "providers", "models", "model_keys", "thinking", "tool_calls", "tool_names", "figures")


class Records(msgspec.Struct, array_like=True):
    """What the cache keeps apart of a file's usage (APART): how to read it on, and its record columns."""

    consumed: int = 0
    head: bytes = b""
    fingerprint: bytes = b""
    next_line: int = 1
    levels: dict[str, str] = msgspec.field(default_factory=dict)
    last_id: str | None = None
    times: bytes = b""
    kinds: bytes = b""
    providers: bytes = b""
    models: bytes = b""
    model_keys: bytes = b""
    thinking: bytes = b""
    tool_calls: bytes = b""
    tool_names: bytes = b""
    figures: bytes = b""
    odd: dict[int, list[list[Any]]] = msgspec.field(default_factory=dict)


APART = Records.__struct_fields__


TYPECODES = {
    "keys": "q",
    "times": "q",
    "kinds": "B",
    "providers": "I",
    "models": "I",
    "model_keys": "I",
    "thinking": "I",
    "tool_calls": "I",
    "tool_names": "I",
    "figures": "d",
    "run_buckets": "q",
    "run_keys": "I",
    "run_counts": "I",
    "run_figures": "d",
}
