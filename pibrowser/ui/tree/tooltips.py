"""What hovering over a node or a fold tells: the entry (or the run) in a few lines of rich text."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from ...model.text.describe import entry_title
from ...model.js.date import js_time
from ...model.text.timefmt import format_millis
from .kinds import KIND_NAMES
from ...model.text.plural import counted

if TYPE_CHECKING:
    from ...model.session.entry import Entry
    from .fold_item import FoldItem
    from .node_item import NodeItem


def node_tooltip(item: NodeItem) -> str:
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


def fold_tooltip(item: FoldItem, first: Entry, last: Entry) -> str:
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
