"""What the cards of one context show: a row per message, and the cross references they share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter, countOf
from typing import TYPE_CHECKING, Any

from ...model.content import tool_calls
from ...model.context import Context
from ...model.entry import Entry
from ...model.provenance import Part, Provenance

if TYPE_CHECKING:
    from .images import ImageLoader


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
        return str(self.message.get("role")) if isinstance(self.message, dict) else "value"

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
    by_index: dict[int, CardItem] = field(default_factory=dict)
    summarized: int = 0  # entries on the path that the compaction summary stands in for
    selected: str | None = None
    images: ImageLoader | None = None
    labels: Mapping[str, Any] = field(default_factory=dict)  # the session's, kept current as labels are written

    def message(self, index: int) -> Any:
        return self.context.messages[index]

    def source(self, index: int) -> Entry:
        return self.by_index[index].entry


def build_items(context: Context, provenance: dict[str, Provenance], tokens: list[int] | None = None) -> list[CardItem]:
    """Every message in order, with the messages edits dropped in their places."""
    items: list[CardItem] = []
    index = 0
    for projected in context.entries:
        part = provenance.get(projected.entry.id).part if projected.entry.id in provenance else None
        if projected.dropped:
            for message in projected.original:
                items.append(CardItem(None, message, projected.entry, projected.edit, None, True, part))
            continue
        for offset, message in enumerate(projected.messages):
            original = projected.original[offset] if projected.replaced_at(offset) else None
            count = tokens[index] if tokens is not None and index < len(tokens) else 0
            items.append(CardItem(index, message, projected.entry, projected.edit if original is not None else None, original, False, part, count))
            index += 1
    return items


def context_info(context: Context, provenance: dict[str, Provenance], tokens: list[int] | None = None) -> ContextInfo:
    items = build_items(context, provenance, tokens)
    info = ContextInfo(context, items, provenance)
    for item in items:
        message = item.message
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "toolResult" and isinstance(message.get("toolCallId"), str):
            if item.dropped:
                info.dropped_results.setdefault(message["toolCallId"], item)
            else:
                info.results.setdefault(message["toolCallId"], item.index)
        elif role == "assistant" and not item.dropped:
            for call in tool_calls(message.get("content")):
                if isinstance(call.get("id"), str):
                    info.calls.setdefault(call["id"], (item.index, call))
    # countOf over the parts runs in C: a path can hold 100,000 entries, most of them summarized.
    info.summarized = countOf(map(attrgetter("part"), provenance.values()), Part.SUMMARIZED)
    info.by_index = {item.index: item for item in items if item.index is not None}
    return info
