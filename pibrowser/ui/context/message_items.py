"""What the cards of one context show: a row per message, and the cross references they share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter, countOf
from typing import TYPE_CHECKING, Any

from ...model.session.content import tool_calls
from ...model.text.describe import as_text
from ...model.context.resolve import Context, ProjectedEntry
from ...model.session.entry import Entry
from ...model.session.sequences import equal_prefix, shared_prefix
from ...model.context.provenance import Part, Provenance

if TYPE_CHECKING:
    from ..cards import ImageLoader


@dataclass(slots=True)
class CardItem:
    """One row of the panel: a message pi sends, or (greyed) one an edit dropped."""

    index: int | None  # position in the context's messages; None when dropped
    message: Any
    entry: Entry
    edit: Entry | None = None
    original: Any = None  # the message before a replacing edit
    dropped: bool = False
    part: Part | None = None
    tokens: int = 0

    @property
    def role(self) -> str:
        return as_text(self.message.get("role")) if isinstance(self.message, dict) else "value"  # an odd role reads as its JSON

    @property
    def source_id(self) -> str:
        return self.entry.id


@dataclass(slots=True)
class ContextInfo:
    """What the cards of one context share: cross references, counts, the image loader."""

    context: Context
    items: list[CardItem]
    provenance: dict[str, Provenance]
    results: dict[str, int] = field(default_factory=dict)  # toolCallId → index of its result
    calls: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)  # toolCallId → (index, block)
    dropped_results: dict[str, CardItem] = field(default_factory=dict)
    by_index: list[CardItem] = field(default_factory=list)  # the sent items, by message index
    summarized: int = 0  # entries on the path that the compaction summary stands in for
    selected: str | None = None
    images: ImageLoader | None = None
    labels: Mapping[str, Any] = field(default_factory=dict)  # the session's, kept current as labels are written
    # What the next context's info needs to take over this one's items: per projected
    # entry, its part and where its items and messages end; and the estimates used.
    parts: list[Part | None] = field(default_factory=list, repr=False)
    item_ends: list[int] = field(default_factory=list, repr=False)
    message_ends: list[int] = field(default_factory=list, repr=False)
    tokens: list[int] | None = field(default=None, repr=False)

    def message(self, index: int) -> Any:
        return self.context.messages[index]

    def source(self, index: int) -> Entry:
        return self.by_index[index].entry


def context_info(
    context: Context, provenance: dict[str, Provenance], tokens: list[int] | None = None, previous: ContextInfo | None = None
) -> ContextInfo:
    """The rows and cross references of `context`.

    `previous`: the info shown before. The items of the leading entries this
    context shares with it (the same projected entries, parts and estimates) are
    taken over, so a step along a path costs the entries it changes.
    """
    parts = _parts(context, provenance)
    info = ContextInfo(context, [], provenance, parts=parts, tokens=tokens)
    shared = _shared_entries(previous, info) if previous is not None else 0
    if previous is not None and shared:
        _take_over(info, previous, shared)
    # The compaction fixes the entries it summarizes: those before it on its path.
    same_compaction = previous is not None and context.compaction is previous.context.compaction
    info.summarized = previous.summarized if previous is not None and same_compaction else _summarized(provenance)
    _add_items(info, shared)
    return info


def _parts(context: Context, provenance: dict[str, Provenance]) -> list[Part | None]:
    get = provenance.get
    return [found.part if (found := get(projected.entry.id)) is not None else None for projected in context.entries]


def _summarized(provenance: dict[str, Provenance]) -> int:
    # countOf over the parts runs in C: a path can hold 100,000 entries, most of them summarized.
    return countOf(map(attrgetter("part"), provenance.values()), Part.SUMMARIZED)


def _shared_entries(previous: ContextInfo, info: ContextInfo) -> int:
    """How many leading projected entries give `info` the very items they gave `previous`."""
    old, new = previous.context.entries, info.context.entries
    shared, limit = shared_prefix(old, new), min(len(old), len(new), equal_prefix(previous.parts, info.parts))
    # Contexts resolved apart project the same entries into objects of their own.
    while shared < limit and _same_projection(old[shared], new[shared]):
        shared += 1
    shared = min(shared, limit)
    if shared == 0:
        return 0
    messages = previous.message_ends[shared - 1]
    old_tokens, new_tokens = previous.tokens, info.tokens
    if old_tokens is None or new_tokens is None:
        return shared if old_tokens is new_tokens else 0
    if old_tokens[:messages] != new_tokens[:messages]:
        return 0
    return shared


def _same_projection(a: ProjectedEntry, b: ProjectedEntry) -> bool:
    # List equality looks at identity first, item by item: the same messages compare at once.
    return a.entry is b.entry and a.edit is b.edit and a.messages == b.messages and a.original == b.original


def _take_over(info: ContextInfo, previous: ContextInfo, shared: int) -> None:
    """The items of the first `shared` entries, and the cross references among them, from `previous`."""
    items, messages = previous.item_ends[shared - 1], previous.message_ends[shared - 1]
    info.items = previous.items[:items]
    info.by_index = previous.by_index[:messages]
    info.item_ends = previous.item_ends[:shared]
    info.message_ends = previous.message_ends[:shared]
    # The first item for a call id comes first in the shorter list too, or not at all.
    if items == len(previous.items):
        info.results, info.calls = previous.results.copy(), previous.calls.copy()
        info.dropped_results = previous.dropped_results.copy()
    else:
        info.results = {key: index for key, index in previous.results.items() if index < messages}
        info.calls = {key: call for key, call in previous.calls.items() if call[0] < messages}
        kept = {id(item) for item in info.items if item.dropped} if previous.dropped_results else set()
        info.dropped_results = {key: item for key, item in previous.dropped_results.items() if id(item) in kept}


def _add_items(info: ContextInfo, start: int) -> None:
    """Items for the projected entries from `start` on, with the messages edits dropped in their places."""
    items, sent, tokens = info.items, info.by_index, info.tokens if info.tokens is not None else []
    item_ends, message_ends = info.item_ends, info.message_ends
    index = message_ends[-1] if message_ends else 0
    counted = len(tokens)
    for projected, part in zip(info.context.entries[start:], info.parts[start:]):
        entry, edit = projected.entry, projected.edit
        if edit is not None and projected.dropped:
            for message in projected.original:
                _refer(info, CardItem(None, message, entry, edit, None, True, part))
        elif edit is None:
            # Unedited (nearly every entry): no message was replaced.
            for message in projected.messages:
                item = CardItem(index, message, entry, None, None, False, part, tokens[index] if index < counted else 0)
                _refer(info, item)
                sent.append(item)
                index += 1
        else:
            for offset, message in enumerate(projected.messages):
                original = projected.original[offset] if projected.replaced_at(offset) else None
                count = tokens[index] if index < counted else 0
                item = CardItem(index, message, entry, edit if original is not None else None, original, False, part, count)
                _refer(info, item)
                sent.append(item)
                index += 1
        item_ends.append(len(items))
        message_ends.append(index)


def _refer(info: ContextInfo, item: CardItem) -> None:
    """Add the item, and note the tool call or result it holds (the first one for an id counts)."""
    info.items.append(item)
    message = item.message
    if not isinstance(message, dict):
        return
    role = message.get("role")
    if role == "toolResult":
        call_id = message.get("toolCallId")
        if isinstance(call_id, str):
            if item.dropped:
                info.dropped_results.setdefault(call_id, item)
            elif item.index is not None:  # a message sent has its index
                info.results.setdefault(call_id, item.index)
    elif role == "assistant" and not item.dropped and item.index is not None:
        calls = info.calls
        for call in tool_calls(message.get("content")):
            call_id = call.get("id")
            if isinstance(call_id, str) and call_id not in calls:
                calls[call_id] = (item.index, call)
