"""Credentials for a remote store: HTTP basic, digest and bearer, from settings or the
environment only, never in a URL, never in a message.

Digest runs against the real Virtuoso (its authenticated endpoints /sparql-auth and
/sparql-graph-crud-auth, a user created with SPARQL update and the anonymous account's update
taken away); basic and bearer against a small real HTTP server on 127.0.0.1 that answers only
requests carrying the expected Authorization header."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest

from kg.errors import StoreError
from kg.store.remote import Credentials, RemoteStore, connect
from tests.remote.conftest import start_store

PASSWORD = "pw-7Hq2-never-shown"
TOKEN = "tok-5Zk9-never-shown"
EMPTY = json.dumps({"head": {"vars": ["p", "o"]}, "results": {"bindings": []}}).encode()


def kg_build(corpus: Path, data: Path, url: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("KG_")} | env
    kg = Path(sys.executable).parent / "kg"
    return subprocess.run([str(kg), "build", "--quiet", "--corpus", str(corpus), "--data", str(data),
                           "--store", url], capture_output=True, text=True, env=environment, timeout=300)


@pytest.fixture
def locked_virtuoso(tmp_path: Path):
    """A Virtuoso whose anonymous account may not write, and a user who may."""
    server = start_store("virtuoso", tmp_path)
    server.isql(f"DB.DBA.USER_CREATE ('kgwriter', '{PASSWORD}');\n"
                'GRANT SPARQL_UPDATE TO "kgwriter";\nREVOKE SPARQL_UPDATE FROM "SPARQL";')
    yield server
    server.stop()


def test_digest_on_virtuoso(locked_virtuoso, corpus_copy: Path, tmp_path: Path):
    url = locked_virtuoso.url
    anonymous = kg_build(corpus_copy, tmp_path / "a", url)
    assert anonymous.returncode == 1 and "asks for credentials" in anonymous.stderr, anonymous.stderr
    wrong = kg_build(corpus_copy, tmp_path / "b", url, KG_STORE_AUTH="digest", KG_STORE_USER="kgwriter",
                     KG_STORE_PASSWORD="not-" + PASSWORD)
    assert wrong.returncode == 1 and "refused the credentials" in wrong.stderr, wrong.stderr
    right = kg_build(corpus_copy, tmp_path / "c", url, KG_STORE_AUTH="digest", KG_STORE_USER="kgwriter",
                     KG_STORE_PASSWORD=PASSWORD)
    assert right.returncode == 0, right.stderr
    assert "6 graphs pushed" in right.stdout
    for done in (anonymous, wrong, right):
        assert PASSWORD not in done.stdout + done.stderr
    assert len(connect(url).graphs()) == 6  # reading needs no credentials


class _Guarded(BaseHTTPRequestHandler):
    """Answers the manifest query with no rows (POST) and a graph read with an empty graph
    (GET), only with the expected Authorization header."""

    expected = ""
    seen: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self._answer("application/n-triples", b"")

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._answer("application/sparql-results+json", EMPTY)

    def _answer(self, media_type: str, body: bytes) -> None:
        given = self.headers.get("Authorization", "")
        self.seen.append(given)
        if given != self.expected:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="kg"')
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", media_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def guarded() -> Iterator[tuple[str, type]]:
    handler = type("Handler", (_Guarded,), {"seen": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", handler
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("settings, header", [
    ({"STORE_USER": "reader", "STORE_PASSWORD": PASSWORD}, "Basic cmVhZGVyOnB3LTdIcTItbmV2ZXItc2hvd24="),
    ({"STORE_TOKEN": TOKEN}, f"Bearer {TOKEN}"),
], ids=["basic", "bearer"])
def test_basic_and_bearer(guarded, settings, header):
    url, handler = guarded
    handler.expected = header
    assert connect(url, settings).graphs() == []
    assert handler.seen and set(handler.seen) == {header}
    with pytest.raises(StoreError, match="refused the credentials") as refused:
        connect(url, {**settings, "STORE_PASSWORD": "x", "STORE_TOKEN": "y" if "STORE_TOKEN" in settings else ""}
                ).graphs()
    with pytest.raises(StoreError, match="asks for credentials") as asked:
        connect(url, {"STORE_USER": "", "STORE_TOKEN": ""}).graphs()
    for error in (refused.value, asked.value):
        assert PASSWORD not in str(error) and TOKEN not in str(error)


def test_credentials_never_in_urls_or_reprs(monkeypatch):
    with pytest.raises(StoreError, match="visible") as error:
        RemoteStore.from_url(f"http://reader:{PASSWORD}@127.0.0.1:1/query")
    assert PASSWORD not in str(error.value)
    monkeypatch.setenv("KG_STORE_USER", "reader")
    monkeypatch.setenv("KG_STORE_PASSWORD", PASSWORD)
    store = connect("http://127.0.0.1:1")
    assert store.http.credentials == Credentials("basic", "reader", PASSWORD)
    assert PASSWORD not in repr(store) + repr(store.http.credentials)
