"""Who wrote a message, as a card names and colours it."""

from __future__ import annotations

from PySide6.QtGui import QColor

ROLE_NAMES = {
    "user": "User",
    "assistant": "Assistant",
    "toolResult": "Tool result",
    "bashExecution": "Shell",
    "system": "System prompt",
    "custom": "Custom",
    "compactionSummary": "Compaction summary",
    "branchSummary": "Branch summary",
}

# Hues chosen to stay distinct on light and dark backgrounds.
ROLE_COLORS = {
    "user": "#3b82f6",
    "assistant": "#10b981",
    "toolResult": "#f59e0b",
    "bashExecution": "#a855f7",
    "system": "#64748b",
    "custom": "#ec4899",
    "compactionSummary": "#f97316",
    "branchSummary": "#06b6d4",
    "error": "#ef4444",
    "dropped": "#9ca3af",
}


def accent(role: str) -> QColor:
    return QColor(ROLE_COLORS.get(role, ROLE_COLORS["system"]))


# The pale yellow of the tree's label badges, so a label reads the same in both views.
LABEL_COLOR = QColor("#fde68a")
