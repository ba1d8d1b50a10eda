"""The schema the reconciliation service speaks of: type and property ids, and their names.

A type or property of kg's ontology is known by its local name (`Person`, `memberOf`: the
manifest's schemaSpace is the ontology's namespace); any other by its prefixed name
(`kgv:PER`, `skos:altLabel`, `owl:sameAs`) or, failing a prefix, its whole IRI. Every form,
the whole IRI too, is read back. The names (rdfs:label of the ontology and of the corpus
vocabulary) are read once per served build.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg.api.build_answers import cached
from kg.api.errors import ApiError
from kg.api.json_api.store_reads import select
from kg.model import iris
from kg.model.iris import FIXED_PREFIXES, ONTOLOGY, prologue

SKOS, OWL, RDFS = FIXED_PREFIXES["skos"], FIXED_PREFIXES["owl"], FIXED_PREFIXES["rdfs"]
SAME_AS = OWL + "sameAs"
# properties of an entity record that hold names: what reconciliation matches a query against
NAME_PROPERTIES = (SKOS + "prefLabel", SKOS + "altLabel", RDFS + "label")
# the pids that give a knowledge-base item (an IRI, or a Wikidata id such as Q8502) rather than a property value
ITEM_PIDS = frozenset({"owl:sameAs", "sameAs", SAME_AS, "wikidata", "wd", "P2888"})

_TERMS = """
SELECT ?term ?kind (SAMPLE(?l) AS ?label) (SAMPLE(?c) AS ?comment) (GROUP_CONCAT(DISTINCT STR(?up); separator=" ") AS ?broader)
WHERE {
  { ?term a owl:Class BIND("type" AS ?kind) } UNION { ?term a owl:ObjectProperty BIND("property" AS ?kind) }
  UNION { ?term a owl:DatatypeProperty BIND("property" AS ?kind) }
  OPTIONAL { ?term rdfs:label ?l } OPTIONAL { ?term rdfs:comment ?c } OPTIONAL { ?term rdfs:subClassOf ?up }
}
GROUP BY ?term ?kind
"""


@dataclass(frozen=True)
class Term:
    """A class or property of the served graph, as the service shows it."""

    iri: str
    kind: str  # "type" or "property"
    name: str
    description: str
    broader: tuple[str, ...]  # the IRIs of its direct superclasses

    @property
    def id(self) -> str:
        return term_id(self.iri)


def term_id(iri: str) -> str:
    """The id of a class or property: its local name in the ontology, else a prefixed name, else the IRI."""
    if iri.startswith(ONTOLOGY):
        return iri[len(ONTOLOGY):]
    for prefix, namespace in iris.PREFIXES.items():
        if iri.startswith(namespace) and iri != namespace and prefix not in ("kgr", "doc", "kgg"):
            return f"{prefix}:{iri[len(namespace):]}"
    return iri


def term_iri(term: str) -> str:
    """The IRI an id, prefixed name or IRI names (not checked against the graph)."""
    if term.startswith(("http://", "https://", "urn:")):
        return term
    prefix, colon, rest = term.partition(":")
    if colon and prefix in iris.PREFIXES:
        return iris.PREFIXES[prefix] + rest
    return ONTOLOGY + term


def terms() -> dict[str, Term]:
    """Every class and property of the served graph by IRI (asked once per build)."""
    return cached("reconciliation terms", _read_terms)


def _read_terms(deadline: float) -> dict[str, Term]:
    found: dict[str, Term] = {}
    for row in select(prologue() + _TERMS, deadline):
        iri = row["term"]
        if iri in found and found[iri].kind == "type":
            continue
        found[iri] = Term(iri, row["kind"], row.get("label") or term_id(iri), row.get("comment") or "",
                          tuple(sorted(row.get("broader", "").split())))
    return found


def known_type(term: str) -> Term:
    """The class a type id names; a 400 when the graph has none."""
    found = terms().get(term_iri(term))
    if found is None or found.kind != "type":
        raise ApiError(400, f"unknown type {term!r}: ask /suggest/type for the types this graph has")
    return found


def type_ref(iri: str) -> dict[str, str]:
    """{"id", "name"} of a class."""
    term = terms().get(iri)
    return {"id": term_id(iri), "name": term.name if term else term_id(iri)}


def property_name(iri: str) -> str:
    term = terms().get(iri)
    return term.name if term else term_id(iri)
