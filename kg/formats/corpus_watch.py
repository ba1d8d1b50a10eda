"""Watching a corpus directory through the kernel's inotify: which paths changed, without a stat.

A `CorpusWatch` puts a watch on every directory of the corpus (links followed, as the scan follows
them), and one on every file the directory watches cannot vouch for: a link to a file elsewhere,
and a file with other hard links (edited through another name, it changes no watched directory).
Each change the kernel reports (a file written, created, removed, renamed, its mode or times set)
is numbered; `changes_since(n)` names the paths changed after the n-th. Events are queued by the
kernel as the writing call returns, so `drain()` after a save has always seen it: a build that
asks a watcher right after an edit in place (same size, modification time set back) learns of it.

What the events cannot tell is said as such: after the kernel's queue overflowed, or when a watched
directory went away or a directory was moved in, `changes_since` of an earlier number is None
(unknown: the build scans). The inotify wrapper is `inotify_simple` (a ctypes binding of the three
system calls); on a file system whose changes may come from elsewhere (NFS, SMB, FUSE, a virtual
machine's shared folder) no watch is offered, and `CorpusWatch.open` returns None.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from kg.formats import file_systems


class CorpusWatch:
    """inotify watches over one corpus tree, and the numbered list of the paths that changed."""

    def __init__(self, corpus_dir: Path) -> None:
        from inotify_simple import INotify

        self.corpus_dir = Path(corpus_dir)
        self._inotify = INotify()
        self._paths: dict[int, str] = {}  # directory watch -> '/'-separated path under the corpus ('' the root)
        self._files: dict[int, list[str]] = {}  # file watch -> the paths of that file (events carry no name)
        self.changes: list[str] = []  # every path reported, in order: its number is its index + 1
        self.unknown_until = 0  # changes up to this number cannot be told apart (overflow, a moved directory)
        self._watch_tree("")
        self._watch_shared_files()

    @classmethod
    def open(cls, corpus_dir: Path) -> CorpusWatch | None:
        """A watch over `corpus_dir`, or None where inotify cannot see every change (not Linux, no
        inotify_simple, a remote file system, the kernel's limit of watches reached)."""
        if not file_systems.is_local(Path(corpus_dir)):
            return None
        try:
            return cls(corpus_dir)
        except (ImportError, OSError):
            return None

    @property
    def seq(self) -> int:
        """How many changes were seen so far."""
        return len(self.changes)

    def fileno(self) -> int:
        """The inotify descriptor: readable when the kernel has events queued (for poll/select)."""
        return self._inotify.fileno()

    def drain(self) -> int:
        """Take every event the kernel has queued, without waiting; returns how many changes it added."""
        from inotify_simple import flags

        before = self.seq
        while True:
            events = self._inotify.read(timeout=0)
            if not events:
                return self.seq - before
            for event in events:
                self._take(event, flags)

    def changes_since(self, seq: int) -> list[str] | None:
        """The paths changed after change number `seq` (each once, in the order first seen), or None
        when the events since then cannot say which (or `seq` is not one of this watch's)."""
        if seq < self.unknown_until or seq > self.seq or seq < 0:
            return None
        return list(dict.fromkeys(self.changes[seq:]))

    def close(self) -> None:
        self._inotify.close()

    # -- events -------------------------------------------------------------------------------

    def _take(self, event, flags) -> None:
        if event.mask & flags.Q_OVERFLOW:
            self._lose("")
            return
        if event.wd in self._files:
            self.changes += self._files[event.wd]
            if event.mask & flags.IGNORED:
                del self._files[event.wd]
            return
        where = self._paths.get(event.wd)
        if where is None:  # a watch removed meanwhile
            return
        if event.mask & flags.IGNORED:  # the watched directory is gone
            del self._paths[event.wd]
            self._lose(where)
            return
        path = f"{where}/{event.name}" if where else event.name
        if event.mask & (flags.DELETE_SELF | flags.MOVE_SELF):
            self._lose(where)
        elif event.mask & flags.ISDIR:
            self._directory_event(path, event.mask, flags)
        else:
            self.changes.append(path)
            if event.mask & (flags.CREATE | flags.MOVED_TO) and _is_link(self.corpus_dir / path):
                self._watch_file(path)

    def _directory_event(self, path: str, mask: int, flags) -> None:
        """A directory created or moved in is watched with all it holds (which may have been written
        before its watch was set); one removed or moved away takes every path under it."""
        if mask & (flags.CREATE | flags.MOVED_TO):
            self.changes.append(path + "/")
            self._watch_tree(path, new=True)
        elif mask & (flags.DELETE | flags.MOVED_FROM):
            self._lose(path)
        else:
            self.changes.append(path + "/")  # its mode or times: a directory the scan may no longer read

    def _lose(self, path: str) -> None:
        """Changes from here on back cannot be told apart: the build scans."""
        self.changes.append(path + "/" if path else "")
        self.unknown_until = self.seq

    # -- watches ------------------------------------------------------------------------------

    def _watch_tree(self, top: str, new: bool = False) -> None:
        """Watch `top` and every directory under it (links followed); with `new`, every file found
        is a change."""
        from inotify_simple import flags

        mask = (flags.CREATE | flags.DELETE | flags.MODIFY | flags.ATTRIB | flags.CLOSE_WRITE | flags.MOVED_FROM
                | flags.MOVED_TO | flags.DELETE_SELF | flags.MOVE_SELF | flags.ONLYDIR)
        pending = [top]
        while pending:
            relative = pending.pop()
            directory = self.corpus_dir / relative if relative else self.corpus_dir
            try:
                wd = self._inotify.add_watch(directory, mask)
            except OSError:
                if not new:
                    raise
                self._lose(relative)  # gone again already, or the limit of watches: unknown
                continue
            self._paths[wd] = relative
            try:
                entries = list(os.scandir(directory))
            except OSError:
                self._lose(relative)
                continue
            for entry in entries:
                path = f"{relative}/{entry.name}" if relative else entry.name
                if _is_dir(entry):
                    pending.append(path)
                    continue
                if new:
                    self.changes.append(path)
                if entry.is_symlink():
                    self._watch_file(path)

    def _watch_file(self, path: str) -> None:
        from inotify_simple import flags

        mask = flags.MODIFY | flags.ATTRIB | flags.CLOSE_WRITE | flags.DELETE_SELF | flags.MOVE_SELF
        try:
            wd = self._inotify.add_watch(self.corpus_dir / path, mask)
        except OSError:  # a dangling link: the scan says so; a change to it is a change of its directory
            return
        paths = self._files.setdefault(wd, [])
        if path not in paths:
            paths.append(path)

    def _watch_shared_files(self) -> None:
        """Files with more than one name (hard links) get a watch of their own: one GNU find lists
        them (a stat of every file, once, when the watch starts)."""
        find = shutil.which("find")
        if find is None:
            return
        done = subprocess.run([find, "-L", os.fspath(self.corpus_dir), "-type", "f", "-links", "+1", "-printf",
                               "%P\\0"], capture_output=True, check=False, env={**os.environ, "LC_ALL": "C"})
        for name in os.fsdecode(done.stdout).split("\0"):
            if name:
                self._watch_file(name)


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_link(path: Path) -> bool:
    try:
        return path.is_symlink()
    except OSError:
        return False
