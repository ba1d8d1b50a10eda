"""Replacing a file or a directory in one step, and editing a user's file safely.

What kg writes for the user (an export, a merged .ann) is made under a temporary name in the
same directory and renamed over its place once complete, so that a reader, a crash or a full
disk never leaves half of it, and a failed write leaves what was there untouched. A new file
or directory gets the permissions the umask gives.

A file the user edits too (`kg suggest --merge` adds to an .ann that brat or an editor may save
at any moment) is changed like a careful editor does (edit_file): through a link to its target,
keeping its permissions, and only if it still holds what was read: the rename is preceded by a
comparison, and a file that changed meanwhile is read and changed again. A read-only file is
refused, never made writable.
"""

from __future__ import annotations

import os
import shutil
import stat
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Callable, Iterator, NamedTuple

from kg.errors import CorpusError

PART_SUFFIX = ".part"  # a temporary name ends so: .<name>.<pid>.<random>.part
EDIT_ATTEMPTS = 5  # reads and changes of a file before edit_file gives up on one that keeps changing


def temporary_name(path: Path) -> Path:
    """A name beside `path`, hidden and unique to this process and call."""
    return path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}{PART_SUFFIX}")


@contextmanager
def replaced_file(path: Path, mode: int | None = None,
                  place: Callable[[Path, Path], None] = os.replace) -> Iterator[IO[bytes]]:
    """A binary stream for `path`'s new content, put in place by `place(temporary, path)` (a
    rename) when the block ends without error; the temporary file never outlives the call.
    `mode`: its permission bits (default: a new file's under the umask)."""
    temporary = temporary_name(path)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
            if mode is not None:
                os.fchmod(out.fileno(), mode)
        place(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


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


class _Seen(NamedTuple):
    """A file as it was read: its bytes and what its stat says of them (None: no file)."""

    data: bytes
    stat: tuple[int, int, int, int] | None  # device, inode, size, modification time (ns)


class _Changed(Exception):
    """The file changed between its reading and the rename."""


def edit_file(path: Path, change: Callable[[bytes], bytes], attempts: int = EDIT_ATTEMPTS) -> bytes:
    """Replace the content of `path` (b"" when absent) by `change(content)` and return what was
    written. Written through a link to its target, with the target's permission bits, in one
    rename, and only if the file still is as it was read; else it is read and changed again, up
    to `attempts` times. CorpusError, located at `path` and leaving the file as it is, when it is
    read-only, cannot be written or kept changing."""
    target = Path(os.path.realpath(path))
    for _ in range(attempts):
        seen = _read(path, target)
        mode = _mode(path, target, seen)
        new = change(seen.data)
        try:
            with _writing(path), replaced_file(target, mode, lambda temporary, _: _put(temporary, target, seen)) as out:
                out.write(new)
            return new
        except _Changed:
            continue
    raise CorpusError(f"changed {attempts} times while kg was adding to it (expected no other program to save "
                      "it meanwhile; left as it was, try again)", path)


def _read(path: Path, target: Path) -> _Seen:
    with _writing(path):
        try:
            with open(target, "rb") as file:
                return _Seen(file.read(), _stat_key(os.fstat(file.fileno())))
        except FileNotFoundError:
            return _Seen(b"", None)


def _mode(path: Path, target: Path, seen: _Seen) -> int | None:
    """The permission bits the new file keeps (None: a new file's); CorpusError for a read-only file."""
    if seen.stat is None:
        return None
    mode = stat.S_IMODE(os.stat(target).st_mode)
    if not mode & 0o222 or not os.access(target, os.W_OK):
        raise CorpusError(f"read-only (mode {mode:o}; expected a writable file: kg leaves its permissions "
                          "as they are and writes nothing)", path)
    return mode


def _put(temporary: Path, target: Path, seen: _Seen) -> None:
    """Rename `temporary` over `target` if the file is still as `seen`; a new file only if none appeared."""
    if seen.stat is None:
        try:
            os.link(temporary, target)  # fails if another program made the file meanwhile
        except FileExistsError:
            raise _Changed from None
        return
    try:
        with open(target, "rb") as file:
            now = _Seen(file.read(), _stat_key(os.fstat(file.fileno())))
    except FileNotFoundError:
        raise _Changed from None
    if now != seen:
        raise _Changed
    os.replace(temporary, target)


def _stat_key(st: os.stat_result) -> tuple[int, int, int, int]:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


@contextmanager
def _writing(path: Path) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        raise CorpusError(f"cannot be read or written ({exc.strerror or exc}; expected a writable file in a "
                          "writable directory)", path) from exc
