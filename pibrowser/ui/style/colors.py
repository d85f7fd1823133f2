"""Colour arithmetic and the colours shared by several views: the compared pair, what a context is made of."""

from __future__ import annotations

from PySide6.QtGui import QColor

from ...model.tokens.composition import ROUNDING, group_of


def mix(a: QColor, b: QColor, amount: float) -> QColor:
    """`amount` of the way from colour a to colour b (opaque)."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * amount),
        round(a.green() + (b.green() - a.green()) * amount),
        round(a.blue() + (b.blue() - a.blue()) * amount),
    )


# (light, dark) colours of a compared pair: A (left), B (right), the trunk they share.
# The tree draws A solid, B dashed and the trunk as a wide pale band, so they differ without colour too.
COMPARE: dict[str, tuple[str, str]] = {
    "A": ("#0e7490", "#22d3ee"),
    "B": ("#c026d3", "#e879f9"),
    "trunk": ("#94a3b8", "#64748b"),
}

# By group; tools of one group alternate lighter and darker so neighbours stay apart.
GROUP_COLORS = {
    "system": "#64748b",
    "user": "#3b82f6",
    "assistant": "#10b981",
    "thinking": "#84cc16",
    "tool_call": "#d97706",
    "tool_result": "#f59e0b",
    "image": "#8b5cf6",
    "summary": "#f97316",
    "custom": "#ec4899",
    "bash": "#a855f7",
}


def kind_color(kind: str, nth: int = 0) -> QColor:
    """The colour of a kind; `nth` kind of its group shades it, so two tools never look alike."""
    if kind == ROUNDING:
        return QColor("#9ca3af")
    color = QColor(GROUP_COLORS.get(group_of(kind), "#9ca3af"))
    if nth:
        shade = (110, 135, 90, 150, 75)[nth % 5]
        color = color.lighter(shade) if shade > 100 else color.darker(200 - shade)
    return color
