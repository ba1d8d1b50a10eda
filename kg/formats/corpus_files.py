"""The files under a corpus directory, with the stat of each file kg reads: walked, or read from
what `find` listed when it took the corpus's stamp (kg.formats.corpus_stamp).

A build that is not told what changed stamps the corpus first (one `find` process, one stat per
file) and then scans it. The scan's walk stats every file kg reads a second time, in Python: at
100,000 articles that is 300,000 stats. So when find listed the whole tree, the scan reads its
listing; anything the listing cannot vouch for (a dangling link, a file that is not a regular
readable one, a directory reached twice) makes it walk, which says what is wrong.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
from pathlib import Path
from typing import Callable, NamedTuple

from kg.errors import CorpusError, InputError, InputErrors

# what find prints of each entry for the stamp and the scan: path, then its type, size, modification
# and change time (seconds, 10 decimals), permissions, owner, device and inode (links followed)
FIND_FORMAT = "%P\\0%y %s %T@ %C@ %m %U %D %i\\0"
# one entry of it: the times' nanoseconds are their first nine decimals (find prints ten)
_LISTED = re.compile(rb"([^\0]*)\0([a-zA-Z]) (\d+) (\d+)\.(\d{9})\d (\d+)\.(\d{9})\d ([0-7]+) (\d+) (\d+ \d+)\0")
_FS_ENCODING, _FS_ERRORS = sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()  # as os.fsdecode


class Found(NamedTuple):  # a tuple: made 30,000 times for 10,000 articles
    """A file the scan found: its path (the corpus directory joined with its name), its name, and
    for a file kg reads, the size, modification and change time its stat gave (else -1)."""

    path: str
    name: str
    size: int = -1
    mtime_ns: int = -1
    ctime_ns: int = -1


def files_listed(corpus_dir: Path, listed: bytes, wanted: Callable[[str], bool]) -> dict[str, Found] | None:
    """walk_files's answer from find's listing of `corpus_dir` (FIND_FORMAT, links followed), or None
    when the listing cannot vouch for every file (walk_files then says what is wrong)."""
    entries = _LISTED.findall(listed)
    if 2 * len(entries) != listed.count(b"\0"):  # an entry of another form: read none of them
        return None
    found: dict[str, Found] = {}
    directories: set[bytes] = set()
    root, uid = str(corpus_dir).rstrip("/") + "/", os.geteuid()
    for relative, kind, size, modified, modified_ns, changed, changed_ns, mode, owner, identity in entries:
        name = relative.decode(_FS_ENCODING, _FS_ERRORS)
        base = name.rpartition("/")[2]
        if kind == b"d":
            if (base and wanted(base)) or identity in directories:
                return None  # a directory where a file belongs, or one reached twice through links
            directories.add(identity)
        elif not wanted(base):
            found[name] = Found(root + name, base)
        elif kind != b"f" or not _listed_readable(root + name, int(mode, 8), int(owner), uid):
            return None
        else:
            found[name] = Found(root + name, base, int(size), int(modified + modified_ns), int(changed + changed_ns))
    return found


def _listed_readable(path: str, mode: int, owner: int, uid: int) -> bool:
    """Whether this process may read the file: its own file with the owner's read bit needs no
    question to the system (the common case); any other is asked with access()."""
    return bool(owner == uid and mode & stat.S_IRUSR) or os.access(path, os.R_OK)


def walk_files(corpus_dir: Path, wanted: Callable[[str], bool]) -> dict[str, Found]:
    """Every file under the corpus, by its path relative to the corpus ('/'-separated); links are
    followed, never twice into one directory (so never round a loop); anything that should be a
    regular readable file (`wanted` by its name) and is not (a pipe, a dangling link, a directory
    named x.ann) is an error. One stat per file kg reads, none for the others; no Path objects (at
    10,000 articles a build with nothing to do is mostly this walk)."""
    found: dict[str, Found] = {}
    errors: list[InputError] = []
    visited: set[str] = set()
    pending = [(str(corpus_dir), "")]
    while pending:
        directory, prefix = pending.pop()
        real = os.path.realpath(directory)
        if real in visited:
            errors.append(CorpusError("directory reached twice through links (expected no link loops and one "
                                      "path to each directory)", Path(directory)))
            continue
        visited.add(real)
        below = []
        try:
            listing = os.scandir(directory)
        except OSError as exc:
            errors.append(CorpusError(f"cannot list this folder ({exc.strerror}; expected a folder the build may "
                                      "read)", Path(directory)))
            continue
        with listing as entries:
            for entry in entries:
                read = wanted(entry.name)
                if _is_dir(entry):
                    if read:
                        errors.append(CorpusError("a directory where a file belongs (expected a regular file)",
                                                  Path(entry.path)))
                    else:
                        below.append((entry.path, prefix + entry.name + "/"))
                    continue
                if not read:
                    found[prefix + entry.name] = Found(entry.path, entry.name)
                    continue
                item = _regular_file(entry)
                if isinstance(item, str):
                    errors.append(CorpusError(item, Path(entry.path)))
                else:
                    found[prefix + entry.name] = item
        pending += sorted(below, reverse=True)  # in name order, so that a loop is told at the same link each time
    if errors:
        raise InputErrors(sorted(errors, key=lambda e: e.path or ""))
    return found


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # a link loop: told as a file that cannot be read (_regular_file)
        return False


def _regular_file(entry: os.DirEntry) -> Found | str:
    """The file with its size and modification time, or why it cannot be read as a file."""
    try:
        st = entry.stat()
    except FileNotFoundError:
        return "dangling link (expected a regular file, or a link to one)"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a link loop (expected a regular file, or a link to one)"
        return f"cannot be read ({exc.strerror}; expected a readable regular file)"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file (expected a plain file, not a pipe, socket, device or directory)"
    if not _readable(entry.path, st):
        return "cannot be read: permission denied (expected a readable file)"
    return Found(entry.path, entry.name, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _readable(path: str, st: os.stat_result) -> bool:
    return _listed_readable(path, st.st_mode, st.st_uid, os.geteuid())
