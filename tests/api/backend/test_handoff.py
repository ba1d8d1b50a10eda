"""Idle workers go to waiting request threads first come, first served (api/backend/handoff.py)."""

from __future__ import annotations

import threading
import time

import pytest

from kg.api.backend.handoff import Full, Handoff
from tests.hardening.procs import wait_until

FAR = 30.0  # seconds a waiter may wait in these tests


def _waiter(handoff: Handoff[str], got: list[str], behind: bool = False) -> threading.Thread:
    """A thread waiting for an item; what it took goes to `got` (appended, or at its own index)."""
    slot = len(got)
    got.append("nothing")

    def wait() -> None:
        got[slot] = handoff.take(time.monotonic() + FAR, behind) or "nothing"

    thread = threading.Thread(target=wait)
    thread.start()
    return thread


def test_a_given_item_goes_to_the_longest_waiting_thread_not_to_one_that_just_came():
    handoff: Handoff[str] = Handoff(max_waiting=8)
    got: list[str] = []
    first = _waiter(handoff, got)
    assert wait_until(lambda: handoff.waiting() == 1, FAR)
    second = _waiter(handoff, got)
    assert wait_until(lambda: handoff.waiting() == 2, FAR)
    handoff.give("a")
    # a thread asking right after the give (as a new request does) must not take it from the waiters
    assert handoff.take(time.monotonic()) is None
    handoff.give("b")
    first.join(FAR)
    second.join(FAR)
    assert got == ["a", "b"]
    assert handoff.waiting() == 0 and handoff.take(time.monotonic()) is None


def test_idle_items_are_taken_at_once_the_most_recent_first():
    handoff: Handoff[str] = Handoff(max_waiting=0)
    handoff.give("old")
    handoff.give("warm")
    assert handoff.take(time.monotonic()) == "warm"
    assert handoff.drain() == ["old"] and handoff.drain() == []


def test_past_max_waiting_a_thread_is_refused_at_once():
    handoff: Handoff[str] = Handoff(max_waiting=1)
    got: list[str] = []
    waiter = _waiter(handoff, got)
    assert wait_until(lambda: handoff.waiting() == 1, FAR)
    began = time.monotonic()
    with pytest.raises(Full) as refused:
        handoff.take(began + FAR)
    assert refused.value.waiting == 1 and time.monotonic() - began < FAR / 2
    handoff.give("x")
    waiter.join(FAR)
    assert got == ["x"]


def test_a_waiter_past_its_deadline_leaves_the_line():
    handoff: Handoff[str] = Handoff(max_waiting=4)
    assert handoff.take(time.monotonic() + 0.05) is None
    assert handoff.waiting() == 0
    handoff.give("kept")
    assert handoff.take(time.monotonic()) == "kept"


def test_a_waiter_behind_is_served_after_every_other_and_takes_at_most_half_the_places():
    """A client running its share of long queries waits behind the others (api/backend/workers.py)."""
    handoff: Handoff[str] = Handoff(max_waiting=4)
    got: list[str] = []
    early = _waiter(handoff, got, behind=True)
    assert wait_until(lambda: handoff.waiting() == 1, FAR)
    second_behind = _waiter(handoff, got, behind=True)
    assert wait_until(lambda: handoff.waiting() == 2, FAR)
    with pytest.raises(Full):
        handoff.take(time.monotonic() + FAR, behind=True)  # half of the 4 places are taken by waiters behind
    late = _waiter(handoff, got)
    assert wait_until(lambda: handoff.waiting() == 3, FAR)
    for item in ("a", "b", "c"):
        handoff.give(item)
    for thread in (early, second_behind, late):
        thread.join(FAR)
    assert got == ["b", "c", "a"]  # the one not behind first, though it came last
