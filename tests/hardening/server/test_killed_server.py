"""The query workers of a `kg serve` killed with SIGKILL die with it, the one running a query that
never ends too (issue 41: that worker went on at full CPU with nobody to stop it)."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import requests

from kg.testing.servers import Server
from tests.hardening.procs import alive, wait_until

# A cross product of the whole graph with itself, three times: never ends on its own.
ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


def busy(pid: int) -> bool:
    """Whether `pid` is running on a CPU now (state R)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "R"
    except OSError:
        return False


def ask_forever(url: str) -> None:
    try:
        requests.get(url + "sparql", params={"query": ENDLESS}, timeout=120)
    except requests.RequestException:
        pass  # the server is killed under it


def test_workers_die_with_a_killed_server(shipped_data):
    server = Server(shipped_data, "--workers", "2", "--query-timeout", "300")
    try:
        asker = threading.Thread(target=ask_forever, args=(server.url,), daemon=True)
        asker.start()
        assert wait_until(lambda: any(busy(pid) for pid in server.children()), timeout=60), \
            "no worker took the query"
        below = server.children()
        assert len(below) >= 3  # the template and its workers
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(10)
        assert wait_until(lambda: not any(alive(pid) for pid in below), timeout=10), \
            [pid for pid in below if alive(pid)]
    finally:
        server.stop()
