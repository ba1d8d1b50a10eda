"""The SPARQL behind the JSON API, written against docs/model.md.

Every query reads the union default graph, which is a bag (a triple stated
in two document graphs comes twice), hence DISTINCT throughout.

Written for Oxigraph's planner on large graphs (measured on 7.5 million
quads, store on disk):
- Lists are paged over keys the API reads and sorts once per build
  (ORDER BY over 10,000 document IRIs took 0.5 s; Python sorts them in
  7 ms); a page's details are then asked for with VALUES (1 to 3 ms).
- An OPTIONAL holds one pattern per variable it adds, or a chain, and sits
  outside GRAPH: an OPTIONAL of two patterns about the same mention was
  evaluated as a join of every mention's begin and end (6 s instead of 2 ms),
  and one inside GRAPH kgg:entities took 0.26 s instead of 1 ms.
"""

from __future__ import annotations

from kg.errors import InputError
from kg.model import iris as kg_iris
from kg.model.iris import prologue
from kg.settings import limit

MAX_RELATION_ROWS = limit("relation_rows")


def iri(value: str) -> str:
    """An IRI as a SPARQL term; refuses characters that cannot be in an IRIREF."""
    if any(c in value for c in '<>"{}|^`\\') or any(ord(c) <= 0x20 for c in value):
        raise InputError(f"not an IRI: {value!r}")
    return f"<{value}>"


def iris(values: list[str]) -> str:
    """IRIs as the space-separated terms of a VALUES block."""
    return " ".join(iri(v) for v in values)


def entity_keys(type_iri: str | None) -> str:
    """Every (entity, preferred label, mention count), of one class if given: the API sorts them
    once per build and order."""
    type_filter = f"?e a {iri(type_iri)} ." if type_iri else ""
    return prologue() + f"""
SELECT ?e ?label (MAX(?n) AS ?mentions) WHERE {{ GRAPH kgg:entities {{
  ?e skos:prefLabel ?label . {type_filter} OPTIONAL {{ ?e kgo:mentionCount ?n }} }} }}
GROUP BY ?e ?label
"""


def entity_page(entities: list[str]) -> str:
    """Label, types and mention count of these entities."""
    return prologue() + f"""
SELECT ?e ?label (MAX(?n) AS ?mentions) (GROUP_CONCAT(DISTINCT STR(?t); separator=" ") AS ?types) WHERE {{
  VALUES ?e {{ {iris(entities)} }}
  GRAPH kgg:entities {{ ?e skos:prefLabel ?label ; a ?t }}
  OPTIONAL {{ GRAPH kgg:entities {{ ?e kgo:mentionCount ?n }} }}
}}
GROUP BY ?e ?label
"""


def entity_record(entity: str) -> str:
    return prologue() + f"""
SELECT DISTINCT ?p ?o WHERE {{ GRAPH kgg:entities {{ {iri(entity)} ?p ?o }} }}
"""


def _relations(entity: str, this: str, other: str, limit: int, offset: int) -> str:
    """A page of the statements with `entity` on side `this`, in the store's order (no ORDER BY: sorting
    every statement of a country cost seconds), with their sources; memberships are left out (an entity's
    memberships are a part of their own)."""
    return prologue() + f"""
SELECT ?st ?p ?other (SAMPLE(?label) AS ?otherLabel) ?doc ?sentence WHERE {{
  {{ SELECT DISTINCT ?st ?p ?other WHERE {{ {_statements(entity, this, other)} }} LIMIT {int(limit)} OFFSET {int(offset)} }}
  OPTIONAL {{ ?st prov:wasDerivedFrom ?doc }}
  OPTIONAL {{ ?st kgo:evidence ?ev . ?ev nif:anchorOf ?sentence }}
  OPTIONAL {{ ?other skos:prefLabel|rdfs:label ?label }}
}}
GROUP BY ?st ?p ?other ?doc ?sentence
"""


def _statements(entity: str, this: str, other: str, whole: bool = True) -> str:
    """The statements with `entity` on side `this`, memberships left out (by their IRI, as api/linked_data/ids.py
    tells them: asking each other end's type cost 0.4 s for 7,000 statements at 10,000 articles).
    Not `whole`: only what counting them needs (every node with rdf:subject is a whole statement)."""
    rest = " ; rdf:predicate ?p ; a kgo:Statement" if whole else ""
    return (f"?st rdf:{this} {iri(entity)} ; rdf:{other} ?other{rest} . FILTER(!(STRSTARTS(STR(?other), "
            f"{_string(kg_iris.DOCUMENT)}) && CONTAINS(STR(?other), \"/membership/\")))")


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def relations_out(entity: str, limit: int, offset: int = 0) -> str:
    return _relations(entity, "subject", "object", limit, offset)


def relations_in(entity: str, limit: int, offset: int = 0) -> str:
    return _relations(entity, "object", "subject", limit, offset)


def relation_count(entity: str, direction: str, cap: int) -> str:
    """How many statements `relations_out`/`relations_in` pages through, counted up to `cap`."""
    this, other = ("subject", "object") if direction == "out" else ("object", "subject")
    return _count(f"SELECT DISTINCT ?st WHERE {{ {_statements(entity, this, other, whole=False)} }}", cap)


def _count(inner: str, cap: int) -> str:
    """The number of rows of the SELECT `inner`, counted up to `cap` (the scan stops there)."""
    return prologue() + f"""
SELECT (COUNT(*) AS ?n) WHERE {{ {{ {inner} LIMIT {int(cap)} }} }}
"""


def mentions(entity: str, limit: int, offset: int = 0) -> str:
    """A page of the mentions of `entity`, in the store's order (the API sorts the page)."""
    return prologue() + f"""
SELECT ?m ?text ?begin ?end ?sentence ?doc WHERE {{
  {{ SELECT DISTINCT ?m WHERE {{ ?m kgo:denotes {iri(entity)} }} LIMIT {int(limit)} OFFSET {int(offset)} }}
  ?m nif:referenceContext ?doc ; nif:anchorOf ?text .
  OPTIONAL {{ ?m nif:beginIndex ?begin }}
  OPTIONAL {{ ?m nif:endIndex ?end }}
  OPTIONAL {{ ?m kgo:sentence ?s . ?s nif:anchorOf ?sentence }}
}}
"""


def titles(docs: list[str]) -> str:
    """The titles of these documents (asked apart: joined into a larger query, the
    title pattern cost 1.1 s on 2,000 rows, and 0.05 s alone)."""
    return prologue() + f"""
SELECT DISTINCT ?doc ?title WHERE {{ VALUES ?doc {{ {iris(docs)} }} ?doc dcterms:title ?title }}
"""


def mention_count(entity: str, cap: int) -> str:
    return _count(f"SELECT DISTINCT ?m WHERE {{ ?m kgo:denotes {iri(entity)} }}", cap)


_DOCUMENT_KEYS = """
SELECT DISTINCT ?doc WHERE { ?doc a kgo:NewsArticle }
"""
_DOCUMENT_DATES = """
SELECT ?doc (MAX(STR(?d)) AS ?date) WHERE { ?doc a kgo:NewsArticle OPTIONAL { ?doc dcterms:date ?d } }
GROUP BY ?doc
"""


def documents(docs: list[str]) -> str:
    """Title, date, publisher and author of these documents."""
    return prologue() + f"""
SELECT ?doc (SAMPLE(?t) AS ?title) (SAMPLE(?d) AS ?date) (SAMPLE(?dn) AS ?dateNote)
       (SAMPLE(?pub) AS ?publisher) (SAMPLE(?publ) AS ?publisherLabel)
       (SAMPLE(?au) AS ?author) (SAMPLE(?aul) AS ?authorLabel) WHERE {{
  VALUES ?doc {{ {iris(docs)} }}
  OPTIONAL {{ ?doc dcterms:title ?t }}
  OPTIONAL {{ ?doc dcterms:date ?d }}
  OPTIONAL {{ ?doc kgo:dateNote ?dn }}
  OPTIONAL {{ ?doc kgo:publisher ?pub . OPTIONAL {{ ?pub skos:prefLabel ?publ }} }}
  OPTIONAL {{ ?doc kgo:author ?au . OPTIONAL {{ ?au skos:prefLabel ?aul }} }}
}}
GROUP BY ?doc
"""


# -- events, quotes, figures, neighbourhoods ------------------------------------

EVENT_ROLES = ("agent", "participant", "patient", "place", "origin", "destination", "time", "member", "organization")
RELATION_PREDICATES = ("memberOf", "subOrganizationOf", "locatedIn", "saidBy", "reportedBy", "asOf", "supports",
                       "opposes", "recognizes")
_ROLES = " ".join(f"kgo:{r}" for r in EVENT_ROLES)
_ROLE_LIST = ", ".join(f"kgo:{r}" for r in EVENT_ROLES)
_RELATIONS = " ".join(f"kgo:{p}" for p in RELATION_PREDICATES)


def event_keys(type_iri: str) -> str:
    """Every event of a class (kgo:Event: all) with its date: the API sorts them once per build."""
    return prologue() + f"""
SELECT DISTINCT ?e ?date WHERE {{ ?e a {iri(type_iri)} . OPTIONAL {{ ?e kgo:date ?date }} }}
"""


def event_page(events: list[str]) -> str:
    """Label, classes, date, document and flags of these events."""
    return prologue() + f"""
SELECT ?e (SAMPLE(?l) AS ?label) (MIN(STR(?d)) AS ?date) (SAMPLE(?doc0) AS ?doc) (SAMPLE(?n) AS ?negated)
       (SAMPLE(?s) AS ?speculated) (GROUP_CONCAT(DISTINCT STR(?t); separator=" ") AS ?types) WHERE {{
  VALUES ?e {{ {iris(events)} }}
  ?e a ?t .
  OPTIONAL {{ ?e skos:prefLabel ?l }}
  OPTIONAL {{ ?e kgo:date ?d }}
  OPTIONAL {{ ?e prov:wasDerivedFrom ?doc0 }}
  OPTIONAL {{ ?e kgo:negated ?n }}
  OPTIONAL {{ ?e kgo:speculated ?s }}
}}
GROUP BY ?e
"""


def event_roles(events: list[str]) -> str:
    """(event, role, who, label) for every role of these events: kgo's roles and the corpus's own
    (a property the build declared with the domain kgo:Event, kg.model.schema.corpus_vocabulary, whose value
    is a thing: not a relation an event is the subject of, nor an attribute's literal). The
    roles are a FILTER over the events' own triples: as a second VALUES they took 148 ms for 50
    events at 1,000 articles, 8 ms so."""
    return prologue() + f"""
SELECT ?e ?role ?who ?label WHERE {{
  {{
    SELECT DISTINCT ?e ?role ?who WHERE {{
      VALUES ?e {{ {iris(events)} }}
      ?e ?role ?who .
      FILTER(?role IN ({_ROLE_LIST}) || (isIRI(?who) && EXISTS {{ GRAPH <{kg_iris.ONTOLOGY_GRAPH}> {{
        ?role rdfs:domain kgo:Event }} }}))
    }}
  }}
  OPTIONAL {{ ?who skos:prefLabel ?label }}
}}
"""


def evidence(things: list[str]) -> str:
    """The sentence of the mention (or trigger) of each of these things."""
    return prologue() + f"""
SELECT DISTINCT ?x ?sentence ?begin WHERE {{
  VALUES ?x {{ {iris(things)} }}
  ?x kgo:mention|kgo:trigger ?m .
  ?m kgo:sentence ?s .
  ?s nif:anchorOf ?sentence .
  OPTIONAL {{ ?m nif:beginIndex ?begin }}
}}
"""


def instances(class_name: str, prop: str | None = None, value: str | None = None) -> str:
    """Every instance of a class (optionally with one property value): the keys of a list."""
    extra = f"; kgo:{prop} {iri(value)}" if prop and value else ""
    return prologue() + f"""
SELECT DISTINCT ?x WHERE {{ ?x a kgo:{class_name} {extra} }}
"""


def quote_page(quotes: list[str]) -> str:
    return prologue() + f"""
SELECT ?x (SAMPLE(?t) AS ?text) (SAMPLE(?sp) AS ?speaker) (SAMPLE(?spl) AS ?speakerLabel) (SAMPLE(?d) AS ?doc)
WHERE {{
  VALUES ?x {{ {iris(quotes)} }}
  ?x kgo:quoteText ?t .
  OPTIONAL {{ ?x kgo:saidBy ?sp . OPTIONAL {{ ?sp skos:prefLabel ?spl }} }}
  OPTIONAL {{ ?x prov:wasDerivedFrom ?d }}
}}
GROUP BY ?x
"""


def figure_page(figures: list[str]) -> str:
    return prologue() + f"""
SELECT ?x (SAMPLE(?l) AS ?label) (SAMPLE(?v) AS ?value) (SAMPLE(?q) AS ?qualifier) (SAMPLE(?src) AS ?source)
       (SAMPLE(?srcl) AS ?sourceLabel) (SAMPLE(?a) AS ?asOf) (SAMPLE(?av) AS ?asOfValue) (SAMPLE(?d) AS ?doc)
WHERE {{
  VALUES ?x {{ {iris(figures)} }}
  ?x rdfs:label ?l .
  OPTIONAL {{ ?x kgo:value ?v }}
  OPTIONAL {{ ?x kgo:qualifier ?q }}
  OPTIONAL {{ ?x kgo:reportedBy ?src . OPTIONAL {{ ?src skos:prefLabel ?srcl }} }}
  OPTIONAL {{ ?x kgo:asOf ?a . OPTIONAL {{ ?a kgo:dateValue ?av }} }}
  OPTIONAL {{ ?x prov:wasDerivedFrom ?d }}
}}
GROUP BY ?x
"""


def document_text(doc: str) -> str:
    return prologue() + f"""
SELECT ?text WHERE {{ {iri(doc)} nif:isString ?text }} LIMIT 1
"""


def node_record(node: str) -> str:
    """What the graph says about a thing local to one document (an unnamed person, an event...)."""
    return prologue() + f"""
SELECT DISTINCT ?p ?o WHERE {{ {iri(node)} ?p ?o }}
"""


def _membership_nodes(entity: str) -> str:
    """The memberships of `entity`. The type is asked with FILTER EXISTS: joined, Oxigraph began with
    every membership (1-1.5 s at 10,000 articles for an entity that has none; 0.7 s to count 1,000)."""
    return (f"SELECT DISTINCT ?ms WHERE {{ {{ ?ms kgo:member {iri(entity)} }} UNION "
            f"{{ ?ms kgo:organization {iri(entity)} }} FILTER EXISTS {{ ?ms a kgo:Membership }} }}")


def memberships(entity: str, limit: int, offset: int = 0) -> str:
    """A page of the memberships (kgo:Membership) of an entity as member or as organization, with the
    role, in the store's order. The memberships are found first (1 ms at 1,000 articles; joined with
    the rest, 255 ms)."""
    return prologue() + f"""
SELECT DISTINCT ?ms ?member ?memberLabel ?organization ?organizationLabel ?role ?roleLabel ?doc WHERE {{
  {{ {_membership_nodes(entity)} LIMIT {int(limit)} OFFSET {int(offset)} }}
  ?ms kgo:member ?member ; kgo:organization ?organization .
  OPTIONAL {{ ?ms kgo:role ?role . OPTIONAL {{ ?role skos:prefLabel ?roleLabel }} }}
  OPTIONAL {{ ?member skos:prefLabel ?memberLabel }}
  OPTIONAL {{ ?organization skos:prefLabel ?organizationLabel }}
  OPTIONAL {{ ?ms prov:wasDerivedFrom ?doc }}
}}
"""


def membership_count(entity: str, cap: int) -> str:
    return _count(_membership_nodes(entity), cap)


def neighbourhood(entity: str, corpus_properties: list[str] = ()) -> str:
    """The facts that link an entity to other things: relations both ways and the events it has a role in
    (no provenance records, no mentions): kgo's, and the corpus's own `corpus_properties` (its relations
    and roles, api/json_api/corpus_terms.py)."""
    own = iris(corpus_properties)
    return prologue() + f"""
SELECT ?direction ?p ?other (COUNT(*) AS ?n) WHERE {{
  {{ VALUES ?p {{ {_RELATIONS} {own} }} {iri(entity)} ?p ?other . FILTER(isIRI(?other)) BIND("out" AS ?direction) }}
  UNION
  {{ VALUES ?p {{ {_RELATIONS} {_ROLES} {own} }} ?other ?p {iri(entity)} . BIND("in" AS ?direction) }}
}}
GROUP BY ?direction ?p ?other
ORDER BY DESC(?n) ?other
LIMIT {MAX_RELATION_ROWS}
"""


def summaries(things: list[str]) -> str:
    """Label and classes of these things."""
    return prologue() + f"""
SELECT ?x (SAMPLE(?l) AS ?label) (GROUP_CONCAT(DISTINCT STR(?t); separator=" ") AS ?types) WHERE {{
  VALUES ?x {{ {iris(things)} }}
  ?x a ?t .
  OPTIONAL {{ ?x skos:prefLabel ?l }}
}}
GROUP BY ?x
"""


def __getattr__(name: str) -> str:
    """DOCUMENT_KEYS, DOCUMENT_DATES (every article with its latest date, for the API to sort once per
    build): the fixed queries, with the prefixes of the current base."""
    if name in ("DOCUMENT_KEYS", "DOCUMENT_DATES"):
        return prologue() + globals()["_" + name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
