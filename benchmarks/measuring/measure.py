"""Run a command and measure it: wall time and peak memory of its whole process tree.

Every 50 ms the sampler reads /proc/<pid>/status of the process and all its
descendants and keeps the larger of
- the largest VmHWM, the kernel's own high-water mark of one process's
  resident set (exact, even between samples), and
- the sum of VmRSS over the live processes, which counts parallel workers
  together (pages shared after fork() count once per process, so this errs high).
wait4()'s ru_maxrss is only a fallback for processes too short to sample: on
Linux it includes the parent's memory that the child had before exec().
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from kg.testing.servers import process_tree

SAMPLE_SECONDS = 0.05


@dataclass(frozen=True)
class Measured:
    """What one command did and cost."""

    argv: tuple[str, ...]
    returncode: int
    seconds: float
    cpu_seconds: float        # user + system time of the process and its reaped descendants
    peak_bytes: int
    stdout: str
    stderr: str

    def check(self) -> Measured:
        """Raise with the command's own error output when it failed."""
        if self.returncode != 0:
            tail = "\n".join(self.stderr.strip().splitlines()[-15:])
            raise RuntimeError(f"{' '.join(self.argv)} exited with {self.returncode}:\n{tail}")
        return self


def run(argv: Sequence[str], *, timeout: float, cwd: Path | None = None, env: dict | None = None) -> Measured:
    """Run `argv` to completion (killing its process group after `timeout` seconds) and measure it."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(list(argv), cwd=cwd, env=env, stdout=out, stderr=err, start_new_session=True)
        sampler = _TreeSampler(proc.pid)
        sampler.start()
        killed = threading.Event()
        timer = threading.Timer(timeout, _kill_group, [proc.pid, killed])
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:  # the run itself is stopped (Ctrl-C, SIGTERM): so is everything it started
            stop_tree(proc.pid)
            raise
        finally:
            timer.cancel()
            sampler.stop()
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        stdout, stderr = _read(out), _read(err)
    if killed.is_set():
        stderr += f"\n(killed after {timeout:.0f} s)"
    peak = sampler.peak or usage.ru_maxrss * 1024    # ru_maxrss is in kB on Linux
    cpu = usage.ru_utime + usage.ru_stime
    return Measured(tuple(str(a) for a in argv), proc.returncode, seconds, cpu, peak, stdout, stderr)


def _read(handle) -> str:
    handle.seek(0)
    return handle.read().decode("utf-8", errors="replace")


def stop_tree(pid: int) -> None:
    """SIGKILL a process, every process it started (servers and browsers in sessions of their own
    included) and its process group, then reap it: a stopped run leaves nothing running that would
    write into the work directory a resumed run starts from."""
    kill_tree(pid)
    _kill_group(pid, threading.Event())
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def kill_tree(pid: int) -> None:
    """SIGKILL a process and every process it started, stopped first so that it starts no more
    while its tree is read; the caller reaps it."""
    try:
        os.kill(pid, signal.SIGSTOP)
    except ProcessLookupError:
        return
    for member in process_tree(pid):
        try:
            os.kill(member, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _kill_group(pid: int, killed: threading.Event) -> None:
    killed.set()
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


class _TreeSampler(threading.Thread):
    """Samples the summed RSS of a process and all its descendants until stopped."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak = 0
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.wait(SAMPLE_SECONDS):
            current = [_memory(p) for p in process_tree(self.pid)]
            if current:
                self.peak = max(self.peak, sum(rss for rss, _ in current), max(hwm for _, hwm in current))

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=2)


def _memory(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of a process in bytes; zeros when it is gone."""
    rss = hwm = 0
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1]) * 1024
                elif line.startswith("VmHWM:"):
                    hwm = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return rss, hwm
