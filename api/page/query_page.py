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

from kg.api.app_state import app_state
from kg.api.base_iri import base_iri
from kg.api.page import examples
from kg.api.page.answering import with_rows
from kg.api.page.corpus_examples import schema_examples
from kg.api.request_life import pinned_backend
from kg.errors import KgError
from kg.model import iris

bp = Blueprint("page", __name__)

START_QUERY = "SELECT * WHERE {\n  ?s ?p ?o\n}\nLIMIT 10\n"


@bp.get("/")
def index() -> Response:
    """The query page (templates/index.html), under the policy that allows this server only
    (api/request_life.py PAGE_POLICY)."""
    return query_page(START_QUERY)


def query_page(start: str) -> Response:
    """The query page with `start` in the editor (also what a browser's GET of /sparql?query= gets)."""
    has_view = "view" in current_app.blueprints
    page = render_template("index.html", examples=_examples(), start=start, prefixes=iris.PREFIXES,
                           has_view=has_view, links=_links())
    return Response(page, mimetype="text/html")


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
    memo = app_state().examples
    try:
        served = pinned_backend()
        version = served.version()
        own = memo.get("schema", version, served.max_age)
        if own is None:
            own = memo.put("schema", version, schema_examples(lambda sparql: served.select(sparql, g.deadline)))
    except KgError:
        return examples.as_json(list(examples.EXAMPLES))
    return examples.as_json([*own, *with_rows(list(examples.EXAMPLES))])
