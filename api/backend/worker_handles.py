"""The processes a query worker pool runs, as the server sees them: the template a worker is forked
from (`Template`) and one forked worker (`Worker`), with the pipe that ties their lives to the server's.

The pool that lends them to requests is kg.api.backend.workers; the code that runs inside them is
kg.api.backend.worker_process.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import threading
from multiprocessing.connection import Connection
from pathlib import Path

import kg
from kg.api.backend.worker_process import PID, Source
from kg.errors import WorkerCrashed, WorkerOutOfMemory
from kg.settings import limit

DEMOTED_NICENESS = 19

_PACKAGE_ROOT = str(Path(kg.__file__).resolve().parent.parent)  # where `kg` is importable from
_BOOT = "import sys; from kg.api.backend.worker_process import main; main(sys.argv)"
_FORK_TIMEOUT = limit("fork_timeout")


_OUT_OF_MEMORY_WORDS = ("memory allocation of", "MemoryError", "Cannot allocate memory")
_LAST_WORDS = 4096  # bytes of a dead worker's standard error kept for the message and the log


def crash_of(message: str, last_words: str) -> WorkerCrashed:
    """WorkerOutOfMemory when the worker's last words say an allocation failed, else WorkerCrashed."""
    out_of_memory = any(word in last_words for word in _OUT_OF_MEMORY_WORDS)
    return (WorkerOutOfMemory if out_of_memory else WorkerCrashed)(message, last_words)


_life_lock = threading.Lock()
_life_read_end: int | None = None


def _server_life() -> int:
    """The read end of a pipe whose write end only this process holds (non-inheritable): it closes
    when this process dies however it dies, which the workers watch (worker_process._die_with_server)."""
    global _life_read_end
    with _life_lock:
        if _life_read_end is None:
            _life_read_end, _write_end = os.pipe()  # the write end stays open for the life of the process
        return _life_read_end


class Template:
    """The process workers are forked from: a fresh Python running main() below."""

    def __init__(self, source: Source) -> None:
        parent, child = socket.socketpair()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in (_PACKAGE_ROOT, os.environ.get("PYTHONPATH")) if p))
        life = _server_life()
        argv = [sys.executable, "-c", _BOOT, str(child.fileno()), source.store, source.nquads or "",
                str(source.memory_mb), str(life)]
        self.process = subprocess.Popen(argv, pass_fds=[child.fileno(), life], env=env, stdin=subprocess.DEVNULL,
                                        close_fds=True)
        child.close()
        self.control = parent

    def wait_ready(self, timeout: float) -> bool:
        """Wait for the template's hello, sent once its graph is open."""
        self.control.settimeout(timeout)
        try:
            return self.control.recv(1) == b"R"
        except OSError:
            return False

    def is_alive(self) -> bool:
        return self.process.poll() is None

    def fork(self) -> Worker:
        """A new worker, forked from the template; raises OSError when the template cannot."""
        parent, child = socket.socketpair()
        stderr = os.memfd_create("kg-worker-stderr", os.MFD_CLOEXEC)
        try:
            self.control.settimeout(_FORK_TIMEOUT)
            socket.send_fds(self.control, [b"F"], [child.fileno(), stderr])
            pid = PID.unpack(_recv_exactly(self.control, PID.size))[0]
        except BaseException:
            parent.close()
            os.close(stderr)
            raise
        finally:
            child.close()
        if pid <= 0:
            parent.close()
            os.close(stderr)
            raise OSError("the worker template could not fork")
        return Worker(pid, Connection(parent.detach()), stderr)

    def kill(self) -> None:
        if self.is_alive():
            self.process.kill()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            pass
        self.control.close()


def _recv_exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise EOFError("the worker template closed its socket")
        data += chunk
    return data


class Worker:
    """One worker forked from the template, talking over a socket pair; its standard error
    goes to a memory file (`stderr`) that is copied to the server's when the worker ends."""

    def __init__(self, pid: int, conn: Connection, stderr: int | None = None) -> None:
        self.pid = pid
        self.conn = conn
        self.stderr = stderr
        self._lock = threading.Lock()
        try:
            self._pidfd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:
            self._pidfd = None  # already gone: never alive
            conn.close()

    def wait_ready(self, timeout: float) -> bool:
        """Wait for the worker's hello, sent once its store is open."""
        try:
            return self.conn.poll(timeout) and self.conn.recv() == "ready"
        except (EOFError, OSError):
            return False

    def is_alive(self) -> bool:
        with self._lock:
            pidfd = self._pidfd
            # a pidfd is readable once the process exited
            return pidfd is not None and not select.select([pidfd], [], [], 0)[0]

    def is_gone(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the worker to exit."""
        with self._lock:
            pidfd = self._pidfd
        return pidfd is None or bool(select.select([pidfd], [], [], timeout)[0])

    def demote(self) -> None:
        """Lower the worker to the least CPU priority (nice 19), so that shorter jobs on
        other workers and the request threads come first."""
        with self._lock:
            if self._pidfd is None:
                return
            try:
                os.setpriority(os.PRIO_PROCESS, self.pid, DEMOTED_NICENESS)
            except OSError:
                pass  # gone meanwhile: the caller sees it on the socket

    def kill(self) -> None:
        """SIGKILL the worker and wait (up to 5 s) until it is gone; safe to call from two threads."""
        with self._lock:
            pidfd, self._pidfd = self._pidfd, None
        if pidfd is not None:
            try:
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            except ProcessLookupError:
                pass
            select.select([pidfd], [], [], 5.0)
            os.close(pidfd)
            self.conn.close()
        self._close_stderr()

    def last_words(self) -> str:
        """The end of what the worker wrote on its standard error."""
        with self._lock:
            fd = self.stderr
            if fd is None:
                return ""
            size = os.fstat(fd).st_size
            return os.pread(fd, _LAST_WORDS, max(0, size - _LAST_WORDS)).decode("utf-8", "replace")

    def _close_stderr(self) -> None:
        """Copy what the worker wrote on its standard error to the server's, then let it go."""
        words = self.last_words()
        with self._lock:
            fd, self.stderr = self.stderr, None
        if fd is None:
            return
        os.close(fd)
        if words:
            sys.stderr.write(words if words.endswith("\n") else words + "\n")
            sys.stderr.flush()
