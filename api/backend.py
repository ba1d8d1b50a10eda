"""Where the endpoint's answers come from: the embedded store of the current
build (through query worker processes) or a remote SPARQL server.

Both backends offer the same few operations, each bounded by a deadline.
The embedded backend follows `data/current`: a rebuild that swaps the link
is noticed on the next request (one readlink), and the workers reopen the
new store then; until that moment answers come from the old store.
"""

from __future__ import annotations

import itertools
import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Iterator, Protocol

from api import execute
from api.workers import Job, WorkerPool
from kg import layout
from kg.errors import StoreError
from kg.remote import DATASET_TYPES, RemoteStore


class NoGraph(StoreError):
    """Nothing has been built yet."""


class Backend(Protocol):
    kind: str

    def run(self, request: execute.Request, deadline: float) -> execute.Result: ...

    def select(self, sparql: str, deadline: float) -> list[dict[str, str]]: ...

    def graphs(self, deadline: float) -> list[str]: ...

    def version(self) -> str: ...

    def manifest(self) -> dict[str, Any]: ...

    def export(self, fmt: str, deadline: float) -> Path | Iterator[bytes]: ...

    def health(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


class EmbeddedBackend:
    """The Oxigraph store of data/current, queried in worker processes."""

    kind = "embedded"

    def __init__(self, data_dir: Path, workers: int) -> None:
        self.data_dir = Path(data_dir)
        self.pool = WorkerPool(workers)
        self._graphs: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    def build(self) -> Path:
        """The current build directory; raises NoGraph before the first build."""
        build = layout.current_build(self.data_dir)
        if build is None:
            raise NoGraph(f"no graph has been built in {self.data_dir} yet: run `kg build`")
        return build

    def version(self) -> str:
        return self.build().name

    def run(self, request: execute.Request, deadline: float) -> execute.Result:
        return self._submit("run", deadline, request=request)

    def select(self, sparql: str, deadline: float) -> list[dict[str, str]]:
        return self._submit("select", deadline, sparql=sparql)

    def graphs(self, deadline: float) -> list[str]:
        """Named graphs of the current build (asked once per build)."""
        key = str(self.build())
        with self._lock:
            cached = self._graphs.get(key)
        if cached is None:
            cached = self._submit("graphs", deadline)
            with self._lock:
                self._graphs = {key: cached}
        return cached

    def manifest(self) -> dict[str, Any]:
        path = self.build() / layout.MANIFEST_FILE
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def export(self, fmt: str, deadline: float) -> Path:
        """The export file of the current build, dumped once from the store
        (into data/cache/<build>/) when the build did not write it."""
        build = self.build()
        path = layout.export_path(build, fmt)
        if path.is_file():
            return path
        cached = self.data_dir / "cache" / build.name / path.name
        if not cached.is_file():
            cached.parent.mkdir(parents=True, exist_ok=True)
            partial = cached.with_suffix(cached.suffix + f".{os.getpid()}.{threading.get_ident()}.part")
            self._submit("dump", deadline, path=str(partial), fmt=fmt)
            os.replace(partial, cached)
        return cached

    def health(self) -> dict[str, Any]:
        build = layout.current_build(self.data_dir)
        return {"store": self.kind, "build": build.name if build else None,
                "workers": self.pool.alive(), "worker_restarts": self.pool.restarts}

    def close(self) -> None:
        self.pool.close()

    def _submit(self, op: str, deadline: float, **args: Any) -> Any:
        store = layout.store_path(self.build())
        return self.pool.submit(Job(str(store), op, args), deadline)


class RemoteBackend:
    """A SPARQL 1.1 server; queries run in the request thread with a deadline."""

    kind = "remote"

    def __init__(self, store: RemoteStore) -> None:
        self.store = store

    def version(self) -> str:
        return self.store.query_url

    def run(self, request: execute.Request, deadline: float) -> execute.Result:
        self._arm(deadline)
        return execute.run(self.store, request, deadline)

    def select(self, sparql: str, deadline: float) -> list[dict[str, str]]:
        self._arm(deadline)
        return self.store.select(sparql)

    def graphs(self, deadline: float) -> list[str]:
        self._arm(deadline)
        return self.store.graphs()

    def manifest(self) -> dict[str, Any]:
        return {}

    def export(self, fmt: str, deadline: float) -> Iterator[bytes]:
        """Stream the whole dataset from the server's Graph Store Protocol endpoint."""
        if fmt not in DATASET_TYPES:
            raise StoreError(f"no export format {fmt!r}")
        self._arm(deadline)
        chunks = self.store.dump_chunks(fmt)
        first = next(chunks, b"")  # connect and check the status before the response starts
        return itertools.chain([first], chunks)

    def health(self) -> dict[str, Any]:
        return {"store": self.kind, "build": None, "url": self.store.query_url}

    def close(self) -> None:
        self.store.close()

    def _arm(self, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise execute.QueryTimeout
        self.store.limit_time(remaining)


def make_backend(settings: dict[str, Any]) -> Backend:
    """The backend the settings ask for."""
    if settings["STORE"]:
        store = RemoteStore.from_url(settings["STORE"], settings["STORE_UPDATE"] or None,
                                     settings["STORE_GSP"] or None, union=settings["STORE_UNION"],
                                     timeout=float(settings["QUERY_TIMEOUT"]))
        return RemoteBackend(store)
    return EmbeddedBackend(Path(settings["DATA"]), int(settings["WORKERS"]))
