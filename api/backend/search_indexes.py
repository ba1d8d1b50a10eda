"""The search index /api/search answers from, for the version of the graph being served.

No request builds an index. An embedded build's index is the file `kg build` wrote
next to its store (kg.publish.search_index, an SQLite file): it is opened in the background
when the app starts, and when a new build is first searched (requests arriving meanwhile
wait for that). A graph without the file gets its index from the store, computed in
the background with a budget of its own (BUDGET); a search arriving meanwhile
waits for it until its own time limit, then gets a 503 with Retry-After that says why:
- a build made by a kg before the SQLite index (it has search-index.json, which is no longer
  read) or whose file was removed: the index computed is written into the build directory, as
  `kg build` would have, so that the next server start opens it (kept in memory when the
  directory cannot be written); the log says so once;
- a remote store: kept in memory, and computed again in the background once the backend's
  max_age has passed; searches answer from the one before until the new one is there.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

from kg.api.backend.background import OnePerKey
from kg.errors import ApiError, StoreError
from kg.publish.search import SearchIndex, read_index
from kg.publish.search_index import Rows, index_path, label_rows, make_index
from kg.settings import limit
from kg.store import build_dirs

BUDGET = limit("search_budget")
RETRY_AFTER = limit("search_retry")
FILE_WAIT = limit("search_file_wait")
KEPT = 2  # versions whose index is kept (requests pinned to the previous build may still search)
log = logging.getLogger(__name__)
TimedSelect = Callable[[str, float], list]  # a backend's select: (SPARQL, deadline) -> rows


class SearchIndexes:
    """The index of each served version, loaded or computed in background threads, one per version."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ready: OrderedDict[str, tuple[float, SearchIndex]] = OrderedDict()
        self._pending = OnePerKey()

    def get(self, backend: Any, deadline: float) -> SearchIndex:
        """The index of the version `backend` (a request's pinned backend) serves; waits until
        `deadline` only while a background thread reads or computes it."""
        version, remote = backend.version(), backend.kind == "remote"
        ready = self._ready_for(version)
        if ready is not None and ready[1].damaged:  # found damaged by a search: read or made again
            self._forget(version, ready[1])
            ready = None
        if ready is not None:
            made, index = ready
            if remote and time.monotonic() - made >= backend.max_age:
                self.start(backend)  # answer from this one until the new one is there
            return index
        build = backend.served()
        if build is not None and index_path(build).is_file():
            deadline = max(deadline, time.monotonic() + FILE_WAIT)  # a read, not a query: no time limit
        for _ in range(2):  # the second: after a start-up read that found no file
            self.start(backend).join(max(0.0, deadline - time.monotonic()))
            ready = self._ready_for(version)
            if ready is not None:
                return ready[1]
        raise ApiError(503, _preparing(build), {"Retry-After": str(RETRY_AFTER)})

    def warm(self, backend: Any) -> None:
        """At start: read the index file of the build `backend` serves, in the background (a
        remote store's index is computed by the first search)."""
        if backend.kind != "embedded":
            return
        try:
            build = backend.served()
        except StoreError:  # nothing built yet
            return
        self._start(build.name, build, None)

    def start(self, backend: Any) -> threading.Thread:
        """The background thread loading the index of the version `backend` serves (started now
        unless one runs already), computed from its store when its build has no index file."""
        return self._start(backend.version(), backend.served(), backend.select)

    def _start(self, version: str, build: Path | None, select: TimedSelect | None) -> threading.Thread:
        """The thread loading `version`'s index: from `build`'s file, else computed with `select`
        (None: from the file only). It runs in a copy of the caller's context (the request's base IRI)."""
        return self._pending.start(version, lambda: self._load(version, build, select), name=f"search index {version}")

    def _load(self, version: str, build: Path | None, select: TimedSelect | None) -> None:
        began = time.monotonic()
        try:
            index = read_index(build) if build is not None else None
            if index is None and select is not None:
                deadline = time.monotonic() + BUDGET
                rows = label_rows(lambda sparql: select(sparql, deadline))
                index = _written(build, rows) if build is not None else SearchIndex.of_rows(*rows)
            if index is not None:
                self._keep(version, index)
                log.info("search index of %s: %d labels in %.2f s", version, index.count(),
                         time.monotonic() - began)
                index.read_haystack()  # after it is kept: the searches that need no haystack need not wait
        except Exception:  # the next search tries again
            log.warning("search index of %s not made", version, exc_info=True)

    def _ready_for(self, version: str) -> tuple[float, SearchIndex] | None:
        with self._lock:
            ready = self._ready.get(version)
            if ready is not None:
                self._ready.move_to_end(version)
            return ready

    def _forget(self, version: str, index: SearchIndex) -> None:
        with self._lock:
            if self._ready.get(version, (0.0, None))[1] is index:
                del self._ready[version]
        log.warning("search index of %s found damaged while serving; read or made again", version)

    def _keep(self, version: str, index: SearchIndex) -> None:
        with self._lock:
            self._ready[version] = (time.monotonic(), index)
            self._ready.move_to_end(version)
            while len(self._ready) > KEPT:
                self._ready.popitem(last=False)


def _preparing(build: Path | None) -> str:
    """What a search answered 503 is told."""
    if build is not None and not index_path(build).is_file():
        return ("this build has no search index (made by a kg before the SQLite index, or its file was removed); "
                "it is being computed from the store and written into the build: try again shortly "
                "(`kg build` writes it with the build)")
    return "the search index of this graph is being prepared; try again shortly"


def _written(build: Path, rows: tuple[Rows, Rows]) -> SearchIndex:
    """The index of a build without its file, written into the build directory (as `kg build` would
    have); in memory when the directory cannot be written or holds a damaged file."""
    why = " (made by a kg before the SQLite index)" if (build / build_dirs.OLD_SEARCH_INDEX_FILE).is_file() else ""
    try:
        if index_path(build).is_file():  # damaged: made again in its place
            log.warning("search index %s is damaged; made again from the store", index_path(build))
            index_path(build).unlink()
        make_index(index_path(build), *rows)
        index = read_index(build)
        problem = "" if index is not None else f"{index_path(build)} is damaged"
    except (OSError, sqlite3.Error) as exc:
        index, problem = None, f"its directory cannot be written: {exc}"
    if index is None:
        log.warning("build %s has no readable search index file%s; computed from its store and kept in memory "
                    "(%s); `kg build` writes it", build, why, problem)
        return SearchIndex.of_rows(*rows)
    log.warning("build %s had no search index file%s; computed from its store and written into it", build, why)
    return index
