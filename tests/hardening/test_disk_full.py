"""A full disk during a build or a request: a located message and an exit code or status from the
error tree (kg.errors.DiskFull: exit 5, HTTP 507), never a traceback; the previous build stays
current and served.

The data directory lives on a small tmpfs this test mounts itself (size=8m) and unmounts after;
a file filling it leaves a few hundred KiB free, so that the build runs out of space at different
steps (the store's first files, the view data, the bulk load). Real `kg build` and `kg serve`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Iterator

import pytest
import requests

from kg.store import build_dirs
from kg.testing.servers import Server
from tests.hardening.procs import run_build
from tests.helpers import TINY

FREE_KIB = (16, 200, 500, 900)  # what each failing build finds free; the whole build needs about 1,000


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of 8 MiB mounted at tmp_path/disk, unmounted after the test."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(disk)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here: {mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def fill(disk: Path, leave_kib: int) -> Path:
    """A file taking all of `disk` but `leave_kib` KiB."""
    filler = disk / "filler"
    filler.unlink(missing_ok=True)
    stats = os.statvfs(disk)
    free = stats.f_bavail * stats.f_frsize
    with open(filler, "wb") as handle:
        os.posix_fallocate(handle.fileno(), 0, max(free - leave_kib * 1024, 0))
    return filler


def served_build(server: Server) -> str:
    response = requests.get(server.url + "health", timeout=30)
    assert response.status_code == 200, response.text
    return response.json()["build"]


def test_a_full_disk_ends_a_build_with_a_located_message_and_the_previous_build_served(
        small_disk: Path, tmp_path: Path) -> None:
    corpus, data = tmp_path / "corpus", small_disk / "data"
    shutil.copytree(TINY, corpus)
    assert run_build(corpus, data).returncode == 0
    current = build_dirs.current_build(data)
    server = Server(data, "--workers", "1")
    try:
        assert served_build(server) == current.name
        for free in FREE_KIB:
            filler = fill(small_disk, free)
            result = run_build(corpus, data, "--full")
            filler.unlink()
            assert result.returncode == 5, (free, result.stderr)
            assert "Traceback" not in result.stderr, result.stderr
            message = result.stderr.strip().splitlines()[-1]
            assert "no space left on the device during" in message and f"{current} is still the current build" \
                in message, message
            assert message.startswith(f"error: {data}"), message  # the file it could not write, or the data directory
            assert build_dirs.current_build(data) == current
            assert sorted(p.name for p in (data / "builds").iterdir()) == [current.name], "a failed build was left"
            assert served_build(server) == current.name
        filler = fill(small_disk, 16)
        export = requests.get(server.url + "export.ttl", timeout=60)  # made on first demand, on the full disk
        filler.unlink()
        assert export.status_code == 507, export.text[:500]
        assert export.headers.get("Retry-After") and "no space left" in export.json()["error"]["detail"]
        assert "Traceback" not in server.stderr()
        assert requests.get(server.url + "export.ttl", timeout=60).status_code == 200  # room again: made now
        assert run_build(corpus, data, "--full").returncode == 0
    finally:
        server.stop()
