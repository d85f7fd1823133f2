"""One file's usage records, in columns: what each recorded, when, and under which model.

A record is one entry pi's session statistics (getSessionStats) add a usage for: an
assistant reply, a `usage` entry, a tool result that carries a usage, a branch summary or
a compaction that does. Columns rather than an object per record: a folder holds hundreds
of thousands, and the cache stores them as they are (msgspec, array-like structs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from ..js.value import MISSING
from ..sessions.discovery import cwd_from_folder

# What kind of entry recorded the usage.
REPLY, USAGE_ENTRY, TOOL_RESULT, SUMMARY = 0, 1, 2, 3
KIND_NAMES = ("reply", "usage", "toolResult", "summary")
TOOLS_AND_SUMMARIES = "Tools/summaries"  # pi's cost breakdown files tool results and summaries here
NO_LEVEL = "off"  # pi's thinking level before any entry sets one

# The five figures of a record, as pi adds them up (addUsageToTotals).
FIGURES = ("input", "output", "cache_read", "cache_write", "cost")


class FileUsage(msgspec.Struct, array_like=True):
    """A session file's usage records and what reading it on from where it stopped needs.

    Strings (providers, models, levels, tool names) are stored once in `names` and named by
    index. A figure that is not a plain number in the file (missing, null, a string…) is
    NaN in its column, and its value as pi would add it is in `odd`: record index →
    the five values, each `[]` for undefined or `[value]`.
    """

    file: str
    size: int = -1
    mtime_ns: int = 0
    # reading on from where it stopped (session/appended.ReadMark, and the line count)
    consumed: int = 0
    head: bytes = b""
    fingerprint: bytes = b""
    next_line: int = 1
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
    # the thinking level of the last entries read, to give appended entries theirs (level → ids)
    levels: dict[str, list[str]] = msgspec.field(default_factory=dict)
    last_id: str | None = None  # the entry read last (a version 1 file's next entry's parent)
    # the records, in file order
    names: list[str] = msgspec.field(default_factory=list)
    keys: list[str | None] = msgspec.field(default_factory=list)  # the reply's identity across copies (see ledger.py)
    times: list[int | None] = msgspec.field(default_factory=list)  # epoch ms
    kinds: list[int] = msgspec.field(default_factory=list)
    providers: list[int] = msgspec.field(default_factory=list)
    models: list[int] = msgspec.field(default_factory=list)
    thinking: list[int] = msgspec.field(default_factory=list)
    tools: list[list[int]] = msgspec.field(default_factory=list)
    input: list[float] = msgspec.field(default_factory=list)
    output: list[float] = msgspec.field(default_factory=list)
    cache_read: list[float] = msgspec.field(default_factory=list)
    cache_write: list[float] = msgspec.field(default_factory=list)
    cost: list[float] = msgspec.field(default_factory=list)
    odd: dict[int, list[list[Any]]] = msgspec.field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.kinds)

    @property
    def project(self) -> str:
        """The folder the session ran in (its cwd); else the file's folder, as the session list says it."""
        return self.cwd if self.cwd else cwd_from_folder(Path(self.file).parent.name)

    @property
    def title(self) -> str:
        """What a person reads for the session: its name, else its first words, else the file's name."""
        return self.name or self.first_message or Path(self.file).name

    def name_index(self, text: str) -> int:
        """The index of `text` in `names`, added when new."""
        try:
            return self.names.index(text)
        except ValueError:
            self.names.append(text)
            return len(self.names) - 1

    def model_key(self, index: int) -> str:
        """pi's cost breakdown key of record `index`: provider/model, or Tools/summaries."""
        if self.kinds[index] in (TOOL_RESULT, SUMMARY):
            return TOOLS_AND_SUMMARIES
        return f"{self.names[self.providers[index]]}/{self.names[self.models[index]]}"

    def figures(self, index: int) -> tuple[Any, Any, Any, Any, Any] | None:
        """Record `index`'s five figures as pi adds them: numbers, or the odd values themselves (MISSING
        for undefined); None for a reply without a usage object (counted, adding nothing)."""
        odd = self.odd.get(index)
        if odd is None:
            return self.input[index], self.output[index], self.cache_read[index], self.cache_write[index], self.cost[index]
        if not odd:
            return None
        first, second, third, fourth, fifth = (value[0] if value else MISSING for value in odd)
        return first, second, third, fourth, fifth
