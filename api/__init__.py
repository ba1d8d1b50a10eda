"""The HTTP face of kg: the SPARQL endpoint, Linked Data, the JSON API, the query page, the
exports (and the network view, when viz provides it).

    app = create_app({"DATA": "data"})

The store is opened once per worker process (embedded) or reached over HTTP (remote), never
per request. See docs/endpoint.md.

The house, from the top down (a module imports only from its own floor or below):

    __init__.py  cli.py  watch.py     the app factory, `kg serve` and its --watch
    sparql/  linked_data/  json_api/  page/  exports.py  view.py
                                      the routes, a package per face of the graph
    app_state.py  request_life.py  build_answers.py  admission.py  errors.py  negotiate.py  base_iri.py
                                      what every route shares: the app's typed state, each
                                      request's life, answers kept per build, admission, the one
                                      error shape, content negotiation, the base IRI's paths
    backend/                          where answers come from: the served build's store through
                                      query worker processes, or a remote SPARQL server

Between route packages the arrows run one way: sparql -> page (a browser's GET of /sparql gets
the query page), linked_data -> sparql (the endpoint's predefined prefixes), json_api ->
linked_data (the ids of things).
"""

from __future__ import annotations

import atexit
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:  # the query workers import kg.api.backend.worker_process: keep this package light
    from flask import Flask


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask app; `test_config` overrides settings (see kg/settings.py)."""
    from flask import Flask

    from kg.api import errors, request_life
    from kg.api.admission import Admission
    from kg.api.app_state import EXTENSION, AppState
    from kg.api.backend.protocol import make_backend
    from kg.api.linked_data.ids import IdPathConverter
    from kg.settings import load

    app = Flask(__name__)
    app.config.update(load(test_config))
    app.config["MAX_CONTENT_LENGTH"] = int(app.config["MAX_REQUEST_BYTES"])
    app.json.sort_keys = False
    state = AppState(make_backend(app.config), Admission.of(app.config))
    app.extensions[EXTENSION] = state
    atexit.register(state.close)
    errors.register(app)
    app.url_map.converters["idpath"] = IdPathConverter
    request_life.install(app)
    _register_blueprints(app)
    return app


def _register_blueprints(app: Flask) -> None:
    from kg.api import exports, services
    from kg.api.json_api import routes
    from kg.api.linked_data import dereference, void
    from kg.api.page import query_page
    from kg.api.sparql import endpoint

    for blueprint in (endpoint.bp, routes.bp, exports.bp, query_page.bp, dereference.bp, void.bp):
        app.register_blueprint(blueprint)
    services.register(app)
    try:
        from kg.api import view
    except ImportError:
        return
    app.register_blueprint(view.bp)
