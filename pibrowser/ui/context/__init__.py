"""The context view: for the selected node, the messages pi would send, as cards (ContextPanel)."""

from .panel import ContextPanel

__all__ = ["ContextPanel"]
