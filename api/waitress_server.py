"""The WSGI server of `kg serve`: waitress with the server's limits, its own error answers in the
app's one error shape (api/errors.py), and the open-file limit its connections need."""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from typing import TYPE_CHECKING, Any

import click

from kg.api.admission import request_threads
from kg.api.app_state import app_state
from kg.api.errors import ERROR_TYPE, error_body
from kg.settings import limit

if TYPE_CHECKING:
    from kg.api.admission import Admission


def serve_app(config: dict[str, Any]) -> None:
    """Serve `create_app(config)` with waitress until interrupted."""
    import waitress

    from kg.api import create_app

    app = create_app(config)
    server = waitress.create_server(app, ident="kg", **waitress_options(config))
    server.channel_class = json_error_channel(app_state(app).admission)
    app_state(app).admission.spooled = lambda: spooled_bytes(server)
    click.echo(f"Serving kg on http://{server.effective_host}:{server.effective_port}/ (SPARQL at /sparql)")
    sys.stdout.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        app_state(app).close()


def waitress_options(config: dict[str, Any]) -> dict[str, Any]:
    """waitress's limits. Its own body and header limits stay above the app's, so that the app
    answers an oversize request itself (413, 414); past them waitress answers 413 / 431, in the
    same JSON shape (json_error_channel). Threads: enough that the requests which may
    hold or wait for a query worker never take the last ones (/health needs no worker), which
    api/admission.py keeps for /health and the cheap routes.
    Idle and half-sent connections are closed after IDLE_TIMEOUT (checked every second),
    busy ones never; CONNECTIONS bounds them all."""
    max_bytes = int(config["MAX_REQUEST_BYTES"])
    threads = request_threads(config)
    _raise_open_files(int(config["CONNECTIONS"]) + 256)
    return {"host": config["HOST"], "port": int(config["PORT"]), "threads": threads,
            "max_request_body_size": 2 * max_bytes + 65536,
            "max_request_header_size": 3 * max_bytes + 65536,  # a query string may be percent-encoded
            "connection_limit": int(config["CONNECTIONS"]),
            "channel_timeout": int(config["IDLE_TIMEOUT"]), "cleanup_interval": 1}


def _raise_open_files(wanted: int) -> None:
    """Raise the soft limit of open files towards `wanted` (each connection holds one)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def spooled_bytes(server: Any) -> int:
    """Bytes of answers waitress holds in temporary files for the connections of `server`."""
    return sum(_spooled(channel) for channel in list(server.active_channels.values()))


def _spooled(channel: Any) -> int:
    """The size of the temporary files of one connection: what is on disk, sent or not (waitress
    reads a file on from where it stopped and drops it only once all of it is sent)."""
    total = 0
    for buffer in list(channel.outbufs):
        file = getattr(getattr(buffer, "buf", None), "file", None)
        if getattr(buffer, "overflowed", False) and hasattr(file, "fileno"):
            try:
                total += os.fstat(file.fileno()).st_size
            except (OSError, ValueError):  # closed by the main loop meanwhile
                pass
    return total


MAX_HEADER_FIELDS = limit("header_fields")
SLOW_READER = limit("slow_reader")


def json_error_channel(admission: Admission):
    """A waitress channel class whose own error answers (400 on bad framing, 413 for a body
    past max_request_body_size, 431 for headers past the limits) leave in the one error shape,
    like the app's. waitress bounds the request line and the header fields together, and the
    request line of a GET may carry a query of up to --max-request-bytes (3 x percent-encoded):
    the header fields after it are bounded on their own, to MAX_HEADER_FIELDS.

    A request thread with more than waitress's high watermark queued on its connection waits for
    the client to read it (a client that pipelines requests and reads 1 byte/s once held every
    request thread, /health's too, for 40 s): the wait counts against `admission`, is refused
    when admission is full, and lasts SLOW_READER seconds at most; the connection is cut then."""
    from waitress.channel import HTTPChannel
    from waitress.parser import HTTPRequestParser
    from waitress.task import ErrorTask
    from waitress.utilities import RequestHeaderFieldsTooLarge

    class JsonErrorTask(ErrorTask):
        def execute(self) -> None:
            error = self.request.error
            body = (json.dumps(error_body(error.code, error.body), ensure_ascii=False) + "\n").encode("utf-8")
            self.status = f"{error.code} {error.reason}"
            self.response_headers.append(("Content-Type", ERROR_TYPE))
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class BoundedHeaderParser(HTTPRequestParser):
        def received(self, data: bytes) -> int:
            if self.body_rcv is None and not self.completed and _header_fields_size(self.header_plus + data) \
                    > MAX_HEADER_FIELDS:
                self.parse_header(b"GET / HTTP/1.0\r\n")
                self.error = RequestHeaderFieldsTooLarge(
                    f"header fields over {MAX_HEADER_FIELDS:,} bytes (the request line aside)")
                self.completed = True
                return len(data)
            return super().received(data)

    class JsonErrorChannel(HTTPChannel):
        error_task_class = JsonErrorTask
        parser_class = BoundedHeaderParser

        def _flush_outbufs_below_high_watermark(self) -> None:
            if not self._too_much_queued():
                return
            if not admission.hold():
                self._cut()
                return
            try:
                self._wait_for_reader(time.monotonic() + SLOW_READER)
            finally:
                admission.leave()

        def _wait_for_reader(self, deadline: float) -> None:
            with self.outbuf_lock:
                self._flush_exception(self._flush_some, do_close=False)
                while self.connected and self._too_much_queued():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        self._cut()
                        return
                    self.server.pull_trigger()
                    self.outbuf_lock.wait(min(left, 1.0))

        def _too_much_queued(self) -> bool:
            """More queued than one connection may hold, or some spooled while the server's spooled
            answers pass their bound (the channel's own count first: it is cheap)."""
            if self.total_outbufs_len > self.adj.outbuf_high_watermark:
                return True
            return self.total_outbufs_len > self.adj.outbuf_overflow and _spooled(self) > 0 \
                and admission.over_spool_limit()

        def _cut(self) -> None:
            """Close the connection: its thread stops writing (ClientDisconnected), and the main
            loop drops what is queued (its spooled files too)."""
            self.logger.info("cut a client that did not read its answers in time")
            self.will_close, self.connected = True, False  # waitress's cancel(), its requests left to service()
            try:  # a socket the client does not read is never writable: the main loop would not close it
                self.socket.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.server.pull_trigger()

    return JsonErrorChannel


def _header_fields_size(received: bytes) -> int:
    """Bytes of header fields received so far: after the request line, before the blank line."""
    received = received.lstrip()  # waitress skips blank lines before a request
    line_end = received.find(b"\n")
    if line_end < 0:
        return 0
    end = received.find(b"\r\n\r\n", line_end - 1)
    end = received.find(b"\n\n", line_end) if end < 0 else end
    return (end if end >= 0 else len(received)) - line_end - 1
