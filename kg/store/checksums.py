"""Checksums of the files a build keeps, so that a file damaged on disk is made again, never used.

A build keeps files it or a server made once and reads many times: the exports and their section
indexes, the network view's page and index, the search index, the configuration files it read.
One flipped bit in one of them changes what every later request answers (a kept view segment
with one bit flipped changed 27 of 217 neighbourhoods) and nothing would tell. So every such file
is sealed: its SHA-256 is written beside it (`<name>.sha256`, in sha256sum's format) before the
file is renamed into place, and a reader uses the file only while its bytes still give that sum.
A file found damaged is made again from the store by whoever makes it
(kg.store.build_dirs.made_once), or not used (a view index: the view reads the store instead).

The sidecar also notes the file's status when its sum was taken (`# status <device> <inode> <size>
<mtime>`, a comment to sha256sum): a file with that status still is taken as intact without being
read, since any write through the file system moves its mtime and a rewrite by rename changes its
inode. So a build that starts from a large build does not read gigabytes to trust what it links (its
kg.nq). A file whose status differs from its sidecar's (a copy, a write in place, a sidecar
written before statuses were noted) is hashed by the first process that reads it; when the bytes
are sound and the file has not changed for 2 s, that process notes the new status in the sidecar,
so the one hash is paid once, not by every later process (a read-only build directory cannot be
noted: there each process pays it once). Within a process a file is hashed again only when its
status changes (size, times, inode), so a server checks a file on its first use, not on every
request. A fault below the file system that changes no status (a bad sector) is found only by
the next write that moves it. A file kept without a checksum (by a
build made before kg kept them) is used as before. A directory of small files (the kept
configurations) is sealed as one list, `<directory>.sha256`.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from pathlib import Path

SUFFIX = ".sha256"
_CHUNK = 1 << 20
_intact_at: dict[str, tuple[int, ...]] = {}  # path -> the status it had when its bytes last gave its sum
_memo_lock = threading.Lock()
# A file changed less than this before it was hashed is hashed again next time: a file system's
# times are coarse (a few ms), so a write just after the hash could leave the same status.
_SETTLED_NS = 2_000_000_000


def sidecar(path: Path) -> Path:
    """Where the checksum of `path` is kept."""
    path = Path(path)
    return path.with_name(path.name + SUFFIX)


def digest_of(path: Path) -> str:
    """The SHA-256 of a file's bytes, read a MiB at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        while chunk := source.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def seal(path: Path, digest: str | None = None, *, kept_as: Path | None = None) -> None:
    """Keep the checksum of the complete file `path` (`digest` when the writer computed it as it
    wrote) for the file's place `kept_as` (default: `path`; a writer seals its temporary file
    before renaming it into place, so that a file in place always has its sum)."""
    place = Path(kept_as or path)
    status = _status_line(os.stat(path))  # before hashing: a write meanwhile leaves a status that differs
    _write_atomically(sidecar(place), f"{digest or digest_of(path)}  {place.name}\n{status}")


def copy_seal(source: Path, target: Path) -> None:
    """Give `target`, a copy or hard link of `source`, the checksum `source` has (none: none)."""
    try:
        lines = sidecar(source).read_text(encoding="ascii").splitlines(keepends=True)
        kept = lines[0].split()[0]
    except (OSError, ValueError, IndexError):
        sidecar(target).unlink(missing_ok=True)
        return
    _write_atomically(sidecar(target), f"{kept}  {Path(target).name}\n" + "".join(lines[1:2]))  # a link: its status


def link_seal(source: Path, target: Path) -> None:
    """Hard-link the checksum of `source` beside `target` (a hard link of `source`), when it has one."""
    try:
        os.link(sidecar(source), sidecar(target))
    except FileNotFoundError:
        pass


def unseal(path: Path) -> None:
    """Remove a file's checksum (with the file)."""
    sidecar(path).unlink(missing_ok=True)
    with _memo_lock:
        _intact_at.pop(str(path), None)


def intact(path: Path) -> bool:
    """Whether `path` is a file whose bytes give the checksum kept beside it (True for a file
    kept without one; False for a missing file or a sum that cannot be read)."""
    try:
        status = os.stat(path)
    except OSError:
        return False
    key = (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
    with _memo_lock:
        if _intact_at.get(str(path)) == key:
            return True
    try:
        lines = sidecar(path).read_text(encoding="ascii").splitlines(keepends=True)
        kept = lines[0].split()[0]
    except FileNotFoundError:
        return True
    except (OSError, ValueError, IndexError):
        return False
    if lines[1:2] == [_status_line(status)]:
        return True
    try:
        sound = digest_of(path) == kept
    except OSError:
        return False
    if sound and time.time_ns() - status.st_ctime_ns > _SETTLED_NS:
        with _memo_lock:
            _intact_at[str(path)] = key
        _note_status(path, lines[0], status)  # for the next process (sealed before sidecars noted it, or copied)
    return sound


def _note_status(path: Path, sum_line: str, status: os.stat_result) -> None:
    try:
        _write_atomically(sidecar(path), sum_line + _status_line(status))
    except OSError:  # a read-only build directory: the file is hashed again by the next process
        pass


def _status_line(status: os.stat_result) -> str:
    """What a sidecar notes of the status its file had when its sum was taken."""
    return f"# status {status.st_dev} {status.st_ino} {status.st_size} {status.st_mtime_ns}\n"


def seal_tree(directory: Path) -> None:
    """Keep the checksum of every file under `directory` in one list beside it (`<directory>.sha256`,
    JSON: path relative to it -> sum)."""
    directory = Path(directory)
    sums = {path.relative_to(directory).as_posix(): digest_of(path)
            for path in sorted(directory.rglob("*")) if path.is_file()} if directory.is_dir() else {}
    _write_atomically(sidecar(directory), json.dumps(sums, ensure_ascii=False, indent=0, sort_keys=True))


def damaged_in_tree(directory: Path) -> dict[str, str] | None:
    """The files of a sealed directory whose bytes no longer give their sum (or are gone), by their
    path relative to it, each with the sum kept; empty for a directory kept without a list, and
    None when the list itself cannot be read."""
    try:
        sums = json.loads(sidecar(directory).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return None
    if not isinstance(sums, dict):
        return None
    damaged = {}
    for relative, kept in sums.items():
        path = Path(directory) / relative
        try:
            sound = path.is_file() and digest_of(path) == kept
        except OSError:
            sound = False
        if not sound:
            damaged[relative] = kept
    return damaged


def _write_atomically(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.part")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
