"""The life of one request, from admission to teardown: every step the app takes around a
route, in the order it takes them (`install` registers them on the app).

Before the route:
  1. admission: a request other than the cheap ones (api/admission.py EXEMPT) enters the app,
     or is answered 503 with Retry-After at once when the app holds as many as it may;
  2. the deadline: `g.deadline`, QUERY_TIMEOUT seconds from now (time.monotonic()), shared by
     every call the request makes to the backend (a route may shorten it: /health does);
  3. the base IRI: IRIs are named, minted and abbreviated under the base of the build served
     (kg.model.iris.use_base), for this request's thread.
During the route:
  - `pinned_backend()` pins the build answering on its first call and gives the same build to
    every later call of the request, so one response never mixes two builds;
  - `reading_query()` is a query's turn to be decoded and lexed (api/admission.py).
After the route: the CORS headers (the CORS setting), and on an HTML page the headers that keep
  it to this server's own content (PAGE_POLICY unless the page brings its own).
Teardown, whatever happened: the pinned build is given back, the thread's base IRI restored and
  the admitted request leaves.

Work a request starts that may outlive it (api/build_answers.py) runs `detached`: in an app
context of its own, with its own deadline and its own pinned build.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from flask import Flask, Response, current_app, g, request

from kg.api.admission import EXEMPT, SHORT_REQUEST
from kg.api.app_state import app_state
from kg.api.backend.workers import CLIENT
from kg.errors import KgError
from kg.model import iris
from kg.store import build_dirs

if TYPE_CHECKING:
    from kg.api.backend.protocol import Backend

CORS_EXPOSED = "X-KG-Truncated, X-KG-Row-Limit, Retry-After"
# An HTML page takes everything from this server only, and may query this server only.
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
               "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
               "form-action 'self'; frame-ancestors 'self'")


def install(app: Flask) -> None:
    """Register the steps of every request's life on `app`."""
    app.before_request(_begin)
    app.after_request(_headers)
    app.teardown_request(_end)


def pinned_backend() -> Backend:
    """The backend of the request being handled, pinned to one build for the whole request."""
    pinned = g.get("kg_backend")
    if pinned is None:
        pinned = g.kg_backend = app_state().backend.pin(g.deadline)
    return pinned


def reading_query(at_least: float = 0.0) -> AbstractContextManager:
    """The request's turn to read its query (a context manager), waited for until its deadline,
    or for `at_least` seconds from now when that is later; none for a short request."""
    body = request.content_length
    if body is None:  # no body, or one of unknown length (chunked, outside waitress)
        body = 0 if request.method in ("GET", "HEAD") else SHORT_REQUEST + 1
    if body + len(request.query_string) <= SHORT_REQUEST:
        return nullcontext()
    return app_state().admission.reading(max(g.deadline, time.monotonic() + at_least))


@contextmanager
def detached(app: Flask, seconds: float) -> Iterator[None]:
    """An app context of its own for work that may outlive the request that started it: its own
    deadline, `seconds` from now, and a build pinned for it alone, given back when it ends. The work is
    no client's: its long queries take no share of the client whose request started it (else that
    client's next long query, while a build-wide answer is read for everyone, is stopped with a 503)."""
    with app.app_context():
        g.deadline = time.monotonic() + seconds
        client = CLIENT.set(None)
        try:
            yield
        finally:
            CLIENT.reset(client)
            _release_build()


def _begin() -> None:
    if request.endpoint not in EXEMPT:
        app_state().admission.enter()  # PoolBusy (503) when full
        g.kg_admitted = True
    g.deadline = time.monotonic() + float(current_app.config["QUERY_TIMEOUT"])
    g.kg_client_token = CLIENT.set(request.remote_addr)  # whose share of the long-query slots a query takes
    g.kg_base_token = iris.use_base(_served_base())


def _served_base() -> str | None:
    """The base IRI of the build served (None: nothing built yet, the request's own handler says
    so; or a remote store, whose base is the base_iri setting's)."""
    try:
        return _base_of(app_state().backend.served())
    except KgError:
        return None


@lru_cache(maxsize=8)
def _base_of(build: Path | None) -> str | None:
    return build_dirs.base_iri(build)


def _headers(response: Response) -> Response:
    if current_app.config["CORS"]:  # reading is open to every origin; no credentials are ever allowed
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
        response.headers["Access-Control-Allow-Headers"] = "Accept, Content-Type"
        response.headers["Access-Control-Expose-Headers"] = CORS_EXPOSED
        response.headers["Access-Control-Max-Age"] = "600"
    if response.mimetype == "text/html":
        response.headers.setdefault("Content-Security-Policy", PAGE_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


def _end(_exc: BaseException | None = None) -> None:
    """Give back what the request took, each step whatever the one before did (a test client runs
    requests in the caller's thread, which must not keep the served build's base)."""
    try:
        _release_build()
    finally:
        iris.reset_base(g.pop("kg_base_token", None))
        client = g.pop("kg_client_token", None)
        if client is not None:
            CLIENT.reset(client)
        if g.pop("kg_admitted", False):
            app_state().admission.leave()


def _release_build() -> None:
    pinned = g.pop("kg_backend", None)
    if pinned is not None:
        app_state().backend.release(pinned)
