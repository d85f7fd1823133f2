"""`pibrowser graph FILE --format graphml|gexf|gml|json`: the session as a graph file, for Gephi, yEd or Cytoscape.

The graph is model/graph.py's (entries as nodes, parent → child), written to
stdout by networkx's own writers; JSON is networkx's node-link form written by
our one JSON writer. Each format gets the graph in the form it can hold:

- XML (GraphML, GEXF) cannot hold most control characters nor lone surrogates,
  which a session's ids and labels may contain. In a graph that has any, each is
  written `\\uXXXX` and a backslash `\\\\`, in every id and text, so no two ids
  become one and the original reads back (`xml_unescape`); the graph's `escaped`
  attribute says so.
- GML names every node by its `label`: pi's label goes as `pi_label`.
- GraphML and GEXF declare one type per attribute: a number attribute whose values
  mix whole and fractional numbers is written as fractional throughout (GraphML
  would write two keys of one name, GEXF read every value as the first's type).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, BinaryIO

from ..model.js.stringify import dump_json

if TYPE_CHECKING:
    import networkx as nx

FORMATS = ("graphml", "gexf", "gml", "json")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_TO_ESCAPE = re.compile("[\\\\\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ESCAPED = re.compile(r"\\(\\|u[0-9a-f]{4})")
ESCAPED_NOTE = "\\uXXXX: a character XML cannot hold; \\\\: a backslash"


def write_graph(graph: nx.DiGraph, kind: str, out: BinaryIO) -> None:
    import networkx as nx
    from networkx.readwrite import json_graph

    if kind == "json":
        out.write(dump_json(json_graph.node_link_data(graph, edges="edges")) + b"\n")
    elif kind == "gml":
        nx.write_gml(_renamed(graph, "label", "pi_label"), out)
    elif kind == "graphml":
        nx.write_graphml(_one_number_type(_xml_safe(graph)), out)
    elif kind == "gexf":
        nx.write_gexf(_one_number_type(_xml_safe(graph)), out)
    else:
        raise ValueError(f"no graph format {kind!r}; one of {', '.join(FORMATS)}")


def _renamed(graph: nx.DiGraph, old: str, new: str) -> nx.DiGraph:
    copy = graph.copy()
    for _, data in copy.nodes(data=True):
        if old in data:
            data[new] = data.pop(old)
    return copy


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return "\\\\" if char == "\\" else f"\\u{ord(char):04x}"


def _xml_text(value: Any) -> Any:
    return _TO_ESCAPE.sub(_escape, value) if isinstance(value, str) else value


def xml_unescape(text: str) -> str:
    """An id or text of a graph written with `escaped` as it was in the session."""
    return _ESCAPED.sub(lambda match: "\\" if match.group(1) == "\\" else chr(int(match.group(1)[1:], 16)), text)


def _xml_safe(graph: nx.DiGraph) -> nx.DiGraph:
    """`graph` with every id and text escaped as the module says when some cannot be held in XML (the graph
    itself when all can). The escape is one-to-one: every node stays a node of its own."""
    import networkx as nx

    def clean(data: dict[str, Any]) -> dict[str, Any]:
        return {key: _xml_text(value) for key, value in data.items()}

    texts = [*graph.nodes, *graph.graph.values(), *(value for _, data in graph.nodes(data=True) for value in data.values())]
    if not any(isinstance(text, str) and _NOT_XML.search(text) for text in texts):
        return graph
    safe = nx.DiGraph(**clean(graph.graph), escaped=ESCAPED_NOTE)
    safe.add_nodes_from((_xml_text(node), clean(data)) for node, data in graph.nodes(data=True))
    safe.add_edges_from((_xml_text(parent), _xml_text(child)) for parent, child in graph.edges)
    assert safe.number_of_nodes() == graph.number_of_nodes(), "the escape is one-to-one"
    return safe


def _one_number_type(graph: nx.DiGraph) -> nx.DiGraph:
    """Whole numbers of an attribute that also has fractional ones made fractional (GEXF reads
    every value of an attribute as the type of its first)."""
    mixed = {
        key
        for key in {key for _, data in graph.nodes(data=True) for key in data}
        if {type(data[key]) for _, data in graph.nodes(data=True) if key in data} == {int, float}
    }
    if not mixed:
        return graph
    copy = graph.copy()
    for _, data in copy.nodes(data=True):
        for key in mixed & data.keys():
            data[key] = float(data[key])
    return copy
