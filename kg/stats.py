"""Counts that describe a built graph: documents, entities by type, relations, events, quads."""

from __future__ import annotations

from kg.iris import PREFIXES
from kg.store import GraphStore

_PREFIXES = "".join(f"PREFIX {p}: <{PREFIXES[p]}>\n" for p in ("kgo", "kgg", "rdf", "rdfs"))

QUERIES = {
    "entities_by_type": """SELECT ?type (COUNT(DISTINCT ?e) AS ?n) WHERE {
        GRAPH kgg:entities { ?e a ?c } ?c rdfs:label ?type .
        FILTER NOT EXISTS { GRAPH kgg:entities { ?e a ?sub } GRAPH kgg:ontology { ?sub rdfs:subClassOf ?c } }
      } GROUP BY ?type ORDER BY DESC(?n)""",
    "events_by_type": """SELECT ?type (COUNT(DISTINCT ?e) AS ?n) WHERE {
        ?e a kgo:Event , ?c . FILTER(?c != kgo:Event) GRAPH kgg:ontology { ?c rdfs:label ?type }
      } GROUP BY ?type ORDER BY DESC(?n)""",
    "relations_by_predicate": """SELECT ?predicate (COUNT(?s) AS ?n) WHERE {
        ?s a kgo:Statement ; rdf:predicate ?p . GRAPH kgg:ontology { ?p rdfs:label ?predicate }
      } GROUP BY ?predicate ORDER BY DESC(?n)""",
    "totals": """SELECT
        (COUNT(DISTINCT ?doc) AS ?documents) WHERE { ?doc a kgo:NewsArticle }""",
    "mentions": """SELECT (COUNT(?m) AS ?mentions) WHERE { ?m a kgo:Mention }""",
    "statements": """SELECT (COUNT(?s) AS ?statements) WHERE { ?s a kgo:Statement }""",
    "quads": """SELECT (COUNT(*) AS ?quads) WHERE { GRAPH ?g { ?s ?p ?o } }""",
    "entities": """SELECT (COUNT(DISTINCT ?e) AS ?entities) WHERE { GRAPH kgg:entities { ?e a ?c } }""",
    "events": """SELECT (COUNT(DISTINCT ?e) AS ?events) WHERE { ?e a kgo:Event }""",
}


def graph_stats(store: GraphStore) -> dict:
    """Every count of QUERIES, as plain Python values."""
    result: dict = {}
    for name, query in QUERIES.items():
        rows = store.select(_PREFIXES + query)
        if name.endswith("_by_type") or name.endswith("_by_predicate"):
            key = next(k for k in ("type", "predicate") if rows and k in rows[0]) if rows else "type"
            result[name] = {row[key]: int(row["n"]) for row in rows}
        else:
            result.update({k: int(v) for k, v in rows[0].items()})
    return result
