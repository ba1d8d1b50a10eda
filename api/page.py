"""The query page at /: YASGUI (served from api/static/yasgui, nothing from
outside the server) with the ontology's prefixes declared and the example
queries of api/examples.py one click away."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template

from api import examples

bp = Blueprint("page", __name__)

START_QUERY = "SELECT * WHERE {\n  ?s ?p ?o\n}\nLIMIT 10\n"


@bp.get("/")
def index() -> str:
    """The query page (templates/index.html)."""
    return render_template("index.html", examples=examples.as_json(),
                           start=examples.prologue() + "\n" + START_QUERY,
                           has_view="view" in current_app.blueprints)


@bp.get("/examples.json")
def examples_json() -> Response:
    """The example queries, for tools and for the page's tests."""
    return jsonify(examples.as_json())
