"""Answers computed once per build (the stats, the VoID counts, listings by type) are computed in the
background: a request waits for one until its own time limit, then is told with a 503 and
Retry-After that it is being computed, and the computation goes on (at 100,000 articles the VoID
counts take minutes, past any request's limit); a later request gets it from memory.

The computation runs in the real app, on the shipped corpus's store, with a build pinned for its
own thread: it still queries the store after the request that started it has ended."""

from __future__ import annotations

import threading
import time

import pytest
from flask import g

from kg.api.app_state import app_state
from kg.api.build_answers import RETRY_AFTER, cached
from kg.api.json_api.store_reads import select
from kg.errors import ApiError


def _in_request(app, call, wait: float = 0.3):
    """`call()` inside a request of `app` (its before-request steps run, its teardown after) whose
    deadline is `wait` seconds away."""
    with app.test_request_context("/api/stats"):
        app.preprocess_request()
        g.deadline = time.monotonic() + wait
        return call()


def test_a_slow_answer_goes_on_past_the_request_and_is_then_served(app) -> None:
    release, calls = threading.Event(), []

    def compute(deadline: float) -> str:
        calls.append(deadline)
        assert release.wait(30)
        rows = select("SELECT (COUNT(*) AS ?n) WHERE { ?s a ?c }", deadline)  # the request has ended by now
        return f"counted {rows[0]['n']}"

    for _ in range(2):
        with pytest.raises(ApiError) as refused:
            _in_request(app, lambda: cached("slow answer", compute))
        assert refused.value.status == 503 and "being computed" in refused.value.detail
        assert refused.value.headers == {"Retry-After": str(RETRY_AFTER)}
    assert len(calls) == 1 and calls[0] > time.monotonic() + 60  # its own budget, not the request's
    release.set()
    answer = _in_request(app, lambda: cached("slow answer", compute), wait=30)
    assert answer.startswith("counted ") and int(answer.split()[1]) > 100
    assert _in_request(app, lambda: cached("slow answer", compute)) == answer and len(calls) == 1


def test_a_failed_computation_is_told_once_then_tried_again(app) -> None:
    attempts = []

    def compute(deadline: float) -> str:
        attempts.append(1)
        if len(attempts) == 1:
            raise ApiError(504, "the query ran past its time limit")
        return "second time"

    with pytest.raises(ApiError) as failed:
        _in_request(app, lambda: cached("flaky answer", compute), wait=30)
    assert failed.value.status == 504
    assert _in_request(app, lambda: cached("flaky answer", compute), wait=30) == "second time"
    assert len(attempts) == 2 and not app_state(app).answers.jobs


def test_the_stats_route_answers_from_the_background_computation(client) -> None:
    stats = client.get("/api/stats")
    assert stats.status_code == 200 and stats.get_json()["counts"]["documents"] == 4


def test_a_background_computation_takes_no_share_of_the_client_that_started_it(app) -> None:
    """Its long queries count against no client's share of the long-query slots (api/backend/workers.py): else a
    client whose request started a build-wide answer has its next long query stopped with a 503 while it runs."""
    from kg.api.backend.workers import CLIENT

    seen: dict[str, str | None] = {}

    def compute(deadline: float) -> int:
        seen["computing"] = CLIENT.get()
        return 1

    with app.test_request_context("/api/stats", environ_base={"REMOTE_ADDR": "203.0.113.9"}):
        app.preprocess_request()
        g.deadline = time.monotonic() + 10
        seen["request"] = CLIENT.get()
        assert cached(f"client test {time.monotonic()}", compute) == 1
    assert seen == {"request": "203.0.113.9", "computing": None}
