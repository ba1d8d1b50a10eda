"""The query worker's side: the template process the pool starts, and the workers forked from it.

The template (a fresh Python started by kg.api.backend.workers with `main`) opens the build's
graph once, in memory when the pool asks so, says it is ready, then forks one worker per request
of the pool until the pool closes the control socket. A worker opens the store on disk (or shares
the template's in-memory copy, copy-on-write), limits its address space, says it is ready, then
runs one job at a time. Job and Source are what the pool sends; nothing here imports the pool's
side or Flask.
"""

from __future__ import annotations

import fcntl
import gc
import importlib
import os
import resource
import select
import signal
import socket
import struct
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Callable

from kg.api.backend import execute
from kg.errors import KgError, QueryError, StoreError, WorkerOutOfMemory

PID = struct.Struct("!q")  # a forked worker's pid as the template tells it to the pool


@dataclass(frozen=True)
class Job:
    """One unit of work on the pool's store: 'run', 'select', 'select_many' (several SELECTs, one
    after the other, answered together: one wait for a worker instead of one per query), 'graphs'
    or 'dump'."""

    op: str
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def queries(self) -> int:
        """How many queries the job runs; it runs the pool's demote_after seconds for each before it is demoted
        (a batch of short queries is not one runaway query)."""
        return max(1, len(self.args["sparqls"])) if self.op == "select_many" else 1


@dataclass(frozen=True)
class Source:
    """What a worker serves: a store directory, read-only, or the N-Quads to load into memory."""

    store: str
    nquads: str | None = None  # set: load this file into an in-memory store
    memory_mb: int = 0  # address space a worker may add once its graph is open (RLIMIT_AS); 0: no limit


def _load_into_memory(nquads: str):
    """An in-memory store holding the N-Quads file."""
    from kg.store.embedded import EmbeddedStore

    return EmbeddedStore.in_memory_from(Path(nquads))


def _open_on_disk(store_dir: str):
    from kg.store.embedded import EmbeddedStore

    return EmbeddedStore(Path(store_dir), read_only=True)


def _template(control: socket.socket, source: Source, life: int) -> None:
    """Template main loop: open the graph (in memory) or just the code (on disk), say ready,
    then fork one worker per request until the server closes the socket."""
    importlib.import_module("kg.store.embedded")  # once here, so that forked workers do not import it each

    memory = _load_into_memory(source.nquads) if source.nquads else None
    gc.freeze()  # the collector leaves the loaded objects alone, so forked pages stay shared
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the workers
    control.sendall(b"R")
    while True:
        try:
            message, fds, _flags, _address = socket.recv_fds(control, 1, 2)
        except OSError:
            return
        if not message:
            return  # the server is gone
        if not fds:
            control.sendall(PID.pack(-1))
            continue
        pid = os.fork()
        if pid == 0:
            _worker_after_fork(control, fds, memory, source, life)
        for fd in fds:
            os.close(fd)
        control.sendall(PID.pack(pid))


def _worker_after_fork(control: socket.socket, fds: list[int], memory, source: Source, life: int) -> None:
    """Run in the forked child: serve jobs on fds[0], standard error into fds[1] when given;
    never returns into the template's loop."""
    code = 1
    try:
        control.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        _die_with_server(life)
        if len(fds) > 1:
            os.dup2(fds[1], 2)
            os.close(fds[1])
        _serve(Connection(fds[0]), lambda: memory if memory is not None else _open_on_disk(source.store),
               source.memory_mb)
        code = 0
    finally:
        os._exit(code)


def _die_with_server(life: int) -> None:
    """End this worker when the server process dies, even inside a query that never returns to
    Python: the server's life pipe, opened anew (an owner of its own), raises SIGIO when its
    write end closes, and SIGIO's default action ends the process in the kernel. A server killed
    with SIGKILL once left its busy worker running at full CPU with nobody to stop it."""
    own = os.open(f"/proc/self/fd/{life}", os.O_RDONLY | os.O_NONBLOCK)
    os.close(life)
    signal.signal(signal.SIGIO, signal.SIG_DFL)
    fcntl.fcntl(own, fcntl.F_SETOWN, os.getpid())
    fcntl.fcntl(own, fcntl.F_SETFL, fcntl.fcntl(own, fcntl.F_GETFL) | os.O_ASYNC)
    if select.select([own], [], [], 0)[0]:  # the server died before the watch was set
        os._exit(1)


def _limit_memory(extra_mb: int) -> None:
    """Let this process's address space grow by `extra_mb` megabytes at most: past it an
    allocation fails and the engine aborts the worker, which the pool replaces."""
    if extra_mb <= 0:
        return
    with open("/proc/self/status", encoding="ascii") as status:
        size_kb = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
    limit = (size_kb + extra_mb * 1024) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _serve(conn: Connection, open_store: Callable[[], Any], memory_mb: int = 0) -> None:
    """Worker main loop: open the store, limit memory, say ready, then one job at a time until the pipe closes."""
    store = open_store()
    _limit_memory(memory_mb)
    conn.send("ready")
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply = ("ok", _handle(job, store))
        except (KgError, execute.QueryTimeout, execute.AnswerTooLarge) as exc:
            reply = ("error", exc)
        except MemoryError:  # Python's own allocation failed under the limit
            reply = ("error", WorkerOutOfMemory("the query worker ran out of memory", "MemoryError"))
        except Exception as exc:  # an engine error: report it, keep serving
            reply = ("error", StoreError(f"{type(exc).__name__}: {exc}"))
        conn.send(reply)


def _handle(job: Job, store) -> Any:
    if job.op == "run":
        return execute.run(store, job.args["request"])
    if job.op == "select":
        return store.select(job.args["sparql"])
    if job.op == "select_many":
        return [store.select(sparql) for sparql in job.args["sparqls"]]
    if job.op == "graphs":
        return store.graphs()
    if job.op == "dump":
        store.dump(Path(job.args["path"]), job.args["fmt"], prefixes=job.args.get("prefixes"))
        return job.args["path"]
    raise QueryError(f"unknown worker operation {job.op!r}")


def main(argv: list[str]) -> None:
    """Entry point of the template process: fd of the control socket, store directory, N-Quads file or '',
    memory limit, fd of the server's life pipe."""
    _template(socket.socket(fileno=int(argv[1])), Source(argv[2], argv[3] or None, int(argv[4])), int(argv[5]))
