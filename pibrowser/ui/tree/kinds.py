"""The kinds of node the tree draws: which kind an entry is, and each kind's colour, shape and name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.text.describe import entry_kind

if TYPE_CHECKING:
    from ...model.session.entry import Entry

# kind → (light palette colour, dark palette colour, shape, radius)
KINDS: dict[str, tuple[str, str, str, float]] = {
    "user": ("#2563eb", "#60a5fa", "circle", 8.0),
    "assistant": ("#059669", "#34d399", "circle", 8.0),
    "toolResult": ("#a16207", "#d6a23a", "square", 5.5),
    "bashExecution": ("#ea580c", "#fb923c", "square", 6.5),
    "custom": ("#7c3aed", "#a78bfa", "diamond", 7.0),  # a message with role custom
    "custom_message": ("#7c3aed", "#a78bfa", "diamond", 7.0),
    "system": ("#475569", "#94a3b8", "hexagon", 8.0),
    "compaction": ("#dc2626", "#f87171", "compaction", 9.0),
    "branch_summary": ("#db2777", "#f472b6", "summary", 8.0),
    "model_change": ("#0891b2", "#22d3ee", "triangle", 6.0),
    "thinking_level_change": ("#4f46e5", "#818cf8", "triangle_down", 6.0),
    "label": ("#ca8a04", "#facc15", "tag", 6.0),
    "session_info": ("#0d9488", "#2dd4bf", "square", 5.0),
    "context_edit": ("#be123c", "#fb7185", "cross", 6.0),
    "custom_state": ("#7c3aed", "#a78bfa", "diamond_hollow", 5.5),
    "usage": ("#6b7280", "#9ca3af", "dot", 4.0),
    "message": ("#6b7280", "#9ca3af", "circle_dashed", 7.0),  # a message of a role we do not know
    "unknown": ("#6b7280", "#9ca3af", "unknown", 6.0),
}

KIND_NAMES = {
    "user": "user message",
    "assistant": "assistant message",
    "toolResult": "tool result",
    "bashExecution": "bash execution",
    "custom": "custom message",
    "custom_message": "custom message",
    "system": "system message",
    "compaction": "compaction",
    "branch_summary": "branch summary",
    "model_change": "model change",
    "thinking_level_change": "thinking level change",
    "label": "label",
    "session_info": "session info",
    "context_edit": "context edit",
    "custom_state": "extension state (custom)",
    "usage": "usage record",
    "message": "message (unknown role)",
    "unknown": "unknown entry type",
}

_KNOWN_TYPES = {
    "compaction",
    "branch_summary",
    "model_change",
    "thinking_level_change",
    "label",
    "session_info",
    "context_edit",
    "custom_message",
    "usage",
}
_KNOWN_ROLES = {"user", "assistant", "toolResult", "bashExecution", "custom", "system"}


def style_kind(entry: Entry) -> str:
    """The key into KINDS for an entry: its message role or type, 'unknown' for anything else."""
    if entry.type == "message":
        kind = entry_kind(entry)
        return kind if kind in _KNOWN_ROLES else "message"
    if entry.type == "custom":
        return "custom_state"
    return entry.type if entry.type in _KNOWN_TYPES else "unknown"
