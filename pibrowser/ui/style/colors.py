"""Colour arithmetic and the colours shared by the tree and the context views."""

from __future__ import annotations

from PySide6.QtGui import QColor


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
