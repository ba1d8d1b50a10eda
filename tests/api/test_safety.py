"""Errors and safety of /sparql through the app's test client: bad requests,
read-only, no outbound network, time limit, row cap, request size, CORS."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pyoxigraph as ox
import pytest

from kg.api.app_state import app_state
from kg.store import build_dirs
from tests.hardening.procs import wait_until

COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
# A cross product of the whole graph with itself, three times: never ends on its own.
ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


def error_of(response, status: int) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    return json.loads(response.data)["error"]


def test_malformed_query_gives_line_and_column(client):
    response = client.get("/sparql", query_string={"query": "SELECT *\nWHERE {\n  ?s ?p \n}"})
    error = error_of(response, 400)
    assert error["line"] == 4  # the parser's position, where the closing brace comes too early
    assert f"line 4, column {error['column']}" in error["detail"]
    assert error["excerpt"].startswith("   4 | }")  # the offending line, numbered, with a caret under it


@pytest.mark.parametrize("params", [
    {}, {"query": ""}, {"query": "   \n "}, [("query", "ASK {}"), ("query", "ASK {}")],
])
def test_missing_empty_repeated_query_on_post(client, params):
    response = client.post("/sparql", data=urlencode(params).encode(), content_type="application/x-www-form-urlencoded")
    error_of(response, 400)


@pytest.mark.parametrize("params", [{"query": ""}, [("query", "ASK {}"), ("query", "ASK {}")],
                                    {"default-graph-uri": "x"}])
def test_missing_empty_repeated_query_on_get(client, params):
    error_of(client.get("/sparql", query_string=params), 400)


def test_query_in_url_and_body_is_repeated(client):
    response = client.post("/sparql?query=ASK%20%7B%7D", data=b"ASK {}", content_type="application/sparql-query")
    error_of(response, 400)


def test_missing_content_type_on_post(client):
    response = client.post("/sparql", data=b"query=ASK%20%7B%7D")
    assert "a POST needs a Content-Type" in error_of(response, 400)["detail"]


@pytest.mark.parametrize("content_type", ["text/plain", "application/json", "multipart/form-data; boundary=x",
                                          "application/sparql-query; charset=latin-1"])
def test_wrong_content_type_on_post(client, content_type):
    error_of(client.post("/sparql", data=b"ASK {}", content_type=content_type), 415)


def test_body_not_utf8(client):
    error_of(client.post("/sparql", data=b"ASK { ?s ?p \"caf\xe9\" }", content_type="application/sparql-query"), 400)
    error_of(client.post("/sparql", data=b"query=ASK%20%7B%22%E9%22%7D",
                         content_type="application/x-www-form-urlencoded"), 400)
    error_of(client.post("/sparql", data=b"query=ASK {\"\xff\"}", content_type="application/x-www-form-urlencoded"), 400)
    error_of(client.get("/sparql?query=ASK%20%7B%22%E9%22%7D"), 400)


def _quads(shipped_data) -> int:
    store = ox.Store.read_only(str(build_dirs.store_path(build_dirs.current_build(shipped_data))))
    return len(store)


UPDATES = [
    "INSERT DATA { <http://x/s> <http://x/p> <http://x/o> }",
    "DELETE WHERE { ?s ?p ?o }",
    "CLEAR ALL",
    "DROP DEFAULT",
]


@pytest.mark.parametrize("update", UPDATES)
def test_update_refused_every_way(client, shipped_data, update):
    before = _quads(shipped_data)
    attempts = [
        client.post("/sparql", data={"update": update}),
        client.post("/sparql", data=update.encode(), content_type="application/sparql-update"),
        client.get("/sparql", query_string={"update": update}),
        client.get("/sparql", query_string={"query": update}),
        client.post("/sparql", data={"query": update}),
        client.post("/sparql", data=update.encode(), content_type="application/sparql-query"),
    ]
    for response in attempts:
        error_of(response, 403)
    assert _quads(shipped_data) == before
    assert client.get("/sparql", query_string={"query": COUNT_ALL}).status_code == 200


@pytest.mark.parametrize("template", [
    "SELECT * WHERE {{ SERVICE <{url}> {{ ?s ?p ?o }} }}",
    "SELECT * WHERE {{ SERVICE SILENT <{url}sparql> {{ ?s ?p ?o }} }}",
    "PREFIX remote: <{url}> SELECT * WHERE {{ SERVICEremote:q {{ ?s ?p ?o }} }}",
    "SELECT * WHERE {{ ?x ?y ?z . \\u0053ERVICE <{url}> {{ ?s ?p ?o }} }}",
    "LOAD <{url}data.ttl>",
    "LOAD SILENT <{url}data.ttl> INTO GRAPH <http://x/g>",
])
def test_no_outbound_request(client, listener, template):
    query = template.format(url=listener.url)
    for response in (client.get("/sparql", query_string={"query": query}),
                     client.post("/sparql", data=query.encode(), content_type="application/sparql-query")):
        error_of(response, 400)
    time.sleep(0.2)
    assert listener.connections == 0


@pytest.mark.parametrize("template", [
    "SELECT * FROM <{url}data.ttl> WHERE {{ ?s ?p ?o }}",
    "SELECT * FROM NAMED <{url}data.ttl> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}",
])
def test_unknown_from_graph_is_empty_and_never_fetched(client, listener, template):
    query = template.format(url=listener.url)
    for response in (client.get("/sparql", query_string={"query": query}),
                     client.post("/sparql", data=query.encode(), content_type="application/sparql-query")):
        assert response.status_code == 200, response.get_data(as_text=True)
        assert json.loads(response.data)["results"]["bindings"] == []
    time.sleep(0.2)
    assert listener.connections == 0


def test_protocol_graph_parameters_never_fetch(client, listener):
    for name in ("default-graph-uri", "named-graph-uri"):
        response = client.get("/sparql", query_string={"query": COUNT_ALL, name: listener.url + "g.ttl"})
        assert response.status_code == 200, response.get_data(as_text=True)
        assert json.loads(response.data)["results"]["bindings"][0]["n"]["value"] == "0"
    time.sleep(0.2)
    assert listener.connections == 0


def test_graph_parameter_that_is_not_an_iri(client):
    response = client.get("/sparql", query_string={"query": COUNT_ALL, "default-graph-uri": "not an iri"})
    assert "absolute IRI" in error_of(response, 400)["detail"]


def test_listener_would_notice_a_request(listener):
    """The listener of the tests above does see a connection when one is made."""
    import requests

    with pytest.raises(requests.RequestException):
        requests.get(listener.url, timeout=2)
    deadline = time.monotonic() + 2
    while listener.connections == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert listener.connections == 1


def test_timeout_gives_503_and_kills_the_worker(small_app):
    client = small_app.test_client()
    pool = app_state(small_app).backend.pool
    client.get("/sparql", query_string={"query": "ASK {}"})  # workers are up
    before = set(pool.pids())
    started = time.monotonic()
    response = client.get("/sparql", query_string={"query": ENDLESS})
    elapsed = time.monotonic() - started
    error = error_of(response, 503)
    assert "time" in error["detail"]
    assert elapsed < 1.5 + 2.0
    killed = before - set(pool.pids())
    assert len(killed) == 1
    for pid in killed:  # the process that ran the query is gone: its CPU is free
        # it has exited when the request returns; its parent, the worker template, reaps it just after
        wait_until(lambda: not Path(f"/proc/{pid}").exists(), 5)
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    wait_until(lambda: len(pool.pids()) == len(before), 10)  # its successor is forked in the background
    assert len(pool.pids()) == len(before) and not killed & set(pool.pids())
    assert client.get("/sparql", query_string={"query": "ASK {}"}).status_code == 200


def test_others_answered_during_a_long_query(small_app):
    client = small_app.test_client()
    slow: list[tuple[int, float]] = []

    def run_slow() -> None:
        status = small_app.test_client().get("/sparql", query_string={"query": ENDLESS}).status_code
        slow.append((status, time.monotonic()))

    thread = threading.Thread(target=run_slow)
    thread.start()
    time.sleep(0.2)
    answered = []
    for _ in range(5):
        assert client.get("/sparql", query_string={"query": "ASK { ?s ?p ?o }"}).status_code == 200
        answered.append(time.monotonic())
    thread.join(10)
    status, slow_done = slow[0]
    assert status == 503
    assert all(t < slow_done for t in answered)


def test_row_cap_truncates_with_signal(small_client):
    response = small_client.get("/sparql", query_string={"query": "SELECT * WHERE { ?s ?p ?o }"})
    assert response.status_code == 200
    assert response.headers["X-KG-Truncated"] == "true"
    assert response.headers["X-KG-Row-Limit"] == "5"
    assert len(json.loads(response.data)["results"]["bindings"]) == 5


@pytest.mark.parametrize("accept, fmt", [("text/tab-separated-values", ox.QueryResultsFormat.TSV),
                                         ("application/sparql-results+xml", ox.QueryResultsFormat.XML)])
def test_row_cap_in_every_format(small_client, accept, fmt):
    response = small_client.get("/sparql", query_string={"query": "SELECT ?s WHERE { ?s ?p ?o }"},
                                headers={"Accept": accept})
    assert response.status_code == 200, response.data
    assert response.headers["X-KG-Truncated"] == "true"
    assert len(list(ox.parse_query_results(response.data, fmt))) == 5


def test_row_cap_is_sent_to_the_engine_as_a_limit(small_client):
    """An open-ended SELECT is sent with LIMIT cap + 1 appended (engines that compute a whole
    answer first stop there): the rows are those the query means, after its own OFFSET, and
    still flagged truncated; a query the engine refuses is reported on the client's own
    lines, not on the appended one."""
    people = "SELECT DISTINCT ?s WHERE { ?s a kgo:Person } "
    capped = small_client.get("/sparql", query_string={"query": people + "OFFSET 2"})
    assert capped.headers["X-KG-Truncated"] == "true", capped.data
    exact = small_client.get("/sparql", query_string={"query": people + "LIMIT 5 OFFSET 2"})
    assert json.loads(capped.data)["results"] == json.loads(exact.data)["results"]
    error = error_of(small_client.get("/sparql", query_string={"query": "SELECT * WHERE { ?s ?p ?o "}), 400)
    assert error["line"] == 1


def test_row_cap_not_signalled_when_all_rows_fit(small_client):
    for query in ("SELECT * WHERE { ?s ?p ?o } LIMIT 5", "SELECT * WHERE { ?s ?p ?o } LIMIT 3",
                  "SELECT * WHERE { { SELECT * WHERE { ?s ?p ?o } LIMIT 5 } }"):
        response = small_client.get("/sparql", query_string={"query": query})
        assert response.headers["X-KG-Truncated"] == "false"
        assert len(json.loads(response.data)["results"]["bindings"]) in (3, 5)


def test_row_cap_on_construct(small_client):
    response = small_client.get("/sparql", query_string={"query": "CONSTRUCT WHERE { ?s ?p ?o }"},
                                headers={"Accept": "application/n-triples"})
    assert response.headers["X-KG-Truncated"] == "true"
    assert len(list(ox.parse(response.data, format=ox.RdfFormat.N_TRIPLES))) == 5


def test_request_size_limit(small_client):
    big = "SELECT * WHERE { ?s ?p ?o } #" + "x" * 5000
    error_of(small_client.post("/sparql", data=big.encode(), content_type="application/sparql-query"), 413)
    error_of(small_client.post("/sparql", data={"query": big}), 413)
    assert "POST the query instead" in error_of(small_client.get("/sparql", query_string={"query": big}), 414)["detail"]


def test_cors_for_reading(client):
    response = client.get("/sparql", query_string={"query": "ASK {}"}, headers={"Origin": "http://elsewhere.test"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response.headers
    assert "X-KG-Truncated" in response.headers["Access-Control-Expose-Headers"]
    preflight = client.options("/sparql", headers={"Origin": "http://elsewhere.test",
                                                   "Access-Control-Request-Method": "POST",
                                                   "Access-Control-Request-Headers": "content-type"})
    assert preflight.status_code == 200
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert "Content-Type" in preflight.headers["Access-Control-Allow-Headers"]
    assert "Access-Control-Allow-Credentials" not in preflight.headers
