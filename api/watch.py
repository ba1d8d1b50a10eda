"""`kg serve --watch`: rebuild when the corpus changes, and serve the new build.

A thread polls the corpus's files (path, size, modification time) every
`interval` seconds. After a change it waits until the files have been quiet
for `quiet` seconds (an annotation tool saves .ann and .txt one after the
other; a copy of many files takes a while), then runs `kg build` in a child
process: a failed or killed build leaves the served build untouched, its
memory goes back with the process, and its errors are written to the
server's log. The server follows `data/current` on every request, so the new
build is answered as soon as it is published; the query page and the view
poll /health and offer to reload.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable

Snapshot = dict[str, tuple[int, int]]


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

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=self.interval + 1)

    def _loop(self) -> None:
        seen = snapshot(self.corpus)
        while not self._stop.wait(self.interval):
            now = snapshot(self.corpus)
            if now == seen:
                continue
            now = self._settled(now)
            if now is None:
                return
            seen = now if self.rebuild() else {}  # a failed build is tried again on the next look

    def _settled(self, now: Snapshot) -> Snapshot | None:
        """The corpus once no file changed for `quiet` seconds (None when stopped meanwhile)."""
        while not self._stop.wait(self.quiet):
            again = snapshot(self.corpus)
            if again == now:
                return now
            now = again
        return None

    def rebuild(self) -> bool:
        """Run `kg build` in a child process; True when it succeeded (or found nothing to do)."""
        argv = [sys.executable, "-c", "import sys; from kg.cli import main; sys.exit(main())", "build",
                "--corpus", str(self.corpus), "--data", str(self.data), "--quiet", *self.extra_args]
        self.log(f"kg serve --watch: {self.corpus} changed, rebuilding")
        done = subprocess.run(argv, capture_output=True, text=True)
        output = (done.stdout + done.stderr).strip()
        self.log(f"kg serve --watch: {output}" if done.returncode == 0 else
                 f"kg serve --watch: the build failed (exit {done.returncode}); still serving the previous "
                 f"build:\n{output}")
        return done.returncode == 0
