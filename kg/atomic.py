"""Replacing a file or a directory in one step.

What kg writes for the user (an export, a merged .ann) is made under a temporary name in the
same directory and renamed over its place once complete, so that a reader, a crash or a full
disk never leaves half of it, and a failed write leaves what was there untouched. A new file
or directory gets the permissions the umask gives; a replaced file keeps its own if asked.
"""

from __future__ import annotations

import os
import shutil
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Callable, Iterator

PART_SUFFIX = ".part"  # a temporary name ends so: .<name>.<pid>.<random>.part


def temporary_name(path: Path) -> Path:
    """A name beside `path`, hidden and unique to this process and call."""
    return path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}{PART_SUFFIX}")


@contextmanager
def replaced_file(path: Path, mode: int | None = None,
                  before_replace: Callable[[], None] | None = None) -> Iterator[IO[bytes]]:
    """A binary stream for `path`'s new content, renamed over `path` when the block ends without
    error, else removed. `mode`: its permission bits (default: a new file's under the umask).
    `before_replace` runs last before the rename (it may raise to keep the old file)."""
    temporary = temporary_name(path)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
            if mode is not None:
                os.fchmod(out.fileno(), mode)
        if before_replace is not None:
            before_replace()
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


@contextmanager
def replaced_directory(path: Path) -> Iterator[Path]:
    """A new directory beside `path` to fill, renamed to `path` when the block ends without error,
    else removed with what it holds. `path` must be absent or an empty directory (the rename fails
    on any other); its parent directories are made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = temporary_name(path)
    temporary.mkdir(0o777)
    try:
        yield temporary
        os.replace(temporary, path)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
