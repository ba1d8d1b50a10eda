"""Marks on the builds a server answers from, so that no build's cleanup removes them.

A server (kg.api.backend) marks a build before it starts the worker pool that reads it and
keeps the mark until the last worker of that pool is gone: a shared flock on the build's
`served.lock`. A build's cleanup (kg.store.build_dirs.prune) removes a build only after taking
the same lock exclusively, without waiting, and while holding it renames the directory away
(to a hidden name under builds/) before deleting it; a server that marks the build after that
finds the lock file gone from its place and does not use the build. A marked build is passed
over and removed by a later cleanup, once no server holds it.

A killed server leaves no stale mark: the kernel drops the locks of a dead process (the query
workers are separate programs and never inherit the lock), so there is no process id to check
and nothing to clean up.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path

SERVED_FILE = "served.lock"
REMOVING_SUFFIX = ".removing"  # a build renamed away to be deleted: builds/.<id>.<pid>.removing


class ServedMark:
    """A mark held on one build until `release` (a mark without a file: the build could not be
    marked, e.g. in a read-only data directory, and is served unmarked)."""

    def __init__(self, build: Path, fd: int | None) -> None:
        self.build, self._fd = build, fd

    def release(self) -> None:
        """Give the mark up (again: nothing)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def mark_served(build: Path) -> ServedMark | None:
    """Mark `build` as served by this process until the mark is released; None when the build is
    gone or being removed (the caller looks at data/current again)."""
    path = build / SERVED_FILE
    fd = _open(path)
    if fd is None:
        return ServedMark(build, None) if build.is_dir() else None
    fcntl.flock(fd, fcntl.LOCK_SH)  # waits only while a cleanup renames the build away
    if not _still_at(fd, path):
        os.close(fd)
        return None
    return ServedMark(build, fd)


def remove_unless_served(build: Path) -> bool:
    """Delete the build directory unless a server marks it; True when it was removed."""
    doomed = retire_unless_served(build, build.with_name(f".{build.name}.{os.getpid()}{REMOVING_SUFFIX}"))
    if doomed is None:
        return False
    shutil.rmtree(doomed, ignore_errors=True)
    return True


def retire_unless_served(build: Path, away: Path) -> Path | None:
    """Rename the build directory to `away` (to be deleted there) unless a server marks it: `away`,
    or None when the build is served, gone already, or not ours to move."""
    fd = _open(build / SERVED_FILE)
    try:
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.rename(build, away)
    except OSError:  # BlockingIOError: served; otherwise gone already, or not ours to remove
        return None
    finally:
        if fd is not None:
            os.close(fd)
    return away


def is_removing(path: Path) -> bool:
    """Whether `path` under builds/ is a build renamed away to be deleted."""
    return path.name.startswith(".") and path.name.endswith(REMOVING_SUFFIX)


def _open(path: Path) -> int | None:
    """The lock file, made if need be; read-only where it cannot be written; None when it cannot be had."""
    for flags in (os.O_RDWR | os.O_CREAT, os.O_RDONLY):
        try:
            return os.open(path, flags | os.O_CLOEXEC, 0o644)
        except OSError:
            continue
    return None


def _still_at(fd: int, path: Path) -> bool:
    """Whether the open lock file is still the one at `path` (not renamed away with its build)."""
    try:
        here, held = os.stat(path), os.fstat(fd)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (held.st_dev, held.st_ino)
