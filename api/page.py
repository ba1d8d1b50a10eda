"""The query page at /: YASGUI (served from api/static/yasgui, nothing from
outside the server) with the ontology's prefixes declared and the example
queries of api/examples.py one click away."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template

from api import examples

bp = Blueprint("page", __name__)

START_QUERY = "SELECT * WHERE {\n  ?s ?p ?o\n}\nLIMIT 10\n"
# Everything from this server only; the editor may query this server only.
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
          "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
          "frame-ancestors 'self'")


@bp.get("/")
def index() -> Response:
    """The query page (templates/index.html), under a policy that allows this server only."""
    page = render_template("index.html", examples=examples.as_json(),
                           start=examples.prologue() + "\n" + START_QUERY,
                           has_view="view" in current_app.blueprints)
    response = Response(page, mimetype="text/html")
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/examples.json")
def examples_json() -> Response:
    """The example queries, for tools and for the page's tests."""
    return jsonify(examples.as_json())
