"""Point 3: concurrent clients against a real `kg serve` (benchmarks/bench_load.py) get no errors,
and one client sending queries past the time limit does not hold the others up.

The short runs belong to the suite; the 20 clients x 60 s runs are marked slow
(`pytest -m slow`, and `python benchmarks/bench_load.py` prints their figures).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from benchmarks.bench_load import MIX, P99_LIMIT, Sample, errors, p99_ratio, percentile, read_targets, run_ab, run_load
from kg.testing.servers import Server

TIME_LIMIT = 2.0


@pytest.fixture(scope="module")
def server(shipped_data: Path) -> Iterator[Server]:
    """`kg serve` on the shipped corpus with a 2 s query time limit and its default workers."""
    srv = Server(shipped_data, "--query-timeout", str(TIME_LIMIT))
    yield srv
    srv.stop()


def _no_errors(samples: list[Sample], what: str = "") -> None:
    failed = errors(samples)
    assert not failed, f"{what}: {len(failed)} errors in {len(samples)} requests, e.g. {failed[:3]}"


def _slow_client_was_stopped(slow: list[Sample]) -> None:
    assert slow, "the slow client sent nothing"
    assert {s.status for s in slow} == {503}, "queries past the time limit must end with 503"
    assert max(s.seconds for s in slow) < TIME_LIMIT + 3.0, "the time limit did not stop a slow query"


def test_five_clients_mixing_every_kind_of_request_get_no_errors(server: Server) -> None:
    samples, _ = run_load(server.url, clients=5, seconds=5)
    _no_errors(samples)
    assert {s.kind for s in samples} == set(MIX), "some kind of request was never sent"
    assert len(samples) >= 50


def test_a_client_hitting_the_time_limit_causes_no_errors_for_the_others(server: Server) -> None:
    samples, slow = run_load(server.url, clients=5, seconds=5, with_slow=True)
    _no_errors(samples)
    _slow_client_was_stopped(slow)


@pytest.mark.slow
def test_twenty_clients_for_a_minute_and_a_slow_client_within_2x_p99(server: Server) -> None:
    """2 x 60 s; the slow client sends in every other 10 s window (bench_load.run_ab)."""
    targets = read_targets(server.url)
    run_load(server.url, 2, 3.0, targets=targets)  # warm-up
    alone, loaded, slow = run_ab(server.url, clients=20, seconds=60, guard=TIME_LIMIT + 1.5, targets=targets)
    _no_errors(alone, "20 clients alone")
    _no_errors(loaded, "20 clients and the slow one")
    _slow_client_was_stopped(slow)
    ratio = p99_ratio(loaded, alone)
    p99 = percentile([s.seconds for s in alone], 99)
    assert ratio <= P99_LIMIT, f"p99 {p99 * 1000:.0f} ms alone, {ratio:.2f}x that with the slow client"
