"""Idle query workers handed to waiting request threads, first come, first served.

With a `queue.Queue` of idle workers, a thread that asks just as a worker is
given back takes it before the threads already waiting, and a woken waiter
that finds the queue empty again waits anew. Under saturation (20 clients
without think time, 3 workers) a few requests then waited until their
deadline while the others passed: 503 "all query workers stayed busy" in a
load run whose p99 was 0.6 s. Here a worker given back goes straight to the
thread that has waited longest; only when none waits does it join the idle
ones, the most recently used first (its pages are warm).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Full(Exception):
    """As many threads as allowed are already waiting."""

    def __init__(self, waiting: int) -> None:
        super().__init__(f"{waiting} threads are already waiting")
        self.waiting = waiting


class _Waiter(Generic[T]):
    def __init__(self) -> None:
        self.handed = threading.Event()
        self.item: T | None = None


class Handoff(Generic[T]):
    """Idle items and the threads waiting for one, in the order they came."""

    def __init__(self, max_waiting: int) -> None:
        self.max_waiting = max_waiting
        self._lock = threading.Lock()
        self._idle: list[T] = []
        self._waiters: deque[_Waiter[T]] = deque()

    def take(self, deadline: float) -> T | None:
        """An idle item at once, else the first one given back once every thread that came before
        has had one; None at `deadline` (a time.monotonic() value). Raises Full when no item is idle
        and `max_waiting` threads wait already."""
        with self._lock:
            if self._idle:  # none waits: a given item goes to a waiter first
                return self._idle.pop()
            if len(self._waiters) >= self.max_waiting:
                raise Full(len(self._waiters))
            waiter: _Waiter[T] = _Waiter()
            self._waiters.append(waiter)
        waiter.handed.wait(max(0.0, deadline - time.monotonic()))
        with self._lock:
            if not waiter.handed.is_set():
                self._waiters.remove(waiter)
                return None
        return waiter.item

    def give(self, item: T) -> None:
        """Hand `item` to the thread waiting longest, or keep it idle when none waits."""
        with self._lock:
            if self._waiters:
                waiter = self._waiters.popleft()
                waiter.item = item
                waiter.handed.set()
            else:
                self._idle.append(item)

    def drain(self) -> list[T]:
        """Remove and return the idle items."""
        with self._lock:
            items, self._idle = self._idle, []
        return items

    def idle(self) -> int:
        """How many items are idle now."""
        with self._lock:
            return len(self._idle)

    def waiting(self) -> int:
        """How many threads wait for an item now."""
        with self._lock:
            return len(self._waiters)
