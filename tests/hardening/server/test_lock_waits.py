"""Requests wait for a lock no longer than their deadline (issue 41: requests waiting for an export
another process was writing held their admission slots past their deadline, a blocking flock with no
timeout, and another client's short query got 503 for 7 s).

A real `kg serve` with a 2 s time limit on a copy of a build whose Turtle export is not written yet;
the test holds the export's lock as another writer would (`kg export`, another server on the same
data directory). Every request for the export ends with 503, Retry-After and a detail naming the
file, while the lock is still held, and a short query asked after them is answered.
"""

from __future__ import annotations

import fcntl
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from kg.api.app_state import app_state
from kg.publish.view_index import open_index
from kg.store import build_dirs
from kg.testing.servers import Server
from tests.helpers import made_app

LIMIT = 2  # the server's query time limit (s)
TIMEOUT = 20  # seconds the test waits for an answer (on today's main, the export never answered)


def test_export_waits_for_another_writer_until_its_deadline(generated, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(generated[1], data, symlinks=True)
    build = build_dirs.current_build(data)
    export = build_dirs.export_path(build, "ttl")
    assert not export.exists()
    server = Server(data, "--workers", "1", "--threads", "8", "--query-timeout", str(LIMIT))
    try:
        with open(export.with_name(f".{export.name}.lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            with ThreadPoolExecutor(6) as pool:
                answers = list(pool.map(lambda _: requests.get(server.url + "export.ttl", timeout=TIMEOUT),
                                        range(6)))
            assert [a.status_code for a in answers] == [503] * 6, [a.text[:200] for a in answers]
            assert all(a.headers.get("Retry-After") for a in answers)
            assert "kg.ttl is being made by another request or process" in answers[0].json()["error"]["detail"]
            short = requests.get(server.url + "sparql", params={"query": "ASK { ?s ?p ?o }"}, timeout=TIMEOUT)
            assert short.status_code == 200 and short.json()["boolean"] is True
            assert not export.exists(), "the export was written while another writer held its lock"
        made = requests.get(server.url + "export.ttl", timeout=300)
        assert made.status_code == 200 and made.content == Path(export).read_bytes()
    finally:
        server.stop()



def test_the_view_page_waits_for_another_drawer_until_its_deadline(generated, tmp_path):
    """/graph draws graph.html once, under its lock: a request finding another drawer at work waited
    on a blocking flock for as long as the drawing took."""
    data = tmp_path / "data"
    shutil.copytree(generated[1], data, symlinks=True)
    page = build_dirs.current_build(data) / build_dirs.VIEW_FILE
    assert not page.exists()
    server = Server(data, "--workers", "1", "--threads", "8", "--query-timeout", str(LIMIT))
    try:
        with open(page.with_name(f".{page.name}.lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            began = time.monotonic()
            answer = requests.get(server.url + "graph", timeout=TIMEOUT)
            waited = time.monotonic() - began
            assert answer.status_code == 503 and answer.headers.get("Retry-After"), answer.text[:300]
            assert "graph.html is being made by another request or process" in answer.json()["error"]["detail"]
            assert waited < LIMIT + 2, waited
        assert requests.get(server.url + "graph", timeout=300).status_code == 200
    finally:
        server.stop()


def test_a_view_request_waits_for_the_view_lock_until_its_deadline(shipped_data):
    """/graph/neighbours and /graph/nodes read the view index under one lock per server (a large
    graph takes long to read): a request waited on it without a bound. The app `kg serve` makes,
    its lock held as a request reading a large graph holds it."""
    node = open_index(build_dirs.current_build(shipped_data)).all_nodes()[0]
    with made_app({"DATA": str(shipped_data), "WORKERS": 1, "QUERY_TIMEOUT": LIMIT}) as app:
        client = app.test_client()
        answers = []
        asking = threading.Thread(target=lambda: answers.append(client.get("/graph/neighbours",
                                                                           query_string={"node": node})))
        lock = app_state(app).view_lock
        with lock:
            asking.start()
            asking.join(LIMIT + 5)
            finished = not asking.is_alive()
        asking.join(TIMEOUT)
        assert finished, "the request still waited for the view lock after its deadline"
        assert answers[0].status_code == 503 and answers[0].headers.get("Retry-After")
        assert "being read by another request" in answers[0].get_json()["error"]["detail"]
        assert client.get("/graph/neighbours", query_string={"node": node}).status_code == 200
