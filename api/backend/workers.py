"""Query worker processes with a real time limit: the pool's side, in the server process (the
workers' own side is kg.api.backend.worker_process).

pyoxigraph cannot interrupt a running query, so the endpoint evaluates
queries in worker processes. A pool belongs to one build. It first starts
a template process that opens that build's graph once: it loads the
N-Quads into memory when the graph is small enough (several times faster
joins), or, for a store read on disk, only imports the code. Workers are
forked from the template, so they share its memory copy-on-write and a new
one is serving in milliseconds instead of reloading the graph.

A request thread borrows an idle worker, sends the job and waits at most
until the request's deadline; if the worker has not answered by then it is
killed (the CPU is free at once), the template forks its successor in the
background, and the client is told the query timed out. Other requests
meanwhile use the other workers. A job still running after DEMOTE_AFTER
seconds (for each query of a batch) has its worker lowered to nice 19, so
that a runaway query takes only the CPU that short queries and the request
threads leave; since a process may not raise its priority again, that
worker is replaced by a fresh fork once its job is done.

Admission. At most `queue` requests wait for a worker, served in the order
they came (api/backend/handoff.py); one more is told "busy" (503, Retry-After) at
once instead of holding a request thread. A
demoted job takes one of `size` long-job slots while one is free, and then
its worker's successor is forked at once, so that `size` workers stay free
for short jobs while up to `size` long ones run; past that, long jobs keep
their workers (at nice 19) as before. With enough request threads
(api/cli.py), /health never waits behind queries.

Fairness. One client (by address: CLIENT, set for each request) runs at most
`client_share` long jobs at once (size - 1, at least 1), so that it never takes
every long-job slot: a further job of it that runs long is stopped there (503,
Retry-After). While it runs its share, its new jobs wait behind every other
client's (handoff.py), in at most half the queue.

    server process                 template (python -c ..., single-threaded)
      WorkerPool  --- control socket: "fork" + socket fd --->  fork()
        Worker    <------------- job socket ----------------  worker
        Worker    <------------- job socket ----------------  worker

The template is a plain subprocess, so it starts clean whatever the parent
is (a threaded WSGI server, pytest, a script). It reaps its workers
itself; the pool watches and kills them through pidfds, which cannot be
confused with a later process that reuses the pid. Those two handles, the
template and a worker as the server sees them, are in worker_handles.py.
"""

from __future__ import annotations

import threading
import time
from contextvars import ContextVar
from typing import Any

from kg.api.backend import execute
from kg.api.backend.handoff import Full, Handoff
from kg.api.backend.worker_handles import DEMOTED_NICENESS, Template, Worker, crash_of
from kg.api.backend.worker_process import Job, Source
from kg.errors import PoolBusy
from kg.settings import limit

__all__ = ["CLIENT", "DEMOTED_NICENESS", "DEMOTE_AFTER", "Job", "PoolBusy", "Source", "WorkerPool"]

DEMOTE_AFTER = limit("demote_after")
CLIENT: ContextVar[str | None] = ContextVar("kg_client", default=None)  # the address a request came from


class WorkerPool:
    """`size` worker processes serving one Source, shared by all request threads."""

    def __init__(self, size: int, source: Source, *, start_timeout: float = 300.0,
                 demote_after: float = DEMOTE_AFTER, queue_size: int = 32) -> None:
        self.size = max(1, size)
        self.queue_size = max(0, queue_size)
        self._long = 0  # jobs running past demote_after (each holds a long-job slot)
        self.client_share = max(1, self.size - 1)  # long jobs one client may run at once
        self._long_of: dict[str, int] = {}  # long jobs running, by client
        self.source = source
        self.start_timeout = start_timeout
        self.demote_after = demote_after
        self.restarts = 0
        self._idle: Handoff[Worker] = Handoff(self.queue_size)  # first come, first served
        self._lock = threading.Lock()
        self._template_lock = threading.Lock()  # one fork request (or template start) at a time
        self._template: Template | None = None
        self._workers: set[Worker] = set()
        self._starting = 0
        self._admitted = threading.Event()
        self._closed = False
        for _ in range(self.size):
            self._start_one()

    # -- using the pool -----------------------------------------------------

    def submit(self, job: Job, deadline: float) -> Any:
        """Run `job` on a worker; raises PoolBusy if no worker was free by `deadline`
        (a time.monotonic() value), execute.QueryTimeout once the job has run as long
        as the time that was left when it was submitted (waiting in the queue does
        not eat into its run time), WorkerCrashed, or the KgError the job raised."""
        budget = deadline - time.monotonic()
        if budget <= 0:  # no time left to run it: sent anyway, a quick job could still beat the first poll
            raise execute.QueryTimeout
        client = CLIENT.get()
        worker = self._borrow(deadline, behind=self._runs_its_share(client))
        deadline = max(deadline, time.monotonic() + budget)
        demoted = surged = counted = False
        try:
            worker.conn.send(job)
            if not worker.conn.poll(max(0.0, min(deadline - time.monotonic(), self.demote_after * job.queries))):
                demoted = True
                worker.demote()
                counted = self._count_long(client)  # PoolBusy: the client runs its share of long jobs
                surged = self._hold_long_slot()
                if surged:
                    self._start_one()  # its successor: `size` workers stay free for short jobs
                if not worker.conn.poll(max(0.0, deadline - time.monotonic())):
                    raise execute.QueryTimeout
            status, payload = worker.conn.recv()
        except (EOFError, OSError) as exc:
            worker.is_gone(1.0)  # its last words are written before it exits
            last_words = worker.last_words()
            self._end(worker, demoted, surged, failed=True)
            worker = None
            raise crash_of("the query worker died", last_words) from exc
        except (execute.QueryTimeout, PoolBusy):
            self._end(worker, demoted, surged, failed=True)
            worker = None
            raise
        finally:
            if counted:
                self._uncount_long(client)
            if worker is not None:
                self._end(worker, demoted, surged, failed=False)
        if status == "ok":
            return payload
        raise payload

    def ready(self) -> bool:
        """True once no worker is starting any more and at least one is serving."""
        with self._lock:
            return self._starting == 0 and self._admitted.is_set()

    def serving(self) -> bool:
        """True once at least one worker serves."""
        return self._admitted.is_set()

    def failed(self) -> bool:
        """True when every worker gave up before serving (e.g. the store cannot be opened)."""
        with self._lock:
            return self._starting == 0 and not self._admitted.is_set()

    def wait_ready(self, deadline: float) -> bool:
        """Wait (until `deadline`) for a first worker to serve."""
        return self._admitted.wait(max(0.0, deadline - time.monotonic()))

    def alive(self) -> int:
        """How many worker processes are running."""
        with self._lock:
            return sum(1 for w in self._workers if w.is_alive())

    def pids(self) -> list[int]:
        """Process ids of the workers (the template is not one)."""
        with self._lock:
            return sorted(w.pid for w in self._workers)

    def close(self) -> None:
        """Stop: the template and idle workers now, busy ones when their job is done."""
        with self._lock:
            self._closed = True
            template, self._template = self._template, None
        if template is not None:
            template.kill()  # a fork request in flight then fails, and no worker is started
        for worker in self._idle.drain():
            self._discard(worker)

    def kill(self) -> None:
        """Stop every worker now, busy or not."""
        self.close()
        with self._lock:
            workers, self._workers = list(self._workers), set()
        for worker in workers:
            worker.kill()

    # -- plumbing -----------------------------------------------------------

    def _borrow(self, deadline: float, behind: bool = False) -> Worker:
        while True:
            try:
                worker = self._idle.take(deadline, behind)
            except Full as full:
                raise PoolBusy(f"{full.waiting} requests are already waiting for the {self.size} query workers") from None
            if worker is None:
                raise PoolBusy(f"all {self.size} query workers stayed busy")
            if worker.is_alive():
                return worker
            self._replace(worker)

    def _runs_its_share(self, client: str | None) -> bool:
        with self._lock:
            return bool(client) and self._long_of.get(client, 0) >= self.client_share

    def _count_long(self, client: str | None) -> bool:
        """Count a job turned long against its client's share: False when it has no client,
        PoolBusy when the client already runs its share (the job is then stopped)."""
        if not client:
            return False
        with self._lock:
            running = self._long_of.get(client, 0)
            if running < self.client_share:
                self._long_of[client] = running + 1
                return True
        raise PoolBusy(f"this client already runs {running} long queries, as many as one client may at once "
                       f"({self.client_share} of {self.size}); this one was stopped")

    def _uncount_long(self, client: str | None) -> None:
        with self._lock:
            _decrement(self._long_of, client)

    def _hold_long_slot(self) -> bool:
        with self._lock:
            if self._long >= self.size:
                return False
            self._long += 1
            return True

    def _end(self, worker: Worker, demoted: bool, surged: bool, *, failed: bool) -> None:
        """After a job: a worker whose successor was forked when it was demoted retires and
        frees its long slot; another demoted or a failed one is replaced (a failure counts
        as a restart); a healthy one goes back to the idle queue."""
        if surged:
            with self._lock:
                self._long -= 1
                if failed:
                    self.restarts += 1
            self._discard(worker)
        elif failed or demoted:
            self._replace(worker, counted=failed)
        else:
            self._give_back(worker)

    def _give_back(self, worker: Worker) -> None:
        with self._lock:
            closed = self._closed
        if closed:
            self._discard(worker)
        else:
            self._idle.give(worker)

    def _discard(self, worker: Worker) -> None:
        worker.kill()
        with self._lock:
            self._workers.discard(worker)

    def _start_one(self) -> None:
        """Start a worker in the background; it joins the idle queue once ready."""
        with self._lock:
            self._starting += 1
        threading.Thread(target=self._admit, daemon=True, name="kg-worker-start").start()

    def _admit(self) -> None:
        worker = self._fork()
        ready = worker is not None and worker.wait_ready(self.start_timeout)
        with self._lock:
            self._starting -= 1
            closed = self._closed
        if worker is None:
            return
        if ready and not closed:
            self._idle.give(worker)
            self._admitted.set()
        else:
            self._discard(worker)

    def _fork(self) -> Worker | None:
        """A worker forked from the template, (re)starting the template if it is not running;
        None when the pool is closed or the template cannot serve."""
        with self._template_lock:
            template = self._running_template()
            if template is None:
                return None
            try:
                worker = template.fork()
            except (OSError, EOFError):
                template.kill()
                return None
            with self._lock:
                kept = not self._closed
                if kept:
                    self._workers.add(worker)
            if not kept:
                worker.kill()
                return None
            return worker

    def _running_template(self) -> Template | None:
        """The template, started and waited for when there is none running (call with the
        template lock); None when it cannot start or the pool closed meanwhile."""
        with self._lock:
            if self._closed:
                return None
            current = self._template
        if current is not None and current.is_alive():
            return current
        if current is not None:
            current.kill()
        template = Template(self.source)
        ready = template.wait_ready(self.start_timeout)
        with self._lock:
            keep = ready and not self._closed
            self._template = template if keep else None
        if not keep:
            template.kill()
            return None
        return template

    def _replace(self, worker: Worker, *, counted: bool = True) -> None:
        """Kill `worker` now; its successor is forked in the background, so the
        request is answered at once. `counted`: a restart (time-out or crash),
        not the retirement of a demoted worker."""
        self._discard(worker)
        with self._lock:
            if counted:
                self.restarts += 1
            closed = self._closed
        if not closed:
            self._start_one()


def _decrement(counts: dict[str, int], key: str) -> None:
    left = counts.pop(key, 1) - 1
    if left > 0:
        counts[key] = left
