"""Run a command and measure it: wall time and peak memory of its whole process tree.

Peak memory is taken two ways and the larger is kept:
- the kernel's ru_maxrss from wait4(), which is the largest single process of
  the tree (a worker pool's children included once they are reaped);
- the sum of the resident sets of every live process of the tree, sampled
  every 50 ms from /proc, which counts parallel workers together (pages
  shared after fork() are counted once per process, so this errs high).
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

PAGE = os.sysconf("SC_PAGE_SIZE")
SAMPLE_SECONDS = 0.05


@dataclass(frozen=True)
class Measured:
    """What one command did and cost."""

    argv: tuple[str, ...]
    returncode: int
    seconds: float
    peak_bytes: int
    stdout: str
    stderr: str

    def check(self) -> "Measured":
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
        finally:
            timer.cancel()
            sampler.stop()
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        stdout, stderr = _read(out), _read(err)
    if killed.is_set():
        stderr += f"\n(killed after {timeout:.0f} s)"
    peak = max(sampler.peak, usage.ru_maxrss * 1024)    # ru_maxrss is in kB on Linux
    return Measured(tuple(str(a) for a in argv), proc.returncode, seconds, peak, stdout, stderr)


def _read(handle) -> str:
    handle.seek(0)
    return handle.read().decode("utf-8", errors="replace")


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
            self.peak = max(self.peak, sum(_rss(p) for p in _tree(self.pid)))

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=2)


def _tree(pid: int) -> list[int]:
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


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0
