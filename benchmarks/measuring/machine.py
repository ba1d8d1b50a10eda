"""Describe the machine and software a benchmark ran on, for RESULTS.md."""

from __future__ import annotations

import os
import platform
import subprocess
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def describe() -> dict[str, str]:
    """Cores, memory, CPU, OS, versions, commit, date and load: the context of the figures."""
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cores": f"{len(os.sched_getaffinity(0))} usable ({os.cpu_count()} online)",
        "cpu": _cpu_model(),
        "memory": f"{_meminfo('MemTotal') / 2**30:.1f} GiB total, {_meminfo('MemAvailable') / 2**30:.1f} GiB available at start",
        "load average": " ".join(f"{x:.2f}" for x in os.getloadavg()) + " (1, 5, 15 min; the machine may be shared)",
        "os": f"{platform.system()} {platform.release()} ({platform.machine()})",
        "python": platform.python_version(),
        "pyoxigraph": _version("pyoxigraph"),
        "rdflib": _version("rdflib"),
        "kg": _version("brat-kg"),
        "commit": _commit(),
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _meminfo(field: str) -> int:
    """A /proc/meminfo field in bytes (0 when unknown)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def available_memory() -> int:
    return _meminfo("MemAvailable")


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


def _commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return f"{head}{' (with uncommitted changes)' if dirty else ''}" if head else "unknown"


def usable_cores() -> int:
    """Cores this process may run on."""
    return len(os.sched_getaffinity(0)) or 1
