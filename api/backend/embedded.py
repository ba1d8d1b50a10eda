"""The embedded store of the current build, queried through query worker processes.

`EmbeddedBackend` follows `data/current` (kg.store.build_dirs.current_build): a rebuild that
swaps the link is noticed on the next request, and the workers reopen the new store then; until
that moment answers come from the old store.

A request pins the build it answers from (`pin`, called by api/request_life.py): every call it
makes goes to that build's pool (`PinnedBuild`), so one response never mixes two builds, and a
pool retired by a switch is closed once the last request pinned to it ends.

Every build a pool serves is marked (kg.store.served) from before the pool
starts until its last worker is gone, so that no rebuild's cleanup deletes a
build that is still answering; the cleanup of a later build removes it.
"""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path
from typing import Any

from kg.api.backend import execute
from kg.api.backend.worker_process import Job, Source
from kg.api.backend.workers import WorkerPool
from kg.errors import PoolBusy, StoreError
from kg.publish.export import ensure_export
from kg.store import build_dirs, checksums
from kg.store.memo import Memo
from kg.store.served import ServedMark, mark_served


class NoGraph(StoreError):
    """Nothing has been built yet."""


class EmbeddedBackend:
    """The Oxigraph store of data/current, queried in worker processes.

    One worker pool per build. When `current` moves, a pool for the new build
    starts in the background while the old one keeps answering; once every
    new worker is ready the new pool takes over and the old one retires."""

    kind = "embedded"
    max_age = math.inf  # a build never changes

    def __init__(self, data_dir: Path, workers: int, memory_quads: int = 0, *, queue_size: int = 32,
                 worker_memory: int = 0) -> None:
        self.data_dir = Path(data_dir)
        self.queue_size = queue_size
        self.worker_memory = worker_memory
        self.workers = workers
        self.memory_quads = memory_quads
        self._active: tuple[Path, WorkerPool] | None = None
        self._warming: tuple[Path, WorkerPool] | None = None
        self._memo = Memo()  # the named graphs of the served build
        self._users: dict[int, int] = {}  # id(pool) -> requests pinned to it
        self._retiring: dict[int, WorkerPool] = {}  # retired pools still pinned by a request
        self._marks: dict[int, ServedMark] = {}  # id(pool) -> the mark on the build it serves
        self._stopping: list[tuple[WorkerPool, ServedMark]] = []  # stopped pools whose workers may still run
        self._lock = threading.Lock()
        if build_dirs.current_build(self.data_dir) is not None:
            self._pool(time.monotonic() + 300)

    def build(self) -> Path:
        """The current build directory; raises NoGraph before the first build."""
        build = build_dirs.current_build(self.data_dir)
        if build is None:
            raise NoGraph(f"no graph has been built in {self.data_dir} yet: run `kg build`")
        return build

    def served(self) -> Path:
        """The build whose store answers now (the previous one while a new one loads)."""
        with self._lock:
            active = self._active
        return active[0] if active else self.build()

    @property
    def pool(self) -> WorkerPool:
        """The pool answering now."""
        return self._pool(time.monotonic() + 300)

    def version(self) -> str:
        return self.served().name

    def run(self, request: execute.Request, deadline: float) -> execute.Result:
        return self._submit("run", deadline, request=request)

    def select(self, sparql: str, deadline: float) -> list[dict[str, str]]:
        return self._submit("select", deadline, sparql=sparql)

    def select_many(self, sparqls: list[str], deadline: float) -> list[list[dict[str, str]]]:
        """The rows of each query, all run by one worker under one deadline."""
        return self._submit("select_many", deadline, sparqls=sparqls)

    def graphs(self, deadline: float) -> list[str]:
        """Named graphs of the served build (asked once per build)."""
        return self.graphs_of(*self._serving(deadline), deadline)

    def graphs_of(self, build: Path, pool: WorkerPool, deadline: float) -> list[str]:
        graphs = self._memo.get("graphs", build.name)
        if graphs is None:
            graphs = self._memo.put("graphs", build.name, pool.submit(Job("graphs"), deadline))
        return graphs

    def manifest(self) -> dict[str, Any]:
        return build_dirs.read_manifest(self.served())

    def export(self, fmt: str, deadline: float) -> Path:
        """The export file of the served build, written on the first request and kept (kg.publish.export)."""
        return self.export_of(*self._serving(deadline), fmt, deadline)

    def export_of(self, build: Path, pool: WorkerPool, fmt: str, deadline: float) -> Path:
        return ensure_export(build, fmt, deadline)

    def health(self) -> dict[str, Any]:
        with self._lock:
            active, warming = self._active, self._warming
        return self.health_of(active, warming)

    @staticmethod
    def health_of(active: tuple[Path, WorkerPool] | None, warming: tuple[Path, WorkerPool] | None) -> dict[str, Any]:
        info: dict[str, Any] = {"store": EmbeddedBackend.kind, "build": active[0].name if active else None,
                                "workers": active[1].alive() if active else 0,
                                "worker_restarts": active[1].restarts if active else 0,
                                "in_memory": bool(active and active[1].source.nquads)}
        if warming:
            info["loading"] = warming[0].name
        return info

    def close(self) -> None:
        with self._lock:
            pools = [p[1] for p in (self._active, self._warming) if p] + list(self._retiring.values())
            self._active = self._warming = None
            self._retiring = {}
            marks = [*self._marks.values(), *(mark for _, mark in self._stopping)]
            self._marks, self._stopping = {}, []
        for pool in pools:
            pool.kill()
        for mark in marks:
            mark.release()

    def pin(self, deadline: float) -> PinnedBuild:
        """The build answering now, held for one request (give it back with `release`)."""
        for _ in range(10):
            build, pool = self._serving(deadline)
            with self._lock:
                if self._active is not None and self._active[1] is pool:
                    self._users[id(pool)] = self._users.get(id(pool), 0) + 1
                    return PinnedBuild(self, build, pool, self._warming)
        raise PoolBusy("the served build kept changing")

    def release(self, pinned: object) -> None:
        """A request is done with its build: close the pool if a switch retired it meanwhile."""
        if not isinstance(pinned, PinnedBuild):
            return
        key = id(pinned.pool)
        with self._lock:
            left = self._users.get(key, 1) - 1
            if left > 0:
                self._users[key] = left
                return
            self._users.pop(key, None)
            retired = self._retiring.pop(key, None)
        if retired is not None:
            retired.close()  # busy workers finish their job first
            with self._lock:
                self._unmark_when_done(retired)

    def _retire(self, pool: WorkerPool) -> None:
        """Close a pool a switch replaced, now or when its last pinned request ends (call with the lock)."""
        if self._users.get(id(pool), 0) > 0:
            self._retiring[id(pool)] = pool
        else:
            self._stop(pool)

    def _stop(self, pool: WorkerPool, kill: bool = False) -> None:
        """Close a pool (busy workers finish their job first) or kill it (call with the lock)."""
        if kill:
            pool.kill()
        else:
            pool.close()
        self._unmark_when_done(pool)

    def _unmark_when_done(self, pool: WorkerPool) -> None:
        """The build of a stopped pool stays marked until its last worker is gone (call with the lock)."""
        mark = self._marks.pop(id(pool), None)
        if mark is not None:
            self._stopping.append((pool, mark))
        self._unmark_stopped()

    def _unmark_stopped(self) -> None:
        """Release the marks of stopped pools none of whose workers runs any more (call with the lock)."""
        running = []
        for pool, mark in self._stopping:
            if pool.alive():
                running.append((pool, mark))
            else:
                mark.release()
        self._stopping = running

    # -- pools ----------------------------------------------------------------

    def _submit(self, op: str, deadline: float, **args: Any) -> Any:
        _, pool = self._serving(deadline)
        return pool.submit(Job(op, args), deadline)

    def _pool(self, deadline: float) -> WorkerPool:
        return self._serving(deadline)[1]

    def _serving(self, deadline: float, tries: int = 10) -> tuple[Path, WorkerPool]:
        """(build, pool) to answer from, following data/current (one readlink per call)."""
        current = self.build()
        with self._lock:
            if self._stopping:
                self._unmark_stopped()
            if self._active and self._active[0] == current:
                return self._active
            warming = self._warming
            if not warming or warming[0] != current:
                warming = self._warm(current)
            if warming is not None:
                if warming[1].failed():
                    self._warming = None
                    self._stop(warming[1], kill=True)
                    raise StoreError(f"the query workers could not open the store of build {current.name}")
                # A new build takes over when all its workers are ready; the first
                # build as soon as one is (there is nothing else to answer from).
                if warming[1].ready() or (self._active is None and warming[1].serving()):
                    retired, self._active, self._warming = self._active, warming, None
                    if retired:
                        self._retire(retired[1])
                    return warming
                if self._active:
                    return self._active  # answer from the old build until the new one is loaded
        if warming is None:  # a cleanup removed the build as it was read: current has moved on since
            if tries <= 1:
                raise StoreError(f"build {current.name} was removed each time it was to be served")
            return self._serving(deadline, tries - 1)
        if warming[1].wait_ready(deadline):
            return self._serving(deadline)
        raise PoolBusy(f"the graph of build {current.name} is still being loaded")

    def _warm(self, build: Path) -> tuple[Path, WorkerPool] | None:
        """Start loading `build` in a new pool, in place of the one loading another build; None
        when the build is gone (call with the lock)."""
        mark = mark_served(build)
        if mark is None:
            return None
        if self._warming:
            self._stop(self._warming[1], kill=True)
        pool = WorkerPool(self.workers, self._source(build), queue_size=self.queue_size)
        self._marks[id(pool)] = mark
        self._warming = (build, pool)
        return self._warming

    def _source(self, build: Path) -> Source:
        """Load into memory when the build is small enough, else read the store on disk."""
        quads = build_dirs.read_manifest(build).get("quads")
        nquads = build_dirs.export_path(build, "nq")
        in_memory = (self.memory_quads > 0 and isinstance(quads, int) and quads <= self.memory_quads
                     and checksums.intact(nquads))  # a damaged kg.nq is never what a worker answers from
        return Source(str(build_dirs.store_path(build)), str(nquads) if in_memory else None, self.worker_memory)


class PinnedBuild:
    """One build of an EmbeddedBackend, as one request sees it: every call goes to its pool."""

    kind = "embedded"
    max_age = math.inf

    def __init__(self, backend: EmbeddedBackend, build: Path, pool: WorkerPool,
                 warming: tuple[Path, WorkerPool] | None) -> None:
        self.backend, self.build, self.pool, self._warming = backend, build, pool, warming

    def run(self, request: execute.Request, deadline: float) -> execute.Result:
        return self.pool.submit(Job("run", {"request": request}), deadline)

    def select(self, sparql: str, deadline: float) -> list[dict[str, str]]:
        return self.pool.submit(Job("select", {"sparql": sparql}), deadline)

    def select_many(self, sparqls: list[str], deadline: float) -> list[list[dict[str, str]]]:
        return self.pool.submit(Job("select_many", {"sparqls": sparqls}), deadline)

    def graphs(self, deadline: float) -> list[str]:
        return self.backend.graphs_of(self.build, self.pool, deadline)

    def served(self) -> Path:
        return self.build

    def version(self) -> str:
        return self.build.name

    def manifest(self) -> dict[str, Any]:
        return build_dirs.read_manifest(self.build)

    def export(self, fmt: str, deadline: float) -> Path:
        return self.backend.export_of(self.build, self.pool, fmt, deadline)

    def health(self) -> dict[str, Any]:
        return self.backend.health_of((self.build, self.pool), self._warming)

    def close(self) -> None:
        self.backend.release(self)

    def pin(self, deadline: float) -> PinnedBuild:
        return self

    def release(self, pinned: object) -> None:
        pass
