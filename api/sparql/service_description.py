"""The SPARQL 1.1 Service Description (https://www.w3.org/TR/sparql11-service-description/)
sent on GET /sparql without a query, in the RDF format the client prefers. The
predefined prefixes are listed as SHACL prefix declarations (sh:declare). The
default dataset is the VoID dataset of /.well-known/void (api/linked_data/void.py; its IRIs: api/base_iri.py), which it
links with rdfs:seeAlso."""

from __future__ import annotations

from flask import Response, g, request

from kg.api import negotiate
from kg.api.base_iri import dataset_iri, void_iri
from kg.api.errors import ApiError
from kg.api.request_life import pinned_backend
from kg.formats import rdf_syntaxes
from kg.model import iris

SD = "http://www.w3.org/ns/sparql-service-description#"
RESULT_FORMATS = tuple(f.w3c for f in (*rdf_syntaxes.RESULTS_FORMATS, *rdf_syntaxes.RDF_FORMATS))


def description_turtle(endpoint: str, graphs: list[str]) -> str:
    """The description of the endpoint at `endpoint` serving `graphs`."""
    named = "".join(
        f"    sd:namedGraph [ a sd:NamedGraph ; sd:name <{iri}> ] ;\n" for iri in graphs)
    formats = ", ".join(f"formats:{name}" for name in RESULT_FORMATS)
    declared = " ,\n".join(f'    [ sh:prefix "{p}" ; sh:namespace "{iri}"^^xsd:anyURI ]' for p, iri in iris.PREFIXES.items())
    return f"""@prefix sd: <{SD}> .
@prefix formats: <{rdf_syntaxes.W3C_FORMATS}> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix void: <http://rdfs.org/ns/void#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<{endpoint}#service> a sd:Service ;
  sd:endpoint <{endpoint}> ;
  sd:supportedLanguage sd:SPARQL11Query ;
  sd:resultFormat {formats} ;
  sd:feature sd:UnionDefaultGraph ;
  sd:defaultEntailmentRegime <http://www.w3.org/ns/entailment/Simple> ;
  dcterms:description "Read-only SPARQL 1.1 endpoint of the kg knowledge graph. The default graph is the union of the named graphs. SERVICE, LOAD and SPARQL Update are refused. The prefixes declared below (sh:declare) are predefined in every query; a query's own PREFIX overrides them." ;
  sh:declare
{declared} ;
  sd:defaultDataset <{dataset_iri()}> .

<{dataset_iri()}> a sd:Dataset, void:Dataset ;
  rdfs:seeAlso <{void_iri()}> ;
  sd:defaultGraph [ a sd:Graph ] ;
{named}  .
"""


def service_description(accept: str | None = None) -> Response:
    """The description, in the format `accept` (or else the request's Accept header) asks for."""
    chosen = negotiate.choose(accept or request.headers.get("Accept"), negotiate.GRAPH_OFFERS)
    if chosen is None:
        raise ApiError(406, "the service description is offered as " + ", ".join(negotiate.GRAPH_OFFERS))
    served, engine = chosen
    graphs = pinned_backend().graphs(g.deadline)
    turtle = description_turtle(request.base_url, graphs)
    if engine == rdf_syntaxes.TURTLE.media_type:
        body = turtle.encode("utf-8")
    else:
        body = rdf_syntaxes.convert(turtle, rdf_syntaxes.TURTLE, rdf_syntaxes.rdf_format(engine), iris.PREFIXES)
    response = Response(body, mimetype=served)
    response.headers["Vary"] = "Accept"
    return response
