"""A damaged search index (zeroed pages, its header intact) against a real `kg serve` (issue 41:
11 of 12 searches answered 500 with tracebacks). The file is found damaged when it is opened
(SQLite's quick_check), made again from the store in its place, and searches answer 503 with
Retry-After meanwhile, then hits."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import requests

from kg.publish import search_index
from kg.store import build_dirs
from kg.testing.servers import Server

SEARCHES = 12


def zero_pages_after_the_first(path: Path) -> None:
    """Zeroes every page of an SQLite file but the first (which holds its header and schema)."""
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    data[page_size:] = bytes(len(data) - page_size)
    path.write_bytes(bytes(data))


def venezuela(url: str) -> requests.Response:
    return search(url, "Venezuela")


def search(url: str, needle: str) -> requests.Response:
    return requests.get(url + "api/search", params={"q": needle}, timeout=60)


def test_a_damaged_search_index_is_made_again_never_a_500(shipped_data, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(shipped_data, data, symlinks=True)
    index = search_index.index_path(build_dirs.current_build(data))
    zero_pages_after_the_first(index)
    assert not search_index.readable(index)
    server = Server(data, "--workers", "1", "--threads", "6")
    try:
        answers = []
        for _ in range(SEARCHES):
            answers.append(venezuela(server.url))
            time.sleep(0.2)
        assert {a.status_code for a in answers} <= {200, 503}, [a.text[:300] for a in answers if a.status_code >= 500]
        assert all(a.headers.get("Retry-After") for a in answers if a.status_code == 503)
        began = time.monotonic()
        while (answer := venezuela(server.url)).status_code == 503 and time.monotonic() - began < 120:
            time.sleep(1)
        assert answer.status_code == 200 and answer.json()["items"], answer.text[:300]
        assert search_index.readable(index), "the damaged file was not made again in its place"
    finally:
        server.stop()


def test_an_index_damaged_while_serving_is_made_again_without_a_restart(shipped_data, tmp_path):
    """Damaged under a running server after it was opened sound: before, every search that met a
    damaged page answered 503 until the server was restarted, and the file stayed damaged."""
    data = tmp_path / "data"
    shutil.copytree(shipped_data, data, symlinks=True)
    index = search_index.index_path(build_dirs.current_build(data))
    server = Server(data, "--workers", "1", "--threads", "6")
    try:
        first = venezuela(server.url)
        assert first.status_code == 200 and first.json()["items"], first.text[:300]
        zero_pages_after_the_first(index)
        answers = []
        began = time.monotonic()
        while time.monotonic() - began < 120:
            answers.append(search(server.url, ("Maduro", "Guaidó", "Colombia", "Venezuela")[len(answers) % 4]))
            if answers[-1].status_code == 200 and search_index.readable(index):
                break
            time.sleep(0.5)
        statuses = [a.status_code for a in answers]
        print(f"made again after {time.monotonic() - began:.1f} s; answers meanwhile: {statuses}")
        assert set(statuses) <= {200, 503}, [a.text[:300] for a in answers if a.status_code not in (200, 503)]
        assert all(a.headers.get("Retry-After") for a in answers if a.status_code == 503)
        assert search_index.readable(index), f"the damaged file was not made again in its place: {statuses}"
        again = search(server.url, "Maduro")
        assert again.status_code == 200 and again.json()["items"], again.text[:300]
        assert "Traceback" not in server.stderr()
    finally:
        server.stop()
