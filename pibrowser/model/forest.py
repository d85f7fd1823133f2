"""Building the session's DiGraph in one bulk pass.

`add_edges_from` checks and copies per edge, which for a 100,000-entry session
costs more than reading the file. The tree is known to be a forest with every
edge new, so we fill networkx's adjacency dicts directly, in the layout
DiGraph itself uses (`_node`, `_succ` aliased as `_adj`, `_pred`, one shared
data dict per edge); everything networkx offers then works on it as usual.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

import networkx as nx


def forest_digraph(nodes: Iterable[str], children: Mapping[str, Sequence[str]]) -> nx.DiGraph:
    graph = nx.DiGraph()
    node, succ, pred = graph._node, graph._succ, graph._pred
    for key in nodes:
        node[key] = {}
        succ[key] = {}
        pred[key] = {}
    for parent, kids in children.items():
        out = succ[parent]
        for kid in kids:
            out[kid] = pred[kid][parent] = {}
    graph.__networkx_cache__.clear()
    return graph
