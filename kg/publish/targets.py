"""Where `kg export -o` may write, and writing there in one step.

An export never lands in the data directory (it would overwrite the build it reads, or the
export a server sends: `-o data/current/kg.nq` once left it empty) nor in the corpus (the next
build would read the exported documents as input and state every fact twice). Links are
followed before comparing, and written through. A file export goes where a file may be, a
directory export (brat, xmi) where a new or empty directory may be; either is made under a
temporary name beside its place and renamed there when complete (kg.atomic). Every refusal is
a SettingError naming the path given: exit 2, no traceback.
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator, Mapping

from kg.atomic import replaced_directory, replaced_file
from kg.errors import SettingError

FILE, DIRECTORY = "file", "directory"


def export_target(output: Path, kind: str, protected: Mapping[str, Path | None]) -> Path:
    """The real path `output` names (links followed), checked for an export of `kind` (FILE or
    DIRECTORY): outside every directory of `protected` (what it is called -> path), and of the
    right kind. SettingError, located at `output`, when it is not."""
    real = _resolved(output)
    for name, directory in protected.items():
        where = _where(real, name, directory) if directory is not None else None
        if where:
            raise SettingError(f"{where} (expected a path outside it: an export must not overwrite what kg "
                               "reads)", output)
    if output.is_symlink() and not real.exists():
        raise SettingError(f"a link to {os.readlink(output)}, which does not exist (expected a link to an "
                           "existing file or directory, or a path that is no link)", output)
    (_check_file if kind == FILE else _check_directory)(output, real)
    return real


@contextmanager
def writing_file(output: Path, real: Path) -> Iterator[IO[bytes]]:
    """A stream for the export file `real` (checked by export_target), renamed into place when the
    block ends, with the permissions of the file it replaces; a device or a pipe (/dev/stdout) is
    written as it is. OSError becomes SettingError."""
    with _located(output):
        if real.exists() and not real.is_file():
            with open(real, "wb") as out:
                yield out
            return
        with replaced_file(real, stat.S_IMODE(real.stat().st_mode) if real.exists() else None) as out:
            yield out


@contextmanager
def writing_directory(output: Path, real: Path) -> Iterator[Path]:
    """A fresh directory to write a directory export into, renamed to `real` (checked by
    export_target) when the block ends. OSError becomes SettingError."""
    with _located(output), replaced_directory(real) as temporary:
        yield temporary


@contextmanager
def _located(output: Path) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        raise SettingError(f"cannot be written ({exc.strerror or exc}; expected a writable place)", output) from exc


def _resolved(output: Path) -> Path:
    try:
        real = output.resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a loop of links
        raise SettingError(f"cannot be followed ({exc}; expected a path, or a link to one)", output) from exc
    return real


def _where(real: Path, name: str, directory: Path) -> str | None:
    """How `real` lies in `directory` (called `name`), or None when it does not."""
    try:
        resolved = directory.resolve()
    except (OSError, RuntimeError):
        return None
    if real == resolved:
        return f"{name} itself"
    return f"inside {name} {directory}" if real.is_relative_to(resolved) else None


def _check_file(output: Path, real: Path) -> None:
    if real.is_dir():
        raise SettingError("a directory (expected a file to write the export to)", output)
    if real.is_file() and (not real.stat().st_mode & 0o222 or not os.access(real, os.W_OK)):
        raise SettingError(f"read-only (mode {stat.S_IMODE(real.stat().st_mode):o}; expected a writable file: "
                           "kg leaves its permissions as they are)", output)
    if not real.parent.is_dir():
        what = "is not a directory" if real.parent.exists() else "does not exist"
        raise SettingError(f"{real.parent} {what} (expected the file to be in an existing directory)", output)


def _check_directory(output: Path, real: Path) -> None:
    if real.exists() and not real.is_dir():
        raise SettingError(f"a {_kind(real)} (expected a new or empty directory to write the export into)", output)
    if real.is_dir() and any(real.iterdir()):
        raise SettingError("not empty (expected a new or empty directory)", output)
    ancestor = real.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise SettingError(f"{ancestor} is a {_kind(ancestor)} (expected directories on the way)", output)


def _kind(path: Path) -> str:
    mode = path.stat().st_mode
    return "file" if stat.S_ISREG(mode) else "special file (a device, pipe or socket)"
