"""Admission (api/admission.py) with real threads: the door's bound, the reading slots taken in
order, and their bounded queue."""

from __future__ import annotations

import threading
import time

import pytest

from kg.api.admission import RESERVED_THREADS, Admission, request_threads
from kg.errors import PoolBusy
from kg.settings import load


def test_the_door_refuses_past_the_limit_at_once_and_admits_again_after_one_leaves():
    door = Admission(limit=3)
    for _ in range(3):
        door.enter()
    began = time.monotonic()
    with pytest.raises(PoolBusy, match=r"as many requests as it may \(3\)"):
        door.enter()
    assert time.monotonic() - began < 1.0
    door.leave()
    door.enter()
    assert door.inside() == 3


def test_reading_takes_turns_in_the_order_requests_came():
    door = Admission(limit=10, slots=1, queue=5)
    order: list[int] = []
    first = threading.Event()

    def read(number: int, hold: threading.Event | None = None) -> None:
        with door.reading(time.monotonic() + 30):
            order.append(number)
            if hold is not None:
                first.set()
                hold.wait(30)

    release = threading.Event()
    holder = threading.Thread(target=read, args=(0, release))
    holder.start()
    first.wait(10)
    waiting = []
    for number in (1, 2, 3):
        waiting.append(threading.Thread(target=read, args=(number,)))
        waiting[-1].start()
        time.sleep(0.1)  # each waits before the next comes
    release.set()
    for thread in [holder, *waiting]:
        thread.join(30)
    assert order == [0, 1, 2, 3]


def test_past_the_reading_queue_a_request_is_refused_and_at_its_deadline_it_gives_up():
    door = Admission(limit=10, slots=1, queue=1)
    hold, held = threading.Event(), threading.Event()

    def holder() -> None:
        with door.reading(time.monotonic() + 30):
            held.set()
            hold.wait(30)

    threading.Thread(target=holder).start()
    held.wait(10)
    outcome: list[str] = []

    def waiter() -> None:
        try:
            with door.reading(time.monotonic() + 1.0):
                outcome.append("read")
        except PoolBusy as busy:
            outcome.append(str(busy))

    waiting = threading.Thread(target=waiter)
    waiting.start()
    time.sleep(0.2)
    with pytest.raises(PoolBusy, match="long queries waiting to be read: 1,"):
        with door.reading(time.monotonic() + 30):
            pass
    waiting.join(10)
    assert outcome == ["other queries were being read until this one's time limit"]
    hold.set()


def test_the_default_settings_keep_threads_for_health():
    settings = load({})
    threads = request_threads(settings)
    assert threads == 48 and Admission.of(settings).limit == threads - RESERVED_THREADS
    assert request_threads(load({"THREADS": 6, "WORKERS": 2, "QUEUE": 4})) == 18
