"""A graph write Virtuoso rolls back as a deadlock ('SR172: Transaction deadlocked', SQL state
40001, when concurrent pushes collide) is sent again; other errors are not, and an engine whose
profile names no such answer (Oxigraph) never retries. A PUT or DELETE whose connection the
server closed without an answer is sent again on any engine; a query (POST) is not. A local
server plays the store."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from kg.errors import StoreError
from kg.store.remote import ENGINES, RemoteStore
from kg.store.remote.batch import Batch


class _Flaky(BaseHTTPRequestHandler):
    failures = 0
    body = b"<h3>Error 40001</h3> SR172: Transaction deadlocked"
    hang_ups = 0
    seen: list[str] = []

    def do_PUT(self) -> None:  # noqa: N802 (http.server's naming)
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).seen.append(self.command)
        if len(type(self).seen) <= type(self).hang_ups:
            self.close_connection = True  # closed with no status line: RemoteDisconnected
            return
        if len(type(self).seen) <= type(self).failures:
            self.send_response(500)
            self.send_header("Content-Length", str(len(self.body)))
            self.end_headers()
            self.wfile.write(self.body)
        else:
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

    do_DELETE = do_PUT  # noqa: N815
    do_POST = do_PUT  # noqa: N815

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    _Flaky.seen, _Flaky.hang_ups, _Flaky.failures = [], 0, 0
    yield f"http://127.0.0.1:{httpd.server_address[1]}/store"
    httpd.shutdown()


DEADLOCK = b"<h3>Error 40001</h3> SR172: Transaction deadlocked"
TRIPLE = b"<http://a> <http://b> <http://c> .\n"


def store(url: str, engine: str) -> RemoteStore:
    return RemoteStore(url, gsp_url=url, engine=ENGINES[engine], timeout=5)


def test_a_deadlocked_write_is_sent_again_on_virtuoso(server: str) -> None:
    _Flaky.failures, _Flaky.body = 2, DEADLOCK
    store(server, "virtuoso").replace_graph("http://g", TRIPLE)
    assert _Flaky.seen == ["PUT"] * 3


def test_another_server_error_is_not_retried(server: str) -> None:
    _Flaky.failures, _Flaky.body = 1, b"disk full"
    with pytest.raises(StoreError, match="HTTP 500: disk full"):
        store(server, "virtuoso").replace_graph("http://g", TRIPLE)
    assert _Flaky.seen == ["PUT"]


def test_an_engine_without_the_quirk_never_retries(server: str) -> None:
    _Flaky.failures, _Flaky.body = 1, DEADLOCK
    with pytest.raises(StoreError, match="HTTP 500: .*40001"):
        store(server, "oxigraph").replace_graph("http://g", TRIPLE)
    assert _Flaky.seen == ["PUT"]


@pytest.mark.parametrize("engine", ["virtuoso", "oxigraph"])
def test_a_write_whose_connection_was_dropped_is_sent_again(server: str, engine: str) -> None:
    _Flaky.hang_ups = 2
    store(server, engine).replace_graph("http://g", TRIPLE)
    store(server, engine).drop_graph("http://g")
    assert _Flaky.seen == ["PUT", "PUT", "PUT", "DELETE"]


def test_a_write_dropped_every_time_is_a_store_error(server: str) -> None:
    _Flaky.hang_ups = 100
    with pytest.raises(StoreError, match="cannot reach .*ConnectionError"):
        store(server, "virtuoso").replace_graph("http://g", TRIPLE)
    assert _Flaky.seen == ["PUT"] * 6


def test_a_batch_whose_connection_was_dropped_is_sent_again(server: str) -> None:
    """A batch of graph replacements (kg.store.remote.batch) clears what it fills: safe to send twice."""
    _Flaky.hang_ups = 2
    remote = RemoteStore(server, server, server, engine=ENGINES["virtuoso"], timeout=5)
    remote.replace_graphs(Batch(("http://g",), b"CLEAR SILENT GRAPH <http://g> ; INSERT DATA { }"))
    assert _Flaky.seen == ["POST"] * 3


def test_a_query_whose_connection_was_dropped_is_not_sent_again(server: str) -> None:
    _Flaky.hang_ups = 1
    with pytest.raises(StoreError, match="cannot reach"):
        store(server, "oxigraph").http.request("POST", server, data=b"ASK {}")
    assert _Flaky.seen == ["POST"]
