"""Fixtures of the endpoint's tests: apps on a build of the shipped corpus (the
`shipped_data` fixture of tests/conftest.py), real server processes on
127.0.0.1, a listener that records any connection, and Debian's Chromium."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest
import requests

from api import create_app

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0


@pytest.fixture(scope="session")
def app(shipped_data: Path):
    """The app on the shipped corpus, as `kg serve` would make it."""
    app = create_app({"DATA": str(shipped_data), "WORKERS": 2, "QUERY_TIMEOUT": 20.0})
    yield app
    app.extensions["kg"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def small_app(shipped_data: Path):
    """An app with a tiny row cap, a short time limit, a small request limit,
    and its workers reading the store on disk (the app above holds it in memory)."""
    app = create_app({"DATA": str(shipped_data), "WORKERS": 2, "QUERY_TIMEOUT": 1.5, "MAX_ROWS": 5,
                      "MAX_REQUEST_BYTES": 4096, "MEMORY_QUADS": 0})
    yield app
    app.extensions["kg"].close()


@pytest.fixture
def small_client(small_app):
    return small_app.test_client()


class Server:
    """A `python -m api serve` process on 127.0.0.1 and a free port."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        environment = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
        # stderr goes to a file and stdout is drained to the end: a full pipe would block the server
        self.log = tempfile.NamedTemporaryFile("w+", prefix="kg-serve-", suffix=".log")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "api", "serve", "--host", "127.0.0.1", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=environment, cwd=str(ROOT),
            start_new_session=True)
        self.url = self._wait_for_url()

    def _wait_for_url(self) -> str:
        found: list[str] = []
        started = threading.Event()

        def read() -> None:
            for line in self.process.stdout:
                match = re.search(r"http://127\.0\.0\.1:\d+/", line)
                if match and not found:
                    found.append(match.group())
                    started.set()
            started.set()

        threading.Thread(target=read, daemon=True).start()
        started.wait(START_TIMEOUT)
        if not found:
            self.stop()
            self.log.seek(0)
            raise RuntimeError(f"server did not start: {self.log.read()[-3000:]}")
        url = found[0]
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            try:
                if requests.get(url + "health", timeout=2).status_code == 200:
                    return url
            except requests.RequestException:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("server never became healthy")

    def children(self) -> list[int]:
        """Process ids of the server's descendants (worker templates and query workers)."""
        found: list[int] = []
        parents = [self.process.pid]
        while parents:
            kids = [kid for pid in parents for kid in _children_of(pid)]
            found += kids
            parents = kids
        return found

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.log.close()


def _children_of(pid: int) -> list[int]:
    kids: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            kids += [int(p) for p in (task / "children").read_text().split()]
    except OSError:
        pass  # the process exited meanwhile
    return kids


@pytest.fixture(scope="session")
def server(shipped_data: Path) -> Iterator[Server]:
    """A real server process on the shipped corpus: 2 s time limit, 2 workers."""
    srv = Server("--data", str(shipped_data), "--query-timeout", "2", "--workers", "2", "--threads", "6")
    yield srv
    srv.stop()


class Listener:
    """A TCP listener on 127.0.0.1 that records every connection made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    lst = Listener()
    yield lst
    lst.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def oxigraph_binary() -> str:
    path = Path(sys.executable).parent / "oxigraph"
    return str(path) if path.exists() else (shutil.which("oxigraph") or "")
