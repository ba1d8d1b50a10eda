"""Admission: what a flood of requests may take of the server's request threads and CPU, so that
/health and the cheap routes are answered during any flood, and a query as soon as its turn comes.

Two bounds, both in the server process (the query workers have their own queue, api/backend/workers.py):

- Requests in the app. Every request but the cheap ones (EXEMPT: /health, static files, the
  prefixes and the API description; not the query page, which may ask the store for the
  corpus's examples) is admitted while fewer than `limit` are in
  the app, the request threads less RESERVED_THREADS (request_threads() is waitress's count,
  api/cli.py); one more is answered 503 busy, with Retry-After, at once. The threads a flood
  of any kind holds, waiting for a worker, a lock or their turn to be read, never include the
  last RESERVED_THREADS.
- Reading a query. What a query costs in its request thread before any worker sees it
  (decoding its parameters, lexing it, twice when it has codepoint escapes, explaining the
  engine's syntax error) runs in at most READING_SLOTS threads at once, READING_QUEUE others
  waiting in the order they came, until their deadline (QUERY_TIMEOUT, as for a worker); one
  more is answered 503 at once, so that long queries never fill the app. That work is bounded
  per query (kg/store/sparql_lexer.py: MAX_TOKENS, about 0.2 s), but 48 threads doing it at once shared one
  interpreter lock with /health, which then took 6 s (and 33-38 s while the lexer was
  quadratic); waiting threads take no CPU. A request of at most SHORT_REQUEST bytes costs a
  few milliseconds to read and does not wait its turn, so that short queries are not queued
  behind a flood of long ones.

A request thread that waits for its client to read the answers queued on its connection (after the
request left the app) is counted as one more in the app while it waits (`hold`), and cut when there is
no room (api/waitress_server.py).

Answers spooled to disk for clients that do not read them (waitress moves what is queued on a
connection past 1 MB to a temporary file) are bounded all together: past SPOOLED_ANSWERS MiB
(`spooled`, told by the server) a request is refused at once (503, Retry-After), and a thread
writing more waits for its client as for a slow reader.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping

from kg.api.backend.handoff import Full, Handoff
from kg.errors import PoolBusy
from kg.settings import limit

RESERVED_THREADS = limit("reserved_threads")
READING_SLOTS = limit("reading_slots")
READING_QUEUE = limit("reading_queue")
SHORT_REQUEST = limit("short_request")
EXEMPT = frozenset({"static", "jsonapi.health", "jsonapi.prefixes", "jsonapi.openapi_json"})


def request_threads(config: Mapping[str, Any]) -> int:
    """waitress's request threads: THREADS, and enough that the requests which may hold or wait
    for a query worker (2 x WORKERS running, QUEUE waiting) or be read or wait for it leave
    RESERVED_THREADS free (48 with the default settings)."""
    waiting = 2 * int(config["WORKERS"]) + int(config["QUEUE"]) + READING_SLOTS + READING_QUEUE
    return max(int(config["THREADS"]), waiting + RESERVED_THREADS)


class Admission:
    """At most `limit` requests in the app, `slots` of them reading a query at once and `queue`
    waiting for their turn."""

    def __init__(self, limit: int, slots: int = READING_SLOTS, queue: int = READING_QUEUE,
                 spool_limit: int = 0) -> None:
        self.limit = max(1, limit)
        self.spool_limit = spool_limit  # bytes of answers spooled to disk, all connections (0: no bound)
        self.spooled: Callable[[], int] = lambda: 0  # how many there are now (the WSGI server tells)
        self._inside = 0
        self._lock = threading.Lock()
        self._slots: Handoff[int] = Handoff(queue)
        for slot in range(max(1, slots)):
            self._slots.give(slot)

    @classmethod
    def of(cls, config: Mapping[str, Any]) -> Admission:
        """The admission of an app with these settings."""
        return cls(request_threads(config) - RESERVED_THREADS,
                   spool_limit=int(config.get("SPOOLED_ANSWERS") or 0) * 2**20)

    def over_spool_limit(self) -> bool:
        """Whether the answers spooled to disk for clients pass the bound."""
        return bool(self.spool_limit) and self.spooled() > self.spool_limit

    def enter(self) -> None:
        """Admit one more request, or raise PoolBusy (503) at once."""
        if self.over_spool_limit():
            raise PoolBusy(f"the server holds {self.spool_limit // 2**20:,} MiB of answers its clients have not read "
                           "yet, as many as it keeps (--spooled-answers); try again shortly")
        with self._lock:
            if self._inside >= self.limit:
                raise PoolBusy(f"the server is answering as many requests as it may ({self.limit}); try again shortly")
            self._inside += 1

    def hold(self) -> bool:
        """Count one more request thread against the limit, as `enter` does, if there is room:
        False (and nothing counted) when the app holds as many as it may."""
        with self._lock:
            if self._inside >= self.limit:
                return False
            self._inside += 1
            return True

    def leave(self) -> None:
        with self._lock:
            self._inside -= 1

    def inside(self) -> int:
        """How many admitted requests are in the app now."""
        with self._lock:
            return self._inside

    @contextmanager
    def reading(self, deadline: float) -> Iterator[None]:
        """Hold one of the reading slots (waiting for it until `deadline`, a time.monotonic() value)."""
        try:
            slot = self._slots.take(deadline)
        except Full as full:
            raise PoolBusy(f"long queries waiting to be read: {full.waiting}, as many as may wait") from None
        if slot is None:
            raise PoolBusy("other queries were being read until this one's time limit")
        try:
            yield
        finally:
            self._slots.give(slot)
