"""A part of the graph as the page's data, for a page served by `kg serve` that holds only part of
a large graph: a click on a node with neighbours outside the page, a search hit, a filter fetch it
(api/view.py: `/graph/neighbours?node=`, `/graph/nodes?...`) and the page merges it in.

The part (kg.viz.view_index: a neighbourhood or a selection) is sent unplaced: the page places new
nodes around the node that brought them in.
"""

from __future__ import annotations

import networkx as nx

from kg.viz.html import view_data

SENT = ("nodes", "edges", "relations", "nodeDetails", "timeline", "figures", "sentences", "docs")


def neighbourhood_data(part: nx.MultiDiGraph, node: str) -> dict:
    """The page's data for `part` (around `node`, '' for a selection): nodes (unplaced), edges,
    relations, details, its dated events and figures, sentences and documents, numbered within this block."""
    data = view_data(part, place=False)
    return {"node": node, **{key: data[key] for key in SENT}}
