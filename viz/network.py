"""The view's rows -> networkx MultiDiGraph: the nodes, edges and provenance the view shows.

Pure data, no HTML. A build keeps the view's rows by node (kg.publish.view_index) and a page is
made from the rows of the nodes it shows; a store whose build kept none (a remote store) is asked
the same rows in a handful of SPARQL queries through `GraphStore.select` (`store_rows`,
`load_graph`). Both end in `graph_of`, so they cannot disagree on what the rows make.
Nodes are the entities (the annotation entity types of annotation.conf and
their subclasses) and the events, and every entity of a type of the corpus's
own that is aligned to no kgo class (family `Entity`: brat's PER, a POS tag,
an INCEpTION layer's value), so that a corpus with its own schema is drawn
too; edges are every IRI-valued triple between
two nodes, one edge per (subject, predicate, object), carrying the sentences
of every `kgo:Statement` that states it (docs/model.md).

Node attributes include `props` {ontology property local name: first literal}, e.g.
{"date": "2019-02-23", "speculated": "true", "value": "1000"}.

Graph-level attributes: `sentences` {iri: {"text", "doc"}}, `docs` {iri:
{"title", "publisher", "date"}}, `labels` {class or predicate IRI: label}, `ranks`
{"types": the corpus's own entity types, "events": the kinds of event, "relations": the edge
predicates}, each most
frequent first: the whole graph's, kept by every part of it, so that a capped page and the
neighbourhoods it fetches give a type or a relation the same colour.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from operator import itemgetter
from typing import Iterable

import networkx as nx

from kg.model.iris import FIXED_PREFIXES, ONTOLOGY, RDF_TYPE, prologue

# the families are kg's (the build sorts nodes by them); viz/legend.py and the tests import them from here
from kg.publish.view_data import CORPUS_FAMILY, FAMILIES, ViewSchema, view_schema
from kg.publish.view_index import ViewRows
from kg.store.protocol import GraphStore, Select
from kg.viz.story import is_actor

SKIP_EDGE_PREDICATES = {RDF_TYPE, FIXED_PREFIXES["owl"] + "sameAs", FIXED_PREFIXES["prov"] + "wasDerivedFrom"}
LABEL_PREDICATES = {
    FIXED_PREFIXES["skos"] + "prefLabel": "pref",
    FIXED_PREFIXES["rdfs"] + "label": "label",
    FIXED_PREFIXES["skos"] + "altLabel": "alt",
    FIXED_PREFIXES["skos"] + "hiddenLabel": "hidden",
    ONTOLOGY + "quoteText": "quote",
    ONTOLOGY + "mentionCount": "mentions",
}
SAME_AS = FIXED_PREFIXES["owl"] + "sameAs"
PREF_LABEL = FIXED_PREFIXES["skos"] + "prefLabel"
WIKIDATA = FIXED_PREFIXES["wd"]


def _node_pattern(var: str, classes: dict[str, str]) -> str:
    """SPARQL pattern binding `var` to a node of the view, ?cls to its class and ?top to its family:
    the classes of each family listed (a property path per row is what made the view's queries slow
    on large stores)."""
    values = " ".join(f'(<{c}> "{family}")' for c, family in sorted(classes.items()))
    return f"VALUES (?cls ?top) {{ {values} }}\n  {var} a ?cls ."


def load_graph(store: GraphStore) -> nx.MultiDiGraph:
    """Read the whole view graph from the store: for a store whose build kept no view data (a
    remote store, a build made before the file)."""
    schema = view_schema(store.select)
    return graph_of(schema, store_rows(store.select, schema))


def graph_of(schema: ViewSchema, rows: ViewRows, whole_ranks: dict[str, list[str]] | None = None) -> nx.MultiDiGraph:
    """The view graph of `rows`, read under `schema`; `whole_ranks` are those of the larger graph
    these rows are part of (kg.viz.view_index), else this graph's own are computed."""
    graph = nx.MultiDiGraph(labels=schema.labels)
    _add_nodes(graph, rows.nodes, schema.supers)
    _add_node_literals(graph, [r for r in rows.triples if r[3] or r[1] == SAME_AS])
    _add_edges(graph, [r for r in rows.triples if not r[3]])
    _add_provenance(graph, rows)
    graph.graph["ranks"] = ranks(graph) if whole_ranks is None else whole_ranks
    return graph


def store_rows(select: Select, schema: ViewSchema) -> ViewRows:
    """The view's rows, asked of the whole store through its `select` (a store's, or a server's bound to
    its request deadline)."""
    nodes = select(prologue() + f"SELECT DISTINCT ?x ?top ?cls WHERE {{ {_node_pattern('?x', schema.classes)} "
                                      "FILTER(isIRI(?x)) }")
    triples = select(prologue() + f"""
        SELECT DISTINCT ?x ?p ?v (isLiteral(?v) AS ?lit)
        WHERE {{ {_node_pattern('?x', schema.classes)} ?x ?p ?v . FILTER(!isBlank(?v)) }}""")
    statements = select(prologue() + """
        SELECT DISTINCT ?s ?p ?o ?sent WHERE {
          ?st rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ; kgo:evidence ?sent }""")
    mentions = select(prologue() + """
        SELECT DISTINCT ?x ?sent WHERE { ?m kgo:denotes ?x ; kgo:sentence ?sent }""")
    sentences = select(prologue() + """
        SELECT ?sent ?text ?doc WHERE { ?sent a kgo:Sentence ; nif:anchorOf ?text ; nif:referenceContext ?doc }""")
    docs = select(prologue() + """
        SELECT ?doc ?title ?date ?pub ?publisher WHERE { ?doc a kgo:NewsArticle .
          OPTIONAL { ?doc dcterms:title ?title }
          OPTIONAL { ?doc dcterms:date ?date }
          OPTIONAL { ?doc kgo:publisher ?pub . OPTIONAL { ?pub skos:prefLabel ?publisher } } }""")
    return ViewRows(
        [(r["x"], r["top"], r["cls"]) for r in nodes],
        [(r["x"], r["p"], r["v"], _true(r.get("lit"))) for r in triples],
        [(r["s"], r["p"], r["o"], r["sent"]) for r in statements],
        [(r["x"], r["sent"]) for r in mentions],
        {r["sent"]: {"text": r["text"], "doc": r["doc"]} for r in sentences},
        _documents((r["doc"], r.get("title", ""), r.get("date", ""), r.get("publisher", "")) for r in docs),
        publishers={r["doc"]: r["pub"] for r in sorted(docs, key=lambda r: (r["doc"], r.get("pub", ""))) if r.get("pub")})


def _true(value: str | None) -> bool:
    """A computed boolean as a store answers it: Virtuoso types isLiteral(?v) as the integer 1 or 0
    (kg.store.protocol.rows_of makes stored booleans canonical, but cannot tell this one)."""
    return value in ("true", "1")


def ranks(graph: nx.MultiDiGraph) -> dict[str, list[str]]:
    """The corpus's own entity types (the most specific class of each node of family Entity) and the
    kinds of event (the most specific class of each event), each most frequent first, and the
    predicates of the edges: those relating two actors (what the page draws
    first) before the others (event roles...), each most frequent first; ties by IRI."""
    types = Counter(d["types"][0] for _, d in graph.nodes(data=True) if d["family"] == CORPUS_FAMILY and d["types"])
    events = Counter(d["types"][0] for _, d in graph.nodes(data=True)
                     if d["family"] == "Event" and d["types"] and d["types"][0] != ONTOLOGY + "Event")
    relations = Counter(key for _, _, key in graph.edges(keys=True))
    between_actors = Counter(key for s, o, key in graph.edges(keys=True) if is_actor(graph, s) and is_actor(graph, o))
    return {"types": sorted(types, key=lambda k: (-types[k], k)),
            "events": sorted(events, key=lambda k: (-events[k], k)),
            "relations": sorted(relations, key=lambda k: (-between_actors[k], -relations[k], k))}


def _add_nodes(graph: nx.MultiDiGraph, rows: list[tuple[str, str, str]], supers: dict[str, set[str]]) -> None:
    families: dict[str, set[str]] = defaultdict(set)
    classes: dict[str, set[str]] = defaultdict(set)
    for x, top, cls in rows:
        families[x].add(top)
        classes[x].add(cls)
    labels = graph.graph["labels"]
    typed: dict[frozenset, tuple[list[str], list[str]]] = {}  # a graph has few sets of classes

    def types_of(found: set[str]) -> tuple[list[str], list[str]]:
        key = frozenset(found)
        if key not in typed:
            types = _most_specific_first(found, supers)
            typed[key] = types, [labels.get(t) or local_name(t) for t in types]
        return typed[key]

    def attributes(iri: str) -> dict:
        types, type_labels = types_of(classes[iri])
        return dict(iri=iri, family=next(f for f in FAMILIES if f in families[iri]), types=list(types),
                    type_labels=list(type_labels), label="", alt=[], hidden=[], wikidata=[], mentions=0, facts=[],
                    mention_sentences=[], props={})

    graph.add_nodes_from((iri, attributes(iri)) for iri in sorted(families))


def _most_specific_first(types: set[str], supers: dict[str, set[str]]) -> list[str]:
    """Classes ordered from the most specific (most ancestors) to the top class."""
    return sorted(types, key=lambda t: (-len(supers.get(t, ())), t))


def _add_node_literals(graph: nx.MultiDiGraph, rows: list[tuple[str, str, str, bool]]) -> None:
    labels = graph.graph["labels"]
    nodes = dict(graph.nodes(data=True))
    found: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for x, p, v, _ in sorted(rows):
        data = nodes.get(x)
        if data is None:
            continue
        kind = LABEL_PREDICATES.get(p)
        if kind:
            found[x][kind].append(v)
        elif p == SAME_AS:
            if v.startswith(WIKIDATA):
                data["wikidata"].append(v.removeprefix(WIKIDATA))
        else:
            data["facts"].append((labels.get(p) or local_name(p), v))
            if p.startswith(ONTOLOGY):
                data["props"].setdefault(p.removeprefix(ONTOLOGY), v)
    for x, data in nodes.items():
        seen = found.get(x, {})
        data["label"] = _first(seen, "pref", "label", "quote") or local_name(x) or x  # every node has a name
        data["alt"] = [a for a in seen.get("alt", []) if a != data["label"]]
        data["hidden"] = seen.get("hidden", [])
        data["mentions"] = max((int(float(v)) for v in seen.get("mentions", [])), default=0)
        if seen.get("quote") and data["label"] != seen["quote"][0]:
            data["facts"].append(("quote", seen["quote"][0]))


def _first(seen: dict[str, list[str]], *kinds: str) -> str:
    for kind in kinds:
        if seen.get(kind):
            return seen[kind][0]
    return ""


def _add_edges(graph: nx.MultiDiGraph, rows: list[tuple[str, str, str, bool]]) -> None:
    labels = graph.graph["labels"]
    nodes = graph.nodes
    edges: dict[tuple[str, str, str], dict] = {}
    for s, p, o, _ in sorted(r for r in rows if r[2] in nodes and r[0] in nodes and r[1] not in SKIP_EDGE_PREDICATES):
        if (s, o, p) not in edges:
            edges[s, o, p] = {"predicate": p, "label": labels.get(p) or local_name(p), "evidence": []}
    graph.add_edges_from((s, o, p, data) for (s, o, p), data in edges.items())


def _add_provenance(graph: nx.MultiDiGraph, rows: ViewRows) -> None:
    """Attach statement evidence to edges, mention sentences to nodes, and the texts they cite."""
    cited: set[str] = set()
    evidence = {(s, o, p): data["evidence"] for s, o, p, data in graph.edges(keys=True, data=True)}
    for s, p, o, sent in sorted(rows.statements, key=itemgetter(3)):
        found = evidence.get((s, o, p))
        if found is not None:
            found.append(sent)
            cited.add(sent)
    nodes = dict(graph.nodes(data="mention_sentences"))
    for x, sent in sorted(rows.mentions, key=itemgetter(1)):
        found = nodes.get(x)
        if found is not None:
            found.append(sent)
            cited.add(sent)
    for x, found in nodes.items():
        if not graph.nodes[x]["mentions"]:  # an entity local to its document has no record counting them
            graph.nodes[x]["mentions"] = rows.mentioned.get(x, len(found))  # all its sentences, not those shown
    graph.graph["sentences"] = {s: rows.sentences[s] for s in sorted(cited) if s in rows.sentences}
    graph.graph["docs"] = rows.docs


def _documents(rows: Iterable[tuple[str, str, str, str]]) -> dict[str, dict[str, str]]:
    """{document: its title (its IRI's tail when it has none), date and publisher's label}."""
    docs: dict[str, dict[str, str]] = {}
    for doc, title, date, publisher in sorted(rows, key=lambda r: r[0]):
        docs.setdefault(doc, {"title": title or local_name(doc), "date": date, "publisher": publisher})
    return docs


def local_name(iri: str) -> str:
    """The readable tail of an IRI: 'kgo:memberOf' -> 'member of', 'kgr:person/x' -> 'x'."""
    tail = iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1] or iri
    spaced = "".join(" " + c.lower() if c.isupper() else c for c in tail).strip()
    return spaced.replace("-", " ")


def ordered_subgraph(graph: nx.Graph, nodes) -> nx.Graph:
    """A copy of the subgraph of `graph` induced by `nodes`, its nodes and edges in `graph`'s order.

    networkx's `graph.subgraph(nodes)` iterates the set of `nodes` when it is less than half the
    graph, in an order that changes with Python's hash seed; layouts start from the node order, so
    the same graph would be drawn differently from one run to the next."""
    keep = set(nodes)
    sub = graph.__class__()
    sub.graph.update(graph.graph)
    order = [n for n in graph if n in keep]
    sub.add_nodes_from((n, dict(graph.nodes[n])) for n in order)
    # the edges of the kept nodes only, in the order graph.edges() gives them (node by node, then
    # each node's adjacency): a neighbourhood of a large graph costs its own size
    adjacency = graph.adj
    if graph.is_multigraph():
        sub.add_edges_from((u, v, k, dict(d)) for u in order for v, keyed in adjacency[u].items() if v in keep
                           for k, d in keyed.items())
    else:
        sub.add_edges_from((u, v, dict(d)) for u in order for v, d in adjacency[u].items() if v in keep)
    return sub
