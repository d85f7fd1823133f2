"""pibrowser for Python: a session file opened in a notebook or a script.

    >>> import pibrowser
    >>> opened = pibrowser.open_session("~/.pi/agent/sessions/…/2026-….jsonl")
    >>> opened.graph                      # networkx DiGraph: entries, parent → child (model/graph.py)
    >>> opened.session.leaves()           # the Session: entries, tree, labels, problems
    >>> opened.context(leaf).to_pi()      # what pi would send with `leaf` as the leaf

No Qt is imported. Every line is parsed on opening, so problems are all known
(`opened.session.problems`); the graph is built the first time it is asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .model import Context, Session, resolve
from .model.graph import session_graph

if TYPE_CHECKING:
    import networkx as nx


class OpenSession:
    """One session file as read: `session`, `graph`, `context(key)`."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._graph: nx.DiGraph | None = None

    @property
    def path(self) -> Path:
        return self.session.path

    @property
    def graph(self) -> nx.DiGraph:
        """Entries as nodes (type, role, time, label, tokens, input_tokens, line), an edge parent → child."""
        if self._graph is None:
            self._graph = session_graph(self.session)
        return self._graph

    def context(self, key: str | None = None) -> Context:
        """The context pi resolves with `key` (default: the current leaf) as the leaf."""
        leaf = key if key is not None else self.session.leaf_id
        if leaf is None:
            raise KeyError("the session has no entries")
        return resolve(self.session, leaf)


def open_session(path: str | Path) -> OpenSession:
    """Read a pi session file (`~` is expanded). Raises SessionLoadError with one clear line when
    the file is not a pi session; damaged lines are skipped as pi skips them, and listed in
    `session.problems`."""
    return OpenSession(Session.load(Path(path).expanduser(), lazy=False))
