"""The trace's facts of every entry read so far, in columns: what building a trace reads, kept lean.

A trace of a 100,000-entry path reads 150 MB of lines; that is done once per
loaded session (in the background, after a load) and kept here, so a trace of
any path after it is built from numbers in a fraction of a second. One object
per entry would cost some 500 bytes each (50 MB on such a session); in columns,
indexed by the entry's line number, an entry costs about a tenth of that.
What is only read to be shown (arguments, prompts, error texts) is not kept:
`facts.entry_facts` reads it again from the line when a row is shown.
"""

from __future__ import annotations

import math
from array import array
from itertools import repeat
from collections.abc import Callable, Iterable
from typing import Any, cast

from ..context.file_lists import FileCall, FileOperations, file_lists
from ..session.entry import Entry
from .facts import Columns, Facts, Usage, entry_facts, table_kind

NAN = math.nan
_NO_USAGE = (NAN, NAN, NAN, NAN, NAN)


class FactsTable:
    """Columns by line number. `add` reads an entry; `has` says whether it was read."""

    def __init__(self) -> None:
        self.read = bytearray()  # 1 where the line's entry was read
        self.kind = array("i")  # index into `strings`: the role of a message, else the entry's type
        self.entry_type = bytearray()  # MESSAGE, CUSTOM_MESSAGE or 0 (any other type): what the walk asks of the type
        self.time = array("d")  # when the entry was appended (NaN: not a time)
        self.message_time = array("d")  # the message's own timestamp
        self.duration = array("d")  # durationMs
        self.stop = array("i")  # stopReason (0: none)
        self.model = array("i")  # "provider/model"
        self.thinking = array("i")
        self.tool = array("i")  # a result's toolName
        self.is_error = bytearray()
        self.result_chars = array("q")
        # Usage as five columns: input, output, cache read, cache write, cost (NaN input: no usage).
        self.usage_columns = tuple(array("d") for _ in range(5))
        # A reply's calls, in order: call_ids[first[line]:first[line] + count[line]], their tools likewise.
        self.first_call = array("i")
        self.call_count = array("i")
        self.call_ids: list[str | None] = []
        self.call_tools = array("i")
        self.answers: list[str | None] = []  # a result's toolCallId
        self.file_calls: dict[int, tuple[FileCall, ...]] = {}  # the calls pi's compaction counts, by line
        self.strings: list[str | None] = [None]
        self._string_index: dict[str | None, int] = {None: 0}

    def __len__(self) -> int:
        return len(self.read)

    def _code(self, text: str | None) -> int:
        code = self._string_index.get(text)
        if code is None:
            code = self._string_index[text] = len(self.strings)
            self.strings.append(text)
        return code

    def has(self, entry: Entry) -> bool:
        line = entry.line
        return line < len(self.read) and self.read[line] == 1

    def grow_to(self, line: int) -> None:
        """Room in every column up to `line`: growing once for many entries, not an entry at a time."""
        more = line + 1 - len(self.read)
        if more <= 0:
            return
        self.read.extend(bytes(more))
        self.entry_type.extend(bytes(more))
        self.is_error.extend(bytes(more))
        # array * count: a column of 100,000 lines grows in C, not from a Python list of them.
        for column in (self.kind, self.stop, self.model, self.thinking, self.tool, self.first_call, self.call_count):
            column.extend(array("i", [0]) * more)
        for reals in (self.time, self.message_time, self.duration, *self.usage_columns):
            reals.extend(array("d", [NAN]) * more)
        self.result_chars.extend(array("q", [0]) * more)
        self.answers.extend([None] * more)

    def add(self, entry: Entry) -> None:
        self.put(entry.line, entry_facts(entry))

    def put(self, line: int, facts: Facts) -> None:
        """Keep the facts of the entry on `line`, read once: the columns hold their defaults (NaN, 0,
        None) until then, and only what differs from them is written."""
        if line >= len(self.read):
            self.grow_to(line)
        code = self._code
        self.kind[line] = code(table_kind(facts))
        self.entry_type[line] = _entry_type(facts.type)
        if facts.time is not None:
            self.time[line] = facts.time
        if facts.message_time is not None:
            self.message_time[line] = facts.message_time
        if facts.duration is not None:
            self.duration[line] = facts.duration
        if facts.stop_reason is not None:
            self.stop[line] = code(facts.stop_reason)
        if facts.model is not None:
            self.model[line] = code(facts.model)
        if facts.thinking is not None:
            self.thinking[line] = code(facts.thinking)
        if facts.tool_name is not None:
            self.tool[line] = code(facts.tool_name)
        if facts.is_error:
            self.is_error[line] = 1
        if facts.result_chars:
            self.result_chars[line] = facts.result_chars
        if facts.tool_call_id is not None:
            self.answers[line] = facts.tool_call_id
        if facts.usage is not None:
            for column, value in zip(self.usage_columns, facts.usage):
                column[line] = value
        calls = facts.calls
        if calls:
            self.first_call[line] = len(self.call_ids)
            self.call_count[line] = len(calls)
            self.call_ids.extend([call.id for call in calls])
            self.call_tools.extend([code(call.name) for call in calls])
        if facts.file_calls:
            self.file_calls[line] = facts.file_calls
        self.read[line] = 1

    def extend(self, found: Columns) -> None:
        """Keep the facts of entries read in a row (facts.lines_columns) on the lines after the last
        read, as `put` keeps each: a path read whole (the command line's) is put a column at a
        time, in C where it can."""
        count = len(found.kind)
        kinds = found.kind
        self.read.extend(b"\x01" * count)
        _extend(self.kind, self._codes(kinds))
        try:
            self.entry_type.extend(bytes(map(_ENTRY_TYPES.get, found.entry_type, repeat(0))))
        except TypeError:  # a type that is not hashable
            self.entry_type.extend(map(_entry_type, found.entry_type))
        for column, values in ((self.time, found.time), (self.message_time, found.message_time), (self.duration, found.duration)):
            _extend(column, [NAN if value is None else value for value in values] if None in values else values)
        for codes, texts in ((self.stop, found.stop), (self.model, found.model), (self.thinking, found.thinking), (self.tool, found.tool)):
            _extend(codes, self._codes(texts))
        self.is_error.extend(bytes(found.is_error))
        _extend(self.result_chars, found.result_chars)
        self.answers.extend(found.answers)
        usages = [_NO_USAGE if usage is None else usage for usage in found.usage]
        for column, figures in zip(self.usage_columns, zip(*usages)):
            _extend(column, figures)
        first_call = array("i", [0]) * count
        call_count = array("i", [0]) * count
        replies = [(at, calls) for at, calls in enumerate(found.calls) if calls]
        made = len(self.call_ids)
        for at, calls in replies:
            first_call[at] = made
            call_count[at] = len(calls)
            made += len(calls)
        every = [call for _, calls in replies for call in calls]
        self.call_ids.extend([call.id for call in every])
        self.call_tools.extend(self._codes([call.name for call in every]))
        self.first_call.extend(first_call)
        self.call_count.extend(call_count)

    def _codes(self, texts: list[Any]) -> list[int]:
        """The codes of these strings (or None), each coded when first seen."""
        codes = list(map(self._string_index.get, texts))
        if None in codes:
            return [self._code(text) if code is None else code for code, text in zip(codes, texts)]
        return cast("list[int]", codes)

    def usage(self, line: int) -> Usage | None:
        columns = self.usage_columns
        first = columns[0][line]
        if first != first:
            return None
        return (first, columns[1][line], columns[2][line], columns[3][line], columns[4][line])

    def calls(self, line: int) -> list[tuple[str | None, str]]:
        """A reply's calls: (call id, tool name) in order."""
        # A tool's code names a string: `put` coded the call's name, a str (only code 0 is None).
        first, count = self.first_call[line], self.call_count[line]
        if count == 1:  # the usual reply: no loop
            return [(self.call_ids[first], cast(str, self.strings[self.call_tools[first]]))]
        strings, ids, tools = self.strings, self.call_ids, self.call_tools
        return cast("list[tuple[str | None, str]]", [(ids[at], strings[tools[at]]) for at in range(first, first + count)])

    def code(self, text: str) -> int:
        """The code `text` has in the string columns; -1 when no entry read holds it."""
        return self._string_index.get(text, -1)

    def missing(self, entries: Iterable[Entry]) -> list[Entry]:
        """The entries not read yet."""
        read, size = self.read, len(self.read)
        return [entry for entry in entries if entry.line >= size or not read[entry.line]]

    def ensure(self, entries: Iterable[Entry], stop: Callable[[], bool] = lambda: False, pace: Callable[[], None] = lambda: None) -> bool:
        """Read every entry not read yet; False when `stop` said to give up (what was read stays).
        `pace` is called every 256 entries read (see pacer.py)."""
        unread = self.missing(entries)
        if stop():
            return False
        if unread:
            self.grow_to(max(entry.line for entry in unread))  # the columns grow once, not an entry at a time
        for done, entry in enumerate(unread):
            if not done & 255:
                if stop():
                    return False
                pace()
            self.add(entry)
        return True


# An entry's type, where the walk asks for it (agent_loop.py).
MESSAGE, CUSTOM_MESSAGE = 1, 2
_ENTRY_TYPES = {"message": MESSAGE, "custom_message": CUSTOM_MESSAGE}


def _extend(column: array, values: Iterable[Any]) -> None:
    # An array made whole from a list is quicker than one grown from it a value at a time.
    column.extend(array(column.typecode, values))


def _entry_type(kind: Any) -> int:
    return _ENTRY_TYPES.get(kind, 0) if kind.__class__ is str else 0


def path_file_operations(path: Iterable[Entry], table: FactsTable) -> FileOperations:
    """context/file_lists.file_operations of `path`, from the calls the table kept (every entry of the
    path read): a 100,000-entry path costs a lookup an entry, not a parse."""
    found = table.file_calls
    return file_lists(call for entry in path for call in found.get(entry.line, ()))
