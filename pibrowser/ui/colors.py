"""Colour arithmetic shared by the tree and the context views."""

from __future__ import annotations

from PySide6.QtGui import QColor


def mix(a: QColor, b: QColor, amount: float) -> QColor:
    """`amount` of the way from colour a to colour b (opaque)."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * amount),
        round(a.green() + (b.green() - a.green()) * amount),
        round(a.blue() + (b.blue() - a.blue()) * amount),
    )
