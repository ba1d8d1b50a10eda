"""The real server process (`python -m kg.api serve`, waitress) on 127.0.0.1:
the protocol over HTTP, the time limit that really stops the work, and
clients nobody here wrote (SPARQLWrapper, Debian's roqet)."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pyoxigraph as ox
import pytest
import requests

from tests.api.support import sparql

COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
GUAIDO = "https://kg.example.org/id/person/juan-guaido"
LABEL_QUERY = f"SELECT ?label WHERE {{ <{GUAIDO}> <http://www.w3.org/2004/02/skos/core#prefLabel> ?label }}"
TIMEOUT = 30


def n_of(response) -> int:
    assert response.status_code == 200, response.text
    return int(response.json()["results"]["bindings"][0]["n"]["value"])


def test_three_ways_agree(server):
    by_get = n_of(sparql(server, params={"query": COUNT_ALL}))
    by_form = n_of(sparql(server, method="POST", data={"query": COUNT_ALL}))
    by_body = n_of(sparql(server, method="POST", data=COUNT_ALL.encode(),
                          headers={"Content-Type": "application/sparql-query"}))
    assert by_get == by_form == by_body > 1000


def test_negotiation_over_http(server):
    response = sparql(server, params={"query": "SELECT * WHERE { ?s ?p ?o } LIMIT 4"},
                      headers={"Accept": "text/csv;q=0.4, application/sparql-results+xml;q=0.8"})
    assert response.headers["Content-Type"].startswith("application/sparql-results+xml")
    assert len(list(ox.parse_query_results(response.content, ox.QueryResultsFormat.XML))) == 4
    turtle = sparql(server, params={"query": "CONSTRUCT WHERE { ?s a ?o } LIMIT 3"})
    assert turtle.headers["Content-Type"].startswith("text/turtle")
    assert len(list(ox.parse(turtle.content, format=ox.RdfFormat.TURTLE))) == 3
    assert sparql(server, params={"query": "ASK {}"}, headers={"Accept": "image/gif"}).status_code == 406


def test_errors_over_http(server, listener):
    bad = sparql(server, params={"query": "SELECT * WHERE {"})
    assert bad.status_code == 400 and bad.json()["error"]["line"] == 1
    assert sparql(server, method="POST", data={"update": "CLEAR ALL"}).status_code == 403
    assert sparql(server, method="POST", data=b"CLEAR ALL",
                  headers={"Content-Type": "application/sparql-update"}).status_code == 403
    assert sparql(server, method="POST", data=b"ASK {}", headers={"Content-Type": "text/plain"}).status_code == 415
    assert sparql(server, method="POST", data=b'ASK { ?s ?p "\xe9" }',
                  headers={"Content-Type": "application/sparql-query"}).status_code == 400
    service = f"SELECT * WHERE {{ SERVICE <{listener.url}> {{ ?s ?p ?o }} }}"
    assert sparql(server, params={"query": service}).status_code == 400
    time.sleep(0.2)
    assert listener.connections == 0
    assert n_of(sparql(server, params={"query": COUNT_ALL})) > 1000  # nothing changed


NPR = "https://kg.example.org/graph/npr-venezuelan-armed-forces-fled"


def test_datasets_over_http(server):
    union = n_of(sparql(server, params={"query": COUNT_ALL}))
    one = n_of(sparql(server, params={"query": COUNT_ALL, "default-graph-uri": NPR}))
    from_clause = n_of(sparql(server, params={"query": f"SELECT (COUNT(*) AS ?n) FROM <{NPR}> WHERE {{ ?s ?p ?o }}"}))
    assert 0 < one == from_clause < union
    named = sparql(server, params={"query": "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }",
                                   "named-graph-uri": NPR}).json()["results"]["bindings"]
    assert [r["g"]["value"] for r in named] == [NPR]
    unknown = sparql(server, params={"query": "SELECT * FROM <http://127.0.0.1:1/x> { ?s ?p ?o }"})
    assert unknown.status_code == 200 and unknown.json()["results"]["bindings"] == []  # an empty graph


@pytest.mark.parametrize("request_args, detail", [
    ({"method": "POST", "data": {"query": ""}}, "the 'query' parameter is empty"),
    ({"method": "POST", "data": [("query", "ASK {}"), ("query", "ASK {}")]}, "'query' given 2 times"),
    ({"method": "POST", "data": {"default-graph-uri": NPR}}, "missing 'query' parameter"),
    ({"method": "POST", "data": b"query=ASK%7B%7D"}, "a POST needs a Content-Type"),  # a form body without it
])
def test_bad_query_parameters_over_http(server, request_args, detail):
    response = sparql(server, **request_args)
    assert response.status_code == 400, response.text
    assert response.json()["error"]["status"] == 400 and detail in response.json()["error"]["detail"]


def test_service_description_cors_and_row_cap_over_http(server):
    description = requests.get(server.url + "sparql", timeout=TIMEOUT, headers={"Origin": "http://elsewhere.test"})
    assert description.headers["Content-Type"].startswith("text/turtle")
    assert description.headers["Access-Control-Allow-Origin"] == "*"
    triples = list(ox.parse(description.content, format=ox.RdfFormat.TURTLE))
    assert any(t.object.value == NPR for t in triples)
    everything = sparql(server, params={"query": "SELECT * WHERE { ?s ?p ?o }"}, headers={"Accept": "text/csv"})
    assert everything.headers["X-KG-Truncated"] == "true" and everything.headers["X-KG-Row-Limit"] == "10000"
    assert len(list(csv.reader(io.StringIO(everything.text)))) == 10000 + 1


def test_request_size_limit_over_http(server):
    big = b"ASK {} #" + b"x" * 1_100_000
    response = sparql(server, method="POST", data=big, headers={"Content-Type": "application/sparql-query"})
    assert response.status_code == 413
    assert response.json()["error"]["status"] == 413


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of processes, from /proc (gone processes count 0)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def test_timeout_stops_the_work(server):
    workers = server.children()
    started = time.monotonic()
    response = sparql(server, params={"query": ENDLESS})
    elapsed = time.monotonic() - started
    assert response.status_code == 503
    assert "time" in response.json()["error"]["detail"]
    assert elapsed < 2 + 3
    # the worker that ran the query is gone, and nothing in the server burns CPU any more
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and len(set(server.children()) - set(workers)) < 1:
        time.sleep(0.1)  # wait for the replacement worker to be started
    pids = [server.process.pid] + server.children()
    settled, previous = False, _cpu_seconds(pids)
    while time.monotonic() < deadline and not settled:  # ... and to finish loading its store
        time.sleep(0.5)
        current = _cpu_seconds(pids)
        settled, previous = current - previous < 0.05, current
    before = _cpu_seconds(pids)
    time.sleep(1.0)
    assert _cpu_seconds(pids) - before < 0.2
    assert len(set(workers) - set(server.children())) == 1
    assert n_of(sparql(server, params={"query": COUNT_ALL})) > 1000


def test_other_clients_answered_during_a_long_query(server):
    slow: list[tuple[int, float]] = []

    def run_slow() -> None:
        status = sparql(server, params={"query": ENDLESS}).status_code
        slow.append((status, time.monotonic()))

    thread = threading.Thread(target=run_slow)
    thread.start()
    time.sleep(0.3)
    answered = []
    for _ in range(5):
        assert sparql(server, params={"query": LABEL_QUERY}).status_code == 200
        assert requests.get(server.url + "api/entities/person/juan-guaido", timeout=TIMEOUT).status_code == 200
        answered.append(time.monotonic())
    thread.join(30)
    status, slow_done = slow[0]
    assert status == 503
    assert all(t < slow_done for t in answered)  # all answered while the long query still ran


def test_sparqlwrapper(server):
    from SPARQLWrapper import JSON, N3, POST, TURTLE, XML, SPARQLWrapper

    client = SPARQLWrapper(server.url + "sparql")
    client.setQuery(LABEL_QUERY)
    client.setReturnFormat(JSON)
    rows = client.query().convert()["results"]["bindings"]
    assert [r["label"]["value"] for r in rows] == ["Juan Guaidó"]

    client.setMethod(POST)
    client.setReturnFormat(XML)
    document = client.query().convert()  # an xml.dom.minidom document
    assert "Juan Guaidó" in document.toxml()

    client.setQuery("ASK { ?s ?p ?o }")
    client.setReturnFormat(JSON)
    assert client.query().convert()["boolean"] is True

    client.setQuery(f"CONSTRUCT {{ <{GUAIDO}> ?p ?o }} WHERE {{ <{GUAIDO}> ?p ?o }}")
    client.setReturnFormat(TURTLE)
    turtle = client.query().convert()
    assert GUAIDO.encode() in turtle or b"juan-guaido" in turtle
    client.setReturnFormat(N3)
    assert b"juan-guaido" in client.query().convert()


def test_sparqlwrapper_reports_our_errors(server):
    from SPARQLWrapper import JSON, SPARQLWrapper
    from SPARQLWrapper.SPARQLExceptions import QueryBadFormed

    client = SPARQLWrapper(server.url + "sparql")
    client.setQuery("SELECT * WHERE { ?s ?p }")
    client.setReturnFormat(JSON)
    with pytest.raises(QueryBadFormed):
        client.query()


def _roqet(server, query: str, *options: str) -> subprocess.CompletedProcess:
    roqet = shutil.which("roqet")
    if roqet is None:
        pytest.skip("roqet (Debian rasqal-utils) is not installed")
    return subprocess.run([roqet, "-q", "-i", "sparql", "-p", server.url + "sparql", "-e", query, *options],
                          capture_output=True, text=True, timeout=TIMEOUT)


def test_roqet_select(server):
    """roqet -p sends GET with Accept: application/sparql-results+xml and reads the bindings.

    (rasqal 0.9.33 reads only variable bindings from a protocol service: its
    ASK and CONSTRUCT over -p fail the same way against a stock `oxigraph serve`.)"""
    done = _roqet(server, LABEL_QUERY, "-r", "xml")
    assert done.returncode == 0, done.stderr
    rows = list(ox.parse_query_results(done.stdout.encode(), ox.QueryResultsFormat.XML))
    assert [r["label"].value for r in rows] == ["Juan Guaidó"]
    csv_out = _roqet(server, "SELECT ?n WHERE { VALUES ?n { 1 2 3 } }", "-r", "csv")
    assert csv_out.stdout.split() == ["n", "1", "2", "3"]
    count = _roqet(server, COUNT_ALL, "-r", "tsv").stdout.split()
    assert count[0] == "?n" and int(count[1]) == n_of(sparql(server, params={"query": COUNT_ALL}))


def test_roqet_sees_our_errors(server):
    done = _roqet(server, "SELECT * WHERE {", "-r", "xml")
    assert done.returncode != 0 and "400" in done.stderr
    done = _roqet(server, "SELECT * WHERE { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } }", "-r", "xml")
    assert done.returncode != 0 and "400" in done.stderr


@pytest.mark.servers  # kg serve
def test_serve_builds_first_when_there_is_no_graph(tmp_path, tiny_copy):
    from kg.testing.servers import Server

    data = tmp_path / "data"
    srv = Server(data, "--corpus", str(tiny_copy), "--workers", "1")
    try:
        from kg.store import build_dirs

        assert build_dirs.current_build(data) is not None
        health = requests.get(srv.url + "health", timeout=TIMEOUT).json()
        assert health["build"] == build_dirs.current_build(data).name
        docs = requests.get(srv.url + "api/documents", timeout=TIMEOUT).json()
        assert docs["total"] == len(list(tiny_copy.glob("*.txt")))
    finally:
        srv.stop()
