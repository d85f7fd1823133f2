"""The resolved context of a node: what pi would send if that node were the leaf.

Built in pi's steps, one function each: the path, the settings along it, the
context entries (compaction-aware), the edits among them, and the projection of
each entry into messages (pi's buildSessionProjection / buildSessionContext).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, Protocol, cast

from ..session.entry import Entry, entry_id
from ..js.date import js_time
from ..js.value import MISSING, compact, js_truthy
from ..session.sequences import index_of

if TYPE_CHECKING:
    from ..session.path_index import IndexedPath

_EDITABLE_ROLES = ("user", "assistant", "toolResult", "custom")
_TEXT_BLOCK_ROLES = ("assistant", "toolResult")
_EMPTY_LIST_ROLES = ("user", "assistant", "toolResult")


@dataclass(slots=True)
class ProjectedEntry:
    """One context entry with the messages it gives, and what they were before an edit."""

    entry: Entry
    messages: list[Any]
    edit: Entry | None = None
    original: list[Any] = field(default_factory=list)

    @property
    def dropped(self) -> bool:
        """An edit removed every message the entry gave."""
        return self.edit is not None and not self.messages and bool(self.original)

    def replaced_at(self, offset: int) -> bool:
        """An edit changed the message at `offset` (edits leave some roles alone)."""
        return self.edit is not None and offset < len(self.original) and self.original[offset] != self.messages[offset]


@dataclass(slots=True)
class Context:
    leaf: str | None
    path: Sequence[Entry]
    compaction: Entry | None
    entries: list[ProjectedEntry]
    messages: list[Any]
    thinking_level: Any
    model: Any

    def to_pi(self) -> dict[str, Any]:
        """pi's buildSessionContext result: undefined keys left out."""
        return compact(messages=self.messages, thinkingLevel=self.thinking_level, model=self.model)

    def message_sources(self) -> list[Entry]:
        """For every message, the entry it came from."""
        return [projected.entry for projected in self.entries for _ in projected.messages]


class PathSource(Protocol):
    """What resolving needs of a session: its current leaf and the path to any entry
    (a Session, or the lighter PathIndex of the command line)."""

    leaf_id: str | None

    def path_entries(self, key: str) -> Sequence[Entry]: ...


def resolve(session: PathSource, leaf: str | None) -> Context:
    return resolve_path(leaf, session.path_entries(_path_leaf(session, leaf)) if leaf is not None else [])


def resolve_path(leaf: str | None, path: Sequence[Entry]) -> Context:
    """The context at the end of `path` (root first), named `leaf`."""
    thinking_level, model = path_settings(path)
    compaction = last_compaction(path)
    selected = context_entries(path, compaction)
    edits = edits_by_target(selected)
    projected = [project(entry, index, edits.get(entry.id)) for index, entry in enumerate(selected)]
    messages = [message for item in projected for message in item.messages]
    return Context(leaf, path, compaction, projected, messages, thinking_level, model)


def _path_leaf(session: PathSource, leaf: str) -> str:
    # pi looks a leaf id up only when it is truthy; an empty id means its default,
    # the last entry of the file.
    return session.leaf_id if leaf == "" and session.leaf_id is not None else leaf


def empty_context() -> Context:
    """pi's explicit null leaf: before the first entry."""
    return Context(None, [], None, [], [], "off", None)


def path_settings(path: Sequence[Entry], before: tuple[Any, Any] = ("off", None)) -> tuple[Any, Any]:
    """thinkingLevel and model as they stand at the end of the path (`before` it: pi's defaults).

    pi folds over the whole path and the last setter wins, so walking back from
    the leaf to the nearest setter gives the same answer and parses far less.
    """
    thinking_level: Any = MISSING
    model: Any = MISSING
    for entry in reversed(path):
        if thinking_level is MISSING and entry.type == "thinking_level_change":
            thinking_level = _Found(entry.get("thinkingLevel"))
        elif model is MISSING and entry.type == "model_change":
            model = _Found(compact(provider=entry.get("provider"), modelId=entry.get("modelId")))
        elif model is MISSING and entry.type == "message" and entry.role == "assistant":
            message = entry.message
            if isinstance(message, dict):
                model = _Found(compact(provider=message.get("provider", MISSING), modelId=message.get("model", MISSING)))
        if thinking_level is not MISSING and model is not MISSING:
            break
    return (
        thinking_level.value if thinking_level is not MISSING else before[0],
        model.value if model is not MISSING else before[1],
    )


@dataclass(slots=True)
class _Found:
    # A setter may set `undefined` (a missing field); this tells it from "not found".
    value: Any


def last_compaction(path: Sequence[Entry]) -> Entry | None:
    for entry in reversed(path):
        if entry.type == "compaction":
            return entry
    return None


def context_entries(path: Sequence[Entry], compaction: Entry | None) -> list[Entry]:
    """The compaction first, then the kept entries before it, then all after it."""
    if compaction is None:
        return list(path)
    at = position_on(path, compaction.id, len(path))
    kept = position_on(path, compaction.get("firstKeptEntryId"), at)
    return [compaction, *(entry for entry in path[kept:at] if not is_system_message(entry)), *path[at + 1:]]


def position_on(path: Sequence[Entry], key: Any, stop: int) -> int:
    """Where the entry `key` is in path[:stop] (ids are unique on a path); `stop` when it is not there."""
    if isinstance(path, list):
        # Listed and searched in C: a path runs to 100,000 entries.
        return index_of(list(map(entry_id, islice(path, stop))), key, stop)
    return cast("IndexedPath", path).position(key, stop)  # not a list: an IndexedPath, which knows without making every entry


def is_system_message(entry: Entry) -> bool:
    return entry.type == "message" and entry.role == "system"


def edits_by_target(selected: list[Entry]) -> dict[Any, Entry]:
    """The latest context_edit for each target, among the context entries only."""
    edits: dict[Any, Entry] = {}
    for entry in selected:
        if entry.type == "context_edit":
            target = entry.get("targetId")
            if isinstance(target, str):
                edits[target] = entry
    return edits


def project(entry: Entry, index: int, edit: Entry | None) -> ProjectedEntry:
    """The messages of the context entry in place `index`, with its edit applied."""
    # An older compaction kept inside the newest one's range gives nothing;
    # only the compaction in first place contributes its checkpoint and summary.
    if entry.type == "compaction" and index > 0:
        return ProjectedEntry(entry, [], edit)
    original = entry_messages(entry)
    if edit is None:
        return ProjectedEntry(entry, original, None, original)
    return ProjectedEntry(entry, apply_edit(original, edit), edit, original)


def entry_messages(entry: Entry) -> list[Any]:
    """The messages one entry gives before edits (pi's sessionEntryToContextMessages)."""
    kind = entry.type
    if kind == "message":
        return _stored_message(entry)
    if kind == "custom_message":
        content = entry.get("content", MISSING)
        return [
            compact(
                role="custom",
                customType=entry.get("customType"),
                content=[] if content is None or content is MISSING else content,
                display=entry.get("display"),
                details=entry.get("details"),
                timestamp=js_time(entry.timestamp),
            )
        ]
    if kind == "branch_summary" and js_truthy(entry.get("summary")):
        return [
            compact(role="branchSummary", summary=entry.get("summary"), fromId=entry.get("fromId"), timestamp=js_time(entry.timestamp))
        ]
    if kind == "compaction":
        summary = compact(
            role="compactionSummary",
            summary=entry.get("summary"),
            tokensBefore=entry.get("tokensBefore"),
            timestamp=js_time(entry.timestamp),
        )
        system = entry.get("systemMessage")
        return [system, summary] if js_truthy(system) else [summary]
    return []


def _stored_message(entry: Entry) -> list[Any]:
    message = entry.get("message")
    if message is MISSING or message is None:
        return []  # pi would throw reading its role; there is nothing to send
    if not isinstance(message, dict):
        return [message]
    content = message.get("content")
    if content is None:
        role = message.get("role")
        # Hand-edited or old files can lack content; pi substitutes an empty one.
        if role == "system":
            return [{**message, "content": ""}]
        if role in _EMPTY_LIST_ROLES:
            return [{**message, "content": []}]
    return [message]


def apply_edit(messages: list[Any], edit: Entry) -> list[Any]:
    """A context_edit's replacement applied to one entry's messages (pi's projectContextEntry)."""
    replacement = edit.get("replacement")
    if replacement is None:
        return []
    content = replacement.get("content", MISSING) if isinstance(replacement, dict) else MISSING
    return [_replace_content(message, content) for message in messages]


def _replace_content(message: Any, content: Any) -> Any:
    if not isinstance(message, dict) or message.get("role") not in _EDITABLE_ROLES:
        return message
    if message.get("role") in _TEXT_BLOCK_ROLES and isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if content is MISSING:
        return {key: value for key, value in message.items() if key != "content"}
    return {**message, "content": content}
