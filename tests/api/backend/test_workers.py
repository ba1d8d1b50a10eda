"""The query worker pool itself: workers forked from a template that holds the graph,
replaced after a time-out without reloading it, and recovering when the template dies."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from kg.api.backend import execute
from kg.api.backend.workers import DEMOTED_NICENESS, Job, PoolBusy, Source, WorkerPool
from kg.store import build_dirs
from tests.hardening.procs import alive, wait_until

COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
TIMEOUT = 30.0  # seconds a pool may take to settle
ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


def _source(data: Path, *, in_memory: bool) -> Source:
    build = build_dirs.current_build(data)
    nquads = build_dirs.export_path(build, "nq")
    return Source(str(build_dirs.store_path(build)), str(nquads) if in_memory else None)


def _count(pool: WorkerPool) -> int:
    rows = pool.submit(Job("select", {"sparql": COUNT_ALL}), time.monotonic() + 30)
    return int(rows[0]["n"])


def _parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def _private_and_rss_kib(pid: int) -> tuple[int, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        fields[name] = int(value.split()[0])
    return fields["Private_Clean"] + fields["Private_Dirty"], fields["Rss"]


@pytest.fixture
def memory_pool(shipped_data: Path) -> Iterator[WorkerPool]:
    pool = WorkerPool(2, _source(shipped_data, in_memory=True), start_timeout=60)
    assert wait_until(pool.ready, TIMEOUT)
    yield pool
    pool.kill()


def _template_pid(pool: WorkerPool) -> int:
    parents = {_parent_of(pid) for pid in pool.pids()}
    assert len(parents) == 1, parents
    return parents.pop()


def test_workers_are_forked_from_one_template(memory_pool, shipped_data):
    template = _template_pid(memory_pool)
    assert template != os.getpid() and _parent_of(template) == os.getpid()
    assert len(memory_pool.pids()) == 2
    manifest = json.loads((build_dirs.current_build(shipped_data) / "manifest.json").read_text())
    assert _count(memory_pool) == manifest["quads"]


def test_workers_share_the_templates_memory(memory_pool):
    for pid in memory_pool.pids():
        private, rss = _private_and_rss_kib(pid)
        assert private < rss / 4, f"worker {pid}: {private} KiB private of {rss} KiB resident"


def test_a_timed_out_worker_is_replaced_from_the_same_template(memory_pool):
    template = _template_pid(memory_pool)
    before = set(memory_pool.pids())
    with pytest.raises(execute.QueryTimeout):
        memory_pool.submit(Job("select", {"sparql": ENDLESS}), time.monotonic() + 0.5)
    assert memory_pool.restarts == 1
    assert wait_until(lambda: len(memory_pool.pids()) == 2 and memory_pool.ready(), TIMEOUT)
    after = set(memory_pool.pids())
    assert len(before - after) == 1 and len(after - before) == 1
    assert _template_pid(memory_pool) == template  # no second load of the graph
    assert _count(memory_pool) > 1000


def test_a_killed_template_is_started_again_when_a_worker_is_needed(memory_pool):
    template = _template_pid(memory_pool)
    os.kill(template, signal.SIGKILL)
    assert _count(memory_pool) > 1000  # the workers it forked still answer
    with pytest.raises(execute.QueryTimeout):
        memory_pool.submit(Job("select", {"sparql": ENDLESS}), time.monotonic() + 0.5)
    assert wait_until(lambda: len(memory_pool.pids()) == 2 and memory_pool.ready(), TIMEOUT)
    parents = {_parent_of(pid) for pid in memory_pool.pids()}
    assert len(parents) == 2 and template not in parents  # one orphan of the old template, one child of the new
    for _ in range(4):
        assert _count(memory_pool) > 1000


def test_a_long_job_yields_the_cpu_while_it_runs(memory_pool):
    outcome: list[BaseException] = []

    def run_endless() -> None:
        try:
            memory_pool.submit(Job("select", {"sparql": ENDLESS}), time.monotonic() + 3.0)
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion below
            outcome.append(exc)

    thread = threading.Thread(target=run_endless)
    thread.start()
    time.sleep(memory_pool.demote_after + 0.7)
    niceness = sorted(os.getpriority(os.PRIO_PROCESS, pid) for pid in memory_pool.pids())
    thread.join(10)
    normal = os.getpriority(os.PRIO_PROCESS, 0)  # the workers' template inherits ours
    # the busy worker only: the idle one and the successor forked when the job was demoted keep their priority
    assert niceness == [normal, normal, DEMOTED_NICENESS]
    assert len(outcome) == 1 and isinstance(outcome[0], execute.QueryTimeout)


def test_a_batch_has_the_grace_of_each_of_its_queries(memory_pool):
    """A batch of queries (one route's own) is demoted after DEMOTE_AFTER for each query, not after the
    grace of one: demoted at nice 19 behind 20 busy clients, an entity's six short queries ran out of time."""
    outcome: list[BaseException] = []

    def run_batch() -> None:
        try:
            memory_pool.submit(Job("select_many", {"sparqls": [ENDLESS] * 8}), time.monotonic() + 2.0)
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion below
            outcome.append(exc)

    thread = threading.Thread(target=run_batch)
    thread.start()
    time.sleep(memory_pool.demote_after + 0.7)  # past one query's grace, well before eight's
    niceness = {os.getpriority(os.PRIO_PROCESS, pid) for pid in memory_pool.pids()}
    thread.join(10)
    assert niceness == {os.getpriority(os.PRIO_PROCESS, 0)}
    assert len(outcome) == 1 and isinstance(outcome[0], execute.QueryTimeout)


def test_a_demoted_worker_is_replaced_once_its_job_is_done(shipped_data):
    pool = WorkerPool(2, _source(shipped_data, in_memory=True), start_timeout=60, demote_after=0.0)
    try:
        assert wait_until(pool.ready, TIMEOUT)
        before = set(pool.pids())
        assert _count(pool) > 1000  # answered in full, at nice 19
        assert wait_until(lambda: len(pool.pids()) == 2 and pool.ready(), TIMEOUT)
        after = set(pool.pids())
        assert len(before - after) == 1 and pool.restarts == 0
        normal = os.getpriority(os.PRIO_PROCESS, 0)
        assert all(os.getpriority(os.PRIO_PROCESS, pid) == normal for pid in after - before)
    finally:
        pool.kill()


def test_workers_on_disk_open_the_store_after_the_fork(shipped_data):
    pool = WorkerPool(2, _source(shipped_data, in_memory=False), start_timeout=60)
    try:
        assert wait_until(pool.ready, TIMEOUT)
        assert len({_parent_of(pid) for pid in pool.pids()}) == 1
        assert _count(pool) > 1000
    finally:
        pool.kill()


def test_a_store_that_cannot_be_opened_fails_the_pool(tmp_path):
    for source in (Source(str(tmp_path / "no-store")), Source(str(tmp_path), str(tmp_path / "missing.nq"))):
        pool = WorkerPool(2, source, start_timeout=60)
        try:
            assert wait_until(pool.failed, TIMEOUT)
            assert not pool.serving() and pool.alive() == 0
        finally:
            pool.kill()


def test_close_stops_the_template_and_the_workers(shipped_data):
    pool = WorkerPool(2, _source(shipped_data, in_memory=True), start_timeout=60)
    assert wait_until(pool.ready, TIMEOUT)
    pids = pool.pids() + [_template_pid(pool)]
    pool.close()
    for pid in pids:
        assert wait_until(lambda: not alive(pid), 10), pid



def test_admission_refuses_at_once_when_the_queue_is_full(shipped_data):
    """One worker, no queue: while a job holds the worker a second job is refused at
    once (PoolBusy), not after the deadline; once the first job is demoted, its successor
    is forked and serves short jobs while the long one runs."""
    pool = WorkerPool(1, _source(shipped_data, in_memory=True), start_timeout=60, demote_after=0.3, queue_size=0)
    try:
        assert wait_until(pool.ready, TIMEOUT)
        first = threading.Thread(target=lambda: _swallow(pool, time.monotonic() + 4.0))
        first.start()
        time.sleep(0.1)
        began = time.monotonic()
        with pytest.raises(PoolBusy, match="already waiting"):
            pool.submit(Job("select", {"sparql": ENDLESS}), time.monotonic() + 3.0)
        assert time.monotonic() - began < 0.1
        assert wait_until(lambda: len(pool.pids()) == 2 and pool._idle.idle() > 0, TIMEOUT)
        assert first.is_alive()  # the long job still runs
        assert _count(pool) > 1000  # on its successor
        first.join(10)
        assert wait_until(lambda: len(pool.pids()) == 1, TIMEOUT)  # the demoted worker retired
    finally:
        pool.kill()


def _swallow(pool: WorkerPool, deadline: float) -> None:
    try:
        pool.submit(Job("select", {"sparql": ENDLESS}), deadline)
    except execute.QueryTimeout:
        pass
