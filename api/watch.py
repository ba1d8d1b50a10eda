"""`kg serve --watch`: rebuild when the corpus changes, and serve the new build.

A thread polls the corpus's files (path, size, modification time) every
`interval` seconds. After a change it waits until the files have been quiet
for `quiet` seconds (an annotation tool saves .ann and .txt one after the
other; a copy of many files takes a while), then runs `kg build` in a child
process: a failed or killed build leaves the served build untouched, its
memory goes back with the process, and its errors are written to the
server's log. A failed build is not run again until the corpus changes
once more (the save it failed on would fail the same way), unless it failed
because another build held the data directory. The server follows `data/current` on every request, so the new
build is answered as soon as it is published; the query page and the view
poll /health and offer to reload.

The child is started ahead, right after the previous build, and waits with
what a build needs already imported and the shapes parsed (`warm_build`): a
save is built without the interpreter's start-up and about a second of
imports. It runs one build and ends, so each build still has a process of
its own (killable, its memory returned).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable

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

    def rebuild(self) -> int:
        """Run `kg build` in the waiting child process (a new one if it is gone); its exit code (0: built,
        or nothing to do). The next one is started at once, to wait for the next change."""
        self.log(f"kg serve --watch: {self.corpus} changed, rebuilding")
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
        conf_writer as confwriter,  # noqa: F401
        export as bratexport,  # noqa: F401
    )
    from kg.model.resources import ontology_graph, shapes_graph
    from kg.pipeline import (
        fill,  # noqa: F401
        readers,  # noqa: F401
    )
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
