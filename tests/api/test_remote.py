"""Beyond one machine: a real `oxigraph serve` on 127.0.0.1 as the store.

`python -m api serve --store URL` finds the server empty, builds the shipped
corpus into it (Graph Store Protocol), then answers through our /sparql with
the same rules as the embedded store."""

from __future__ import annotations

import subprocess
import threading
import time
from typing import Iterator

import pyoxigraph as ox
import pytest
import requests

from kg import layout
from kg.remote import RemoteStore
from benchmarks.server import Server, free_port
from tests.api.conftest import oxigraph_binary
from tests.helpers import CORPUS

COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
TIMEOUT = 60


@pytest.fixture(scope="module")
def oxigraph(tmp_path_factory) -> Iterator[str]:
    """A stock `oxigraph serve` (read-write, on disk) and its base URL."""
    binary = oxigraph_binary()
    if not binary:
        pytest.skip("the oxigraph server binary (pip package oxigraph) is not installed")
    port = free_port()
    location = tmp_path_factory.mktemp("oxigraph-store")
    process = subprocess.Popen([binary, "serve", "--location", str(location), "--bind", f"127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            requests.get(url + "/query", params={"query": "ASK {}"}, timeout=2)
            break
        except requests.RequestException:
            time.sleep(0.1)
    yield url
    process.terminate()
    process.wait(10)


@pytest.fixture(scope="module")
def remote_server(oxigraph, tmp_path_factory) -> Iterator[Server]:
    """Our server answering from the oxigraph server, which it fills first."""
    assert RemoteStore.from_url(oxigraph).graphs() == []
    data = tmp_path_factory.mktemp("remote-data")
    srv = Server(data, "--store", oxigraph, "--corpus", str(CORPUS), "--query-timeout", "2", "--threads", "6")
    yield srv
    srv.stop()


def sparql(server, **kwargs) -> requests.Response:
    return requests.request(kwargs.pop("method", "GET"), server.url + "sparql", timeout=TIMEOUT, **kwargs)


def test_remote_store_urls():
    store = RemoteStore.from_url("http://h:7878")
    assert (store.query_url, store.update_url, store.gsp_url) == (
        "http://h:7878/query", "http://h:7878/update", "http://h:7878/store")
    store = RemoteStore.from_url("http://h:3030/ds/sparql", gsp_url="http://h:3030/ds/data")
    assert (store.query_url, store.update_url, store.gsp_url) == (
        "http://h:3030/ds/sparql", "http://h:3030/ds/update", "http://h:3030/ds/data")
    store = RemoteStore.from_url("http://h:7200/repositories/kg")
    assert (store.query_url, store.update_url, store.gsp_url) == (
        "http://h:7200/repositories/kg", "http://h:7200/repositories/kg/statements",
        "http://h:7200/repositories/kg/rdf-graphs/service")


def test_build_filled_the_remote_store(remote_server, oxigraph, shipped_data):
    remote = RemoteStore.from_url(oxigraph)
    embedded = ox.Store.read_only(str(layout.store_path(layout.current_build(shipped_data))))
    local_graphs = sorted(g.value for g in embedded.named_graphs())
    assert remote.graphs() == local_graphs
    # the same quads, graph by graph
    for graph in local_graphs:
        query = f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"
        here = int(next(iter(embedded.query(query)))["n"].value)
        there = int(remote.select(query)[0]["n"])
        assert here == there, graph


def test_queries_through_our_endpoint_match_the_embedded_store(remote_server, server):
    queries = [COUNT_ALL,
               "SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a <https://kg.example.org/ontology#Mention> }",
               "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"]
    for query in queries:
        ours = sparql(remote_server, params={"query": query}).json()
        embedded = sparql(server, params={"query": query}).json()
        assert ours["results"]["bindings"] == embedded["results"]["bindings"], query


def test_negotiation_and_formats_from_remote(remote_server):
    response = sparql(remote_server, params={"query": "CONSTRUCT WHERE { ?s a ?o } LIMIT 5"},
                      headers={"Accept": "application/ld+json"})
    assert response.headers["Content-Type"].startswith("application/ld+json")
    assert 1 <= len(list(ox.parse(response.content, format=ox.RdfFormat.JSON_LD))) <= 5
    csv = sparql(remote_server, params={"query": "SELECT ?n WHERE { VALUES ?n { 1 2 } }"},
                 headers={"Accept": "text/csv"})
    assert csv.text.split() == ["n", "1", "2"]
    ask = sparql(remote_server, params={"query": "ASK { ?s ?p ?o }"})
    assert ask.json()["boolean"] is True


def test_same_safety_rules_on_remote(remote_server, oxigraph, listener):
    assert sparql(remote_server, method="POST", data={"update": "CLEAR ALL"}).status_code == 403
    assert sparql(remote_server, params={"query": "DROP ALL"}).status_code == 403
    for query in (f"SELECT * WHERE {{ SERVICE <{listener.url}> {{ ?s ?p ?o }} }}",
                  f"SELECT * FROM <{listener.url}x.ttl> WHERE {{ ?s ?p ?o }}"):
        assert sparql(remote_server, params={"query": query}).status_code == 400
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


def test_json_api_from_remote(remote_server):
    entity = requests.get(remote_server.url + "api/entities/person/juan-guaido", timeout=TIMEOUT).json()
    assert entity["label"] == "Juan Guaidó" and entity["mentions"]
    found = requests.get(remote_server.url + "api/search", params={"q": "cucuta"}, timeout=TIMEOUT).json()
    assert found["items"][0]["id"] == "place/cucuta"
    health = requests.get(remote_server.url + "health", timeout=TIMEOUT).json()
    assert health["status"] == "ok" and health["store"] == "remote"
    nq = requests.get(remote_server.url + "export.nq", timeout=TIMEOUT)
    assert nq.status_code == 200 and len(list(ox.parse(nq.content, format=ox.RdfFormat.N_QUADS))) > 1000
