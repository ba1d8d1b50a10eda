"""/api/search never builds its index inside a request (at 1,000 generated articles building it
took longer than the load benchmark's 2 s time limit under load, and every search failed).

A real `kg serve` on a generated corpus: its query workers are stopped (SIGSTOP) so that no store
query can be answered, and the first search after start must still answer, from the index
`kg build` wrote into the build directory. Without that file (a build of a kg before the SQLite
index, with search-index.json only) the index is computed from the store in the background:
searches get 503 with Retry-After and a detail saying why until it is there, then the same hits;
it is written into the build, so that the next server answers at once.
"""

from __future__ import annotations

import os
import shutil
import signal
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import requests

from kg.publish.search import SearchIndex
from kg.publish.search_index import index_path, label_rows
from kg.store import build_dirs
from kg.testing.servers import Server
from tests.hardening.procs import wait_until

TIMEOUT = 60
LIMIT = 2  # the servers' query time limit (s)


@contextmanager
def store_stopped(server: Server) -> Iterator[None]:
    """Every process below `kg serve` (worker templates, query workers) stopped, then resumed."""
    children = server.children()
    assert children, "kg serve has no query worker processes"
    for pid in children:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in children:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass


def _data_copy(generated: tuple[Path, Path], tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(generated[1], data, symlinks=True)
    return data


def _expected(data: Path) -> tuple[str, list[str]]:
    """A word to search for and the ids of the entities the build's store says match it, in order."""
    with build_dirs.build_store(build_dirs.current_build(data)) as store:
        labels, summaries = label_rows(store.select)
    label = next(r["label"] for r in labels if r["kind"] == "pref" and len(r["label"].split()[0]) >= 4)
    needle = label.split()[0][:4]
    return needle, [hit.entity for hit in SearchIndex.of_rows(labels, summaries).search(needle, 20)]


def _search(server: Server, needle: str) -> requests.Response:
    return requests.get(server.url + "api/search", params={"q": needle}, timeout=TIMEOUT)


def _sparql_status(server: Server) -> int:
    return requests.get(server.url + "sparql", params={"query": "SELECT * WHERE { ?s ?p ?o } LIMIT 1"},
                        timeout=TIMEOUT).status_code


def test_first_search_after_start_answers_without_the_store(generated, tmp_path):
    data = _data_copy(generated, tmp_path)
    assert index_path(build_dirs.current_build(data)).is_file(), "kg build wrote no search index"
    needle, expected = _expected(data)
    assert expected
    server = Server(data, "--workers", "1", "--query-timeout", str(LIMIT))
    try:
        with store_stopped(server):
            response = _search(server, needle)  # the first search of this server
            assert response.status_code == 200, response.text
            assert [item["iri"] for item in response.json()["items"]] == expected
            assert _sparql_status(server) == 503  # the store really answered nothing meanwhile
    finally:
        server.stop()


def test_a_build_of_an_earlier_kg_is_searched_once_its_index_is_computed(generated, tmp_path):
    """Its search-index.json is not read: 503 saying the build has no search index, then the hits;
    the index is then in the build directory, and the next server answers with the store stopped."""
    data = _data_copy(generated, tmp_path)
    build = build_dirs.current_build(data)
    index_path(build).unlink()
    (build / build_dirs.OLD_SEARCH_INDEX_FILE).write_text('{"format": 2, "entities": 0}\n', encoding="utf-8")
    needle, expected = _expected(data)
    server = Server(data, "--workers", "1", "--query-timeout", str(LIMIT))
    try:
        with store_stopped(server):
            response = _search(server, needle)
            assert response.status_code == 503, response.text
            assert response.headers["Content-Type"] == "application/json"
            assert "this build has no search index" in response.json()["error"]["detail"]
            assert int(response.headers["Retry-After"]) > 0
        answers: list[requests.Response] = []
        assert wait_until(lambda: answers.append(_search(server, needle)) or answers[-1].status_code == 200,
                          TIMEOUT, interval=0.5), answers[-1].text
        assert [item["iri"] for item in answers[-1].json()["items"]] == expected
    finally:
        server.stop()
    assert index_path(build).is_file()
    server = Server(data, "--workers", "1", "--query-timeout", str(LIMIT))
    try:
        with store_stopped(server):
            response = _search(server, needle)
            assert response.status_code == 200, response.text
            assert [item["iri"] for item in response.json()["items"]] == expected
    finally:
        server.stop()
