"""What hovering over a node or a fold tells: the entry (or the run) in a few lines of rich text."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ...model.text.describe import entry_title
from ...model.js.date import js_time
from ...model.text.timefmt import format_millis
from .kinds import KIND_NAMES
from ...model.text.plural import counted

if TYPE_CHECKING:
    from ...model.context.provenance import Provenance
    from ...model.session.entry import Entry


class ShownNode(Protocol):
    """What a node's tooltip reads of the node as drawn."""

    @property
    def entry(self) -> Entry: ...
    @property
    def kind(self) -> str: ...
    @property
    def label(self) -> str | None: ...
    @property
    def current_leaf(self) -> bool: ...
    @property
    def current_leaf_hidden(self) -> int: ...
    @property
    def provenance(self) -> Provenance | None: ...
    def title(self) -> str: ...


class ShownFold(Protocol):
    """What a fold's tooltip reads of the fold as drawn."""

    @property
    def members(self) -> Sequence[str]: ...
    @property
    def hits(self) -> int: ...
    def summary(self) -> str: ...


def node_tooltip(item: ShownNode) -> str:
    entry = item.entry
    lines = [f"<b>{html.escape(KIND_NAMES.get(item.kind, item.kind))}</b> &nbsp;<code>{html.escape(entry.id)}</code>"]
    lines.append(html.escape(item.title()))
    lines.append(f"<span style='color:gray'>{html.escape(_when(entry.timestamp))} · line {entry.line}</span>")
    if item.label:
        lines.append(f"label: <b>{html.escape(item.label)}</b>")
    if item.current_leaf:
        extra = f" (through {item.current_leaf_hidden} hidden entries)" if item.current_leaf_hidden else ""
        lines.append(f"current leaf — where pi resumes{extra}")
    if item.provenance is not None:
        lines.append(f"in the selected context: {html.escape(item.provenance.describe())}")
    return "<br>".join(lines)


def fold_tooltip(item: ShownFold, first: Entry, last: Entry) -> str:
    """`first` and `last` are the fold's top and bottom entries."""
    lines = [
        f"<b>{counted(len(item.members), 'entry')} folded</b> — click to expand",
        html.escape(item.summary()),
        f"first: <code>{html.escape(first.id)}</code> {html.escape(entry_title(first, 70))}",
        f"last: <code>{html.escape(last.id)}</code> {html.escape(entry_title(last, 70))}",
        f"<span style='color:gray'>{html.escape(_when(first.timestamp))} → {html.escape(_when(last.timestamp))}</span>",
    ]
    if item.hits:
        lines.append(f"{item.hits} search hit(s) inside")
    return "<br>".join(lines)


def _when(timestamp: Any) -> str:
    # A time that does not parse is still worth showing as the file has it.
    return format_millis(js_time(timestamp)) or str(timestamp)
