"""The files a path's tool calls read, wrote and edited, as pi's compaction lists them.

pi collects file operations for its `<read-files>` / `<modified-files>` blocks with
`extractFileOpsFromMessage` (compaction/utils.ts) over each message, then
`computeFileLists`. The rules, to the letter:

- an assistant message counts each content block that is an object of type
  "toolCall" with both `name` and `arguments` keys; a toolResult counts the
  calls recorded in `nestedCalls.calls` (calls a tool made while it ran), never
  its own `toolName`; no other role counts;
- a call counts when its `arguments.path` is a non-empty string, taken verbatim
  (no resolving, no "./" handling, no normalisation), and its name is exactly
  "read", "write" or "edit" (bash, grep, "Read" and MCP tools are not looked at);
- every call counts whatever came of it: failed, aborted, never run;
- a path written or edited anywhere is modified and leaves the read list;
  both lists are sorted as JS sorts strings (UTF-16 code units).

`file_operations(path)` applies this to the stored message of every `message`
entry from the root to the node, the way pi would for that branch before
compaction's own choices (edits, the kept range) narrow it. Each counted call is
kept too, so a view can say which call touched a file. Where pi would throw
(a `nestedCalls.calls` that is not a list, or holds null) nothing is counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from sys import intern
from typing import Any

from ..js.sort import js_sorted_strings
from ..session.content import BlockKind, blocks
from ..session.entry import Entry

OPERATIONS = ("read", "write", "edit")


@dataclass(frozen=True, slots=True)
class FileCall:
    """One call that pi counts: the file, what it did, and where it is."""

    path: str
    op: str  # "read", "write" or "edit"
    entry: str  # the entry holding the call: an assistant message, or the toolResult of a nested call
    tool_call_id: str | None
    nested: bool = False  # recorded on a tool result (a call made by a tool), not issued by the model

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "op": self.op, "entry": self.entry, "tool_call_id": self.tool_call_id}


@dataclass(slots=True)
class FileOperations:
    """pi's file lists for a path, and every call behind them in path order."""

    read_files: list[str] = field(default_factory=list)
    modified_files: list[str] = field(default_factory=list)
    calls: list[FileCall] = field(default_factory=list)
    _by_path: dict[str, list[FileCall]] | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "read_files": self.read_files,
            "modified_files": self.modified_files,
            "calls": [call.to_json() for call in self.calls],
        }

    def calls_for(self, path: str) -> list[FileCall]:
        """The calls that touched `path`, in path order (grouped once: a long path touches thousands of files)."""
        if self._by_path is None:
            self._by_path = {}
            for call in self.calls:
                self._by_path.setdefault(call.path, []).append(call)
        return list(self._by_path.get(path, ()))

    def touched(self) -> list[str]:
        """Every file the lists hold, modified first (the order a view lists them in)."""
        return [*self.modified_files, *self.read_files]


def file_operations(path: Sequence[Entry]) -> FileOperations:
    """pi's computeFileLists over extractFileOpsFromMessage of every message entry on `path`."""
    calls = [call for entry in path if entry.type == "message" for call in message_file_calls(entry.message, entry.id)]
    return file_lists(calls)


def file_lists(calls: Iterable[FileCall]) -> FileOperations:
    """pi's computeFileLists: modified = edited then written; read = read and not modified; both sorted."""
    calls = list(calls)
    # dicts as JS Sets: insertion order, one of each.
    read = dict.fromkeys(call.path for call in calls if call.op == "read")
    modified = dict.fromkeys([*(call.path for call in calls if call.op == "edit"), *(call.path for call in calls if call.op == "write")])
    return FileOperations(js_sorted_strings(key for key in read if key not in modified), js_sorted_strings(modified), calls)


def message_file_calls(message: Any, entry_id: str) -> list[FileCall]:
    """The calls pi's extractFileOpsFromMessage counts in one stored message."""
    if not isinstance(message, dict):
        return []  # a string or number has no role; pi reads `undefined` and moves on
    role = message.get("role")
    if role == "toolResult":
        return nested_file_calls(message.get("nestedCalls"), entry_id)
    if role != "assistant":
        return []
    found = []
    for kind, block in blocks(message.get("content")):
        # pi asks for both keys to be present; `arguments` may hold anything.
        if kind is BlockKind.TOOL_CALL and "arguments" in block and "name" in block:
            call = file_call(block["name"], block["arguments"], entry_id, block.get("id"))
            if call is not None:
                found.append(call)
    return found


def nested_file_calls(record: Any, entry_id: str) -> list[FileCall]:
    """The calls pi counts among a tool result's `nestedCalls` record."""
    calls = record.get("calls") if isinstance(record, dict) else None
    if calls is None or isinstance(calls, str):
        return []  # `?? []`; a string iterates characters, none of which has a name
    if not isinstance(calls, list) or any(call is None for call in calls):
        return []  # pi throws here (not iterable, or `null.name`): it lists nothing
    found = []
    for call in calls:
        if isinstance(call, dict):
            counted = file_call(call.get("name"), call.get("arguments"), entry_id, call.get("id"), nested=True)
            if counted is not None:
                found.append(counted)
    return found


def file_call(name: Any, arguments: Any, entry_id: str, call_id: Any, nested: bool = False) -> FileCall | None:
    """pi's addFileOp: a non-empty string `path` and one of the three names, compared exactly."""
    path = arguments.get("path") if isinstance(arguments, dict) else None
    if not isinstance(path, str) or not path or not isinstance(name, str) or name not in OPERATIONS:
        return None
    # Sessions touch the same files over and over: one string per path (and per tool name).
    return FileCall(
        intern(path) if len(path) <= 512 else path, intern(name), entry_id, call_id if isinstance(call_id, str) else None, nested
    )
