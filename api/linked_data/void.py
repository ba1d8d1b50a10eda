"""The VoID description of the published graph at /.well-known/void
(https://www.w3.org/TR/void/, section 7.2: the well-known location).

It says what the dataset is (title, licence, SPARQL endpoint, data dumps,
vocabularies, the space of its entity IRIs) and how large: triples, entities,
one class partition per class (instances), one property partition per property
(triples), one entry per named graph (triples). The counts come from one
CONSTRUCT the engine evaluates, once per build; triples are counted as the store
holds them, per named graph (a triple stated by two documents counts twice).
Links are IRIs under the base (api/base_iri.py), the public address of this server.
"""

from __future__ import annotations

import pyoxigraph as ox
from flask import Blueprint, Response, current_app, request

from kg.api.backend import execute
from kg.api.base_iri import VOID_PATH, base_iri, dataset_iri, void_iri
from kg.api.build_answers import cached
from kg.api.linked_data.dereference import CONTEXT_PATH, json_ld_body, rdf_format
from kg.api.negotiate import requested_accept
from kg.api.request_life import pinned_backend
from kg.api.sparql.syntax import with_prefixes
from kg.formats import rdf_syntaxes
from kg.model import iris
from kg.model.iris import ONTOLOGY

bp = Blueprint("void", __name__)
VOCABULARIES = ("rdf", "rdfs", "owl", "skos", "dcterms", "prov", "nif", "org", "foaf", "schema", "sem")


@bp.get("/" + VOID_PATH)
def void() -> Response:
    served, engine = rdf_format(requested_accept(request)[0], "the VoID description")
    counts = cached("VoID counts", _counts)
    turtle = description_turtle(current_app.config["LICENSE"]) + counts.decode("utf-8")
    if engine == rdf_syntaxes.JSONLD.media_type:  # the description on top, its dataset nested
        body = json_ld_body(ox.parse(turtle, format=rdf_syntaxes.TURTLE.oxigraph), void_iri())
    else:
        body = rdf_syntaxes.convert(turtle, rdf_syntaxes.TURTLE, rdf_syntaxes.rdf_format(engine), iris.PREFIXES)
    response = Response(body, mimetype=served)
    response.vary.add("Accept")
    return response


def description_turtle(license_iri: str) -> str:
    """What the dataset is, as Turtle (the counts follow as N-Triples)."""
    base, dataset = base_iri(), dataset_iri()
    dumps = ", ".join(f"<{base}export.{fmt}>" for fmt in rdf_syntaxes.EXPORT_EXTENSIONS)
    vocabularies = ", ".join(f"<{iris.PREFIXES[p]}>" for p in VOCABULARIES)
    features = ", ".join(f"<{rdf_syntaxes.W3C_FORMATS}{f.w3c}>" for f in rdf_syntaxes.RDF_FORMATS)  # what its pages negotiate
    if license_iri:
        licence = f"dcterms:license <{license_iri}>"
    else:
        licence = ('dcterms:rights "No licence has been declared for this graph (kg serve --license IRI). '
                   'The texts of the articles belong to their publishers."')
    return f"""@prefix void: <http://rdfs.org/ns/void#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix sd: <http://www.w3.org/ns/sparql-service-description#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

<{void_iri()}> a void:DatasetDescription ;
  dcterms:title "VoID description of the kg knowledge graph" ;
  foaf:primaryTopic <{dataset}> .
<{dataset}> a void:Dataset ;
  dcterms:title "kg knowledge graph" ;
  dcterms:description "Facts stated by annotated documents, each traced to the document and sentence that state it." ;
  {licence} ;
  void:sparqlEndpoint <{base}sparql> ;
  void:uriSpace "{iris.RESOURCE}" ;
  void:vocabulary <{ONTOLOGY}>, {vocabularies} ;
  void:dataDump {dumps} ;
  rdfs:seeAlso <{base}{CONTEXT_PATH}> ;
  void:feature {features} .
"""


def counts_construct(count_triples: bool = True) -> str:
    """The sizes of the dataset, its class and property partitions and its named graphs; the
    triples of the dataset only when `count_triples` (the build keeps their count: counting reads
    every quad). The numbers of classes and properties are those of the partitions (`_counts`):
    each asked apart read the store once more, and the VoID of 10,000 articles ran past a minute."""
    dataset, void_doc = dataset_iri(), void_iri()
    triples = "{ SELECT (COUNT(*) AS ?triples) WHERE { GRAPH ?g { ?s ?p ?o } } }\n  UNION " if count_triples else ""
    return with_prefixes(f"""PREFIX void: <http://rdfs.org/ns/void#>
PREFIX sd: <http://www.w3.org/ns/sparql-service-description#>
CONSTRUCT {{
  <{dataset}> void:triples ?triples ; void:entities ?entities .
  <{dataset}> void:classPartition ?cp . ?cp void:class ?class ; void:entities ?instances .
  <{dataset}> void:propertyPartition ?pp . ?pp void:property ?property ; void:triples ?uses .
  <{dataset}> sd:namedGraph ?ng . ?ng a sd:NamedGraph ; sd:name ?graph ; sd:graph ?gd .
  ?gd a sd:Graph, void:Dataset ; void:triples ?size .
}} WHERE {{
  {triples}{{ SELECT (COUNT(DISTINCT ?e) AS ?entities) WHERE {{ GRAPH <{iris.ENTITIES_GRAPH}> {{ ?e skos:prefLabel ?l }} }} }}
  UNION {{ {{ SELECT ?class (COUNT(DISTINCT ?x) AS ?instances) WHERE {{ ?x a ?class }} GROUP BY ?class }}
          BIND(IRI(CONCAT("{void_doc}#class-", MD5(STR(?class)))) AS ?cp) }}
  UNION {{ {{ SELECT ?property (COUNT(*) AS ?uses) WHERE {{ GRAPH ?g {{ ?x ?property ?y }} }} GROUP BY ?property }}
          BIND(IRI(CONCAT("{void_doc}#property-", MD5(STR(?property)))) AS ?pp) }}
  UNION {{ {{ SELECT ?graph (COUNT(*) AS ?size) WHERE {{ GRAPH ?graph {{ ?x ?y ?z }} }} GROUP BY ?graph }}
          BIND(IRI(CONCAT("{void_doc}#graph-", MD5(STR(?graph)))) AS ?ng)
          BIND(IRI(CONCAT("{void_doc}#graph-", MD5(STR(?graph)), "-triples")) AS ?gd) }}
}}""")


def _counts(deadline: float) -> bytes:
    """The counts as N-Triples (uncapped: a VoID with a partition left out would be wrong): those the
    engine computes, the triples kept by the build when it kept them, and the numbers of classes and
    properties (one partition each)."""
    served = pinned_backend()
    kept = served.manifest().get("quads")
    job = execute.Request(sparql=counts_construct(not isinstance(kept, int)), form="CONSTRUCT", cap=0,
                          solutions_type=rdf_syntaxes.SPARQL_JSON.media_type, graph_type=rdf_syntaxes.NTRIPLES.media_type)
    body = served.run(job, deadline).body
    triples = list(ox.parse(body, format=ox.RdfFormat.N_TRIPLES))
    numbers = {"classes": _count_of(triples, "class"), "properties": _count_of(triples, "property")}
    if isinstance(kept, int):
        numbers["triples"] = kept
    dataset = dataset_iri()
    return body + "".join(f"<{dataset}> <{VOID}{name}> \"{n}\"^^<{XSD_INTEGER}> .\n"
                          for name, n in numbers.items()).encode()


VOID = "http://rdfs.org/ns/void#"
XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"


def _count_of(triples: list[ox.Triple], what: str) -> int:
    """How many partitions of the dataset name a `what` (class or property)."""
    return sum(1 for t in triples if t.predicate.value == VOID + what)
