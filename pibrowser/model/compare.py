"""Comparing the contexts of two leaves: common ancestor, shared prefix, what differs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

import networkx as nx

from .context import Context, resolve

if TYPE_CHECKING:
    from .session import Session


@dataclass(slots=True)
class Comparison:
    left: Context
    right: Context
    common_ancestor: str | None
    shared_prefix: int  # messages equal, position by position, from the start

    @property
    def left_only(self) -> list[Any]:
        return self.left.messages[self.shared_prefix:]

    @property
    def right_only(self) -> list[Any]:
        return self.right.messages[self.shared_prefix:]

    @property
    def identical(self) -> bool:
        return (
            len(self.left.messages) == len(self.right.messages) == self.shared_prefix
            and self.left.thinking_level == self.right.thinking_level
            and self.left.model == self.right.model
        )


def compare(session: Session, left: str, right: str, resolve_context: Callable[[str], Context] | None = None) -> Comparison:
    """`resolve_context` lets a caller that caches contexts (the GUI) supply them."""
    get = resolve_context or (lambda key: resolve(session, key))
    left_context, right_context = get(left), get(right)
    return Comparison(left_context, right_context, common_ancestor(session, left, right), shared_prefix(left_context, right_context))


def common_ancestor(session: Session, left: str, right: str) -> str | None:
    """The lowest entry both are descended from (or equal to); None across separate roots."""
    # The graph is a forest (cycles are cut at load), which is what networkx needs here.
    return nx.lowest_common_ancestor(session.graph, left, right)


def shared_prefix(left: Context, right: Context) -> int:
    count = 0
    for a, b in zip(left.messages, right.messages):
        if a != b:
            break
        count += 1
    return count
