"""Measuring a command: wall time, peak memory of its process tree, and a timeout that kills it."""

from __future__ import annotations

import sys

from benchmarks.measuring import measure

MIB = 2**20

ALLOCATE = "import time; block = bytearray({mib} * 2**20); time.sleep(0.4)"
TWO_WORKERS = """
import multiprocessing, time
def hold(_):
    block = bytearray(150 * 2**20)
    time.sleep(0.6)
if __name__ == "__main__":
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(hold, [1, 2], chunksize=1)
"""

SPIN_WORKERS = """
import multiprocessing, time
def spin(_):
    end = time.process_time() + 0.5
    while time.process_time() < end:
        pass
if __name__ == "__main__":
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(spin, [1, 2], chunksize=1)
"""


def test_peak_memory_of_one_process() -> None:
    small = measure.run([sys.executable, "-c", ALLOCATE.format(mib=10)], timeout=30)
    big = measure.run([sys.executable, "-c", ALLOCATE.format(mib=300)], timeout=30)
    assert small.returncode == big.returncode == 0
    assert big.peak_bytes >= 300 * MIB > small.peak_bytes
    assert big.peak_bytes - small.peak_bytes >= 250 * MIB
    assert 0.4 <= big.seconds < 20


def test_peak_memory_and_cpu_time_count_parallel_workers_together() -> None:
    run = measure.run([sys.executable, "-c", TWO_WORKERS], timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.peak_bytes >= 2 * 150 * MIB
    spin = measure.run([sys.executable, "-c", SPIN_WORKERS], timeout=60)
    assert spin.cpu_seconds >= 0.8 * 2 * 0.5       # both workers' CPU time is counted


def test_output_and_failure_are_reported() -> None:
    run = measure.run([sys.executable, "-c", "import sys; print('out'); sys.exit('boom')"], timeout=30)
    assert (run.returncode, run.stdout.strip()) == (1, "out")
    assert "boom" in run.stderr
    try:
        run.check()
    except RuntimeError as exc:
        assert "boom" in str(exc)
    else:
        raise AssertionError("check() accepted a failed command")


def test_timeout_kills_the_whole_process_group() -> None:
    script = "import subprocess, time; subprocess.Popen(['sleep', '60']); time.sleep(60)"
    run = measure.run([sys.executable, "-c", script], timeout=1)
    assert run.returncode < 0
    assert run.seconds < 10
    assert "killed after 1 s" in run.stderr
