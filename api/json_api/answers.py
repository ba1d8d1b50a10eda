"""What the JSON API's routes share (api/json_api/routes.py, api/json_api/facts.py, api/linked_data/void.py): the store of the
request, ids and their IRIs, paging, document titles, and the answers computed once per served
version.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Iterable

from flask import current_app, g, request, url_for

from kg.api.backend import Backend, current as backend_of_request, release_current
from kg.api.errors import ApiError
from kg.api.json_api import queries
from kg.api.json_api.background import OnePerKey
from kg.api.json_api.search import SearchIndexes
from kg.api.linked_data import ids
from kg.model import iris
from kg.publish.names import prefixed_name
from kg.store.memo import Memo

MAX_LIMIT = 500
MAX_OFFSET = 10**9
CACHED_BUDGET = 1800.0  # seconds a once-per-build answer (the stats, the VoID counts) may take, in the background
RETRY_AFTER = 10  # seconds a client asking for an answer still being computed is told to wait
log = logging.getLogger(__name__)


class _State:
    """Per-app caches: the label index and computed answers, keyed by served version."""

    def __init__(self) -> None:
        self.search = SearchIndexes()
        self.memo = Memo()
        self.computing = threading.Lock()  # one computation of a cached answer at a time
        self.jobs = OnePerKey()  # (name, version) of each answer being computed
        self.failed: dict[tuple[str, str], Exception] = {}  # what the last computation of an answer raised


def app_state(app: Any = None) -> _State:
    """The caches of `app` (default: the app handling the request), made on first use."""
    return (app or current_app).extensions.setdefault("kg_jsonapi", _State())


def request_backend() -> Backend:
    """The backend of the request being handled, pinned to one build (api/backend.py)."""
    return backend_of_request()


def select(sparql: str, deadline: float | None = None) -> list[dict[str, str]]:
    """The rows of a SELECT, under the request's deadline unless given another."""
    return request_backend().select(sparql, deadline or g.deadline)


def select_many(sparqls: list[str]) -> list[list[dict[str, str]]]:
    """The rows of each query, from one trip to a query worker (none when there is no query)."""
    return request_backend().select_many(sparqls, g.deadline) if sparqls else []


def resolve(key: str) -> str | None:
    """The IRI of the thing with this id in the graph served, None when there is none."""
    key = iris.iri_path(key)
    return ids.resolve(key, select) if iris.is_path_of_ids(key) else None


def documents_of(rows: list[dict[str, str]]) -> list[str]:
    """The documents the rows name in 'doc', each once, sorted (what queries.titles asks about)."""
    return sorted({r["doc"] for r in rows if "doc" in r})


def add_titles(rows: list[dict[str, str]], found: list[dict[str, str]] | None = None) -> None:
    """Set each row's 'title' from its 'doc': from `found` (rows of queries.titles for their
    documents), or asking the store once for all of them."""
    if found is None:
        docs = documents_of(rows)
        found = select(queries.titles(docs)) if docs else []
    titles: dict[str, str] = {}
    for row in found:
        titles.setdefault(row["doc"], row["title"])
    for row in rows:
        if row.get("doc") in titles:
            row["title"] = titles[row["doc"]]


def type_names(types: Iterable[str]) -> list[str]:
    """Class IRIs as the JSON API shows types: prefixed names (kgo:Person, kgv:PER), sorted, each once."""
    return sorted({prefixed_name(t) for t in types})


def cached(name: str, compute: Callable[[float], Any]) -> Any:
    """`compute(deadline)` once per served version (and per backend.max_age for a remote store).

    The answer describes the whole build: it is computed in a background thread with
    CACHED_BUDGET seconds of its own (counting the quads of 100,000 articles takes minutes, past
    any request's time limit), one answer at a time. A request waits for it until its own
    deadline, then gets a 503 with Retry-After saying it is being computed; a later request gets
    it from memory. An answer whose computation failed is that failure, once, to the request
    waiting for it; the next request computes it again."""
    backend, state = request_backend(), app_state()
    version = backend.version()
    hit = state.memo.get(name, version, backend.max_age)
    if hit is not None:
        return hit
    key = (name, version)
    app = current_app._get_current_object()
    state.jobs.start(key, lambda: _compute(app, state, key, compute), name=f"kg {name}").join(
        max(0.0, g.deadline - time.monotonic()))
    hit = state.memo.get(name, version, backend.max_age)
    if hit is not None:
        return hit
    failure = None if state.jobs.running(key) else state.failed.pop(key, None)
    if failure is not None:
        raise failure
    raise ApiError(503, f"the {name} of this graph are being computed, which takes long on a large graph; "
                        f"try again in {RETRY_AFTER} s", {"Retry-After": str(RETRY_AFTER)})


def _compute(app: Any, state: _State, key: tuple[str, str], compute: Callable[[float], Any]) -> None:
    """Compute one answer with a build pinned for this thread alone (the request that asked may end first)."""
    name, version = key
    state.failed.pop(key, None)
    try:
        with app.app_context():  # a `g` of its own: its own deadline and pinned build
            g.deadline = time.monotonic() + CACHED_BUDGET
            try:
                with state.computing:
                    backend = request_backend()
                    if backend.version() == version:  # else the served build changed: a request for it starts anew
                        state.memo.put(name, version, compute(g.deadline))
            finally:
                release_current()
    except Exception as error:  # noqa: BLE001 - handed to the request waiting for it
        log.warning("%s of %s not computed: %s", name, version, error)
        state.failed[key] = error


def paging() -> tuple[int, int]:
    return int_arg("limit", 50, 1, MAX_LIMIT), int_arg("offset", 0, 0, MAX_OFFSET)


def int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise ApiError(400, f"'{name}' must be a whole number of at most 18 digits")
    value = int(raw)
    if not low <= value <= high:
        raise ApiError(400, f"'{name}' must be between {low} and {high}")
    return value


def paged(total: int, limit: int, offset: int, items: list, endpoint: str, **args: Any) -> dict[str, Any]:
    args = {k: v for k, v in args.items() if v is not None}
    nxt = url_for(endpoint, limit=limit, offset=offset + limit, **args) if offset + limit < total else None
    return {"total": total, "limit": limit, "offset": offset, "next": nxt, "items": items}


def doc_id(iri: str) -> str | None:
    return iri[len(iris.DOCUMENT):] if iri.startswith(iris.DOCUMENT) and "/" not in iri[len(iris.DOCUMENT):] else None
