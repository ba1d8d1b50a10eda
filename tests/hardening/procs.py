"""Real `kg` processes for the fault tests: start them, watch them, kill them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from tests.helpers import ROOT

KG = Path(sys.executable).with_name("kg")
GENERATED_DOCS = 24  # size of the generated corpus of the fault tests (conftest.py: generated)


def kg_env() -> dict[str, str]:
    """The environment of a `kg` process: api and viz importable from the checkout."""
    return dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")


def kg_build(corpus: Path, data: Path, *args: str, progress: bool = False) -> subprocess.Popen:
    """Start `kg build` as its own process group (so a test can clean up everything it started)."""
    command = [str(KG), "build", "--corpus", str(corpus), "--data", str(data), *args]
    if not progress:
        command.append("--quiet")
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=kg_env(),
                            cwd=str(ROOT), start_new_session=True)


def run_build(corpus: Path, data: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run `kg build` to the end; the result has returncode, stdout and stderr (text)."""
    command = [str(KG), "build", "--corpus", str(corpus), "--data", str(data), "--quiet", *args]
    return subprocess.run(command, capture_output=True, text=True, env=kg_env(), cwd=str(ROOT), timeout=timeout)


def wait_until(condition: Callable[[], bool], timeout: float, interval: float = 0.005) -> bool:
    """Poll `condition` until it holds or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()


def alive(pid: int) -> bool:
    """Whether `pid` is a running (not zombie) process."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def kill_group(process: subprocess.Popen) -> None:
    """Clean up after a test: SIGKILL the process group it started, if anything is left."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(10)
    for stream in (process.stdout, process.stderr):
        if stream:
            stream.close()
