"""`/graph`: the network view, the same page `kg build` writes as graph.html.

With the embedded store the page is the current build's graph.html, drawn
from the store on the first request and kept in the build directory.
With a remote store it is rendered from the server's answers and kept for
the backend's `max_age` seconds. `?focus=<id>&depth=N` is read by the page itself.

The page of a graph larger than the `view_nodes` setting holds its overview; served from here, it
asks for the rest as a visitor goes, each answer the page's JSON data for a few hundred nodes at
most: `/graph/neighbours?node=<IRI>` (a clicked or searched node and its neighbours) and
`/graph/nodes?kind=|family=|date=|doc=` (the best nodes of a type, of a date, of a document), each
with the sentences of the node it is about only and the documents its dated events list as
references; `POST /graph/sources` sends the sentences and documents behind the nodes and relations
a clicked node's or edge's panel lists, and the documents the timeline lists. They
read the view index the served build kept (kg.publish.view_index), opened once per build: what a
request reads is bounded by what it answers. A remote store's index is made from the store's
answers once per store version (under GRAPH_READ_SECONDS, not the query time limit, since the
queries are the view's own) and kept the backend's `max_age` seconds.

The page is sent with the Content-Security-Policy of its own <meta> (viz/html.py: its two inline
scripts admitted by their hashes, no network but this server), read from the page itself so that it
fits a page drawn by another version of kg, plus frame-ancestors, which only a header can carry.
"""

from __future__ import annotations

import gzip
import html
import re
import shutil
import threading
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Iterator

from flask import Blueprint, Response, current_app, g, request, send_file

from kg.api.app_state import app_state
from kg.api.request_life import pinned_backend
from kg.errors import ApiError, BeingMade
from kg.publish.view_index import open_index
from kg.store import build_dirs
from kg.viz import ensure_view, view_page
from kg.viz.html import safe_json
from kg.viz.neighbours import neighbourhood_data, sources_data
from kg.viz.view_index import neighbourhood_graph, selection_graph, store_index

bp = Blueprint("view", __name__)
# The page's own policy, in the <meta> near the top of its <head> (viz/templates/view.html).
_META_POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
_HEAD_CHARS = 4096
FRAMES = "frame-ancestors 'self'"
FALLBACK_POLICY = "default-src 'none'; style-src 'unsafe-inline'"  # a page without one: nothing runs
GRAPH_READ_SECONDS = 600.0  # reading a large view graph takes minutes (53 s at 1,000 articles under load)


@bp.record_once
def _install(state) -> None:
    threading.Thread(target=_prepare, args=(state.app,), name="kg-view-prepare", daemon=True).start()


def _prepare(app) -> None:
    """While the server waits for its first visitor: open the served build's view index (its
    checksum verified: a whole read of the file, 0.5 s at 10,000 articles), then import what
    drawing a page needs (networkx's communities, numpy: seconds of imports). A request for the
    view meanwhile waits for the index (the view lock), never reads it unverified. A warm-up:
    whatever fails here, the first request does again."""
    try:
        with app.app_context():
            backend = app_state().backend
            build = backend.served()
            if build is not None:
                with app_state().view_lock:
                    _kept_index(backend, build, lambda: open_index(build))
    except Exception:  # noqa: BLE001 - see the docstring
        pass
    import networkx.algorithms.community  # noqa: F401
    import numpy  # noqa: F401


@bp.get("/graph")
def graph() -> Response:
    backend = pinned_backend()  # the build stays marked as served until the page is sent
    built = _built_page(backend)
    if built is not None:
        response = _send_page(built)
        head = _head_of(built)
    else:
        page = _rendered_page(backend)
        response = Response(page, mimetype="text/html")
        response.headers["Cache-Control"] = "no-cache"
        head = page[:_HEAD_CHARS]
    response.headers["Content-Security-Policy"] = page_policy(head)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def page_policy(head: str) -> str:
    """The Content-Security-Policy header of a view page that starts with `head`."""
    match = _META_POLICY.search(head)
    return f"{html.unescape(match.group(1)) if match else FALLBACK_POLICY}; {FRAMES}"


def _head_of(page: Path) -> str:
    with page.open(encoding="utf-8", errors="replace") as text:
        return text.read(_HEAD_CHARS)


@bp.get("/graph/neighbours")
def neighbours() -> Response:
    """JSON: the neighbourhood of `?node=` (an IRI of the view graph) in the page's data shape,
    every string escaped as in the page (no `<`, `>` or `&` in the body)."""
    node = request.args.get("node", "")
    index = _view_index(app_state().backend)
    if node not in index:
        raise ApiError(404, f"no entity or event {node!r} in the graph (expected the IRI of a node of the view)")
    return _block(neighbourhood_graph(index, node), node)


SELECTIONS = ("kind", "family", "date", "doc")


@bp.get("/graph/nodes")
def nodes() -> Response:
    """JSON: the best nodes of one selection (`kind=<class IRI>`, `family=<family>`, `date=<date as the
    timeline gives it>` or `doc=<document IRI>`) and the actors of their events, in the page's data shape."""
    given = {key: request.args[key] for key in SELECTIONS if request.args.get(key)}
    if len(given) != 1:
        raise ApiError(400, f"expected exactly one of {', '.join(SELECTIONS)} (got {', '.join(given) or 'none'})")
    index = _view_index(app_state().backend)
    return _block(selection_graph(index, **given), "")


SOURCES_NODES = 50  # nodes one `/graph/sources` asks for at most (a panel lists one, or a link's two)
SOURCES_RELATIONS = 1000  # ... and relations (the page asks in batches of as many)
SOURCES_DOCS = 1000  # ... and documents (the page asks in batches of as many)


@bp.post("/graph/sources")
def sources() -> Response:
    """JSON: the sentences and documents behind `{"nodes": [IRI...], "relations": [[subject,
    predicate, object]...], "docs": [IRI...]}` (a JSON body, each key optional): the first of each
    node's mentions and of each relation's statements, what the panel of a clicked node or edge
    cites, and the documents asked, those a fetched block's timeline lists by reference
    (viz/neighbours.py `sources_data`). A read, sent as POST because a panel may list hundreds of
    relations."""
    nodes, relations, docs = _sources_asked(request.get_json(silent=True))
    index = _view_index(app_state().backend)
    return _json(sources_data(index.sources(nodes, relations, docs)))


def _sources_asked(asked) -> tuple[list[str], list[tuple[str, str, str]], list[str]]:
    expected = ('(expected a JSON object {"nodes": [IRI...], "relations": [[subject, predicate, object]...], '
                f'"docs": [IRI...]}} with at most {SOURCES_NODES} nodes, {SOURCES_RELATIONS} relations and '
                f"{SOURCES_DOCS} documents)")
    if not isinstance(asked, dict):
        raise ApiError(400, f"the body is not a JSON object {expected}")
    nodes, relations, docs = asked.get("nodes", []), asked.get("relations", []), asked.get("docs", [])
    for name, listed, most in (("nodes", nodes, SOURCES_NODES), ("docs", docs, SOURCES_DOCS)):
        if not (isinstance(listed, list) and all(isinstance(n, str) for n in listed) and len(listed) <= most):
            raise ApiError(400, f"{name} is not a list of IRIs {expected}")
    if not (isinstance(relations, list) and len(relations) <= SOURCES_RELATIONS and all(
            isinstance(r, list) and len(r) == 3 and all(isinstance(t, str) for t in r) for r in relations)):
        raise ApiError(400, f"relations is not a list of [subject, predicate, object] IRIs {expected}")
    return nodes, [tuple(r) for r in relations], docs


def _block(graph, node: str) -> Response:
    return _json(neighbourhood_data(graph, node))


def _json(data: dict) -> Response:
    response = Response(safe_json(data), mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def _view_index(backend, build: Path | None = None):
    """The view index of the served store (of `build`, one of the backend's, when given), opened once
    per build (kept the backend's `max_age` seconds: a remote store's version says nothing of its
    content): the build's own, or made from the store's answers when it kept none."""
    build = build or backend.served()
    with _view_lock():  # a large graph takes long to read and much memory
        return _kept_index(backend, build, lambda: _read_index(backend, build))


def _kept_index(backend, build: Path | None, read):
    """The index kept for the served version (`read()` when none is; None is not kept); under the view lock."""
    kept = app_state().view  # the page rendered from a remote store, the view index
    version = f"{backend.kind}:{build.name if build is not None else backend.version()}"
    index = kept.get("index", version, backend.max_age)
    if index is None:
        index = read()
        if index is not None:
            kept.put("index", version, index)
    return index


@contextmanager
def _view_lock() -> Iterator[None]:
    """The app's view lock, waited for until the request's deadline (BeingMade after: 503 with
    Retry-After), not for as long as another request reads a large graph."""
    lock = app_state().view_lock
    if not lock.acquire(timeout=max(0.0, g.deadline - time.monotonic())):
        raise BeingMade("the view's index is being read by another request")
    try:
        yield
    finally:
        lock.release()


def _read_index(backend, build: Path | None):
    index = open_index(build) if build is not None else None
    if index is None:
        index = store_index(partial(backend.select, deadline=time.monotonic() + GRAPH_READ_SECONDS))
    return index


def _built_page(backend) -> Path | None:
    """graph.html of the served embedded build (drawn now if no request asked for it before, from
    the view index the other routes keep)."""
    build = backend.served()
    size = current_app.config.get("VIEW_NODES")
    return ensure_view(build, lambda: _view_index(backend, build), size, g.deadline) if build is not None else None


def _send_page(page: Path) -> Response:
    """The build's page, gzip-compressed when the client takes it; compressed once per build."""
    gzipped = request.accept_encodings["gzip"] > 0
    sent = build_dirs.cached_file(page.parent, page.name + ".gz", lambda partial: _gzip(page, partial), g.deadline) \
        if gzipped else page
    response = send_file(sent, mimetype="text/html", max_age=0, etag=True, conditional=True)
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def _gzip(source: Path, target: Path) -> None:
    with source.open("rb") as raw, gzip.GzipFile(target, "wb", compresslevel=5, mtime=0) as packed:
        shutil.copyfileobj(raw, packed, 1 << 20)


def _rendered_page(backend) -> str:
    rendered = app_state().view
    version = f"{backend.kind}:{backend.version()}"
    html = rendered.get("page", version, backend.max_age)
    if html is None:
        html = rendered.put("page", version, view_page(_view_index(backend), max_nodes=current_app.config.get("VIEW_NODES"))[0])
    return html
