"""A session's tree as `pibrowser tree` writes it: the questions its text and JSON ask (`Forest`),
answered by a loaded Session (`SessionForest`) or, for a clean file, by its one-pass `IndexTree`.

A node is whatever stands for an entry there: a Session's id, an IndexTree's place in the file.
"""

from __future__ import annotations

from collections.abc import Collection, Container, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

if TYPE_CHECKING:
    from .session import Session

K = TypeVar("K")


class Forest(Protocol[K]):
    """The tree pi's getTree() gives, with its labels, name and current leaf."""

    @property
    def leaf(self) -> K | None:
        """pi's current leaf (the last entry of the file); None in a session without entries."""
        ...

    @property
    def name(self) -> str | None: ...

    def roots(self) -> Sequence[K]:
        """pi's roots (getTree's); the nodes where a parentId cycle was cut are `cut_roots`."""
        ...

    def children(self, node: K) -> Sequence[K]:
        """In pi's order (pi_tree.children_in_pi_order)."""
        ...

    def key(self, node: K) -> Any:
        """The entry's id (a JsKey for an id that is not a string)."""
        ...

    def label(self, node: K) -> Any:
        """pi's label of the entry; None when it has none."""
        ...

    def labelled(self) -> Collection[K]:
        """The nodes that have a label (and maybe keys that name none)."""
        ...

    def labels_json(self) -> dict[str, Any]: ...

    def on_path(self, node: K) -> Container[K]:
        """The nodes from the root down to `node` (pi's buildSessionPath), to ask whether one is."""
        ...

    def cut_roots(self) -> Collection[K]:
        """The nodes where a parentId cycle was cut (each shows as a root)."""
        ...


class SessionForest:
    """A loaded Session as a Forest of its ids."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.children = session.children
        self._roots = session.roots
        if session.repeats_ids:  # pi's getTree shows the last entry of an id under each line's parent
            self._roots, repeated = session.tree_with_repeats()
            self.children = lambda key: repeated.get(key, ())
        self.label = session.labels.get
        self.labelled = session.labels.keys
        self.labels_json = session.labels_json

    @property
    def leaf(self) -> str | None:
        return self.session.leaf_id

    @property
    def name(self) -> str | None:
        return self.session.name

    def roots(self) -> Sequence[str]:
        return self._roots

    @staticmethod
    def key(node: str) -> str:
        return node

    def on_path(self, node: str) -> Container[str]:
        return frozenset(self.session.path_to(node)) if node in self.session else frozenset()

    def cut_roots(self) -> Collection[str]:
        return self.session.cycle_roots


def as_forest(tree: Session | Forest[Any]) -> Forest[Any]:
    """A Forest as it is; a Session as its SessionForest (told apart without importing Session,
    which a clean file's `pibrowser tree` never loads)."""
    from .index_tree import IndexTree

    if isinstance(tree, (IndexTree, SessionForest)):
        return tree
    return SessionForest(cast("Session", tree))
