"""Work a request starts and later requests wait for: at most one background thread per key
(a served version's search index, an answer computed once per build), run in a copy of the
starting request's context (its base IRI, its request)."""

from __future__ import annotations

import contextvars
import threading
from typing import Callable, Hashable


class OnePerKey:
    """The background threads running now, one per key."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[Hashable, threading.Thread] = {}

    def start(self, key: Hashable, work: Callable[[], None], name: str) -> threading.Thread:
        """The thread doing `key`'s work: the one running, else `work` started now in a thread."""
        with self._lock:
            running = self._running.get(key)
            if running is not None:
                return running
            context = contextvars.copy_context()
            thread = threading.Thread(target=context.run, args=(self._run, key, work), name=name, daemon=True)
            self._running[key] = thread
            thread.start()  # under the lock: another request handed this thread may join it at once
        return thread

    def running(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._running

    def __bool__(self) -> bool:
        with self._lock:
            return bool(self._running)

    def _run(self, key: Hashable, work: Callable[[], None]) -> None:
        try:
            work()
        finally:
            with self._lock:
                self._running.pop(key, None)
