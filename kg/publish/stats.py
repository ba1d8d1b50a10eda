"""The one definition of a graph's statistics, shown by `kg stats` and `/api/stats`:

    counts        quads, graphs, documents, entities, mentions, statements, events, figures, quotes
    entityTypes   entity records per class, under every class a record has (an NGO counts
                  under NGO and under Organization)
    eventTypes    events per class, kgo:Event itself left out
    relations     statements per predicate

Classes and predicates of kg's ontology are given by local name (GovernmentBody), those of
a corpus's own vocabulary by their whole IRI. Every count is of distinct things: the union
default graph holds a triple once per document graph that states it. The graphs are the
store's named graphs as it lists them (GraphStore.graphs: a remote store's are those of its
manifest, and engines disagree on what `GRAPH ?g {}` lists). The queries are written for large
graphs (7.5 million quads): each count is its own sub-select.

Counting every quad reads the whole store (17 s of the 43 s /api/stats took at 10,000 articles),
so a build's own count (its manifest's `quads`, patched by an incremental build) is used when
the caller has one. Statements per predicate are counted from rdf:predicate alone: in kg's graphs
only a statement's provenance record has one (kg.pipeline.reading.document_graph), and joining each with
its type cost 18 s at 10,000 articles (0.6 s without).
"""

from __future__ import annotations

from kg.model.iris import prologue, term_name
from kg.store.protocol import Select

QUADS = "{ SELECT (COUNT(*) AS ?quads) WHERE { GRAPH ?g { ?s ?p ?o } } }"
COUNTS = """
SELECT * WHERE {
  %s
  { SELECT (COUNT(DISTINCT ?x) AS ?documents) WHERE { ?x a kgo:NewsArticle } }
  { SELECT (COUNT(DISTINCT ?x) AS ?entities) WHERE { GRAPH kgg:entities { ?x skos:prefLabel ?l } } }
  { SELECT (COUNT(DISTINCT ?x) AS ?mentions) WHERE { ?x a kgo:Mention } }
  { SELECT (COUNT(DISTINCT ?x) AS ?statements) WHERE { ?x a kgo:Statement } }
  { SELECT (COUNT(DISTINCT ?x) AS ?events) WHERE { ?x a kgo:Event } }
  { SELECT (COUNT(DISTINCT ?x) AS ?figures) WHERE { ?x a kgo:Figure } }
  { SELECT (COUNT(DISTINCT ?x) AS ?quotes) WHERE { ?x a kgo:Quote } }
}
"""
COUNTED = ("documents", "entities", "mentions", "statements", "events", "figures", "quotes")
ENTITY_TYPES = """
SELECT ?t (COUNT(DISTINCT ?e) AS ?n) WHERE { GRAPH kgg:entities { ?e a ?t } }
GROUP BY ?t ORDER BY DESC(?n) ?t
"""
EVENT_TYPES = """
SELECT ?t (COUNT(DISTINCT ?e) AS ?n) WHERE { ?e a kgo:Event , ?t . FILTER(?t != kgo:Event) }
GROUP BY ?t ORDER BY DESC(?n) ?t
"""
RELATIONS = """
SELECT ?t (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s rdf:predicate ?t }
GROUP BY ?t ORDER BY DESC(?n) ?t
"""


def graph_stats(select: Select, graphs: list[str], quads: int | None = None) -> dict[str, dict[str, int]]:
    """The statistics of the graph that `select` (a SPARQL SELECT -> rows of strings) reads, whose
    named graphs are `graphs`; `quads`: the number of quads when the caller knows it (a build's
    manifest), else they are counted."""
    def run(query: str) -> list[dict[str, str]]:
        return select(prologue() + query)  # the prefixes of the base IRI in force

    counted = {name: int(value) for name, value in run(COUNTS % ("" if quads is not None else QUADS))[0].items()}
    counted.setdefault("quads", quads)
    counts = {"quads": counted.pop("quads"), "graphs": len(graphs),
              **{name: counted[name] for name in COUNTED}}
    return {"counts": counts, "entityTypes": _per_term(run(ENTITY_TYPES)),
            "eventTypes": _per_term(run(EVENT_TYPES)), "relations": _per_term(run(RELATIONS))}


def _per_term(rows: list[dict[str, str]]) -> dict[str, int]:
    return {term_name(row["t"]): int(row["n"]) for row in rows}
