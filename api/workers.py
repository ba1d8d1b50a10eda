"""Query worker processes with a real time limit.

pyoxigraph cannot interrupt a running query, so the endpoint evaluates
queries in worker processes. Each worker opens the store read-only once (and
again only when a rebuild publishes a new one) and serves jobs one at a time
over a pipe. A request thread borrows an idle worker, sends the job and waits
at most until the request's deadline; if the worker has not answered by then
it is killed (the CPU is free at once) and replaced by a fresh one, and the
client is told the query timed out. Other requests meanwhile use the other
workers.

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
from multiprocessing.connection import Connection
from dataclasses import dataclass, field
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
    """One unit of work: an operation on the store at `store_path`."""

    store_path: str
    op: str  # 'run', 'select', 'graphs', 'dump'
    args: dict[str, Any] = field(default_factory=dict)


class _Worker:
    """One worker: a fresh Python process running main() below, talking over a socket pair.

    A plain subprocess, not multiprocessing: the child never re-imports the
    parent's __main__ (a WSGI server, pytest, a script), and starts clean."""

    def __init__(self) -> None:
        parent, child = socket.socketpair()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in (_PACKAGE_ROOT, os.environ.get("PYTHONPATH")) if p))
        self.process = subprocess.Popen(
            [sys.executable, "-c", _BOOT, str(child.fileno())],
            pass_fds=[child.fileno()], env=env, stdin=subprocess.DEVNULL, close_fds=True)
        child.close()
        self.conn = Connection(parent.detach())

    def wait_ready(self, timeout: float) -> bool:
        """Wait for the child's hello (sent once its imports are done)."""
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
    """A fixed number of query worker processes shared by all request threads."""

    def __init__(self, size: int, start_timeout: float = 60.0) -> None:
        self.size = max(1, size)
        self.start_timeout = start_timeout
        self._idle: queue.LifoQueue[_Worker] = queue.LifoQueue()
        self._lock = threading.Lock()
        self._workers: set[_Worker] = set()
        self._closed = False
        self.restarts = 0
        starting = [self._spawn() for _ in range(self.size)]
        for worker in starting:  # started together, waited for together
            self._admit(worker)

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
                self._idle.put(worker)
        if status == "ok":
            return payload
        raise payload

    def alive(self) -> int:
        """How many worker processes are running."""
        with self._lock:
            return sum(1 for w in self._workers if w.is_alive())

    def pids(self) -> list[int]:
        """Process ids of the workers (running or starting)."""
        with self._lock:
            return sorted(w.process.pid for w in self._workers)

    def close(self) -> None:
        """Stop every worker."""
        with self._lock:
            self._closed = True
            workers, self._workers = list(self._workers), set()
        for worker in workers:
            worker.kill()

    def _borrow(self, deadline: float) -> _Worker:
        while True:
            try:
                worker = self._idle.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise PoolBusy(f"all {self.size} query workers stayed busy") from None
            if worker.is_alive():
                return worker
            self._replace(worker)

    def _spawn(self) -> _Worker:
        worker = _Worker()
        with self._lock:
            self._workers.add(worker)
        return worker

    def _admit(self, worker: _Worker) -> None:
        """Make `worker` available once it is ready (or drop it if it never is)."""
        if worker.wait_ready(self.start_timeout) and not self._closed:
            self._idle.put(worker)
            return
        worker.kill()
        with self._lock:
            self._workers.discard(worker)

    def _replace(self, worker: _Worker) -> None:
        """Kill `worker` now; its successor starts in the background, so the
        request that timed out is answered at once."""
        worker.kill()
        with self._lock:
            self._workers.discard(worker)
            self.restarts += 1
            if self._closed:
                return
        successor = self._spawn()
        threading.Thread(target=self._admit, args=(successor,), daemon=True).start()


# -- inside a worker process ------------------------------------------------

class _State:
    path: str | None = None
    store: Any = None


def _serve(conn) -> None:
    """Worker main loop: one job at a time until the pipe closes."""
    state = _State()
    conn.send("ready")
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply = ("ok", _handle(job, state))
        except KgError as exc:
            reply = ("error", exc)
        except execute.QueryTimeout as exc:
            reply = ("error", exc)
        except Exception as exc:  # an engine error: report it, keep serving
            reply = ("error", StoreError(f"{type(exc).__name__}: {exc}"))
        conn.send(reply)


def _handle(job: Job, state: _State) -> Any:
    store = _open(job.store_path, state)
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


def _open(path: str, state: _State):
    from kg.store import EmbeddedStore

    if state.path != path:
        if state.store is not None:
            state.store.close()
        state.store = EmbeddedStore(Path(path), read_only=True)
        state.path = path
    return state.store


def main(argv: list[str]) -> None:
    """Entry point of a worker process: serve jobs on the inherited socket."""
    _serve(Connection(int(argv[1])))
