"""Idle query workers handed to waiting request threads, first come, first served.

With a `queue.Queue` of idle workers, a thread that asks just as a worker is
given back takes it before the threads already waiting, and a woken waiter
that finds the queue empty again waits anew. Under saturation (20 clients
without think time, 3 workers) a few requests then waited until their
deadline while the others passed: 503 "all query workers stayed busy" in a
load run whose p99 was 0.6 s. Here a worker given back goes straight to the
thread that has waited longest; only when none waits does it join the idle
ones, the most recently used first (its pages are warm).

A waiter may come `behind`: it is handed an item only when no other waits (a client that runs its
share of long queries, api/backend/workers.py), and such waiters take at most half the places.
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
        self._behind: deque[_Waiter[T]] = deque()  # served only when no waiter above is left

    def take(self, deadline: float, behind: bool = False) -> T | None:
        """An idle item at once, else the first one given back once every thread that came before
        (and, `behind`, every thread not behind) has had one; None at `deadline` (a time.monotonic()
        value). Raises Full when no item is idle and `max_waiting` threads wait already (or half of
        them behind, for one that comes behind)."""
        with self._lock:
            if self._idle:  # none waits: a given item goes to a waiter first
                return self._idle.pop()
            waiting = len(self._waiters) + len(self._behind)
            if waiting >= self.max_waiting or (behind and len(self._behind) >= max(1, self.max_waiting // 2)):
                raise Full(waiting)
            waiter: _Waiter[T] = _Waiter()
            line = self._behind if behind else self._waiters
            line.append(waiter)
        waiter.handed.wait(max(0.0, deadline - time.monotonic()))
        with self._lock:
            if not waiter.handed.is_set():
                line.remove(waiter)
                return None
        return waiter.item

    def give(self, item: T) -> None:
        """Hand `item` to the thread waiting longest (those behind last), or keep it idle when none waits."""
        with self._lock:
            line = self._waiters or self._behind
            if line:
                waiter = line.popleft()
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
            return len(self._waiters) + len(self._behind)
