"""Clients that do not read their answers, against a real `kg serve` over real sockets: a client
that pipelines requests for large answers and reads them 1 byte a second once held every request
thread of the server (/health's too) for 40 s. A thread waiting for such a client now counts
against admission and is given back after SLOW_READER seconds, its connection cut."""

from __future__ import annotations

import socket
import time
import urllib.parse
from pathlib import Path
from typing import Iterator

import pytest
import requests

from kg.settings import limit
from kg.testing.servers import Server

SLOW_READER = limit("slow_reader")
PIPELINED = 7  # N-Quads exports of 5 MB each: more than the sockets' buffers and waitress's 16 MB queued
CLIENTS = 20  # more than the 13 request threads of the server below


@pytest.fixture(scope="module")
def few_threads(shipped_data: Path) -> Iterator[Server]:
    """`kg serve` with as few request threads as the settings allow (13)."""
    server = Server(shipped_data, "--workers", "1", "--queue", "1", "--threads", "4")
    yield server
    server.stop()


def slow_client(port: int) -> socket.socket:
    """A connection that has sent PIPELINED requests for the whole graph and reads nothing."""
    request = b"GET /export.nq HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(request * PIPELINED)
    return sock


def read_to_end(sock: socket.socket, budget: float) -> tuple[bytes, bool]:
    """Everything the server still sends, and whether it closed the connection within `budget`."""
    sock.settimeout(budget)
    received = bytearray()
    try:
        while chunk := sock.recv(1 << 20):
            received += chunk
    except ConnectionResetError:
        pass
    except TimeoutError:
        return bytes(received), False
    return bytes(received), True


def test_slow_readers_hold_no_request_thread_past_their_limit(few_threads):
    port = int(urllib.parse.urlsplit(few_threads.url).port)
    clients = [slow_client(port) for _ in range(CLIENTS)]
    received = [bytearray() for _ in clients]
    try:
        began = time.monotonic()
        while time.monotonic() - began < SLOW_READER * 1.5:
            for sock, so_far in zip(clients, received):  # 1 byte a second, each
                so_far += sock.recv(1)
            asked = time.monotonic()
            health = requests.get(few_threads.url + "health", timeout=10)
            assert health.status_code == 200 and time.monotonic() - asked < 2.0, health.text
            time.sleep(1.0)
        cut = 0
        for sock, so_far in zip(clients, received):
            rest, closed = read_to_end(sock, budget=30.0)
            answers = (so_far + rest).count(b"HTTP/1.1 ")
            assert closed or answers == PIPELINED, f"{answers} answers on a connection left open"
            cut += closed and answers < PIPELINED
        assert cut, "no slow reader was cut"
        stats = requests.get(few_threads.url + "api/stats", timeout=30)
        assert stats.status_code == 200, stats.text
    finally:
        for sock in clients:
            sock.close()
