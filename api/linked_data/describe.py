"""The SPARQL that describes one IRI of the graph, for its Linked Data answers (api/linked_data/dereference.py).

Every answer is computed by the engine: CONSTRUCT for the RDF formats, a few
SELECTs for the HTML page. `iri` arguments are validated IRIs (api/linked_data/dereference.py
checks them with Oxigraph), so they can stand between angle brackets and, having
no quote or backslash, inside a string literal.
"""

from __future__ import annotations

from kg.api.sparql.syntax import with_prefixes
from kg.model import iris
from kg.settings import limit

MAX_ROWS = limit("page_rows")


def document_graph(iri: str) -> str:
    """The named graph of a document IRI (`doc/<slug>` -> `graph/<slug>`); for other IRIs a graph
    name that holds nothing."""
    return iris.GRAPH + iri[len(iris.DOCUMENT):] if iri.startswith(iris.DOCUMENT) else iris.GRAPH + "-none-"


def resource_exists(iri: str) -> str:
    """One row when the graph says anything of `iri` or points at it."""
    return with_prefixes(f"SELECT ?p WHERE {{ {{ <{iri}> ?p ?o }} UNION {{ ?s ?p <{iri}> }} }} LIMIT 1")


def resource_construct(iri: str) -> str:
    """What the graph says of a thing or a document: its own triples, the facts that point at it, the
    provenance record of every statement about it (subject, predicate, object, document, sentences)
    with what a citation needs (the sentence's text and place, the article's title, date and
    publisher), and, for a document, everything inside it (`doc/<slug>#...`: sentences, mentions,
    statements). Mentions pointing at an entity are left to the documents that hold them.

    The sentences and articles are found once each (DISTINCT) and read property by property: their
    triples joined with every statement, or read whole (an article holds its full text), took
    three times as long."""
    return with_prefixes(f"""CONSTRUCT {{ <{iri}> ?p ?o . ?s ?q <{iri}> . ?st ?sp ?so . ?part ?pp ?po .
  ?sentence a ?sentenceType ; nif:anchorOf ?text ; nif:beginIndex ?begin ; nif:endIndex ?end ;
    nif:referenceContext ?context .
  ?article a ?articleType ; dcterms:title ?title ; dcterms:date ?date ; kgo:publisher ?publisher .
  ?publisher skos:prefLabel ?publisherLabel . }}
WHERE {{
  {{ <{iri}> ?p ?o }}
  UNION {{ ?s ?q <{iri}> FILTER(?q NOT IN (kgo:denotes, nif:referenceContext, prov:wasDerivedFrom,
                                          rdf:subject, rdf:object)) }}
  UNION {{ ?st rdf:subject <{iri}> ; ?sp ?so }} UNION {{ ?st rdf:object <{iri}> ; ?sp ?so }}
  UNION {{ GRAPH <{document_graph(iri)}> {{ ?part ?pp ?po FILTER(STRSTARTS(STR(?part), "{iri}#")) }} }}
  UNION {{ {{ SELECT DISTINCT ?sentence WHERE {{ {{ ?x rdf:subject <{iri}> ; kgo:evidence ?sentence }}
                                             UNION {{ ?x rdf:object <{iri}> ; kgo:evidence ?sentence }} }} }}
          OPTIONAL {{ ?sentence a ?sentenceType }} OPTIONAL {{ ?sentence nif:anchorOf ?text }}
          OPTIONAL {{ ?sentence nif:beginIndex ?begin }} OPTIONAL {{ ?sentence nif:endIndex ?end }}
          OPTIONAL {{ ?sentence nif:referenceContext ?context }} }}
  UNION {{ {{ SELECT DISTINCT ?article WHERE {{ {{ ?x rdf:subject <{iri}> ; prov:wasDerivedFrom ?article }}
                                            UNION {{ ?x rdf:object <{iri}> ; prov:wasDerivedFrom ?article }} }} }}
          OPTIONAL {{ ?article a ?articleType }} OPTIONAL {{ ?article dcterms:title ?title }}
          OPTIONAL {{ ?article dcterms:date ?date }}
          OPTIONAL {{ ?article kgo:publisher ?publisher OPTIONAL {{ ?publisher skos:prefLabel ?publisherLabel }} }} }}
}}""")


def graph_exists(graph: str) -> str:
    return with_prefixes(f"SELECT ?s WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }} LIMIT 1")


def graph_construct(graph: str) -> str:
    """The triples of one named graph."""
    return with_prefixes(f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}")


def vocabulary_exists() -> str:
    return with_prefixes(f"""SELECT ?s WHERE {{ GRAPH <{iris.ONTOLOGY_GRAPH}> {{ ?s ?p ?o
  FILTER(STRSTARTS(STR(?s), "{iris.VOCABULARY}")) }} }} LIMIT 1""")


def vocabulary_construct() -> str:
    """The classes and properties minted from the corpus's own annotation schema."""
    return with_prefixes(f"""CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{iris.ONTOLOGY_GRAPH}> {{ ?s ?p ?o
  FILTER(STRSTARTS(STR(?s), "{iris.VOCABULARY}")) }} }}""")


def properties(iri: str) -> str:
    """The page's rows of what `iri` has: property, value, their labels, and how the value is written."""
    return with_prefixes(f"""SELECT ?p ?o (SAMPLE(?pl) AS ?pLabel) (SAMPLE(?ol) AS ?oLabel)
       (IF(isIRI(?o), "iri", "literal") AS ?kind) (LANG(?o) AS ?lang) WHERE {{
  <{iri}> ?p ?o .
  OPTIONAL {{ ?p rdfs:label ?pl }}
  OPTIONAL {{ ?o skos:prefLabel|rdfs:label|dcterms:title ?ol }}
}} GROUP BY ?p ?o ORDER BY ?p ?o LIMIT {MAX_ROWS}""")


_RECORD = "a kgo:Statement ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o"


def statement_keys(iri: str) -> str:
    """Which statements the page lists: the first MAX_ROWS rows of `statements` (one per statement and
    sentence), in article and text order, with only what that order needs. The labels, titles and
    texts are then asked of those statements alone (`statements`): joined with every statement of a
    country before the cut, they took 15 s at 10,000 articles.

    Written for the engine's planner: each branch of the UNION holds the whole statement pattern,
    and the sentence's position is a nested OPTIONAL, so that every part starts from a bound IRI
    (milliseconds; a UNION joined with the pattern after it, or one OPTIONAL group of three
    patterns, made Oxigraph scan every statement or every text span: seconds at 1,000 articles)."""
    return with_prefixes(f"""SELECT ?st ?doc ?sentenceNode (MIN(?begin) AS ?at) WHERE {{
  {{ SELECT DISTINCT ?st ?s ?p ?o WHERE {{
    {{ ?st rdf:subject <{iri}> ; {_RECORD} }} UNION {{ ?st rdf:object <{iri}> ; {_RECORD} }}
    UNION {{ ?st prov:wasDerivedFrom <{iri}> ; {_RECORD} }} }} }}
  OPTIONAL {{ ?st prov:wasDerivedFrom ?doc }}
  OPTIONAL {{ ?st kgo:evidence ?sentenceNode OPTIONAL {{ ?sentenceNode nif:beginIndex ?begin }} }}
}} GROUP BY ?st ?s ?p ?o ?doc ?sentenceNode ORDER BY ?doc ?at ?st LIMIT {MAX_ROWS}""")


def statements(keys: list[dict[str, str]]) -> str:
    """The page's rows of the statements `statement_keys` chose (its rows: statement, article and
    sentence, each row one of the page's): one per statement and sentence that states it, with the
    article, in article and text order; the same rows, in the same order, as the first MAX_ROWS the
    statements of the page's IRI give. Each row's statement record is read again, not the type."""
    values = " ".join(f"({_term(k, 'st')} {_term(k, 'doc')} {_term(k, 'sentenceNode')})" for k in keys)
    return with_prefixes(f"""SELECT ?st ?s ?p ?o ?doc (SAMPLE(?sl) AS ?sLabel) (SAMPLE(?pl) AS ?pLabel)
       (SAMPLE(?ol) AS ?oLabel) (IF(isIRI(?o), "iri", "literal") AS ?kind) (SAMPLE(?text) AS ?sentence)
       (MIN(?begin) AS ?at) (SAMPLE(?t) AS ?title) (SAMPLE(?d) AS ?date) (SAMPLE(?pub) AS ?publisher) WHERE {{
  VALUES (?st ?doc ?sentenceNode) {{ {values} }}
  ?st rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o .
  OPTIONAL {{ ?st prov:wasDerivedFrom ?doc .
             OPTIONAL {{ ?doc dcterms:title ?t }} OPTIONAL {{ ?doc dcterms:date ?d }}
             OPTIONAL {{ ?doc kgo:publisher/skos:prefLabel ?pub }} }}
  OPTIONAL {{ ?st kgo:evidence ?sentenceNode
             OPTIONAL {{ ?sentenceNode nif:anchorOf ?text }} OPTIONAL {{ ?sentenceNode nif:beginIndex ?begin }} }}
  OPTIONAL {{ ?s skos:prefLabel|rdfs:label ?sl }}
  OPTIONAL {{ ?p rdfs:label ?pl }}
  OPTIONAL {{ ?o skos:prefLabel|rdfs:label ?ol }}
}} GROUP BY ?st ?s ?p ?o ?doc ?sentenceNode ORDER BY ?doc ?at ?st LIMIT {MAX_ROWS}""")


def _term(row: dict[str, str], name: str) -> str:
    """An IRI of a `statement_keys` row as a VALUES term; UNDEF when the row has none."""
    return f"<{row[name]}>" if name in row else "UNDEF"


def graph_size(graph: str) -> str:
    return with_prefixes(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}")


def terms(graph: str) -> str:
    """The classes and properties a graph defines, with their labels and comments (the ontology page)."""
    return with_prefixes(f"""SELECT ?term (SAMPLE(?k) AS ?kind) (SAMPLE(?l) AS ?label) (SAMPLE(?c) AS ?comment)
WHERE {{ GRAPH <{graph}> {{
  ?term a ?k FILTER(?k IN (owl:Class, rdfs:Class, owl:ObjectProperty, owl:DatatypeProperty, rdf:Property))
  OPTIONAL {{ ?term rdfs:label ?l }} OPTIONAL {{ ?term rdfs:comment ?c }}
}} }} GROUP BY ?term ORDER BY ?term LIMIT {MAX_ROWS}""")


def memberships(nodes: list[str]) -> str:
    """Member, organization and role (with their labels) of those of `nodes` that are memberships:
    what a page says in words ("member of the National Guard, as lieutenant") instead of their IRIs."""
    values = " ".join(f"<{n}>" for n in nodes)
    return with_prefixes(f"""SELECT ?m (SAMPLE(?member) AS ?memberIri) (SAMPLE(?ml) AS ?memberLabel)
       (SAMPLE(?org) AS ?orgIri) (SAMPLE(?gl) AS ?orgLabel) (SAMPLE(?role) AS ?roleIri) (SAMPLE(?rl) AS ?roleLabel)
       (SAMPLE(?post) AS ?postIri) WHERE {{
  VALUES ?m {{ {values} }} ?m a kgo:Membership .
  OPTIONAL {{ ?m kgo:member ?member OPTIONAL {{ ?member skos:prefLabel ?ml }} }}
  OPTIONAL {{ ?m kgo:organization ?org OPTIONAL {{ ?org skos:prefLabel ?gl }} }}
  OPTIONAL {{ ?m kgo:role ?role OPTIONAL {{ ?role skos:prefLabel ?rl }} }}
  OPTIONAL {{ ?m kgo:post ?post }}
}} GROUP BY ?m""")
