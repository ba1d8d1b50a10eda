"""The story the view tells first: actors and the links between them.

Actors are the people, the groups (several people an article speaks of together, local to that
article), organizations and places, and the entities of the corpus's own types that kg's ontology
does not know (family Entity: a corpus whose schema is PER, ORG, LOC is all actors). Two actors are linked when
a statement relates them directly (`member of`, `opposes`, ...) or when they
take part in the same event; the link keeps the statements and the events
behind it, so the page can show why two actors are connected. Events,
quotes, figures and dates are layers drawn on demand. Pure data: no HTML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import networkx as nx

from kg.publish.view_data import ACTORS

LAYERS = ("Event", "Quote", "Figure", "Date")
UNCERTAIN = ("speculated", "negated")


@dataclass
class Link:
    """Why two actors are connected: direct statements (edge keys of the view graph) and shared events."""

    a: str
    b: str
    statements: list[tuple[str, str, str]] = field(default_factory=list)  # (subject, object, predicate)
    events: list[str] = field(default_factory=list)

    def weight(self) -> int:
        """Statements count double: a stated relation says more than co-occurring in an event."""
        return 2 * len(self.statements) + len(self.events)


def is_actor(graph: nx.MultiDiGraph, node: str) -> bool:
    return graph.nodes[node]["family"] in ACTORS


def uncertainty(data: dict) -> str:
    """'speculated', 'negated' or '' for a node's attributes (events carry them)."""
    props = data.get("props", {})
    return next((u for u in UNCERTAIN if props.get(u) == "true"), "")


def participants(graph: nx.MultiDiGraph, event: str) -> list[str]:
    """The actors an event names in any role, in a stable order."""
    return sorted({o for _, o in graph.out_edges(event) if is_actor(graph, o)})


def actor_links(graph: nx.MultiDiGraph) -> dict[tuple[str, str], Link]:
    """Every pair of actors related by a statement or sharing an event, keyed by the sorted pair."""
    links: dict[tuple[str, str], Link] = {}

    def link(x: str, y: str) -> Link:
        pair = (x, y) if x < y else (y, x)
        return links.setdefault(pair, Link(*pair))

    families = dict(graph.nodes(data="family"))
    actors = {n for n, family in families.items() if family in ACTORS}
    for s, o, key in graph.edges(keys=True):
        if s != o and s in actors and o in actors:
            link(s, o).statements.append((s, o, key))
    adjacency = graph.adj
    for event in sorted(n for n, f in families.items() if f == "Event"):
        for x, y in combinations(sorted({o for o in adjacency[event] if o in actors}), 2):  # its participants
            link(x, y).events.append(event)
    return links


def actor_graph(graph: nx.MultiDiGraph, links: dict[tuple[str, str], Link]) -> nx.Graph:
    """Undirected weighted graph of every actor (isolated ones included) and their links."""
    story = nx.Graph()
    story.add_nodes_from(sorted(n for n in graph if is_actor(graph, n)))
    for (a, b), link in sorted(links.items()):
        story.add_edge(a, b, weight=link.weight())
    return story


def link_label(graph: nx.MultiDiGraph, link: Link) -> str:
    """What the drawn edge says: the stated relations, else the kind of event shared, else a count."""
    labels = graph.graph.get("labels", {})
    stated = sorted({graph.edges[s, o, k].get("label") or labels.get(k, k) for s, o, k in link.statements})
    if stated:
        return ", ".join(stated)
    kinds = sorted({(graph.nodes[e]["type_labels"] or ["event"])[0] for e in link.events})
    if len(kinds) == 1 and len(link.events) == 1:
        return kinds[0]
    return f"{len(link.events)} shared events" if len(kinds) > 1 else f"{kinds[0]} ×{len(link.events)}"


def link_direction(link: Link) -> str | None:
    """The arrow's head when every statement points one way and no event is shared, else None."""
    if link.events or not link.statements:
        return None
    objects = {o for _, o, _ in link.statements}
    return objects.pop() if len(objects) == 1 else None


def link_uncertain(graph: nx.MultiDiGraph, link: Link) -> bool:
    """True when the link rests only on speculated or negated events."""
    return not link.statements and all(uncertainty(graph.nodes[e]) for e in link.events)


def top_actors(story: nx.Graph, graph: nx.MultiDiGraph, count: int) -> list[str]:
    """The `count` most connected actors (weighted degree, then mentions): a large graph opens on them."""
    def rank(n: str) -> tuple:
        return (-story.degree(n, weight="weight"), -graph.nodes[n]["mentions"], n)
    return sorted((n for n in story if story.degree(n)), key=rank)[:count]


def strongest_links(links: dict[tuple[str, str], Link], per_actor: int) -> set[tuple[str, str]]:
    """The pairs whose link is among the `per_actor` heaviest of at least one of its two actors."""
    ranked: dict[str, list[tuple[int, tuple[str, str]]]] = {}
    for pair, link in links.items():
        for actor in pair:
            ranked.setdefault(actor, []).append((-link.weight(), pair))
    return {pair for entries in ranked.values() for _, pair in sorted(entries)[:per_actor]}
