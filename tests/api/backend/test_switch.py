"""A build switch is atomic for the whole API: every response of one request comes from one build, and
once any response came from the new build no later one comes from the old. A request that began on the
old build finishes on it, however long it takes; its pool retires after it."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
import requests

from kg.api.backend.embedded import EmbeddedBackend
from kg.pipeline.builder import build
from kg.store import build_dirs
from kg.testing.servers import Server

DOCS = "SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE { ?d a <https://kg.example.org/ontology#NewsArticle> }"


def swap_in_shipped_corpus(tiny: Path, corpus: Path) -> None:
    for path in tiny.iterdir():
        if path.suffix in (".txt", ".ann", ".json"):
            path.unlink()
    for path in corpus.iterdir():
        shutil.copy(path, tiny / path.name)


def observe(base: str) -> list[tuple[str, str]]:
    """One round over four routes: (route, build it answered from), the build told by the answer itself."""
    get = lambda path: requests.get(base + path, timeout=30)  # noqa: E731
    stats = get("api/stats").json()
    counted = "new" if stats["counts"]["documents"] == 4 else "old"
    versioned = stats["version"]
    health = get("health").json()
    documents = get("api/documents").json()
    # one request: the list's length and its items from the same build
    assert documents["total"] == len(documents["items"]), documents
    assert all(item["title"] for item in documents["items"]), documents
    found = get("api/search?q=guaido").json()["items"]
    return [("stats", f"{counted}:{versioned}"), ("health", health["build"]),
            ("documents", "new" if documents["total"] == 4 else "old"), ("search", "new" if found else "old")]


@pytest.mark.servers  # kg serve
def test_switch_is_atomic_for_the_whole_api(tmp_path, tiny_copy, corpus_copy):
    data = tmp_path / "data"
    build(tiny_copy, data)
    first = build_dirs.current_build(data).name
    server = Server(data, "--workers", "2", "--query-timeout", "20")
    try:
        base = server.url
        assert {b for _, b in observe(base)} == {f"old:{first}", first, "old"}
        swap_in_shipped_corpus(tiny_copy, corpus_copy)
        build(tiny_copy, data)
        second = build_dirs.current_build(data).name
        names = {first: "old", second: "new"}
        seen: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not seen or seen[-1] != "new" or len(seen) < 40):
            for route, answer in observe(base):
                if route == "stats":  # one request: its counts and its version from the same build
                    counted, version = answer.split(":")
                    assert counted == names[version], answer
                    answer = counted
                seen.append(names.get(answer, answer))
        assert seen[-1] == "new" and "new" in seen
        switched = seen.index("new")
        assert set(seen[switched:]) == {"new"}, f"an answer from the old build after the switch: {seen}"
    finally:
        server.stop()


def test_a_request_keeps_its_build_through_a_switch(tmp_path, tiny_copy, corpus_copy):
    data = tmp_path / "data"
    build(tiny_copy, data)
    backend = EmbeddedBackend(data, workers=1)
    try:
        far = lambda: time.monotonic() + 60  # noqa: E731
        pinned = backend.pin(far())
        old_pool = pinned.pool
        before = int(pinned.select(DOCS, far())[0]["n"])
        swap_in_shipped_corpus(tiny_copy, corpus_copy)
        build(tiny_copy, data)
        second = build_dirs.current_build(data).name
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # other requests meanwhile: the new build takes over
            other = backend.pin(far())
            backend.release(other)
            if other.version() == second:
                break
            time.sleep(0.05)
        assert backend.version() == second
        # the request pinned before the switch still answers, from the old build
        assert int(pinned.select(DOCS, far())[0]["n"]) == before != 4
        assert old_pool.alive() >= 1
        backend.release(pinned)  # the last request on the old build ends: its pool retires
        deadline = time.monotonic() + 10
        while old_pool.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert old_pool.alive() == 0
    finally:
        backend.close()
