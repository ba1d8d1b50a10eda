"""One client (by address) cannot take every long-query slot: while it floods the server with
queries that never end, another client's short queries are answered.

Real `kg serve` with 2 query workers; the flooding client connects from 127.0.0.2, the other from
127.0.0.1 (both loopback addresses of this machine). Before, the flood held every worker and every
long-job slot and the other client's short queries waited in the queue until their time limit
(503)."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.parse
from pathlib import Path

from kg.testing.servers import Server

ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
SHORT = "ASK { ?s ?p ?o }"
FLOODERS = 8
SECONDS = 12.0


def ask(url: str, query: str, source: str, timeout: float = 30.0) -> tuple[int, float, str]:
    """GET /sparql?query=... from the address `source`: status, seconds, body."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout, source_address=(source, 0))
    began = time.monotonic()
    try:
        connection.request("GET", "/sparql?" + urllib.parse.urlencode({"query": query}),
                           headers={"Accept": "application/sparql-results+json"})
        response = connection.getresponse()
        return response.status, time.monotonic() - began, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def test_a_client_flooding_long_queries_leaves_the_others_answered(shipped_data: Path) -> None:
    server = Server(shipped_data, "--workers", "2", "--query-timeout", "10", "--threads", "24")
    stop = threading.Event()
    flood: list[tuple[int, float, str]] = []

    def flooder() -> None:
        while not stop.is_set():
            flood.append(ask(server.url, ENDLESS, "127.0.0.2"))
            time.sleep(0.05)  # a refused one comes back at once: ask again soon, not in a busy loop

    threads = [threading.Thread(target=flooder, daemon=True) for _ in range(FLOODERS)]
    short: list[tuple[int, float, str]] = []
    try:
        for thread in threads:
            thread.start()
        time.sleep(2.0)  # the flood's first queries have run past the point where a query counts as long
        ends = time.monotonic() + SECONDS
        while time.monotonic() < ends:
            short.append(ask(server.url, SHORT, "127.0.0.1"))
            time.sleep(0.25)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
        log = server.stderr()
        server.stop()
    failed = [(status, round(seconds, 2), body[:200]) for status, seconds, body in short if status != 200]
    assert failed == [], f"{len(failed)} of {len(short)} short queries failed: {failed[:3]}\n{log[-1500:]}"
    assert all(json.loads(body)["boolean"] is True for _, _, body in short)
    slowest = max(seconds for _, seconds, _ in short)
    # at most behind the flood's queries that were queued before it ran its share, each stopped once
    # it runs long (0.5 s): seconds, where before a short query waited out its time limit (10 s)
    assert slowest < 5.0, sorted(round(s, 2) for _, s, _ in short)
    assert {status for status, _, _ in flood} <= {503}, {status for status, _, _ in flood}
    assert any("as many as one client may" in body for _, _, body in flood), flood[:3]
    print(f"short queries: {len(short)}, slowest {slowest:.2f} s; flood answers: {len(flood)}")
