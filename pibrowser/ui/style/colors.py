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


# (light, dark) colours of a compared pair: A (left), B (right), the trunk they share.
# The tree draws A solid, B dashed and the trunk as a wide pale band, so they differ without colour too.
COMPARE: dict[str, tuple[str, str]] = {
    "A": ("#0e7490", "#22d3ee"),
    "B": ("#c026d3", "#e879f9"),
    "trunk": ("#94a3b8", "#64748b"),
}
