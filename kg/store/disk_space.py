"""A full disk (or quota) told apart from other failures, and said where it struck.

Python's own writes raise OSError(ENOSPC), SQLite raises "database or disk is full"
(SQLITE_FULL) and Oxigraph's RocksDB an OSError that only says so in its text. A build
or a request that meets one ends with DiskFull, naming the file and the step, instead
of a traceback; what it had half written is removed by its caller as for any failure.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

from kg.errors import DiskFull, printable

_SQLITE_FULL = 13
_ROCKSDB_FILE = re.compile(r"(?:While appending to file|While open a file for appending|file): (\S+?):? No space left")


def is_disk_full(exc: BaseException) -> bool:
    """Whether `exc` (or an error it was raised from) says the device or the quota is full."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if getattr(exc, "sqlite_errorcode", None) == _SQLITE_FULL:
            return True
        if isinstance(exc, OSError) and "No space left on device" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def disk_full_error(exc: BaseException, where: Path, step: str, *, kept: str = "") -> DiskFull:
    """DiskFull for `exc`: the file it names (else `where`), the free space left there, the step
    that was writing, and what stayed as it was (`kept`)."""
    target = _named_file(exc) or where
    message = (f"{printable(str(target))}: no space left on the device during {step} "
               f"({_free_space(where)}; expected room for what the step writes")
    return DiskFull(message + (f"; {kept})" if kept else ")"))


def _named_file(exc: BaseException) -> str | None:
    name = getattr(exc, "filename", None)
    if name:
        return os.fsdecode(name)
    found = _ROCKSDB_FILE.search(str(exc))
    return found.group(1) if found else None


def _free_space(where: Path) -> str:
    for place in (where, *where.parents):
        try:
            stats = os.statvfs(place)
        except OSError:
            continue
        return f"{stats.f_bavail * stats.f_frsize / 2**20:.1f} MiB free there now"
    return "free space unknown"
