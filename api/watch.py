"""`kg serve --watch`: rebuild when the corpus changes, and serve the new build.

The kernel tells the watcher what changed (inotify, through kg.formats.corpus_watch): nothing is
statted while nothing changes, at any corpus size. After a change the watcher waits until the
corpus has been quiet for `quiet` seconds (an annotation tool saves .ann and .txt one after the
other; a copy of many files takes a while), then runs `kg build` in a child process: a failed or
killed build leaves the served build untouched, its memory goes back with the process, and its
errors are written to the server's log. A failed build is not run again until the corpus changes
once more (the save it failed on would fail the same way), unless it failed because another build
held the data directory. The server follows `data/current` on every request, so the new build is
answered as soon as it is published; the query page and the view poll /health and offer to reload.

The watcher also answers builds on the data directory's socket (kg.pipeline.survey.watched): its own
child and any `kg build` run by hand learn the corpus's stamp and the paths changed since their
current build without statting the corpus. Where inotify cannot see every change (a remote file
system, no inotify), the watcher looks at every file's size and time every `interval` seconds
instead, and builds stamp the corpus themselves.

The child is started ahead, right after the previous build, and waits with
what a build needs already imported and the shapes parsed (`warm_build`): a
save is built without the interpreter's start-up and about a second of
imports. It runs one build and ends, so each build still has a process of
its own (killable, its memory returned).
"""

from __future__ import annotations

import fcntl
import os
import select
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable

from kg.formats.corpus_watch import CorpusWatch
from kg.pipeline.survey.watched import WatchService
from kg.store import build_dirs

Snapshot = dict[str, tuple[int, int]]
LOCKED = 4  # exit code of a build that found another one running on the data directory (BuildLockedError)
GO = "build\n"  # what the watcher writes to a waiting build process; anything else (or EOF) ends it
BUILD = "import sys; from kg.cli import main; sys.exit(main())"


def snapshot(corpus: Path) -> Snapshot:
    """Every file under the corpus: (size, mtime in ns)."""
    files: Snapshot = {}
    for root, _, names in os.walk(corpus):
        for name in names:
            path = os.path.join(root, name)
            try:
                stat = os.stat(path)
            except OSError:  # removed while walking
                continue
            files[path] = (stat.st_size, stat.st_mtime_ns)
    return files


class CorpusWatcher:
    """Rebuilds `data` from `corpus` after each (debounced) change of the corpus."""

    def __init__(self, corpus: Path, data: Path, *, interval: float = 1.0, quiet: float = 0.5,
                 extra_args: tuple[str, ...] = (), log: Callable[[str], None] | None = None) -> None:
        self.corpus, self.data = Path(corpus), Path(data)
        self.interval, self.quiet = interval, quiet
        self.extra_args = extra_args
        self.log = log or (lambda message: print(message, file=sys.stderr, flush=True))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="kg-watch", daemon=True)
        self._waiting: subprocess.Popen | None = None
        self._lock = threading.Lock()  # the corpus watch is read by this thread and the one answering builds
        self._service: WatchService | None = None
        self._held: int | None = None  # the data directory's watch lock, while this watcher answers builds

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=self.interval + 1)
        self._dismiss()

    def _loop(self) -> None:
        try:
            self._watch()
        finally:
            self._dismiss()

    def _watch(self) -> None:
        watch = CorpusWatch.open(self.corpus)
        if watch is None:
            self.log(f"kg serve --watch: the kernel cannot tell every change of {self.corpus}; looking at "
                     f"every file every {self.interval:g} s")
            self._poll()
            return
        try:
            self._offer(watch)
            self._waiting = self._spawn()
            self._follow(watch)
        finally:
            self._withdraw()
            watch.close()

    def _offer(self, watch: CorpusWatch) -> None:
        """Answer builds on the data directory's socket, unless another watcher already does."""
        self.data.mkdir(parents=True, exist_ok=True)
        handle = os.open(self.data / build_dirs.WATCH_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            self.log(f"kg serve --watch: another watcher answers builds on {self.data}")
            return
        self._held = handle
        service = WatchService(watch, self.data, self._lock)
        if service.start():
            self._service = service

    def _withdraw(self) -> None:
        if self._service is not None:
            self._service.stop()
            self._service = None
        if self._held is not None:
            os.close(self._held)
            self._held = None

    def _follow(self, watch: CorpusWatch) -> None:
        """Build after each change the kernel reports, once the corpus has been quiet for `quiet` s;
        at once when the corpus changed between the last build and the watch's start."""
        built = self._seq(watch)
        if self._behind():
            self.rebuild(f"the current build is not known to be up to date with {self.corpus}, building")
        while not self._stop.is_set():
            if not self._changed(watch, built, self.interval):
                continue
            while self._changed(watch, self._seq(watch), self.quiet):  # not quiet yet
                if self._stop.is_set():
                    return
            if self._stop.is_set():
                return
            before = self._seq(watch)
            if self.rebuild() != LOCKED:  # not built: tried again on the next look
                built = before

    def _behind(self) -> bool:
        """Whether the current build is not known to be up to date with the corpus the watch found."""
        from kg.pipeline.survey.unchanged import kept_stamp

        kept = kept_stamp(self.data)
        return self._service is not None and (kept is None or kept.corpus_stamp != self._service.stamp(0))

    def _seq(self, watch: CorpusWatch) -> int:
        with self._lock:
            watch.drain()
            return watch.seq

    def _changed(self, watch: CorpusWatch, since: int, wait: float) -> bool:
        """Whether changes past number `since` are known within `wait` seconds (a build asking the
        socket may have taken the kernel's events meanwhile)."""
        if self._seq(watch) != since:
            return True
        select.select([watch], [], [], wait)
        return self._seq(watch) != since

    def _poll(self) -> None:
        """Without inotify: every file's size and time, every `interval` seconds."""
        self._waiting = self._spawn()
        seen = snapshot(self.corpus)
        while not self._stop.wait(self.interval):
            now = snapshot(self.corpus)
            if now == seen:
                continue
            now = self._settled(now)
            if now is None:
                return
            seen = now if self.rebuild() != LOCKED else {}  # not built: tried again on the next look

    def _settled(self, now: Snapshot) -> Snapshot | None:
        """The corpus once no file changed for `quiet` seconds (None when stopped meanwhile)."""
        while not self._stop.wait(self.quiet):
            again = snapshot(self.corpus)
            if again == now:
                return now
            now = again
        return None

    def rebuild(self, why: str | None = None) -> int:
        """Run `kg build` in the waiting child process (a new one if it is gone); its exit code (0: built,
        or nothing to do). The next one is started at once, to wait for the next change."""
        self.log(f"kg serve --watch: {why or f'{self.corpus} changed, rebuilding'}")
        child = self._waiting if self._waiting and self._waiting.poll() is None else self._spawn()
        self._waiting = None
        try:
            stdout, stderr = child.communicate(GO)
        except BrokenPipeError:  # it ended meanwhile: a new process does the build
            child = self._spawn()
            stdout, stderr = child.communicate(GO)
        if not self._stop.is_set():
            self._waiting = self._spawn()
        output = (stdout + stderr).strip()
        self.log(f"kg serve --watch: {output}" if child.returncode == 0 else
                 f"kg serve --watch: the build failed (exit {child.returncode}); still serving the previous "
                 f"build:\n{output}")
        return child.returncode

    def _spawn(self) -> subprocess.Popen:
        """A `kg build` process for this corpus, waiting for GO on its standard input."""
        argv = [sys.executable, "-c", "import sys; from kg.api.watch import warm_build; sys.exit(warm_build())",
                "build", "--corpus", str(self.corpus), "--data", str(self.data), "--quiet", *self.extra_args]
        return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)

    def _dismiss(self) -> None:
        """End the waiting build process (EOF on its input: it exits without building)."""
        child, self._waiting = self._waiting, None
        if child is None:
            return
        try:
            child.communicate("", timeout=10)
        except (subprocess.TimeoutExpired, OSError, ValueError):
            child.kill()
            child.wait()


def warm_build() -> int:
    """In the child process: import what a build with work needs and parse the shapes, wait for GO,
    then run `kg build` with this process's arguments, once. When kg's code changed while it
    waited, the build runs in a fresh interpreter instead (the code imported here is the old one)."""
    stamp = _code_stamp()
    import pyshacl  # noqa: F401 - imported now rather than during the build

    from kg.formats.brat import (
        conf_writer,  # noqa: F401
        corpus_writer,  # noqa: F401
    )
    from kg.model.resources import ontology_graph, shapes_graph
    from kg.pipeline import fill  # noqa: F401
    from kg.pipeline.reading import readers  # noqa: F401
    from kg.publish import (
        export,  # noqa: F401
        search_index,  # noqa: F401
    )

    shapes_graph(), ontology_graph()
    if sys.stdin.readline() != GO:
        return 0
    if _code_stamp() != stamp:
        os.execv(sys.executable, [sys.executable, "-c", BUILD, *sys.argv[1:]])
    from kg.cli import main

    return main()


def _code_stamp() -> list[tuple[str, int]]:
    """kg's modules and when each last changed (what a build's fingerprint covers of kg's code)."""
    import kg

    return sorted((path.name, path.stat().st_mtime_ns) for path in Path(kg.__file__).parent.glob("*.py"))
