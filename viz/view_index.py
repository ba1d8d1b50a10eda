"""The view's rows indexed by node: the page of a large graph and a node's neighbourhood, made
from the rows of the nodes they show, not from the whole view graph.

A page holds at most MAX_NODES nodes (the best-connected) and a neighbourhood at most 500, but
both used to be cut from the whole view graph, built in networkx first: at 10,000 articles 119,000
nodes and 238,000 edges, most of the time of a first `/graph` and all of a first
`/graph/neighbours`. The index reads the merged rows once, keeps what ranking needs for every node
(its family, its degree, its neighbours) and the rows of each node, and makes the networkx graph
of the chosen nodes only, with `graph_of`, so the result is the same graph: `top(n)` is
`cap_nodes(whole, n)` and `neighbourhood(x)` is `neighbours.neighbourhood(whole, x)`
(tests/viz/test_view_index.py), except that a capped graph carries only the sentences its own
nodes and edges cite and the documents those sentences and its nodes belong to, not every
sentence and article of the whole graph.
"""

from __future__ import annotations

import gc
from collections import Counter, defaultdict
from contextlib import contextmanager
from typing import Iterable, Iterator

import networkx as nx

from kg.publish.view_data import CORPUS_FAMILY, FAMILIES, ViewParts, ViewSchema, view_schema
from kg.store.protocol import GraphStore
from kg.viz.neighbours import NEIGHBOURS_MAX
from kg.viz.network import (
    ONTOLOGY,
    SAME_AS,
    SKIP_EDGE_PREDICATES,
    ViewRows,
    _most_specific_first,
    graph_of,
    kept_rows,
    store_rows,
)
from kg.viz.panels import document_of
from kg.viz.story import ACTORS


class ViewIndex:
    """The merged rows of a view graph, by node (see the module docstring)."""

    def __init__(self, schema: ViewSchema, rows: ViewRows) -> None:
        self.schema, self.rows = schema, rows
        self.node_rows: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        for row in rows.nodes:
            self.node_rows[row[0]].append(row)
        self.family = {x: next(f for f in FAMILIES if f in {r[1] for r in found}) for x, found in self.node_rows.items()}
        self.triples: dict[str, list[tuple[str, str, str, bool]]] = defaultdict(list)
        for row in rows.triples:
            if row[0] in self.family:
                self.triples[row[0]].append(row)
        self.edges = self._edges()
        self.degree: Counter = Counter()
        self.neighbours: dict[str, set[str]] = defaultdict(set)
        self.successors: dict[str, set[str]] = defaultdict(set)
        for s, o, _ in self.edges:
            self.degree[s] += 1
            self.degree[o] += 1
            self.neighbours[s].add(o)
            self.neighbours[o].add(s)
            self.successors[s].add(o)
        self.statements: dict[str, list] = defaultdict(list)
        for row in rows.statements:
            self.statements[row[0]].append(row)
        self.mentions: dict[str, list] = defaultdict(list)
        for row in rows.mentions:
            self.mentions[row[0]].append(row)
        self.ranks = self._ranks()

    def _edges(self) -> set[tuple[str, str, str]]:
        """Every distinct (subject, object, predicate) between two nodes: the view graph's edges."""
        nodes = self.family
        return {(s, o, p) for found in self.triples.values() for s, p, o, literal in found
                if not literal and o in nodes and p not in SKIP_EDGE_PREDICATES}

    def __len__(self) -> int:
        return len(self.family)

    def __contains__(self, node: object) -> bool:
        return node in self.family

    def graph(self, nodes: Iterable[str]) -> nx.MultiDiGraph:
        """The view graph of `nodes` and the edges among them, as `graph_of` makes the whole one,
        with the whole graph's ranks (so that colours match the whole) and only the sentences these
        nodes and edges cite."""
        keep = set(nodes) & self.family.keys()
        rows = self.rows
        part = ViewRows([r for x in keep for r in self.node_rows[x]],
                        [r for x in keep for r in self.triples.get(x, ()) if r[3] or r[1] == SAME_AS or r[2] in keep],
                        [r for x in keep for r in self.statements.get(x, ()) if r[2] in keep],
                        [r for x in keep for r in self.mentions.get(x, ())],
                        rows.sentences, rows.docs)
        return graph_of(self.schema, part, whole_ranks=self.ranks)

    def whole(self) -> nx.MultiDiGraph:
        return self.graph(self.family)

    def top(self, max_nodes: int) -> nx.MultiDiGraph:
        """The `max_nodes` best-connected nodes (all when there are no more), as `cap_nodes` keeps them."""
        total = len(self.family)
        if max_nodes <= 0 or total <= max_nodes:
            return self.whole()
        keep = sorted(self.family, key=lambda n: (-self.degree[n], n))[:max_nodes]
        return self._marked(keep, total)

    def neighbourhood(self, node: str, limit: int = NEIGHBOURS_MAX) -> nx.MultiDiGraph:
        """`node`, its neighbours and its events' other actors, the best-connected `limit` of them,
        as kg.viz.neighbours.neighbourhood cuts them from the whole graph."""
        near = set(self.neighbours.get(node, ()))
        for other in list(near):
            if self.family[other] == "Event":
                near.update(o for o in self.successors.get(other, ()) if self.family[o] in ACTORS)
        near.discard(node)
        kept = [node] + sorted(near, key=lambda n: (-self.degree[n], n))[: limit - 1]
        return self._marked(kept, None)

    def _marked(self, keep: list[str], total: int | None) -> nx.MultiDiGraph:
        """The graph of `keep`, each node with the count of its neighbours outside it (`outside`)."""
        graph = self.graph(keep)
        graph.graph["docs"] = documents_shown(graph)
        if total is not None:
            graph.graph["total_nodes"] = total
        for node, data in graph.nodes(data=True):
            data["outside"] = sum(1 for m in self.neighbours.get(node, ()) if m not in graph)
        return graph

    def _ranks(self) -> dict[str, list[str]]:
        """kg.viz.network.ranks of the whole graph, from the rows."""
        supers = self.schema.supers
        first_type = {x: _most_specific_first({r[2] for r in found}, supers)[0] for x, found in self.node_rows.items()}
        types = Counter(first_type[x] for x, f in self.family.items() if f == CORPUS_FAMILY)
        events = Counter(first_type[x] for x, f in self.family.items()
                         if f == "Event" and first_type[x] != ONTOLOGY + "Event")
        relations = Counter(p for _, _, p in self.edges)
        actor = {x for x, f in self.family.items() if f in ACTORS}
        between_actors = Counter(p for s, o, p in self.edges if s in actor and o in actor)
        return {"types": sorted(types, key=lambda k: (-types[k], k)),
                "events": sorted(events, key=lambda k: (-events[k], k)),
                "relations": sorted(relations, key=lambda k: (-between_actors[k], -relations[k], k))}


def documents_shown(graph: nx.MultiDiGraph) -> dict[str, dict[str, str]]:
    """The documents of `graph`'s sentences and of its document-local nodes (`<doc>/figure/T8`):
    all a part of the view names (the whole graph's are every article: 50 MB of a page at 100,000)."""
    docs = graph.graph["docs"]
    wanted = {found["doc"] for found in graph.graph["sentences"].values()}
    wanted.update(document_of(graph, node) for node in graph)
    return {doc: found for doc, found in docs.items() if doc in wanted}


def kept_index(parts: ViewParts) -> ViewIndex:
    """The index of a build's view, from the parts it kept (kg.publish.view_data)."""
    with _no_cycle_collection():
        return ViewIndex(parts.schema, kept_rows(parts))


def store_index(store: GraphStore) -> ViewIndex:
    """The index of a store's view, from its answers (a store whose build kept no view data)."""
    schema = view_schema(store.select)
    rows = store_rows(store, schema)
    with _no_cycle_collection():
        return ViewIndex(schema, rows)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Millions of rows made in a row, none in a cycle: the cycle collector would walk them again
    and again as they grow (a third of the index's time at 10,000 articles). Reference counting
    still frees what is dropped."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
