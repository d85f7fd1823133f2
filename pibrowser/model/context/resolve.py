"""The resolved context of a node: what pi would send if that node were the leaf.

Built in pi's steps, one function each: the path, the settings along it, the
context entries (compaction-aware), the edits among them, and the projection of
each entry into messages (pi's buildSessionProjection / buildSessionContext).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence
from itertools import islice
from typing import Any, Protocol, cast

from ..session.entry import Entry, entry_id, parse_lines_of
from ..js.date import js_time
from ..js.map_key import JsKey, js_key, key_truthy
from ..js.value import MISSING, compact, js_truthy
from ..session.sequences import index_of

_EDITABLE_ROLES = ("user", "assistant", "toolResult", "custom")
_TEXT_BLOCK_ROLES = ("assistant", "toolResult")
_EMPTY_LIST_ROLES = ("user", "assistant", "toolResult")
_READ_TYPES = frozenset({"message", "custom_message", "branch_summary", "compaction", "context_edit"})  # what projecting reads of a line


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

    @property
    def leaf_id(self) -> str | None: ...

    def path_entries(self, key: str) -> Sequence[Entry]: ...


def resolve(session: PathSource, leaf: str | None) -> Context:
    at = path_leaf(session, leaf)
    return resolve_path(leaf, session.path_entries(at) if at is not None else [])


def resolve_path(leaf: str | None, path: Sequence[Entry]) -> Context:
    """The context at the end of `path` (root first), named `leaf`."""
    settings = path_settings(path)
    compaction = last_compaction(path)
    kept, at = compaction_range(path, compaction)
    return context_at(leaf, path, compaction, kept, at, settings)


def context_at(leaf: str | None, path: Sequence[Entry], compaction: Entry | None, kept: int, at: int, settings: tuple[Any, Any]) -> Context:
    """The context once the path's last compaction, its range and the settings are known
    (the fold knows them without a walk over the path)."""
    selected = context_entries(path, compaction, kept, at)
    parse_lines_of(entry for entry in selected if entry.type in _READ_TYPES)  # read in stretches, not a line at a time
    edits = edits_by_target(selected)
    projected = [project(entry, index, edits.get(entry.id)) for index, entry in enumerate(selected)]
    messages = [message for item in projected for message in item.messages]
    return Context(leaf, path, compaction, projected, messages, *settings)


def path_leaf(session: PathSource, leaf: str | None) -> str | None:
    """The entry whose path a leaf id stands for (pi's buildSessionPath): None, or an entry whose
    id is null, is pi's null leaf (no path); pi looks a leaf id up only when it is truthy, so an
    empty one (or 0, false, a missing id) means its default, the last entry of the file."""
    if leaf is None or (leaf.__class__ is JsKey and leaf.value is None):
        return None
    return session.leaf_id if not key_truthy(leaf) and session.leaf_id is not None else leaf


def empty_context() -> Context:
    """pi's explicit null leaf: before the first entry."""
    return Context(None, [], None, [], [], *DEFAULT_SETTINGS)


DEFAULT_SETTINGS = ("off", None)  # thinkingLevel and model before any entry sets them


def sets_thinking_level(kind: Any, role: Any) -> bool:
    """An entry of this type (and message role) sets the thinking level."""
    return kind == "thinking_level_change"


def sets_model(kind: Any, role: Any) -> bool:
    """An entry of this type (and message role) sets the model: a model change, or an assistant reply."""
    return kind == "model_change" or (kind == "message" and role == "assistant")


def thinking_level_set_by(entry: Entry) -> Any:
    return entry.get("thinkingLevel")


def model_set_by(entry: Entry) -> Any:
    """The model an entry sets (provider and modelId, undefined ones left out); NOT_SET when
    an assistant entry holds no message object after all (its line no longer parses)."""
    if entry.type == "model_change":
        return compact(provider=entry.get("provider"), modelId=entry.get("modelId"))
    message = entry.message
    if not isinstance(message, dict):
        return NOT_SET
    return compact(provider=message.get("provider", MISSING), modelId=message.get("model", MISSING))


NOT_SET = object()  # model_set_by of an entry that sets nothing after all


def path_settings(path: Sequence[Entry], before: tuple[Any, Any] = DEFAULT_SETTINGS) -> tuple[Any, Any]:
    """thinkingLevel and model as they stand at the end of the path (`before` it: pi's defaults).

    pi folds over the whole path and the last setter wins, so walking back from
    the leaf to the nearest setter gives the same answer and parses far less.
    """
    thinking_level: Any = NOT_SET
    model: Any = NOT_SET
    for entry in reversed(path):
        kind, role = entry.type, entry.role
        if thinking_level is NOT_SET and sets_thinking_level(kind, role):
            thinking_level = thinking_level_set_by(entry)
        elif model is NOT_SET and sets_model(kind, role):
            model = model_set_by(entry)
        if thinking_level is not NOT_SET and model is not NOT_SET:
            break
    return (
        thinking_level if thinking_level is not NOT_SET else before[0],
        model if model is not NOT_SET else before[1],
    )


class PathAccess(Protocol):
    """A path by depth that knows where an id lies on it without making every entry (the CLI's
    IndexedPath, the fold's spine)."""

    def __getitem__(self, depth: int) -> Entry: ...

    def position(self, key: Any, stop: int) -> int: ...


def settings_from(path: Sequence[Entry] | PathAccess, thinking_at: int, model_at: int) -> tuple[Any, Any]:
    """thinkingLevel and model at the end of the path, given where its last setters are (-1: none)."""
    thinking_level = thinking_level_set_by(path[thinking_at]) if thinking_at >= 0 else DEFAULT_SETTINGS[0]
    model = model_set_by(path[model_at]) if model_at >= 0 else DEFAULT_SETTINGS[1]
    if model is NOT_SET:  # a reply whose line no longer parses sets nothing: look further up
        model = path_settings([path[at] for at in range(model_at)])[1]  # rare: read it all
    return thinking_level, model


def last_compaction(path: Sequence[Entry]) -> Entry | None:
    for entry in reversed(path):
        if entry.type == "compaction":
            return entry
    return None


def compaction_range(path: Sequence[Entry], compaction: Entry | None) -> tuple[int, int]:
    """(where the entries the compaction keeps start, where it is) on the path; (0, -1) without one.
    pi looks for the first kept entry only before its compaction: not found, nothing is kept."""
    if compaction is None:
        return 0, -1
    at = position_on(path, compaction.id, len(path))
    return first_kept(path, compaction, at), at


def first_kept(path: Sequence[Entry] | PathAccess, compaction: Entry, at: int) -> int:
    """Where the compaction at `at` on the path starts keeping entries (`at` when it keeps none)."""
    return position_on(path, first_kept_id(compaction), at)


def first_kept_id(compaction: Entry) -> str:
    """The id a compaction keeps entries from, as a key (pi compares `entry.id === firstKeptEntryId`:
    a number matches that number, a missing one an entry without an id)."""
    return js_key(compaction.get("firstKeptEntryId", MISSING))


def context_entries(path: Sequence[Entry], compaction: Entry | None, kept: int = 0, at: int = -1) -> list[Entry]:
    """The compaction first, then the entries it keeps (path[kept:at], system messages left
    out: the checkpoint carries the system prompt), then all after it (see compaction_range)."""
    if compaction is None:
        return list(path)
    return [compaction, *(entry for entry in path[kept:at] if not is_system_message(entry)), *path[at + 1 :]]


def position_on(path: Sequence[Entry] | PathAccess, key: Any, stop: int) -> int:
    """Where the entry `key` is in path[:stop] (ids are unique on a path); `stop` when it is not there."""
    if isinstance(path, list):
        # Listed and searched in C: a path runs to 100,000 entries.
        return index_of(list(map(entry_id, islice(path, stop))), key, stop)
    return cast("PathAccess", path).position(key, stop)  # not a list: an IndexedPath or a spine, which know without making every entry


def is_system_message(entry: Entry) -> bool:
    return entry.type == "message" and entry.role == "system"


def edits_by_target(selected: list[Entry]) -> dict[Any, Entry]:
    """The latest context_edit for each target, among the context entries only."""
    edits: dict[Any, Entry] = {}
    for entry in selected:
        target = edit_target(entry)
        if target is not None:
            edits[target] = entry
    return edits


def edit_target(entry: Entry) -> str | None:
    """The id a context_edit entry edits, as pi's edit Map keys it (a target 123 edits the entry whose
    id is 123); None for any other entry."""
    if entry.type != "context_edit":
        return None
    return js_key(entry.get("targetId", MISSING))


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
        return [compact(role="branchSummary", summary=entry.get("summary"), fromId=entry.get("fromId"), timestamp=js_time(entry.timestamp))]
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
