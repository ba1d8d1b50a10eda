"""Describe the machine and software a benchmark ran on, for RESULTS.md."""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def describe(work: Path | None = None) -> dict[str, str]:
    """Cores, memory, CPU, OS, versions, commit, date and load: the context of the figures; with
    `work`, the disk free where the run writes (a 100,000-article size holds some 55 GB at once)."""
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
        **({"disk": _disk(work)} if work is not None else {}),
    }


def _disk(work: Path) -> str:
    usage = shutil.disk_usage(work)
    return f"{usage.free / 2**30:.1f} GiB free of {usage.total / 2**30:.1f} GiB where the run writes, at start"


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


def code_identity(written: tuple[Path, ...] = ()) -> dict[str, str]:
    """The code a run measures: the commit checked out, and a digest of the uncommitted changes to
    its tracked files but those the run itself writes (`written`: RESULTS.md, the README), empty
    when there are none, so that two runs on the same code compare equal."""
    excluded = [f":(exclude){Path(path).resolve()}" for path in written if _inside(Path(path).resolve(), REPO)]
    try:
        commit = _git("rev-parse", "HEAD").decode().strip() or "unknown"
        changes = _git("diff", "HEAD", "--binary", "--", ".", *excluded)
    except (OSError, subprocess.SubprocessError):
        return {"commit": "unknown", "changes": ""}
    return {"commit": commit, "changes": hashlib.sha256(changes).hexdigest() if changes else ""}


def _inside(path: Path, directory: Path) -> bool:
    return path == directory or directory in path.parents


def _git(*argv: str) -> bytes:
    return subprocess.run(["git", *argv], cwd=REPO, capture_output=True, timeout=60, check=True).stdout


def usable_cores() -> int:
    """Cores this process may run on."""
    return len(os.sched_getaffinity(0)) or 1
