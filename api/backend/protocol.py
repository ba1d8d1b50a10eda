"""`Backend`: what the endpoint asks of a store, the embedded store of the current build or a
remote SPARQL server, each operation bounded by a deadline. api/ and kg.viz call nothing else on
a backend (tests/api/backend/test_backend_protocol.py holds them to it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Mapping, Protocol

from kg.api.backend import execute
from kg.api.backend.embedded import EmbeddedBackend
from kg.api.backend.remote import RemoteBackend
from kg.store.remote import connect


class Backend(Protocol):
    """What the endpoint asks of a store: an embedded build's or a remote server's."""

    kind: str  # "embedded" or "remote"
    max_age: float  # seconds a value computed from its answers stays true within one version (kg.store.memo)

    def served(self) -> Path | None: ...  # the build directory answering now; None: a remote store

    def run(self, request: execute.Request, deadline: float) -> execute.Result: ...

    def select(self, sparql: str, deadline: float) -> list[dict[str, str]]: ...

    def select_many(self, sparqls: list[str], deadline: float) -> list[list[dict[str, str]]]: ...

    def graphs(self, deadline: float) -> list[str]: ...

    def version(self) -> str: ...

    def manifest(self) -> dict[str, Any]: ...

    def export(self, fmt: str, deadline: float) -> Path | Iterator[bytes]: ...

    def health(self) -> dict[str, Any]: ...

    def close(self) -> None: ...

    def pin(self, deadline: float) -> Backend: ...

    def release(self, pinned: Backend) -> None: ...


def make_backend(settings: Mapping[str, Any]) -> Backend:
    """The backend the settings ask for: a remote store's when STORE is set, else the embedded store's."""
    if settings["STORE"]:
        return RemoteBackend(connect(settings["STORE"], settings, timeout=float(settings["QUERY_TIMEOUT"])))
    return EmbeddedBackend(Path(settings["DATA"]), int(settings["WORKERS"]), int(settings["MEMORY_QUADS"]),
                           queue_size=int(settings["QUEUE"]), worker_memory=int(settings["WORKER_MEMORY"]))
