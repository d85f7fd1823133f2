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


READABLE = 4.5  # WCAG 2's least contrast for text


def luminance(color: QColor) -> float:
    """WCAG 2's relative luminance of an opaque colour."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.red()) + 0.7152 * channel(color.green()) + 0.0722 * channel(color.blue())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def readable(color: QColor, background: QColor, toward: QColor) -> QColor:
    """`color`, or moved toward `toward` (the full text colour) just as far as text in it reads on
    `background` (READABLE): a muted shade must stay text."""
    for step in range(11):
        shade = mix(color, toward, step / 10)
        if contrast(shade, background) >= READABLE:
            return shade
    return QColor(toward)


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
