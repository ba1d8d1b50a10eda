"""Fixtures of the endpoint's tests: apps on a build of the shipped corpus (the
`shipped_data` fixture of tests/conftest.py), real server processes on
127.0.0.1, a listener that records any connection, and Debian's Chromium."""

from __future__ import annotations

import socket
import threading
from pathlib import Path
from typing import Iterator

import pytest

from kg.api.backend.workers import WorkerPool
from kg.testing.servers import Server
from tests.helpers import made_app


@pytest.fixture(scope="session")
def app(shipped_data: Path):
    """The app on the shipped corpus, as `kg serve` would make it."""
    with made_app({"DATA": str(shipped_data), "WORKERS": 2, "QUERY_TIMEOUT": 20.0}) as app:
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def worker_trips(client, monkeypatch) -> list[str]:
    """The jobs request threads send to query workers from now on, in order (the pool runs them):
    under load each one waits for a free worker, so a route's trips weigh more than its queries."""
    client.get("/health")  # the pool is up before counting starts
    return _recorded_jobs(monkeypatch, lambda job: job.op)


@pytest.fixture
def sparql_sent(monkeypatch) -> list[str]:
    """The SPARQL of every job request threads send to query workers from now on, in order."""
    return _recorded_jobs(monkeypatch, lambda job: job.args.get("sparql", ""))


@pytest.fixture
def queries_run(monkeypatch) -> list[str]:
    """The SPARQL of every query run for /sparql (its job's request) sent to query workers from now on, in order."""
    return _recorded_jobs(monkeypatch, lambda job: job.args["request"].sparql if "request" in job.args else "")


def _recorded_jobs(monkeypatch, what) -> list[str]:
    """`what(job)` of each job sent to a query worker from now on (the pool still runs it)."""
    sent: list[str] = []
    submit = WorkerPool.submit

    def recording(pool, job, deadline):
        sent.append(what(job))
        return submit(pool, job, deadline)

    monkeypatch.setattr(WorkerPool, "submit", recording)
    return sent


@pytest.fixture(scope="session")
def small_app(shipped_data: Path):
    """An app with a tiny row cap, a short time limit, a small request limit,
    and its workers reading the store on disk (the app above holds it in memory)."""
    with made_app({"DATA": str(shipped_data), "WORKERS": 2, "QUERY_TIMEOUT": 1.5, "MAX_ROWS": 5,
                   "MAX_REQUEST_BYTES": 4096, "MEMORY_QUADS": 0}) as app:
        yield app


@pytest.fixture
def small_client(small_app):
    return small_app.test_client()


@pytest.fixture(scope="session")
def server(shipped_data: Path) -> Iterator[Server]:
    """A real server process on the shipped corpus: 2 s time limit, 2 workers."""
    srv = Server(shipped_data, "--query-timeout", "2", "--workers", "2", "--threads", "6")
    yield srv
    srv.stop()


class Listener:
    """A TCP listener on 127.0.0.1 that records every connection made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    lst = Listener()
    yield lst
    lst.close()

