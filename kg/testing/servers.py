"""Servers in child processes, for tests and benchmarks of code that talks to kg's endpoint
(kg's own among them): a process in its own session that is stopped with all its children,
and `kg serve` on 127.0.0.1 and a free port, up and healthy. SPARQL servers to use as a
remote store are in kg.testing.sparql_servers."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path

import requests

from kg.errors import StoreError

ROOT = Path(__file__).resolve().parents[2]  # where the kg package is (the repository, in a checkout)
START_TIMEOUT = 180.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def process_tree(pid: int) -> list[int]:
    """The process and its descendants, from /proc/<pid>/task/*/children."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    todo.extend(int(c) for c in handle.read().split())
        except OSError:
            continue
    return found



def hiding(directory: Path | str | None, argv: list) -> list:
    """`argv` run in a mount namespace of its own where an empty file system covers `directory`
    (None: `argv` as it is): a process on another machine, which does not see that directory.
    Needs root and util-linux's unshare (see can_hide)."""
    if directory is None:
        return argv
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c",
            f'mount -t tmpfs kg-hidden "{directory}" && exec "$@"', "sh", *argv]


def can_hide() -> bool:
    """Whether a process can be started in a mount namespace of its own here."""
    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "true"], capture_output=True).returncode == 0


class ServerDown(StoreError):
    """A server started here (kg serve, a SPARQL server) did not come up."""


_PR_SET_PDEATHSIG = 1  # prctl(2)


def _die_with(parent: int) -> None:
    """Run in the child between fork and exec: ask Linux for SIGTERM when `parent` dies, and
    stop at once when it died already (before the request was made)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


class Process:
    """A child process in its own session (process group), stopped with its children.

    It is also sent SIGTERM when the process that started it dies, however it dies (a test run
    killed by a time-out, ^C twice): a server in a session of its own otherwise outlives it.
    Linux ties that signal to the thread that forked, so it is asked for only from the main
    thread; a process started from another thread is stopped by stop() alone."""

    def __init__(self, argv: list, **kwargs) -> None:
        on_main_thread = threading.current_thread() is threading.main_thread()
        self.process = subprocess.Popen(argv, start_new_session=True,
                                        preexec_fn=partial(_die_with, os.getpid()) if on_main_thread else None,
                                        **kwargs)

    def stop(self, grace: float = 20.0) -> None:
        """SIGTERM the process group, SIGKILL it when it lingers past `grace` seconds; what is left
        of the group once its first process is gone (children it left behind) is killed too."""
        if self.process.poll() is None:
            self._signal_group(signal.SIGTERM)
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                self._signal_group(signal.SIGKILL)
                self.process.wait(grace)
        self._signal_group(signal.SIGKILL)

    def _signal_group(self, sig: int) -> None:
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:  # the group is empty
            pass

    def children(self) -> list[int]:
        """Process ids of every descendant (for `kg serve`: worker templates and query workers)."""
        return process_tree(self.process.pid)[1:]


class Server(Process):
    """`kg serve --host 127.0.0.1 --port 0 [--data DATA] ARGS`, up and healthy.

    Its stderr goes to a file and its stdout is read to the end: a pipe nobody
    drains fills up (waitress logs "Task queue depth" under load) and then
    blocks the server."""

    def __init__(self, data: Path | str | None, *args: str, env: dict[str, str] | None = None) -> None:
        environment = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1", **(env or {}))
        self.log = tempfile.TemporaryFile(mode="w+", prefix="kg-serve-", suffix=".log")
        argv = [sys.executable, "-m", "kg.api", "serve", "--host", "127.0.0.1", "--port", "0",
                *(["--data", str(data)] if data is not None else []), *args]
        super().__init__(argv, stdout=subprocess.PIPE, stderr=self.log, text=True, env=environment, cwd=str(ROOT))
        try:
            self.url = self._wait_for_url()
        except BaseException:  # interrupted while waiting: the server must not outlive the fixture
            self.stop()
            raise

    def _wait_for_url(self) -> str:
        found = threading.Event()
        urls: list[str] = []

        def read() -> None:
            for line in self.process.stdout:  # to the end, so that the pipe never fills
                match = re.search(r"http://127\.0\.0\.1:\d+/", line)
                if match and not urls:
                    urls.append(match.group())
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        found.wait(START_TIMEOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while urls and time.monotonic() < deadline and self.process.poll() is None:
            try:
                if requests.get(urls[0] + "health", timeout=5).status_code == 200:
                    return urls[0]
            except requests.RequestException:
                pass
            time.sleep(0.1)
        log = self.stderr()
        self.stop()
        raise ServerDown(f"kg serve did not come up (exit {self.process.returncode}): {log[-3000:]}")

    def stderr(self) -> str:
        """What the server wrote to stderr so far."""
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def stop(self, grace: float = 20.0) -> None:
        super().stop(grace)
        if self.process.stdout:
            self.process.stdout.close()
        self.log.close()
