"""Linked Data: every IRI minted under the base IRI dereferences on this server.

    <base>id/<family>/<slug>        a canonical thing
    <base>doc/<slug>                a document (its sentences, mentions and statements are
                                    fragments of it: doc/<slug>#R3 is answered by doc/<slug>)
    <base>doc/<slug>/<kind>/<id>    a thing local to one document
    <base>graph/<name>              a named graph (its triples)
    <base>ontology, <base>vocab     the ontology and the corpus's own vocabulary

    <base>context.jsonld            the JSON-LD @context every JSON-LD answer and export embeds

Paths are the IRIs relative to the base, so a reverse proxy that maps the base
to this server makes the IRIs themselves resolve. The format is negotiated
(Turtle first, then N-Triples, JSON-LD, RDF/XML, N-Quads, TriG, N3; `format=`
works as on /sparql); a browser gets an HTML page (api/linked_data/resource_page.py). The
engine computes every answer (api/linked_data/describe.py); an IRI the graph says nothing
of is a 404. JSON-LD is written with the published context (kg/publish/jsonld.py):
a thing or a document framed with itself as the top object, a graph as a list
of node objects.
"""

from __future__ import annotations

import hashlib
import json
from typing import Callable, Iterable

import pyoxigraph as ox
from flask import Blueprint, Response, current_app, g, request

from kg.api import negotiate
from kg.api.backend import execute
from kg.api.base_iri import iri_of_path
from kg.api.errors import ApiError
from kg.api.linked_data import describe, resource_page
from kg.api.negotiate import requested_accept
from kg.api.request_life import pinned_backend
from kg.formats import rdf_syntaxes
from kg.model import iris
from kg.publish import jsonld
from kg.settings import limit

bp = Blueprint("linked", __name__)
RDF_OFFERS = negotiate.GRAPH_OFFERS
CONTEXT_PATH = "context.jsonld"
CONTEXT_MAX_AGE = limit("context_max_age")


@bp.get(f"/{iris.RESOURCE_PATH}<idpath:rest>")
@bp.get(f"/{iris.DOCUMENT_PATH}<idpath:rest>")
def resource(rest: str) -> Response:
    """A canonical thing, a document or a thing local to a document."""
    iri = _requested_iri()
    return _answer(iri, describe.resource_exists(iri), describe.resource_construct(iri),
                   lambda: resource_page.resource(iri), framed=True)


@bp.get(f"/{iris.GRAPH_PATH}<idpath:rest>")
def graph(rest: str) -> Response:
    """A named graph: its triples."""
    iri = _requested_iri()
    return _answer(iri, describe.graph_exists(iri), describe.graph_construct(iri),
                   lambda: resource_page.graph(iri))


@bp.get("/" + iris.ONTOLOGY_PATH)
def ontology() -> Response:
    """The ontology (and the corpus vocabulary minted beside it): the graph kgg:ontology."""
    return _answer(iris.ONTOLOGY_GRAPH, describe.graph_exists(iris.ONTOLOGY_GRAPH),
                   describe.graph_construct(iris.ONTOLOGY_GRAPH), lambda: resource_page.graph(iris.ONTOLOGY_GRAPH))


@bp.get("/" + iris.VOCABULARY_PATH)
def vocabulary() -> Response:
    """The classes and properties minted from the corpus's own annotation schema."""
    return _answer(iris.VOCABULARY, describe.vocabulary_exists(), describe.vocabulary_construct(),
                   lambda: resource_page.graph(iris.ONTOLOGY_GRAPH))


@bp.get("/" + CONTEXT_PATH)
def context_document() -> Response:
    """The published JSON-LD @context (the one the JSON-LD answers and the export embed), for
    JSON-LD processors anywhere: open to every origin whatever the CORS setting (it holds terms, no
    data), cacheable, and revalidated by its ETag."""
    body = json.dumps(jsonld.context(), ensure_ascii=False, indent=1).encode()
    response = Response(body, mimetype=rdf_syntaxes.JSONLD.media_type)
    response.set_etag(hashlib.sha256(body).hexdigest()[:32])
    response.cache_control.public = True
    response.cache_control.max_age = CONTEXT_MAX_AGE
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response.make_conditional(request)


def _requested_iri() -> str:
    """The IRI of the request's path (decoded by the server: encoded again as kg mints IRIs); 404
    when the path cannot be an IRI."""
    iri = iri_of_path(iris.iri_path(request.path))
    try:
        ox.NamedNode(iri)
    except ValueError:
        raise ApiError(404, f"no resource {request.path!r} (not a valid IRI)") from None
    return iri


def _answer(iri: str, exists: str, construct: str, page: Callable[[], Response], framed: bool = False) -> Response:
    """404, the HTML page, or the engine's CONSTRUCT answer in the negotiated format (JSON-LD:
    framed with `iri` on top when `framed`)."""
    accept, explicit = requested_accept(request)
    if not pinned_backend().select(exists, g.deadline):
        raise ApiError(404, f"the graph says nothing of <{iri}>")
    if not explicit and negotiate.prefers_html(accept, RDF_OFFERS):
        return _vary(page())
    return _vary(rdf_response(construct, accept, root=iri if framed else None))


def rdf_format(accept: str | None, what: str) -> tuple[str, str]:
    """(media type to send, engine format) of an RDF answer; 406 when the client takes none."""
    chosen = negotiate.choose(accept, RDF_OFFERS)
    if chosen is None:
        raise ApiError(406, f"{what} is offered as " + ", ".join(RDF_OFFERS), offers=list(RDF_OFFERS))
    return chosen


def rdf_response(construct: str, accept: str | None, root: str | None = None) -> Response:
    """Run a CONSTRUCT under the endpoint's caps and send it as the client prefers; JSON-LD is
    written with the published context, framed with `root` on top when given."""
    served, engine = rdf_format(accept, "this resource")
    json_ld = engine == rdf_syntaxes.JSONLD.media_type
    cap = int(current_app.config["MAX_ROWS"])
    job = execute.Request(sparql=construct, form="CONSTRUCT", cap=cap, solutions_type=rdf_syntaxes.SPARQL_JSON.media_type,
                          graph_type=rdf_syntaxes.NTRIPLES.media_type if json_ld else engine,
                          max_bytes=int(current_app.config["MAX_RESPONSE_BYTES"]), prefixes=dict(iris.PREFIXES))
    result = pinned_backend().run(job, g.deadline)
    body = json_ld_body(ox.parse(result.body, format=ox.RdfFormat.N_TRIPLES), root) if json_ld else result.body
    response = Response(body, mimetype=served)
    response.headers["X-Content-Type-Options"] = "nosniff"  # corpus text: never read as a page
    if cap > 0:
        response.headers["X-KG-Truncated"] = "true" if result.truncated else "false"
    return response


def json_ld_body(triples: Iterable[ox.Triple | ox.Quad], root: str | None = None) -> bytes:
    """Triples as JSON-LD with the published context: framed about `root`, else one node object
    per subject."""
    document = jsonld.frame(triples, root) if root else jsonld.document(triples)
    return json.dumps(document, ensure_ascii=False, indent=1).encode()


def _vary(response: Response) -> Response:
    response.vary.add("Accept")
    return response
