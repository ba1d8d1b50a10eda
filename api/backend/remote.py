"""A remote SPARQL 1.1 server as the endpoint's backend: queries run in the request thread,
each under what is left of the request's deadline."""

from __future__ import annotations

import time
from typing import Any, Iterator

from kg.api.backend import execute
from kg.publish.export import remote_export_chunks
from kg.settings import limit
from kg.store.remote import RemoteStore

REMOTE_TTL = limit("remote_ttl")


class RemoteBackend:
    """A SPARQL 1.1 server; queries run in the request thread with a deadline."""

    kind = "remote"
    max_age = REMOTE_TTL

    def __init__(self, store: RemoteStore) -> None:
        self.store = store

    def served(self) -> None:
        return None  # a remote server has no build directory

    def version(self) -> str:
        return self.store.query_url

    def run(self, request: execute.Request, deadline: float) -> execute.Result:
        self._arm(deadline)
        return execute.run(self.store, request, deadline)

    def select(self, sparql: str, deadline: float) -> list[dict[str, str]]:
        self._arm(deadline)
        return self.store.select(sparql)

    def select_many(self, sparqls: list[str], deadline: float) -> list[list[dict[str, str]]]:
        """One query after the other (a SPARQL server takes one query per request), each
        under what is left of the deadline."""
        return [self.select(sparql, deadline) for sparql in sparqls]

    def graphs(self, deadline: float) -> list[str]:
        self._arm(deadline)
        return self.store.graphs()

    def manifest(self) -> dict[str, Any]:
        return {}

    def export(self, fmt: str, deadline: float) -> Iterator[bytes]:
        """Stream kg's graphs from the server, read one by one with the Graph Store Protocol
        (the list of graphs is asked before the response starts, so an unreachable store is a 503)."""
        self._arm(deadline)
        return remote_export_chunks(self.store, fmt)

    def health(self) -> dict[str, Any]:
        return {"store": self.kind, "build": None, "url": self.store.query_url, "engine": self.store.engine.name}

    def pin(self, deadline: float) -> RemoteBackend:
        return self  # a remote server has no builds to keep apart

    def release(self, pinned: object) -> None:
        pass

    def close(self) -> None:
        self.store.close()

    def _arm(self, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise execute.QueryTimeout
        self.store.limit_time(remaining)
