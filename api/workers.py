"""Query worker processes with a real time limit.

pyoxigraph cannot interrupt a running query, so the endpoint evaluates
queries in worker processes. A pool belongs to one build: each of its
workers opens that build's store once, before it says it is ready, either
read-only on disk or, when the graph is small enough, loaded into memory
(several times faster for joins). A request thread borrows an idle worker,
sends the job and waits at most until the request's deadline; if the worker
has not answered by then it is killed (the CPU is free at once), a fresh one
is started in the background, and the client is told the query timed out.
Other requests meanwhile use the other workers.

Workers are plain subprocesses (running main() below), so they start
clean whatever the parent is (a threaded WSGI server, pytest, a script).
"""

from __future__ import annotations

import os
import queue
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from api import execute
from kg.errors import KgError, QueryError, StoreError

_PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)
_BOOT = "import sys; from api.workers import main; main(sys.argv)"


class PoolBusy(Exception):
    """No worker became free before the deadline."""


class WorkerCrashed(Exception):
    """A worker died while running a job (it has been replaced)."""


@dataclass(frozen=True)
class Job:
    """One unit of work on the pool's store: 'run', 'select', 'graphs' or 'dump'."""

    op: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Source:
    """What a worker serves: a store directory, read-only, or the N-Quads to load into memory."""

    store: str
    nquads: str | None = None  # set: load this file into an in-memory store


class _Worker:
    """One worker: a fresh Python process running main() below, talking over a socket pair."""

    def __init__(self, source: Source) -> None:
        parent, child = socket.socketpair()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in (_PACKAGE_ROOT, os.environ.get("PYTHONPATH")) if p))
        argv = [sys.executable, "-c", _BOOT, str(child.fileno()), source.store, source.nquads or ""]
        self.process = subprocess.Popen(argv, pass_fds=[child.fileno()], env=env, stdin=subprocess.DEVNULL,
                                        close_fds=True)
        child.close()
        self.conn = Connection(parent.detach())

    def wait_ready(self, timeout: float) -> bool:
        """Wait for the child's hello, sent once its store is open."""
        try:
            return self.conn.poll(timeout) and self.conn.recv() == "ready"
        except (EOFError, OSError):
            return False

    def is_alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.is_alive():
            self.process.kill()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self.conn.close()


class WorkerPool:
    """`size` worker processes serving one Source, shared by all request threads."""

    def __init__(self, size: int, source: Source, *, start_timeout: float = 300.0) -> None:
        self.size = max(1, size)
        self.source = source
        self.start_timeout = start_timeout
        self.restarts = 0
        self._idle: queue.LifoQueue[_Worker] = queue.LifoQueue()
        self._lock = threading.Lock()
        self._workers: set[_Worker] = set()
        self._starting = 0
        self._admitted = threading.Event()
        self._closed = False
        for _ in range(self.size):
            self._start_one()

    # -- using the pool -----------------------------------------------------

    def submit(self, job: Job, deadline: float) -> Any:
        """Run `job` on a worker; raises execute.QueryTimeout after `deadline`
        (a time.monotonic() value), PoolBusy if no worker was free in time,
        WorkerCrashed, or the KgError the job raised."""
        worker = self._borrow(deadline)
        try:
            worker.conn.send(job)
            if not worker.conn.poll(max(0.0, deadline - time.monotonic())):
                self._replace(worker)
                worker = None
                raise execute.QueryTimeout
            status, payload = worker.conn.recv()
        except (EOFError, OSError) as exc:
            if worker is not None:
                self._replace(worker)
                worker = None
            raise WorkerCrashed(f"query worker died: {exc or type(exc).__name__}") from exc
        finally:
            if worker is not None:
                self._give_back(worker)
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
        """Process ids of the workers (running or starting)."""
        with self._lock:
            return sorted(w.process.pid for w in self._workers)

    def close(self) -> None:
        """Stop: idle workers now, busy ones when their job is done."""
        with self._lock:
            self._closed = True
        while True:
            try:
                worker = self._idle.get_nowait()
            except queue.Empty:
                break
            self._discard(worker)

    def kill(self) -> None:
        """Stop every worker now, busy or not."""
        self.close()
        with self._lock:
            workers, self._workers = list(self._workers), set()
        for worker in workers:
            worker.kill()

    # -- plumbing -----------------------------------------------------------

    def _borrow(self, deadline: float) -> _Worker:
        while True:
            try:
                worker = self._idle.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise PoolBusy(f"all {self.size} query workers stayed busy") from None
            if worker.is_alive():
                return worker
            self._replace(worker)

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            closed = self._closed
        if closed:
            self._discard(worker)
        else:
            self._idle.put(worker)

    def _discard(self, worker: _Worker) -> None:
        worker.kill()
        with self._lock:
            self._workers.discard(worker)

    def _start_one(self) -> None:
        """Start a worker; it joins the idle queue from a thread once ready."""
        worker = _Worker(self.source)
        with self._lock:
            self._workers.add(worker)
            self._starting += 1
        threading.Thread(target=self._admit, args=(worker,), daemon=True, name="kg-worker-start").start()

    def _admit(self, worker: _Worker) -> None:
        ready = worker.wait_ready(self.start_timeout)
        with self._lock:
            self._starting -= 1
            closed = self._closed
        if ready and not closed:
            self._idle.put(worker)
            self._admitted.set()
        else:
            self._discard(worker)

    def _replace(self, worker: _Worker) -> None:
        """Kill `worker` now; its successor starts in the background, so the
        request that timed out is answered at once."""
        self._discard(worker)
        with self._lock:
            self.restarts += 1
            closed = self._closed
        if not closed:
            self._start_one()


# -- inside a worker process ------------------------------------------------

def _open(source: Source):
    """The store a worker serves: in memory from the N-Quads, or read-only on disk."""
    from kg.store import EmbeddedStore

    if source.nquads:
        import pyoxigraph as ox

        store = EmbeddedStore()
        store.oxigraph.bulk_load(path=source.nquads, format=ox.RdfFormat.N_QUADS)
        return store
    return EmbeddedStore(Path(source.store), read_only=True)


def _serve(conn: Connection, source: Source) -> None:
    """Worker main loop: open the store, say ready, then one job at a time until the pipe closes."""
    store = _open(source)
    conn.send("ready")
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply = ("ok", _handle(job, store))
        except (KgError, execute.QueryTimeout) as exc:
            reply = ("error", exc)
        except Exception as exc:  # an engine error: report it, keep serving
            reply = ("error", StoreError(f"{type(exc).__name__}: {exc}"))
        conn.send(reply)


def _handle(job: Job, store) -> Any:
    if job.op == "run":
        return execute.run(store, job.args["request"])
    if job.op == "select":
        return store.select(job.args["sparql"])
    if job.op == "graphs":
        return store.graphs()
    if job.op == "dump":
        store.dump(Path(job.args["path"]), job.args["fmt"], prefixes=job.args.get("prefixes"))
        return job.args["path"]
    raise QueryError(f"unknown worker operation {job.op!r}")


def main(argv: list[str]) -> None:
    """Entry point of a worker process: fd of the socket, store directory, N-Quads file or ''."""
    _serve(Connection(int(argv[1])), Source(argv[2], argv[3] or None))
