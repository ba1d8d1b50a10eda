"""A real Dask cluster for tests and benchmarks: `dask scheduler` and `dask worker` processes on
127.0.0.1 and free ports, each in its own process group, stopped (or killed) one by one.

Workers run kg from this checkout (PYTHONPATH), one thread each, and each may be given a mount
namespace of its own in which a directory is hidden (`hide`), to be a worker that does not see
the shared file system."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from kg.testing.servers import ROOT, Process, ServerDown, free_port, hiding

START_TIMEOUT = 120.0


class DaskCluster:
    """A scheduler at `address` and its workers; `stop()` ends every process started here."""

    def __init__(self, directory: Path, workers: int = 2) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.workers: list[Process] = []
        self.scheduler = self._start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", str(self.port),
                                                    "--no-dashboard"])
        try:
            for _ in range(workers):
                self.add_worker()
        except BaseException:
            self.stop()
            raise

    def add_worker(self, hide: Path | None = None) -> Process:
        """Start one more worker and wait until the scheduler counts it; with `hide`, in a mount
        namespace where an empty file system covers that directory (needs root and util-linux's
        unshare)."""
        argv = ["worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                "--name", f"worker-{len(self.workers) + 1}", "--local-directory", str(self.directory / "workers")]
        worker = self._start(f"worker-{len(self.workers) + 1}", argv, hide)
        self.workers.append(worker)
        self._wait_for_workers(len(self.workers))
        return worker

    def _start(self, name: str, argv: list[str], hide: Path | None = None) -> Process:
        environment = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
        with open(self.directory / f"{name}.log", "ab") as log:
            return Process(hiding(hide, [sys.executable, "-m", "dask", *argv]), stdout=log,
                           stderr=subprocess.STDOUT, env=environment, cwd=str(self.directory))

    def _wait_for_workers(self, count: int) -> None:
        from distributed import Client

        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.scheduler.process.poll() is not None:
                raise ServerDown(f"dask scheduler exited: {self.log('scheduler')[-2000:]}")
            try:
                with Client(self.address, timeout=10) as client:
                    client.wait_for_workers(count, timeout=max(1.0, deadline - time.monotonic()))
                    return
            except (OSError, TimeoutError):
                time.sleep(0.2)
        raise ServerDown(f"{count} dask workers did not join within {START_TIMEOUT:g} s")

    def kill_worker(self, index: int) -> None:
        """SIGKILL one worker's process group: what a machine lost mid-build looks like."""
        os.killpg(self.workers[index].process.pid, signal.SIGKILL)
        self.workers[index].process.wait(30)

    def kill_scheduler(self) -> None:
        os.killpg(self.scheduler.process.pid, signal.SIGKILL)
        self.scheduler.process.wait(30)

    def log(self, name: str) -> str:
        try:
            return (self.directory / f"{name}.log").read_text(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        for process in [*self.workers, self.scheduler]:
            process.stop(grace=10)
        shutil.rmtree(self.directory / "workers", ignore_errors=True)
