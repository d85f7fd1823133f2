"""A session as a networkx DiGraph, for a notebook or a graph tool (Gephi, yEd, Cytoscape).

Every entry is a node, keyed by its id, an edge runs parent → child for every
entry linked to its parent (pi's tree, cycles cut as the window shows them), and
each node carries what the file says of the entry:

    type          the entry's type: "message", "compaction", "label", …
    role          a message's role: "user", "assistant", "toolResult", …     (messages)
    time          the entry's timestamp as written (ISO 8601)                (when a string)
    label         the user's label on the entry, as pi's /label set it       (labelled entries)
    tokens        pi's estimate of the entry's own messages (0 for an entry that gives none)
    input_tokens  what the provider reported the reply read: input + cache   (assistant replies
                  read + cache write                                           with usage)
    line          the entry's line in the file

The graph itself has `path`, and `name` and `leaf` when the session has them.
Values are str, int or float only, and a value that is not there is left out,
so networkx's GraphML, GEXF, GML and JSON writers take the graph as it is.

The graph is a snapshot of the file as read, built in one pass that parses
every line: for a notebook, the command line or the thread pool, never the GUI
thread. Questions the window asks of the tree (paths, a common ancestor) are
answered by `Session` itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .context.resolve import entry_messages
from .js.value import js_string
from .session.session import Session
from .tokens.message_tokens import estimate_messages_tokens
from .tokens.timeline import input_tokens

if TYPE_CHECKING:
    import networkx as nx


def session_graph(session: Session) -> nx.DiGraph:
    """The session's entries and tree as a DiGraph with the attributes above."""
    import networkx as nx  # only a graph asked for pays for the import

    leaf = session.leaf_id
    # As a graph file writes the node ids: a leaf without an id (a JsKey) as its text, "undefined".
    graph = nx.DiGraph(**_present(path=str(session.path), name=session.name, leaf=str(leaf) if leaf is not None else None))
    labels = session.labels
    for entry in session.entries.values():  # a later duplicate id stands in the first one's place
        label = labels.get(entry.id)
        graph.add_node(
            entry.id,
            **_present(
                type=entry.type if isinstance(entry.type, str) else None,
                role=entry.role if entry.type == "message" and isinstance(entry.role, str) else None,
                time=entry.timestamp if isinstance(entry.timestamp, str) else None,
                label=js_string(label) if label is not None else None,
                tokens=estimate_messages_tokens(entry_messages(entry)),
                input_tokens=_number(input_tokens(entry)),
                line=entry.line,
            ),
        )
    graph.add_edges_from((parent, child) for parent, children in session.children_by_parent.items() for child in children)
    return graph


def _present(**attributes: Any) -> dict[str, Any]:
    """The attributes that have a value (None is no value a graph format can hold)."""
    return {key: value for key, value in attributes.items() if value is not None}


_SAFE_INTEGER = 2**53 - 1  # beyond, a double is no exact count, and an int may not fit a graph format's `long`


def _number(value: float | None) -> int | float | None:
    """A whole number as an int (usage counts are), anything else (1e300 too) as it is."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= _SAFE_INTEGER:
        return int(value)
    return value
