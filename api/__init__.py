"""The HTTP face of kg: the SPARQL endpoint, the JSON API, the exports, the
query page (and the network view, when viz provides it).

    app = create_app({"DATA": "data"})

The store is opened once per worker process (embedded) or reached over HTTP
(remote), never per request. See docs/endpoint.md.
"""

from __future__ import annotations

import atexit
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:  # the worker processes import api.sparql.workers: keep this package light
    from flask import Flask, Response

CORS_EXPOSED = "X-KG-Truncated, X-KG-Row-Limit, Retry-After"


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask app; `test_config` overrides settings (see kg/settings.py)."""
    from flask import Flask

    from kg.api import errors
    from kg.api.backend import make_backend
    from kg.api.sparql.admission import Admission
    from kg.settings import load

    app = Flask(__name__)
    app.config.update(load(test_config))
    app.config["MAX_CONTENT_LENGTH"] = int(app.config["MAX_REQUEST_BYTES"])
    app.json.sort_keys = False
    backend = make_backend(app.config)
    app.extensions["kg"] = backend
    app.extensions["kg.admission"] = Admission.of(app.config)
    atexit.register(backend.close)
    errors.register(app)
    _register_blueprints(app)
    app.after_request(_cors)
    return app


def _register_blueprints(app: Flask) -> None:
    from kg.api import exports, services
    from kg.api.json_api import routes
    from kg.api.linked_data import dereference, void
    from kg.api.page import query_page
    from kg.api.sparql import admission, endpoint

    app.before_request(admission.admit)
    app.teardown_request(admission.release)
    app.before_request(endpoint.start_clock)
    app.before_request(_use_build_base)
    app.teardown_request(_end_build_base)
    app.register_blueprint(endpoint.bp)
    app.register_blueprint(routes.bp)
    app.register_blueprint(exports.bp)
    app.register_blueprint(query_page.bp)
    app.register_blueprint(dereference.bp)
    app.register_blueprint(void.bp)
    services.register(app)
    try:
        from kg.api import view
    except ImportError:
        return
    app.register_blueprint(view.bp)


def _use_build_base() -> None:
    """Before each request: name, mint and abbreviate IRIs under the base IRI of the build served
    (a remote store's: the base_iri setting's)."""
    from flask import current_app, g

    from kg.errors import KgError
    from kg.model import iris

    try:
        base = _base_of(current_app.extensions["kg"].served())
    except KgError:  # nothing built yet: the request's own handler says so
        base = None
    g.kg_base_token = iris.use_base(base)


def _end_build_base(exc: BaseException | None = None) -> None:
    """After each request: the thread goes back to the base it had (a test client runs requests in
    the caller's thread, which must not keep the served build's base)."""
    from flask import g

    from kg.model import iris

    iris.reset_base(g.pop("kg_base_token", None))


@lru_cache(maxsize=8)
def _base_of(build: Path) -> str | None:
    from kg.store import build_dirs

    return build_dirs.base_iri(build)


def _cors(response: Response) -> Response:
    """Reading is open to every origin; no credentials are ever allowed."""
    from flask import current_app

    if current_app.config["CORS"]:
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
        response.headers["Access-Control-Allow-Headers"] = "Accept, Content-Type"
        response.headers["Access-Control-Expose-Headers"] = CORS_EXPOSED
        response.headers["Access-Control-Max-Age"] = "600"
    return response
