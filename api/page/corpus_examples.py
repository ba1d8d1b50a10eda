"""Example queries made from the served corpus's own schema, shown on the query page before kg's own.

kg's examples (api/page/examples.py) ask about kg's ontology (offices, defections, Human Rights Watch);
a corpus with its own types (PER, ORG; nineteen kinds of commodity event) answers them with
nothing. So the page also offers, for the corpus's most frequent entity types, "which are the most
mentioned", and for its most frequent relations, "who is related to whom, and where is it said".
The schema is read from the first SAMPLE_DOCUMENTS articles (the entity types their mentions denote,
the predicates of their statements), so that its cost stays that of a small corpus however large
the served one, once per served version (api/page/query_page.py keeps them); corpus names reach the page as titles only,
never inside a query's text, which names classes and predicates by IRI.
"""

from __future__ import annotations

from typing import Callable

from kg.api.page.examples import Example
from kg.model import iris
from kg.model.iris import prologue, term_name
from kg.publish.names import prefixed_name

PER_KIND = 3  # entity types, and relations, that get an example each
SAMPLE_DOCUMENTS = 100  # the articles whose schema is read: the cost does not grow with the corpus
DOCUMENTS = f"SELECT ?d WHERE {{ ?d a kgo:NewsArticle }} LIMIT {SAMPLE_DOCUMENTS}"
ENTITY_TYPES = """SELECT ?t (COUNT(DISTINCT ?x) AS ?n) (SAMPLE(?l) AS ?label) WHERE {
  VALUES ?d { %s } ?m nif:referenceContext ?d ; kgo:denotes ?x .
  GRAPH kgg:entities { ?x a ?t } OPTIONAL { ?t rdfs:label ?l }
} GROUP BY ?t ORDER BY DESC(?n) ?t LIMIT 20"""
RELATIONS = """SELECT ?t (COUNT(?s) AS ?n) (SAMPLE(?l) AS ?label) WHERE {
  VALUES ?d { %s } ?s prov:wasDerivedFrom ?d ; rdf:predicate ?t . OPTIONAL { ?t rdfs:label ?l }
} GROUP BY ?t ORDER BY DESC(?n) ?t LIMIT 20"""
_LABEL = "skos:prefLabel|rdfs:label|nif:anchorOf"


def schema_examples(select: Callable[[str], list[dict[str, str]]]) -> list[Example]:
    """Examples for the most frequent entity types and relations of the graph `select` reads (in its
    first SAMPLE_DOCUMENTS articles, in the store's order)."""
    documents = " ".join(f"<{r['d']}>" for r in select(prologue() + DOCUMENTS))
    if not documents:
        return []
    types = [r for r in select(prologue() + ENTITY_TYPES % documents) if _own_class(r["t"])][:PER_KIND]
    relations = [r for r in select(prologue() + RELATIONS % documents) if r["t"] != iris.RDF_TYPE][:PER_KIND]
    return [_most_mentioned(i, r["t"], _name(r)) for i, r in enumerate(types, 1)] + \
        [_related(i, r["t"], _name(r)) for i, r in enumerate(relations, 1)]


def _own_class(iri: str) -> bool:
    """A class of kg's ontology or of the corpus's vocabulary (entity records also name foaf:, org:... classes)."""
    return iri.startswith((iris.ONTOLOGY, iris.VOCABULARY))


def _name(row: dict[str, str]) -> str:
    return row.get("label") or term_name(row["t"])


def term(iri: str) -> str:
    """An IRI as a query writes it: a kgo: or kgv: prefixed name, escaped where its local part needs it
    (kg.publish.names), else <IRI>."""
    return prefixed_name(iri, {p: iris.PREFIXES[p] for p in ("kgo", "kgv")})


def _most_mentioned(number: int, cls: str, name: str) -> Example:
    return Example(
        f"corpus-type-{number}", f"Most mentioned: {name}",
        f"Which things of the corpus's type “{name}” are mentioned most, with every name they go by?",
        f"""
SELECT ?entity ?name ?mentions (GROUP_CONCAT(DISTINCT ?other; separator=" | ") AS ?otherNames) WHERE {{
  GRAPH kgg:entities {{
    ?entity a {term(cls)} ; skos:prefLabel ?name .
    OPTIONAL {{ ?entity kgo:mentionCount ?mentions }}
    OPTIONAL {{ ?entity skos:altLabel ?other }}
  }}
}}
GROUP BY ?entity ?name ?mentions
ORDER BY DESC(?mentions) ?name
LIMIT 100
""", "corpus")


def _related(number: int, predicate: str, name: str) -> Example:
    return Example(
        f"corpus-relation-{number}", f"Relation: {name}",
        f"What does the corpus relate by “{name}”, and which sentence of which article says so?",
        f"""
SELECT DISTINCT ?subjectName ?objectName ?sentence ?article ?subject ?object WHERE {{
  ?statement rdf:predicate {term(predicate)} ; rdf:subject ?subject ; rdf:object ?object .
  OPTIONAL {{ ?subject {_LABEL} ?subjectName }}
  OPTIONAL {{ ?object {_LABEL} ?objectName }}
  OPTIONAL {{ ?statement kgo:evidence/nif:anchorOf ?sentence }}
  OPTIONAL {{ ?statement prov:wasDerivedFrom/dcterms:title ?article }}
}}
LIMIT 100
""", "corpus")
