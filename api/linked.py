"""Linked Data: every IRI minted under the base IRI dereferences on this server.

    <base>id/<family>/<slug>        a canonical thing
    <base>doc/<slug>                a document (its sentences, mentions and statements are
                                    fragments of it: doc/<slug>#R3 is answered by doc/<slug>)
    <base>doc/<slug>/<kind>/<id>    a thing local to one document
    <base>graph/<name>              a named graph (its triples)
    <base>ontology, <base>vocab     the ontology and the corpus's own vocabulary

Paths are the IRIs relative to the base, so a reverse proxy that maps the base
to this server makes the IRIs themselves resolve. The format is negotiated
(Turtle first, then N-Triples, JSON-LD, RDF/XML, N-Quads, TriG, N3; `format=`
works as on /sparql); a browser gets an HTML page (api/resource_page.py). The
engine computes every answer (api/describe.py); an IRI the graph says nothing
of is a 404.
"""

from __future__ import annotations

import pyoxigraph as ox
from flask import Blueprint, Response, current_app, g, request

from kg.api import backend, describe, execute, negotiate, resource_page
from kg.api.errors import ApiError
from kg.api.protocol import requested_accept
from kg.api.base import iri_of_path, namespace_path
from kg import formats, iris

bp = Blueprint("linked", __name__)
RDF_OFFERS = negotiate.GRAPH_OFFERS


@bp.get(f"/{namespace_path(iris.RESOURCE)}<path:rest>")
@bp.get(f"/{namespace_path(iris.DOCUMENT)}<path:rest>")
def resource(rest: str) -> Response:
    """A canonical thing, a document or a thing local to a document."""
    iri = _requested_iri()
    return _answer(iri, describe.resource_exists(iri), describe.resource_construct(iri),
                   lambda: resource_page.resource(iri))


@bp.get(f"/{namespace_path(iris.GRAPH)}<path:rest>")
def graph(rest: str) -> Response:
    """A named graph: its triples."""
    iri = _requested_iri()
    return _answer(iri, describe.graph_exists(iri), describe.graph_construct(iri),
                   lambda: resource_page.graph(iri))


@bp.get("/" + namespace_path(iris.ONTOLOGY))
def ontology() -> Response:
    """The ontology (and the corpus vocabulary minted beside it): the graph kgg:ontology."""
    return _answer(iris.ONTOLOGY_GRAPH, describe.graph_exists(iris.ONTOLOGY_GRAPH),
                   describe.graph_construct(iris.ONTOLOGY_GRAPH), lambda: resource_page.graph(iris.ONTOLOGY_GRAPH))


@bp.get("/" + namespace_path(iris.VOCABULARY))
def vocabulary() -> Response:
    """The classes and properties minted from the corpus's own annotation schema."""
    return _answer(iris.VOCABULARY, describe.vocabulary_exists(), describe.vocabulary_construct(),
                   lambda: resource_page.graph(iris.ONTOLOGY_GRAPH))


def _requested_iri() -> str:
    """The IRI of the request's path; 404 when the path cannot be an IRI."""
    iri = iri_of_path(request.path)
    try:
        ox.NamedNode(iri)
    except ValueError:
        raise ApiError(404, f"no resource {request.path!r} (not a valid IRI)") from None
    return iri


def _answer(iri: str, exists: str, construct: str, page) -> Response:
    """404, the HTML page, or the engine's CONSTRUCT answer in the negotiated format."""
    accept, explicit = requested_accept(request)
    if not backend.current().select(exists, g.deadline):
        raise ApiError(404, f"the graph says nothing of <{iri}>")
    if not explicit and negotiate.prefers_html(accept, RDF_OFFERS):
        return _vary(page())
    return _vary(rdf_response(construct, accept))


def rdf_format(accept: str | None, what: str) -> tuple[str, str]:
    """(media type to send, engine format) of an RDF answer; 406 when the client takes none."""
    chosen = negotiate.choose(accept, RDF_OFFERS)
    if chosen is None:
        raise ApiError(406, f"{what} is offered as " + ", ".join(RDF_OFFERS), offers=list(RDF_OFFERS))
    return chosen


def rdf_response(construct: str, accept: str | None) -> Response:
    """Run a CONSTRUCT under the endpoint's caps and send it as the client prefers."""
    served, engine = rdf_format(accept, "this resource")
    cap = int(current_app.config["MAX_ROWS"])
    job = execute.Request(sparql=construct, form="CONSTRUCT", cap=cap,
                          solutions_type=formats.SPARQL_JSON.media_type, graph_type=engine, max_bytes=int(current_app.config["MAX_RESPONSE_BYTES"]),
                          prefixes=dict(iris.PREFIXES))
    result = backend.current().run(job, g.deadline)
    response = Response(result.body, mimetype=served)
    if cap > 0:
        response.headers["X-KG-Truncated"] = "true" if result.truncated else "false"
    return response


def _vary(response: Response) -> Response:
    response.vary.add("Accept")
    return response
