"""The context views: what pi sends for a node (ContextPanel) and two leaves side by side (CompareView)."""

from .compare_view import CompareView
from .panel import ContextPanel

__all__ = ["CompareView", "ContextPanel"]
