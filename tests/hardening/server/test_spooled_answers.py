"""Answers spooled to disk for clients that do not read them are bounded for the whole server.

waitress keeps what is queued on a connection past 1 MB in a temporary file. Clients that ask for
large answers on many connections and never read them grew the server's temporary files without
bound (each connection up to its own high watermark, 16 MB, times 1,000 connections). Now, past
--spooled-answers MiB all together, a request is refused at once with 503 and Retry-After (the
cheap routes such as /health still answer), and a thread writing more waits for its client as
for a slow reader. Real `kg serve`; the spooled bytes are read from the server's open files.
"""

from __future__ import annotations

import os
import select
import socket
import time
import urllib.parse
from pathlib import Path

import requests

from kg.testing.servers import Server
from tests.hardening.procs import wait_until

LIMIT_MIB = 4
CLIENTS = 10
# About 3 MB of JSON (2.8 MiB spooled per connection that does not read): pairs of triples, cut by LIMIT
LARGE = "SELECT ?a ?b ?c ?d WHERE { ?a ?p ?b . ?c ?q ?d } LIMIT 60000"


def spooled_on_disk(pid: int) -> int:
    """Bytes of the deleted temporary files process `pid` holds open (waitress's spooled answers)."""
    total = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.endswith("(deleted)") and "/tmp" in target:
                total += os.stat(f"/proc/{pid}/fd/{fd}").st_size
        except OSError:
            continue
    return total


def ask_without_reading(url: str) -> socket.socket:
    """A connection that asks for the large answer and reads nothing (a 4 KB receive buffer)."""
    parts = urllib.parse.urlsplit(url)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((parts.hostname, parts.port))
    path = "/sparql?" + urllib.parse.urlencode({"query": LARGE})
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: application/sparql-results+json\r\n\r\n".encode())
    return sock


def test_spooled_answers_are_bounded_for_the_whole_server(shipped_data: Path) -> None:
    server = Server(shipped_data, "--workers", "2", "--spooled-answers", str(LIMIT_MIB), "--idle-timeout", "60")
    sockets: list[socket.socket] = []
    try:
        pid = server.process.pid
        statuses = []
        for _ in range(CLIENTS):
            sockets.append(ask_without_reading(server.url))
            select.select([sockets[-1]], [], [], 20)  # its answer began (and was spooled), or it was refused
            time.sleep(0.5)
            statuses.append(requests.get(server.url + "api/stats", timeout=30).status_code)
        peak = spooled_on_disk(pid)
        refused = requests.get(server.url + "sparql", params={"query": "ASK { ?s ?p ?o }"}, timeout=30)
        health = requests.get(server.url + "health", timeout=10)
        for sock in sockets:
            sock.close()
        sockets.clear()
        drained = wait_until(lambda: spooled_on_disk(pid) == 0, 30, 0.2)
        after = requests.get(server.url + "sparql", params={"query": "ASK { ?s ?p ?o }"}, timeout=30)
    finally:
        for sock in sockets:
            sock.close()
        log = server.stderr()
        server.stop()
    print(f"spooled at the peak: {peak / 2**20:.1f} MiB (bound {LIMIT_MIB} MiB); /api/stats: {statuses}")
    # one answer may pass the bound (it was admitted below it), no second one
    assert peak < (LIMIT_MIB + 6) * 2**20, f"{peak / 2**20:.1f} MiB spooled\n{log[-1500:]}"
    assert refused.status_code == 503 and refused.headers.get("Retry-After"), refused.text
    assert "spooled-answers" in refused.json()["error"]["detail"]
    assert 503 in statuses, statuses
    assert health.status_code == 200
    assert drained and after.status_code == 200, after.text
