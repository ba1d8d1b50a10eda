"""What each colour of the view stands for: a legend entry for every kind of node and of relation.

kg's own families keep a colour and a shape each (STYLE). Every entity type of the corpus's own
(family Entity, aligned to no kgo class: PER, ORG, a POS tag) is drawn too: the TYPE_COLOURS most
frequent types get a colour and an entry each, and the rest share one "other types" entry, so the
legend stays short whatever the schema. Events keep their shape and one layer entry, and the most
frequent kinds of event (a defection, a commodity price fall) a colour each, listed under it; the
other kinds keep the event colour. Relations are told apart the same way: the most frequent
relation types (statement predicates and event roles) a colour each, the rest one grey, and a link
that rests only on shared events the view's plain grey. Frequencies are the whole graph's
(`graph.graph["ranks"]`), so every part of it colours alike. Pure data: the page draws the entries.
"""

from __future__ import annotations

import networkx as nx

from kg.model.iris import ONTOLOGY
from kg.viz.network import CORPUS_FAMILY, FAMILIES, local_name
from kg.viz.story import ACTORS, LAYERS, Link

STYLE = {  # family -> (colour, vis shape); the eight Okabe-Ito colours, safe for colour-blind readers, and shapes
    "Person": ("#0072B2", "dot"),
    "Group": ("#000000", "dot"),  # people, so a dot like a person's, in the palette's eighth colour
    "Organization": ("#E69F00", "square"),
    "Place": ("#009E73", "triangle"),
    "Event": ("#CC79A7", "diamond"),
    "Date": ("#56B4E9", "triangleDown"),
    "Figure": ("#D55E00", "star"),
    "Quote": ("#F0E442", "hexagon"),
}
# Paul Tol's muted scheme (colour-blind safe) and its dark brown: the corpus's own types and the relations
PALETTE = ("#CC6677", "#332288", "#DDCC77", "#117733", "#88CCEE", "#882255", "#44AA99", "#999933", "#AA4499",
           "#661100")
TYPE_COLOURS = len(PALETTE)  # the most frequent types and relations with a colour of their own
OTHER_COLOUR = "#888888"
SHARED_EVENT_COLOUR = "#A7B0BA"  # the view's plain edge grey
CORPUS_SHAPE = "dot"
TYPES_LISTED = 3  # the corpus types a family's legend entry names


def node_kind(graph: nx.MultiDiGraph, node: str) -> str:
    """The legend entry a node falls under: its family, or its corpus type's class IRI (one of the
    most frequent), or CORPUS_FAMILY ("other types")."""
    data = graph.nodes[node]
    if data["family"] != CORPUS_FAMILY:
        return data["family"]
    coloured = graph.graph.get("ranks", {}).get("types", [])[:TYPE_COLOURS]
    return data["types"][0] if data["types"] and data["types"][0] in coloured else CORPUS_FAMILY


def node_legend(graph: nx.MultiDiGraph) -> list[dict]:
    """One entry per family and per coloured corpus type ({family: the entry's key, label, layer,
    color, shape, count, types}), actors first; `types` names the corpus types a family's nodes have."""
    labels = graph.graph.get("labels", {})
    counts: dict[str, int] = {}
    types: dict[str, dict[str, int]] = {}
    for node, data in graph.nodes(data=True):
        kind = node_kind(graph, node)
        counts[kind] = counts.get(kind, 0) + 1
        for label in data["type_labels"][:1]:
            types.setdefault(kind, {}).setdefault(label, 0)
            types[kind][label] += 1

    def entry(key: str, label: str, colour: str, shape: str) -> dict:
        named = sorted(types.get(key, {}).items(), key=lambda kv: (-kv[1], kv[0]))
        return {"family": key, "label": label, "layer": key in LAYERS, "color": colour, "shape": shape,
                "count": counts.get(key, 0), "types": [name for name, _ in named[:TYPES_LISTED]],
                "moreTypes": max(0, len(named) - TYPES_LISTED)}

    families = [f for f in FAMILIES if f in STYLE]
    entries = [entry(f, labels.get(ONTOLOGY + f) or f.lower(), *STYLE[f]) for f in families if f in ACTORS]
    coloured = graph.graph.get("ranks", {}).get("types", [])[:TYPE_COLOURS]
    entries += [entry(t, labels.get(t) or local_name(t), PALETTE[i], CORPUS_SHAPE) for i, t in enumerate(coloured)]
    entries.append(entry(CORPUS_FAMILY, "other types", OTHER_COLOUR, CORPUS_SHAPE))
    entries += [entry(f, labels.get(ONTOLOGY + f) or f.lower(), *STYLE[f]) for f in families if f in LAYERS]
    return entries


def event_tint(graph: nx.MultiDiGraph, node: str) -> int | None:
    """The entry of `event_legend` an event is coloured by (its kind's), or None (the event colour)."""
    coloured = graph.graph.get("ranks", {}).get("events", [])[:TYPE_COLOURS]
    kind = _kind(graph.nodes[node])
    return coloured.index(kind) if kind in coloured else None


def _kind(data: dict) -> str | None:
    """An event's kind: its most specific class."""
    return data["types"][0] if data["family"] == "Event" and data.get("types") else None


def event_legend(graph: nx.MultiDiGraph) -> list[dict]:
    """The colours of the most frequent kinds of event ({kind: its class IRI, label, color, count};
    count: the events of `graph` of that kind)."""
    labels = graph.graph.get("labels", {})
    coloured = graph.graph.get("ranks", {}).get("events", [])[:TYPE_COLOURS]
    counts = {kind: 0 for kind in coloured}
    for _, data in graph.nodes(data=True):
        if _kind(data) in counts:
            counts[_kind(data)] += 1
    return [{"kind": k, "label": labels.get(k) or local_name(k), "color": PALETTE[i], "count": counts[k]}
            for i, k in enumerate(coloured)]


def relation_legend(graph: nx.MultiDiGraph, links: dict[tuple[str, str], Link]) -> list[dict]:
    """The edge colours: the most frequent relation types one each, "other relations", then "shared
    event" ({predicate, label, color, count}; count: the edges of `graph` of that type, or the
    `links` that rest on shared events only)."""
    labels = graph.graph.get("labels", {})
    ranked = graph.graph.get("ranks", {}).get("relations", [])
    counts: dict[str, int] = {}
    for _, _, key in graph.edges(keys=True):
        counts[key] = counts.get(key, 0) + 1
    entries = [{"predicate": p, "label": labels.get(p) or local_name(p), "color": PALETTE[i],
                "count": counts.get(p, 0)} for i, p in enumerate(ranked[:TYPE_COLOURS])]
    entries.append({"predicate": "", "label": "other relations", "color": OTHER_COLOUR,
                    "count": sum(n for p, n in counts.items() if p not in ranked[:TYPE_COLOURS])})
    entries.append({"predicate": "", "label": "shared event", "color": SHARED_EVENT_COLOUR,
                    "count": sum(1 for link in links.values() if not link.statements)})
    return entries


def relation_entry(graph: nx.MultiDiGraph, predicates: list[str]) -> int:
    """The entry of `relation_legend` an edge standing for these predicates takes: that of the most
    frequent one; "shared event" when there is none."""
    ranked = graph.graph.get("ranks", {}).get("relations", [])[:TYPE_COLOURS]
    known = [ranked.index(p) for p in predicates if p in ranked]
    if known:
        return min(known)
    return len(ranked) if predicates else len(ranked) + 1


def link_entry(graph: nx.MultiDiGraph, link: Link) -> int:
    """The relation entry of a drawn link between two actors: its statements' first, or "shared event"."""
    return relation_entry(graph, [key for _, _, key in link.statements])
