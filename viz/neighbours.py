"""One node's neighbourhood as the page's data, for a page served by `kg serve` that holds only
the best-connected nodes of a large graph: a click on a node with neighbours outside the page
fetches them (api/view.py, `/graph/neighbours?node=`) and the page merges them in.

The neighbourhood is the node, every node one edge away, and the other actors of its events
(the actors it is linked to through a shared event); at most NEIGHBOURS_MAX nodes, the
best-connected first. Positions are left to the page, which places new nodes around the clicked one.
"""

from __future__ import annotations

import networkx as nx

from kg.errors import InputError
from kg.viz.html import view_data
from kg.viz.network import mark_outside, ordered_subgraph
from kg.viz.story import participants

NEIGHBOURS_MAX = 500
SENT = ("nodes", "edges", "relations", "nodeDetails", "sentences", "docs")


def neighbourhood(graph: nx.MultiDiGraph, node: str, limit: int = NEIGHBOURS_MAX) -> nx.MultiDiGraph:
    """`node`, its neighbours and its events' other actors (the best-connected `limit` of them)."""
    if node not in graph:
        raise InputError(f"no node {node!r} in the view graph (expected the IRI of an entity or event)")
    near = set(graph.to_undirected(as_view=True)[node])
    for other in list(near):
        if graph.nodes[other]["family"] == "Event":
            near.update(participants(graph, other))
    near.discard(node)
    kept = [node] + sorted(near, key=lambda n: (-graph.degree(n), n))[: limit - 1]
    part = ordered_subgraph(graph, kept)
    mark_outside(part, graph)
    return part


def neighbourhood_data(part: nx.MultiDiGraph, node: str) -> dict:
    """The page's data for `node`'s neighbourhood `part` (`neighbourhood` of the whole graph, or
    kg.viz.view_index's): nodes (unplaced), edges, relations, details, sentences and documents,
    numbered within this block."""
    data = view_data(part, place=False)
    return {"node": node, **{key: data[key] for key in SENT}}
