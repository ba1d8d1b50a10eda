"""What the file system under a corpus is: whether this kernel sees its every change, and how
finely it times them.

Read from /proc/self/mountinfo (the type of the longest mount point above a path). The corpus
stamp needs the tick of the clock a file's times are set from; the corpus watch needs to know that
no change can come from elsewhere (another machine, a virtual machine's host).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

# Mount types whose files may change without the local kernel seeing it (other machines, the host of
# a virtual machine): inotify misses such edits.
REMOTE = frozenset({"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "virtiofs", "ceph", "glusterfs", "afs", "lustre",
                    "gpfs", "davfs", "vboxsf", "vmhgfs", "prl_fs", "beegfs", "fuse", "fuseblk"})
# Mount types that keep nanoseconds, set from the kernel's coarse clock (its tick: clock_getres)
FINE = frozenset({"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "f2fs", "zfs", "bcachefs", "overlay", "jfs",
                  "reiserfs", "nilfs2", "ramfs"})
CLOCK_REALTIME_COARSE = getattr(time, "CLOCK_REALTIME_COARSE", 5)  # Linux's id, for Pythons that do not name it
COARSEST_TICK_NS = 2 * 10**9  # FAT's two seconds: the tick assumed where the type is not known to be finer


def mount_type(path: Path) -> str:
    """The type of the file system `path` lies on ('' when it cannot be told); FUSE's subtypes
    ('fuse.sshfs') are given as 'fuse'."""
    try:
        real = os.path.realpath(path)
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
            mounts = [line.split() for line in handle]
    except OSError:
        return ""
    best, kind = "", ""
    for fields in mounts:
        if "-" not in fields:
            continue
        point = _unescape(fields[4])
        inside = real == point or real.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, fields[fields.index("-") + 1]
    return kind.split(".")[0]


def is_local(path: Path) -> bool:
    """Whether every change to files under `path` is made by this kernel (so inotify reports it)."""
    kind = mount_type(path)
    return bool(kind) and kind not in REMOTE


def clock_tick_ns(path: Path) -> int:
    """How far apart two changes of a file under `path` must be for their times to differ."""
    if mount_type(path) in FINE:
        return max(int(time.clock_getres(CLOCK_REALTIME_COARSE) * 10**9), 1)
    return COARSEST_TICK_NS


def _unescape(field: str) -> str:
    """mountinfo writes space, tab, newline and backslash in a path as octal escapes (\\040)."""
    if "\\" not in field:
        return field
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1:i + 4].isdigit():
            out.append(chr(int(field[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)
