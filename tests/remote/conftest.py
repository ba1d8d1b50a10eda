"""Fixtures of the remote-store suite: real SPARQL servers (a stock `oxigraph serve` and a
Virtuoso 7 from Debian's virtuoso-opensource) started on loopback ports in tmp dirs, and
`kg serve --store` answering from them.

Every engine runs the same tests: the `engine` parameter names it. A missing server binary
skips its tests, except under CI=true, where it fails them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from kg.store.remote import RemoteStore, connect
from kg.testing.servers import Server
from kg.testing.sparql_servers import ENGINES, StoreServer
from tests.helpers import CORPUS

ENGINE_NAMES = tuple(ENGINES)


def require_engine(name: str) -> None:
    """Skip the test when the engine's server is not installed (fail it under CI=true)."""
    if not ENGINES[name][1]():
        message = f"the {name} server is not installed (pip package oxigraph, Debian package virtuoso-opensource)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


def start_store(name: str, directory: Path) -> StoreServer:
    require_engine(name)
    return ENGINES[name][0](directory)


@pytest.fixture(params=ENGINE_NAMES)
def engine(request) -> str:
    return request.param


@pytest.fixture
def store_server(engine: str, tmp_path: Path) -> Iterator[StoreServer]:
    """A fresh, empty server of the engine, for one test."""
    directory = tmp_path / engine
    directory.mkdir()
    server = start_store(engine, directory)
    yield server
    server.stop()


@pytest.fixture
def remote(store_server: StoreServer) -> Iterator[RemoteStore]:
    store = connect(store_server.url)
    yield store
    store.close()


@pytest.fixture(scope="module", params=ENGINE_NAMES)
def served(request, tmp_path_factory) -> Iterator[tuple[StoreServer, Server]]:
    """(store server, `kg serve --store` on it): the server finds the store empty, builds the
    shipped corpus into it, then answers from it; shared by the read-only tests of a module."""
    directory = tmp_path_factory.mktemp(request.param)
    store = start_store(request.param, directory)
    data = tmp_path_factory.mktemp("remote-data")
    try:
        # a generous time limit: Virtuoso computes a whole answer before sending it (4 MB of
        # JSON for the 14,196 quads in about 2 s, more on a loaded machine)
        server = Server(data, "--store", store.url, "--corpus", str(CORPUS), "--query-timeout", "30",
                        "--threads", "6")
    except BaseException:
        store.stop()
        raise
    yield store, server
    server.stop()
    store.stop()


@pytest.fixture(scope="session")
def server(shipped_data: Path) -> Iterator[Server]:
    """`kg serve` on the embedded store of the same corpus: what the remote answers must equal."""
    srv = Server(shipped_data, "--query-timeout", "30", "--workers", "2", "--threads", "6")
    yield srv
    srv.stop()
