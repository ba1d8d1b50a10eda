"""The query page at /: YASGUI (served from api/static/yasgui, nothing from
outside the server), example queries one click away with their question kept
above the answer (those made from the served corpus's own schema,
api/page/corpus_examples.py, read once per served version, then those of kg's own,
api/page/examples.py, that return rows on the served graph, api/page/answering.py), the endpoint's predefined
prefixes listed (folded), IRIs in the answer shown as prefixed names and
linked to this server's page of each (api/linked_data/dereference.py), and errors shown
readably. Every link and asset path is relative, so the page works behind a
reverse proxy that maps the base to this server."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, g, jsonify, render_template

from kg.api import backend
from kg.api.base_iri import base_iri
from kg.api.page import examples
from kg.api.page.answering import with_rows
from kg.api.page.corpus_examples import schema_examples
from kg.errors import KgError
from kg.model import iris
from kg.store.memo import Memo

bp = Blueprint("page", __name__)

START_QUERY = "SELECT * WHERE {\n  ?s ?p ?o\n}\nLIMIT 10\n"
# Everything from this server only; the editor may query this server only.
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
          "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
          "frame-ancestors 'self'")


@bp.get("/")
def index() -> Response:
    """The query page (templates/index.html), under a policy that allows this server only."""
    return query_page(START_QUERY)


def query_page(start: str) -> Response:
    """The query page with `start` in the editor (also what a browser's GET of /sparql?query= gets)."""
    has_view = "view" in current_app.blueprints
    page = render_template("index.html", examples=_examples(), start=start, prefixes=iris.PREFIXES,
                           has_view=has_view, links=_links())
    return secured(Response(page, mimetype="text/html"))


def secured(response: Response) -> Response:
    """An HTML page under the policy that allows this server only."""
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _links() -> dict[str, str]:
    """Where the page links an IRI of this graph: under the base, every IRI dereferences (api/linked_data/dereference.py)."""
    return {"base": base_iri()}


@bp.get("/examples.json")
def examples_json() -> Response:
    """The example queries, for tools and for the page's tests."""
    return jsonify(_examples())


def _examples() -> list[dict[str, str]]:
    """The served corpus's examples, then those of kg's own that return rows on the served graph
    (api/page/answering.py). Without a graph to read (none built yet, the store busy or slow), kg's
    own alone, and the corpus's are asked for again next time."""
    memo = current_app.extensions.setdefault("kg_schema_examples", Memo())
    try:
        served = backend.current()
        version = served.version()
        own = memo.get("schema", version, served.max_age)
        if own is None:
            own = memo.put("schema", version, schema_examples(lambda sparql: served.select(sparql, g.deadline)))
    except KgError:
        return examples.as_json(list(examples.EXAMPLES))
    return examples.as_json([*own, *with_rows(list(examples.EXAMPLES))])
