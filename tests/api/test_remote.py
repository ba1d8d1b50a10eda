"""Beyond one machine: a real `oxigraph serve` on 127.0.0.1 as the store.

`python -m kg.api serve --store URL` finds the server empty, builds the shipped
corpus into it (Graph Store Protocol), then answers through our /sparql with
the same safety rules and time limit as the embedded store. What every engine
must do alike (builds, queries, JSON API, exports, view) is tests/remote/."""

from __future__ import annotations

import threading
import time
from typing import Iterator

import pytest
import requests

from kg.store.remote import Credentials, RemoteStore, connect
from kg.testing.servers import Server
from kg.testing.sparql_servers import OxigraphServer, oxigraph_binary
from tests.api.support import sparql
from tests.helpers import CORPUS

COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
TIMEOUT = 60


@pytest.fixture(scope="module")
def oxigraph(tmp_path_factory) -> Iterator[str]:
    """A stock `oxigraph serve` (read-write, on disk) and its base URL."""
    if not oxigraph_binary():
        pytest.skip("the oxigraph server binary (pip package oxigraph) is not installed")
    server = OxigraphServer(tmp_path_factory.mktemp("oxigraph-store"))
    yield server.url
    server.stop()


@pytest.fixture(scope="module")
def remote_server(oxigraph, tmp_path_factory) -> Iterator[Server]:
    """Our server answering from the oxigraph server, which it fills first."""
    assert RemoteStore.from_url(oxigraph).graphs() == []
    data = tmp_path_factory.mktemp("remote-data")
    srv = Server(data, "--store", oxigraph, "--corpus", str(CORPUS), "--query-timeout", "2", "--threads", "6")
    yield srv
    srv.stop()


def test_remote_store_urls():
    """Each engine's endpoint names, from the URL a user gives (the engine guessed from it)."""
    store = RemoteStore.from_url("http://h:7878")
    assert (store.query_url, store.update_url, store.gsp_url) == (
        "http://h:7878/query", "http://h:7878/update", "http://h:7878/store")
    store = RemoteStore.from_url("http://h:8890/sparql")
    assert (store.engine.name, store.query_url, store.update_url, store.gsp_url) == (
        "virtuoso", "http://h:8890/sparql", "http://h:8890/sparql", "http://h:8890/sparql-graph-crud")
    store = RemoteStore.from_url("http://h:8890/sparql", credentials=Credentials("digest", "u", "p"))
    assert (store.update_url, store.gsp_url) == ("http://h:8890/sparql-auth", "http://h:8890/sparql-graph-crud-auth")
    store = RemoteStore.from_url("http://h/", engine="virtuoso")
    assert (store.query_url, store.gsp_url) == ("http://h/sparql", "http://h/sparql-graph-crud")
    store = RemoteStore.from_url("http://h:3030/ds/sparql", gsp_url="http://h:3030/ds/other")
    assert (store.engine.name, store.query_url, store.update_url, store.gsp_url) == (
        "fuseki", "http://h:3030/ds/sparql", "http://h:3030/ds/update", "http://h:3030/ds/other")
    store = connect("http://h:8890/sparql", {"STORE_GSP": "http://h:8890/gsp", "STORE_UPDATE": "http://h:8890/u"})
    assert (store.update_url, store.gsp_url) == ("http://h:8890/u", "http://h:8890/gsp")  # settings win
    store = RemoteStore.from_url("http://h:7200/repositories/kg")
    assert (store.query_url, store.update_url, store.gsp_url) == (
        "http://h:7200/repositories/kg", "http://h:7200/repositories/kg/statements",
        "http://h:7200/repositories/kg/rdf-graphs/service")


def test_same_safety_rules_on_remote(remote_server, oxigraph, listener):
    assert sparql(remote_server, method="POST", data={"update": "CLEAR ALL"}).status_code == 403
    assert sparql(remote_server, params={"query": "DROP ALL"}).status_code == 403
    assert sparql(remote_server, params={"query": f"SELECT * WHERE {{ SERVICE <{listener.url}> {{ ?s ?p ?o }} }}"}
                  ).status_code == 400
    unknown = sparql(remote_server, params={"query": f"SELECT * FROM <{listener.url}x.ttl> WHERE {{ ?s ?p ?o }}"})
    assert unknown.status_code == 200 and unknown.json()["results"]["bindings"] == []  # an empty graph
    time.sleep(0.2)
    assert listener.connections == 0
    assert RemoteStore.from_url(oxigraph).graphs()  # nothing was dropped
    malformed = sparql(remote_server, params={"query": "SELECT * WHERE { ?s ?p }"})
    assert malformed.status_code == 400
    truncated = sparql(remote_server, params={"query": "SELECT * WHERE { ?s ?p ?o }"})
    assert truncated.headers["X-KG-Truncated"] == "true"
    assert len(truncated.json()["results"]["bindings"]) == 10000


def test_remote_timeout_and_others_answered(remote_server):
    slow: list[requests.Response] = []
    thread = threading.Thread(target=lambda: slow.append(sparql(remote_server, params={"query": ENDLESS})))
    started = time.monotonic()
    thread.start()
    time.sleep(0.3)
    assert sparql(remote_server, params={"query": "ASK { ?s ?p ?o }"}).status_code == 200
    thread.join(20)
    assert slow[0].status_code == 503
    assert time.monotonic() - started < 2 + 4


