"""A build never deletes the build a running server answers from (issue 29): two rebuilds in a
row while a client asks for /graph, /export.ttl and /health gave 500s (FileNotFoundError on
the served build's .graph.html.lock) once the second rebuild pruned the build still served.

The server marks every build it serves (a shared flock on the build's served.lock, held while a
worker pool of it runs; kg.store.served) and a build's cleanup passes over marked builds,
removing them at a later build once no server holds them. A killed server's marks go with it
(the kernel drops its locks). Real `kg serve` and `kg build` processes throughout.

A server moves to a new build when a request comes after the build is published, and answers
from the build it has until the new one is loaded. With requests between the two rebuilds,
whether the second rebuild's cleanup comes while the first build is still served depends on
how long loading takes (the issue saw it); with none, it does on every run: the client pauses
while the two rebuilds run, and resumes at once.
"""

from __future__ import annotations

import os
import signal
import threading
from dataclasses import dataclass
from pathlib import Path

import requests

from kg.store import build_dirs
from kg.testing.servers import Server
from tests.hardening.procs import run_build, wait_until
from tests.helpers import add_numbered_article

PATHS = ("graph", "export.ttl", "health")


@dataclass(frozen=True)
class Answer:
    path: str
    status: int
    build: str | None  # the build /health names


class Poller:
    """Asks for /graph, /export.ttl and /health in turn, without pause, until stopped; `pause` and
    `resume` hold it between two rounds."""

    def __init__(self, server: Server) -> None:
        self.server, self.answers = server, []
        self._running, self._paused = threading.Event(), threading.Event()
        self._running.set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        with requests.Session() as session:
            while not self._stop.is_set():
                if not self._running.is_set():
                    self._paused.set()
                    self._running.wait()
                    self._paused.clear()
                for path in PATHS:
                    try:
                        response = session.get(self.server.url + path, timeout=60)
                        build = response.json().get("build") if path == "health" and response.ok else None
                        self.answers.append(Answer(path, response.status_code, build))
                    except (requests.RequestException, ValueError) as exc:
                        self.answers.append(Answer(path, 0, repr(exc)))

    def pause(self) -> None:
        """Return once the poller waits (no request is under way)."""
        self._running.clear()
        assert self._paused.wait(120), "the poller did not pause"

    def resume(self) -> None:
        self._running.set()

    def stop(self) -> list[Answer]:
        self._stop.set()
        self._running.set()
        self._thread.join(120)
        return self.answers


def _rebuild(corpus: Path, data: Path, n: int) -> Path:
    add_numbered_article(corpus, n)
    result = run_build(corpus, data, "--no-validate")
    assert result.returncode == 0, result.stderr
    return build_dirs.current_build(data)


def test_two_rebuilds_in_a_row_while_serving_give_no_error(generated_copy: tuple[Path, Path]) -> None:
    corpus, data = generated_copy
    first = build_dirs.current_build(data)
    server = Server(data, "--workers", "2", "--threads", "4")
    poller = Poller(server)
    try:
        assert wait_until(lambda: {a.path for a in poller.answers if a.status == 200} == set(PATHS), 120, 0.05)
        poller.pause()
        second = _rebuild(corpus, data, 1)
        third = _rebuild(corpus, data, 2)  # its cleanup passes over `first`, still served
        kept = first.is_dir()
        poller.resume()
        assert wait_until(lambda: any(a.build == third.name for a in poller.answers), 120, 0.05), \
            "the server did not move to the newest build"
        settled = len(poller.answers)
        assert wait_until(lambda: len(poller.answers) >= settled + 3 * len(PATHS), 60, 0.05)
        fourth = _rebuild(corpus, data, 3)  # the server no longer holds `first` nor `second`: both go
    finally:
        answers = poller.stop()
        log = server.stderr()
        server.stop()
    failed = [a for a in answers if a.status != 200]
    assert failed == [], f"{len(failed)} of {len(answers)} answers failed: {failed[:5]}\n{log[-2000:]}"
    assert kept, "the build being served was removed"
    assert [a.build for a in answers if a.path == "health"][0] == first.name
    assert not first.exists() and not second.exists()
    assert sorted(p.name for p in (data / "builds").iterdir()) == sorted([third.name, fourth.name])


def test_a_killed_server_holds_no_build(generated_copy: tuple[Path, Path]) -> None:
    """SIGKILL to the server process alone, not to its query workers (separate programs, which never
    held the mark): the kernel dropped the server's lock, and the next cleanup removes the build."""
    corpus, data = generated_copy
    first = build_dirs.current_build(data)
    server = Server(data, "--workers", "2")
    try:
        assert server.children()
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(30)
        _rebuild(corpus, data, 1)
        _rebuild(corpus, data, 2)
        assert not first.exists()
    finally:
        try:
            os.killpg(server.process.pid, signal.SIGKILL)  # the workers it left, in its process group
        except ProcessLookupError:
            pass
        server.stop()
