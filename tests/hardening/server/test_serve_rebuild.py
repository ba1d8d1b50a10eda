"""Point 2 (server): `kg serve` answers from the old graph while a rebuild runs, switches to the
new graph once the rebuild is complete, and never errs, also when a rebuild is killed or
when a later rebuild removes the build it started with.

A real `kg serve` and real `kg build` processes on a copy of the generated
corpus; a client thread asks, without pause, how many articles the graph
holds (the rebuilds add one article each) and which build /health names.
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from kg.store import build_dirs
from kg.testing.servers import Server
from tests.hardening.procs import GENERATED_DOCS, kg_build, kill_group, wait_until
from tests.helpers import add_numbered_article

COUNT = "SELECT (COUNT(?d) AS ?n) WHERE { ?d a <https://kg.example.org/ontology#NewsArticle> }"
BUILD_TIMEOUT = 300.0


@dataclass(frozen=True)
class Answer:
    at: float
    status: int
    articles: int | None
    build: str | None
    building: bool  # a build process was running when the request was sent


class Watcher:
    """Asks the server, in a loop, for the article count and the build it serves."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.answers: list[Answer] = []
        self.building = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        with requests.Session() as session:
            while not self._stop.is_set():
                building, began = self.building, time.monotonic()
                try:
                    response = session.get(self.server.url + "sparql", params={"query": COUNT}, timeout=30)
                    articles = int(response.json()["results"]["bindings"][0]["n"]["value"]) if response.ok else None
                    health = session.get(self.server.url + "health", timeout=30).json().get("build")
                    self.answers.append(Answer(began, response.status_code, articles, health, building))
                except (requests.RequestException, ValueError, KeyError) as exc:
                    self.answers.append(Answer(began, 0, None, repr(exc), building))
                time.sleep(0.02)

    def stop(self) -> list[Answer]:
        self._stop.set()
        self._thread.join(60)
        return self.answers

    def latest(self) -> Answer | None:
        return self.answers[-1] if self.answers else None


@pytest.fixture
def served(generated: tuple[Path, Path], tmp_path: Path):
    corpus, data = tmp_path / "corpus", tmp_path / "data"
    shutil.copytree(generated[0], corpus)
    shutil.copytree(generated[1], data, symlinks=True)
    server = Server(data, "--workers", "2", "--threads", "4")
    yield corpus, data, server
    server.stop()


def _rebuild(watcher: Watcher, corpus: Path, data: Path) -> Path:
    """Run a validated rebuild to its end while the watcher asks; returns the new build directory."""
    watcher.building = True
    process = kg_build(corpus, data)
    try:
        process.wait(BUILD_TIMEOUT)
    finally:
        watcher.building = False
        kill_group(process)
    assert process.returncode == 0
    return build_dirs.current_build(data)


def test_old_graph_until_the_rebuild_is_complete_then_the_new(served) -> None:
    corpus, data, server = served
    first = build_dirs.current_build(data)
    watcher = Watcher(server)
    try:
        assert wait_until(lambda: len(watcher.answers) >= 3, 30, 0.05)
        add_numbered_article(corpus, 1)
        second = _rebuild(watcher, corpus, data)
        assert wait_until(lambda: watcher.latest().articles == GENERATED_DOCS + 1, 10, 0.05)
        add_numbered_article(corpus, 2)
        third = _rebuild(watcher, corpus, data)  # publishing it removes `first`, the build the server began with
        assert not first.exists()
        assert wait_until(lambda: watcher.latest().articles == GENERATED_DOCS + 2, 10, 0.05)
        settled = len(watcher.answers)
        assert wait_until(lambda: len(watcher.answers) >= settled + 5, 30, 0.05)
    finally:
        answers = watcher.stop()
    assert [a for a in answers if a.status != 200] == [], "the server erred during a rebuild"
    counts = [a.articles for a in answers]
    expected = [GENERATED_DOCS] * counts.count(GENERATED_DOCS) + [GENERATED_DOCS + 1] * counts.count(
        GENERATED_DOCS + 1) + [GENERATED_DOCS + 2] * counts.count(GENERATED_DOCS + 2)
    assert counts == expected, "answers went back to an older graph, or came from a graph never published"
    by_build = {first.name: GENERATED_DOCS, second.name: GENERATED_DOCS + 1, third.name: GENERATED_DOCS + 2}
    assert all(by_build[a.build] in (a.articles, a.articles + 1, a.articles - 1) for a in answers)
    old_while_building = [a for a in answers if a.building and a.articles == GENERATED_DOCS]
    assert len(old_while_building) >= 5, "too few answers during the first rebuild to show anything"


def test_a_killed_rebuild_changes_nothing_for_clients(served) -> None:
    corpus, data, server = served
    first = build_dirs.current_build(data)
    watcher = Watcher(server)
    add_numbered_article(corpus, 1)
    process = kg_build(corpus, data, "--no-validate")
    watcher.building = True
    try:
        storing = lambda: any((p / "store").exists() for p in (data / "builds").iterdir() if p != first)  # noqa: E731
        assert wait_until(lambda: storing() or process.poll() is not None, BUILD_TIMEOUT)
        assert process.poll() is None, "the rebuild ended before it could be killed"
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        watcher.building = False
        settled = len(watcher.answers)
        assert wait_until(lambda: len(watcher.answers) >= settled + 10, 30, 0.05)
    finally:
        kill_group(process)
        answers = watcher.stop()
    assert [a for a in answers if a.status != 200] == []
    assert {a.articles for a in answers} == {GENERATED_DOCS}
    assert {a.build for a in answers} == {first.name}
    assert any(a.building for a in answers)
